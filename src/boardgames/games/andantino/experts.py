"""Andantino's evaluators: the seed's BridgeExpert and the ThreatEvaluator
(the threat counts a strong player needs: lines, enclosures, mobility), and
the static move order.

The counts are defined from scratch on bitboards in threats.py; the
evaluators read the same counts from the state's incremental tally
(tallies.py, kept by make/undo) and flood only for the cut-off groups; the
tests check the two against each other.

Scores are from the side to move, inside +-evaluation.MAX_EVAL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...evaluation import RandomExpert, Weighted
from ...weights import Weight, Weights
from .geometry import (
    BIT,
    BOARD_MASK,
    CELL_OF_POSITION,
    NEIGHBOURS6,
    escape_mask,
    flood,
)
from .tallies import (
    BRIDGES,
    COUNT_SHIFT,
    FIELD_BITS,
    FIELD_MASK,
    FIELD_STRUCT,
    LOW_BITS,
    LOW_MASK,
    clear_line_memos,
    enclosing_cells,
    four_completions,
)

if TYPE_CHECKING:
    from .rules import AndantinoState

#: Evaluation of a position where the side to move can win at once, and where
#: the opponent has two winning cells that one stone cannot both block.
WIN_NEXT = 900_000.0
LOST_NEXT = -800_000.0
#: A position's memo key is `white << KEY_SHIFT | black` (the board has 380 bits).
KEY_SHIFT = 384
#: Shifts of the tally's bridge counts round White's and Black's stones.
_WHITE_BRIDGES, _BLACK_BRIDGES = FIELD_BITS * BRIDGES, FIELD_BITS * (BRIDGES + 1)
#: At most this many scores are memoised per evaluator (then the memo restarts).
EVAL_MEMO_LIMIT = 1 << 16


# --- the seed's expert ---------------------------------------------------------------


class BridgeExpert:
    """Seed 000's BridgeExpert: bridges of the side to move minus the
    opponent's (`bridges` of both, read from the state's tally)."""

    def __call__(self, state: AndantinoState) -> float:
        """White's bridges minus Black's, for the side to move."""
        tally = state.tally
        white = tally >> _WHITE_BRIDGES & FIELD_MASK  # round White's stones
        black = tally >> _BLACK_BRIDGES & FIELD_MASK
        return float(white - black if state.to_move else black - white)

    def __repr__(self) -> str:
        return "BridgeExpert()"


def seed_evaluator(
    noise: float = 0.5, seed: int | None = None, bridge: float = 1.0
) -> Weighted[AndantinoState]:
    """The seed bot's evaluation: BridgeExpert plus a RandomExpert tie-breaker."""
    experts: list[tuple[Callable[[AndantinoState], float], float]] = [(BridgeExpert(), bridge)]
    if noise:
        experts.append((RandomExpert(noise, seed), 1.0))
    return Weighted(experts)


# --- threats: the counts read from the tally ----------------------------------------------


#: reach(blocked), memoised: sibling leaves mostly share one side's walls
#: (the last stone changes only the mover's), and so do transpositions.
_REACH: dict[int, int] = {}
REACH_MEMO_LIMIT = 1 << 17


def reach(blocked: int) -> int:
    """The cells the border reaches around the `blocked` cells.  Every cell
    beyond the outermost blocked ring sees the border along a straight line,
    so the flood starts there instead of at ring 9."""
    found = _REACH.get(blocked)
    if found is None:
        found = flood(escape_mask(blocked), BOARD_MASK & ~blocked)
        if len(_REACH) >= REACH_MEMO_LIMIT:
            _REACH.clear()
        _REACH[blocked] = found
    return found


def cut_off(target: int, blocked: int) -> int:
    """The stones of `target` that the border cannot reach around `blocked`.

    With `blocked` our potential walls (`potential_walls`), these are the
    stones our walls' owner is close to enclosing: a loose measure of
    enclosure threats against whole groups, not just lone stones.
    """
    return target & ~reach(blocked)


def _legal_bits(state: AndantinoState, bits: int) -> int:
    """The cells of `bits` that are legal now (`_legal_cells` for a few cells)."""
    out = 0
    candidates = state.candidates
    while bits:
        low = bits & -bits
        if CELL_OF_POSITION[low.bit_length() - 1] in candidates:
            out |= low
        bits ^= low
    return out


def _winning_cells(state: AndantinoState, player: int, five_surrounded: int) -> int:
    """`player`'s legal winning cells (a bitboard) from the counts: the cells
    completing a four, and the cells enclosing one of the enemy stones with
    five of `player`'s around them (`five_surrounded`: any number that is
    not 0 when there are some)."""
    cells = four_completions(state.tally, state.line_keys, player)
    if five_surrounded:
        cells |= enclosing_cells(state.board, state.masks, state.sur5[1 - player], player)
    return _legal_bits(state, cells) if cells else 0


def _near(bits: int) -> int:
    """`bits` and their neighbours."""
    return bits | bits << 1 | bits >> 1 | bits << 19 | bits >> 19 | bits << 20 | bits >> 20


def group_enclosing_cells(state: AndantinoState, player: int) -> int:
    """`player`'s legal cells (a bitboard) whose stone would enclose enemy
    stones, a single stone or a whole group, by the rules' enclosure.

    Only cells touching two or more of `player`'s stones can close a region
    (`state.two`), and only when some enemy stones are already cut off from
    the border by `player`'s potential walls (stones plus those cells): with
    fewer walls the border reaches at least as far.  The candidates are the
    legal such cells next to the cut-off enemy stones' zone (the non-own
    cells the border does not reach under the potential walls), each tried
    with one (memoised) flood."""
    own, enemy = state.bits[player], state.bits[1 - player]
    gaps = state.two[player] & BOARD_MASK & ~(own | enemy)
    border = reach(own | gaps)
    cut = enemy & ~border
    if not cut:
        return 0
    zone = flood(cut, BOARD_MASK & ~own & ~border)
    candidates = _legal_bits(state, gaps & _near(zone))
    found = 0
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        if enemy & ~reach(own | low):
            found |= low
    return found


def winning_cells_both(state: AndantinoState) -> tuple[int, int]:
    """Bitboards of the legal winning cells (see `winning_cells`) of the side
    to move and of the opponent, read from the state's counts."""
    me = state.to_move
    sur5 = state.sur5
    return _winning_cells(state, me, sur5[1 - me]), _winning_cells(state, 1 - me, sur5[me])


# --- the strong evaluator ----------------------------------------------------------------

DEFAULT_WEIGHTS: dict[str, float] = {
    # Fitted by Texel's method to the default AI's own games at 1 s a move
    # (docs/results/tuning.md gives the command, the fit and the match that
    # accepted them); bridges and mobility add nothing once the rest is known.
    "four": 524.67,  # a window one stone from five
    "three": 153.0,
    "two": 52.37,
    "surround5": 182.37,  # an enemy stone one stone from enclosure
    "surround4": 0.0,
    "surround3": 13.52,  # an enemy stone with three of ours around it
    "bridge": 0.0,
    "mobility": 0.0,
    "danger": 42.29,  # an enemy stone cut off from the border by our potential walls
    "tempo": 1.25,  # the side to move's own threats count this much more
}


#: The ThreatEvaluator's weights, as the tuners and `params=FILE` see them:
#: (name, range, help).  The evaluation is linear in all but `tempo`.
_RANGES: dict[str, tuple[float, float, str]] = {
    "four": (0.0, 5000.0, "windows one stone from five"),
    "three": (0.0, 2000.0, "windows two stones from five"),
    "two": (0.0, 1000.0, "windows three stones from five"),
    "surround5": (0.0, 5000.0, "enemy stones one stone from enclosure"),
    "surround4": (0.0, 2000.0, "enemy stones with four of ours around"),
    "surround3": (0.0, 1000.0, "enemy stones with three of ours around"),
    "bridge": (0.0, 1000.0, "bridges, own minus enemy"),
    "mobility": (0.0, 1000.0, "legal cells, own minus enemy"),
    "danger": (0.0, 2000.0, "enemy stones cut off by our potential walls"),
    "tempo": (0.0, 10.0, "how much more the mover's own threats count"),
}


class ThreatEvaluator:
    """Lines, enclosures, the seed's bridges and mobility, plus exact
    short-cuts: a side to move with a winning cell wins, a side to move facing
    two winning cells it cannot both block (and no win) loses, and a side to
    move facing exactly one must block it: the block is played and the
    position after it evaluated, up to `forced` blocks deep (a small
    quiescence search over forced replies, which sees a threat that leads to
    a double threat one move further than the search does).

    The counts come from the state's incremental tally (tallies.py); only the
    cut-off groups (`danger`) are flooded here, and the floods and the scores
    are memoised (bounded).  `weights` is read once, when the evaluator is
    built.  With `groups`, the winning cells also count cells that enclose
    whole groups (`group_enclosing_cells`), not just lone stones, for the
    side to move (a near-win) and the opponent (a block or a near-loss)."""

    def __init__(
        self, forced: int = 2, groups: bool = False, chase: bool = False, **weights: float
    ) -> None:
        unknown = set(weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise ValueError(f"unknown weight(s): {', '.join(sorted(unknown))}")
        if not isinstance(forced, int) or forced < 0:
            raise ValueError(f"forced must be a whole number >= 0, not {forced!r}")
        self.weights = {**DEFAULT_WEIGHTS, **weights}
        self.forced = forced
        self.groups = bool(groups)
        self.chase = bool(chase)
        self._w = tuple(self.weights[name] for name in DEFAULT_WEIGHTS)
        #: Scores by position (both colours' bitboards, which also fix the
        #: side to move): leaves recur through transpositions.
        self._memo: dict[int, float] = {}

    def __call__(self, state: AndantinoState) -> float:
        """The threat score of `state` for the side to move (memoised by position)."""
        white, black = state.bits
        key = white << KEY_SHIFT | black
        memo = self._memo
        score = memo.get(key)
        if score is None:
            score = self.evaluate(state, self.forced)
            if len(memo) >= EVAL_MEMO_LIMIT:
                memo.clear()
            memo[key] = score
        return score

    def evaluate(self, state: AndantinoState, forced: int, blocked: bool = False) -> float:
        """The score, following at most `forced` forced blocks (`blocked`:
        the last move was one, so with `chase` the side to move may renew
        its threat next to it)."""
        if state.reason is not None:
            won = state.winner()
            return 0.0 if won is None else (WIN_NEXT if won == state.to_move else -WIN_NEXT)
        me = state.to_move
        tally = state.tally
        f: tuple[int, ...] = FIELD_STRUCT.unpack(
            (tally & LOW_MASK).to_bytes(LOW_BITS // 8, "little")
        )
        # Fields (tallies.py): 0-2 White's 2/3/4-windows, 3-5 Black's; 6-8
        # White stones with 3/4/5 Black ones around, 9-11 the reverse; 12, 13
        # bridges round White's and Black's stones; 14, 15 mobility.
        if me:
            m2, m3, m4, o2, o3, o4, ms3, ms4, ms5, os3, os4, os5 = f[3:6] + f[0:3] + f[6:12]
            bridge = f[12] - f[13]
            mobility = f[15] - f[14]
        else:
            m2, m3, m4, o2, o3, o4, os3, os4, os5, ms3, ms4, ms5 = f[0:12]
            bridge = f[13] - f[12]
            mobility = f[14] - f[15]
        if (m4 or ms5) and _winning_cells(state, me, ms5):
            return WIN_NEXT
        groups = self.groups
        if groups and group_enclosing_cells(state, me):
            return WIN_NEXT
        threats = _winning_cells(state, 1 - me, os5) if o4 or os5 else 0
        if groups:
            threats |= group_enclosing_cells(state, 1 - me)
        if threats:
            if threats & (threats - 1):
                return LOST_NEXT
            if forced:
                block = CELL_OF_POSITION[threats.bit_length() - 1]
                state.make(block)
                score = -self.evaluate(state, forced - 1, True)
                state.undo()
                return score
        w4, w3, w2, ws5, ws4, ws3, wb, wm, wd, tempo = self._w
        mine = w4 * m4 + w3 * m3 + w2 * m2
        mine += ws5 * ms5 + ws4 * ms4 + ws3 * ms3
        theirs = w4 * o4 + w3 * o3 + w2 * o2
        theirs += ws5 * os5 + ws4 * os4 + ws3 * os3
        score = tempo * mine - theirs
        if wb:
            score += wb * bridge
        if wd:
            own, enemy = state.bits[me], state.bits[1 - me]
            empty = BOARD_MASK & ~(own | enemy)
            two = state.two
            # cut_off(enemy, walls), written out with the memo of `reach`.
            walls = own | (two[me] & empty)
            border = _REACH.get(walls)
            if border is None:
                border = reach(walls)
            theirs_cut = (enemy & ~border).bit_count()
            walls = enemy | (two[1 - me] & empty)
            border = _REACH.get(walls)
            if border is None:
                border = reach(walls)
            mine_cut = (own & ~border).bit_count()
            score += wd * (tempo * theirs_cut - mine_cut)
        if wm:
            score += wm * mobility
        if blocked and forced and self.chase:
            chased = self._chase(state, me, forced)
            if chased > score:
                return chased
        return score

    def _chase(self, state: AndantinoState, me: int, forced: int) -> float:
        """The best score (for `me`, to move) of renewing a threat right after
        the opponent blocked one: each empty legal cell next to the block that
        touches two of `me`'s stones is tried, and kept when it leaves `me` a
        winning cell (the opponent must block again, which the evaluation
        follows while `forced` lasts).  Reads ladders: a group chased along a
        wall until it is enclosed.  -inf when no such move threatens."""
        best = float("-inf")
        board = state.board
        candidates = state.candidates
        walls = state.two[me]
        groups = self.groups
        for cell in NEIGHBOURS6[state.history[-1]]:
            if cell < 0 or board[cell] >= 0 or cell not in candidates or not BIT[cell] & walls:
                continue
            state.make(cell)
            if state.reason is None:
                threat = _winning_cells(state, me, state.sur5[1 - me]) or (
                    groups and group_enclosing_cells(state, me)
                )
                if threat:
                    score = -self.evaluate(state, forced)
                    if score > best:
                        best = score
            else:
                won = state.winner()
                score = 0.0 if won is None else (WIN_NEXT if won == me else -WIN_NEXT)
                if score > best:
                    best = score
            state.undo()
        return best

    def clear_memos(self, lines: bool = True) -> None:
        """Forget the memoised scores and floods, and with `lines` the line
        values (all are only caches: for timing a fresh evaluation, or to free
        the memory)."""
        self._memo.clear()
        _REACH.clear()
        if lines:
            clear_line_memos()

    def __repr__(self) -> str:
        return (
            f"ThreatEvaluator({self.weights}, forced={self.forced}, groups={self.groups}, "
            f"chase={self.chase})"
        )


def order_moves(state: AndantinoState, moves: list[int]) -> list[int]:
    """Static move order: winning cells, then cells that block the opponent's
    wins, then cells touching more stones."""
    return _order(state, moves, *winning_cells_both(state))


def order_moves_groups(state: AndantinoState, moves: list[int]) -> list[int]:
    """`order_moves` with the cells enclosing whole groups among the winning
    cells and blocks (`group_enclosing_cells`)."""
    wins, blocks = winning_cells_both(state)
    me = state.to_move
    wins |= group_enclosing_cells(state, me)
    blocks |= group_enclosing_cells(state, 1 - me)
    return _order(state, moves, wins, blocks)


def _order(state: AndantinoState, moves: list[int], wins: int, blocks: int) -> list[int]:
    masks = state.masks  # a mask >> COUNT_SHIFT is the cell's count of stones around
    if not (wins or blocks):
        return sorted(moves, key=lambda m: masks[m] >> COUNT_SHIFT, reverse=True)

    def rank(m: int) -> int:
        bit = BIT[m]
        return (bit & wins and 100) + (bit & blocks and 50) + (masks[m] >> COUNT_SHIFT)

    return sorted(moves, key=rank, reverse=True)


def _build_threats(weights: dict[str, float]) -> ThreatEvaluator:
    """The ThreatEvaluator as the default AI plays it (groups on, no chase)."""
    return ThreatEvaluator(2, True, False, **weights)


#: The ThreatEvaluator's tunable weights (the default AI's evaluator).
THREAT_WEIGHTS = Weights(
    "andantino",
    "threats",
    tuple(Weight(name, DEFAULT_WEIGHTS[name], low, high, what)
          for name, (low, high, what) in _RANGES.items()),
    build=_build_threats,
    linear=tuple(name for name in DEFAULT_WEIGHTS if name != "tempo"),
)


def threat_evaluator(
    *,
    params: str | None = None,
    forced: int = 2,
    four: float | None = None,
    three: float | None = None,
    two: float | None = None,
    surround5: float | None = None,
    surround4: float | None = None,
    surround3: float | None = None,
    bridge: float | None = None,
    mobility: float | None = None,
    danger: float | None = None,
    tempo: float | None = None,
) -> ThreatEvaluator:
    """The ThreatEvaluator from options: `forced`, the params file `params`
    and any weight of DEFAULT_WEIGHTS (None keeps the file's or the default).
    `Game.evaluator` adds the noise.
    This is the evaluator the generic AIs use: without `groups` and `chase`,
    which the default AI turns on (with its own move order)."""
    given = {
        "four": four,
        "three": three,
        "two": two,
        "surround5": surround5,
        "surround4": surround4,
        "surround3": surround3,
        "bridge": bridge,
        "mobility": mobility,
        "danger": danger,
        "tempo": tempo,
    }
    return ThreatEvaluator(forced, False, False, **THREAT_WEIGHTS.resolve(params, given))


def _bridge() -> BridgeExpert:
    return BridgeExpert()


#: Evaluator factories by name (`Andantino.evaluators()`; "default" is the best).
EVALUATORS: dict[str, Callable[..., Callable[[AndantinoState], float]]] = {
    "default": threat_evaluator,
    "threats": threat_evaluator,
    "seed": seed_evaluator,
    "bridge": _bridge,
}
