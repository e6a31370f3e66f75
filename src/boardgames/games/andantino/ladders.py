"""Forcing lines (ladders) in Andantino: a threat-space search.

A *threat* is a legal cell where a player would win at once: completing a
five, or enclosing enemy stones (a lone stone or a whole group), as
`experts.winning_cells_both` and `experts.group_enclosing_cells` find them.
Facing exactly one threat, the defender has one move that does not lose at
once (unless it can win at once itself): occupying the cell, since the
defender's stones never stop an enclosure or a five anywhere else.  So a
line where every attacker move makes a threat has one defender reply per
attacker move, and can be read much deeper than a full-width search: a
ladder (a group chased along a wall, each block answered by a new threat
next to it) of 10 to 14 plies costs a few hundred moves.

`Ladders.win(state)` looks for such a line for the side to move: each of
its moves wins, or leaves it a threat while the defender has none (one
threat: the defender's block is played and the search goes on; two or
more: the defender cannot block them all).  Every line found is a forced
win under the rules (the defender's only non-losing reply is followed);
not finding one proves nothing.  The attacker's candidates are the legal
cells next to its stones or two cells from them along a line: a new stone
away from those makes neither a four nor a wall of an enclosure, though it
can make the completing cell of a four legal (a cell needs two stones
next to it), which this search leaves out (it found no line that a search
of every move missed in 10,217 match positions; docs/andantino.md).
Failures are memoised by position and depth; a node budget bounds the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .experts import _winning_cells, group_enclosing_cells
from .geometry import (
    BIT,
    BIT_STEPS,
    BOARD_MASK,
    BORDER_MASK,
    CELL_OF_POSITION,
    dilate,
    flood,
)
from .tallies import four_completions
from .threats import AXIS_STEPS, WINDOW_STARTS, nb

if TYPE_CHECKING:
    from ...budget import Budget
    from .rules import AndantinoState

#: A position's memo key is `white << KEY_SHIFT | black`, plus the side to move.
KEY_SHIFT = 384
#: At most this many failed positions are memoised (then the memo restarts).
MEMO_LIMIT = 1 << 16


def threats(state: AndantinoState, player: int) -> int:
    """`player`'s legal winning cells (a bitboard): fives and enclosures of
    single stones or groups."""
    return _winning_cells(state, player, state.sur5[1 - player]) | group_enclosing_cells(
        state, player
    )


def _fill_stages(step: int) -> tuple[tuple[int, int], ...]:
    """(shift, propagator) of each doubling stage of a fill along `step`:
    stage j shifts by 2^j steps, through cells whose 2^j - 1 next cells
    along `step` are all on the board."""
    stages = []
    pro = BOARD_MASK
    for j in range(5):  # 1 + 2 + 4 + 8 + 16 = 31 steps >= 18, the longest ray
        stages.append((step << j, pro))
        pro &= nb(pro, step << j)
    return tuple(stages)


#: Per direction: its bit step and the stages of the fill along it.
FILL_STAGES = tuple((step, _fill_stages(step)) for step in BIT_STEPS)


def seen_rays(own: int) -> list[int]:
    """Per direction d, the cells from which the ray in direction d (to the
    board's edge) holds one of `own` (a stone on that ray blocks the rules'
    straight way to the border)."""
    out = []
    for step, stages in FILL_STAGES:
        gen = own
        for shift, pro in stages:
            gen |= pro & nb(gen, shift)
        out.append(nb(gen, step) & BOARD_MASK)
    return out


def _four_or_more(boards: list[int]) -> int:
    """Bits set in at least four of the six `boards`."""
    n0, n1, n2, n3, n4, n5 = boards
    x = n0 ^ n1
    s1 = x ^ n2
    c1 = (n0 & n1) | (n2 & x)
    y = n3 ^ n4
    s2 = y ^ n5
    c2 = (n3 & n4) | (n5 & y)
    c3 = s1 & s2
    return (c1 & c2) | (c3 & (c1 ^ c2))


def _three_window_cells(own: int, enemy: int) -> int:
    """The empty cells of the five-cell windows holding exactly three of
    `own` and no `enemy` stone (a stone there makes a four)."""
    out = 0
    for axis in range(3):
        s = AXIS_STEPS[axis]
        w = [own, own >> s, own >> 2 * s, own >> 3 * s, own >> 4 * s]
        any_enemy = enemy | enemy >> s | enemy >> 2 * s | enemy >> 3 * s | enemy >> 4 * s
        free = WINDOW_STARTS[axis] & ~any_enemy
        w0, w1, w2, w3, w4 = (b & free for b in w)
        x01 = w0 ^ w1
        s1 = x01 ^ w2
        c1 = (w0 & w1) | (w2 & x01)
        x = s1 ^ w3
        c2 = (s1 & w3) | (w4 & x)
        threes = (x ^ w4) & (c1 ^ c2) & ~(c1 & c2)
        if threes:
            for k in range(5):
                out |= (threes & ~w[k]) << k * s
    return out


#: The cells seeing one's stones along four rays or more, by one's stones
#: (the attacker's stones stay the same while the defender's replies vary).
_INNER: dict[int, int] = {}


def threat_makers(state: AndantinoState, player: int) -> int:
    """A bitboard holding every cell where a stone of `player` would leave it a
    legal winning cell, when it has none now (`threats(state, player)` is 0);
    other cells may be in it too.  A move outside it makes no threat, so the
    search need not play it to know.

    - A five after the move: the move is in a window with three of
      `player`'s stones and no enemy stone, or next to a cell completing a
      four already (which it makes legal: every winning cell now is illegal).
    - An enclosure: the winning cell closes a region R round enemy stones
      whose walls are `player`'s stones, the move and that cell.  The move
      touches R (otherwise that cell would enclose R now, and it is legal
      now, touching two of `player`'s stones as every cell that closes a
      region does).  Every cell of R sees a wall along each of its six rays
      (the rules' ray test), a stone of `player`'s along four of them at
      least (each of the two new stones lies on one ray at most), so R lies
      in the connected cells, other than `player`'s stones, with four such
      rays, off the border ring, that hold an enemy stone."""
    own, enemy = state.bits[player], state.bits[1 - player]
    out = _three_window_cells(own, enemy)
    fours = four_completions(state.tally, state.line_keys, player)
    if fours:
        out |= dilate(fours)
    inner = _INNER.get(own)
    if inner is None:
        inner = _four_or_more(seen_rays(own)) & ~own & ~BORDER_MASK
        if len(_INNER) >= MEMO_LIMIT:
            _INNER.clear()
        _INNER[own] = inner
    if enemy & inner:
        out |= dilate(flood(enemy & inner, inner))
    return out & BOARD_MASK


def _reach(bits: int) -> int:
    """`bits`, its neighbours, and the cells two steps away along a line."""
    out = bits | bits << 1 | bits >> 1 | bits << 19 | bits >> 19 | bits << 20 | bits >> 20
    return out | bits << 2 | bits >> 2 | bits << 38 | bits >> 38 | bits << 40 | bits >> 40


class Ladders:
    """A threat-space search: forced wins by an unbroken series of threats.

    `depth` is the most forced blocks in a line (a line is at most
    2 * depth + 1 plies: `depth` threats and their blocks, then the winning
    move or a double threat); `budget` the most attacker moves tried in one
    `win` call.  `nodes` counts the moves tried by the last call."""

    def __init__(self, depth: int = 7, budget: int = 400) -> None:
        if depth < 1 or budget < 1:
            raise ValueError("depth and budget must be at least 1")
        self.depth = depth
        self.budget = budget
        self.nodes = 0
        self._failed: dict[tuple[int, int], int] = {}
        #: Skip the moves outside `threat_makers` without playing them (the
        #: same lines, cheaper; off only to measure that).
        self.filter = True
        #: `defences` tries the line it is given before searching.
        self.known = True
        #: `threat_win` looks for the threat of a line after a move before
        #: the opponent's own line (most moves threaten none).
        self.threat_first = True
        #: `threat_win` tries every legal move of the attacker's, not only
        #: those near its stones: a move away from them can set up a line
        #: too (taking the cell of a threat the defender's blocks would make).
        self.wide = True

    def win(self, state: AndantinoState, depth: int | None = None) -> list[int] | None:
        """A forcing line winning for the side to move (its moves and the
        defender's blocks, the last move the attacker's finishing or double
        threat), or None when none is found within the depth and budget.
        `state` is left as it was."""
        self.nodes = 0
        if state.reason is not None:
            return None
        return self._attack(state, self.depth if depth is None else depth)

    def _attack(self, state: AndantinoState, depth: int) -> list[int] | None:
        me = state.to_move
        mine = threats(state, me)
        if mine:
            return [CELL_OF_POSITION[mine.bit_length() - 1]]
        theirs = threats(state, 1 - me)
        if theirs & (theirs - 1) or not depth:
            return None
        white, black = state.bits
        key = (white << KEY_SHIFT | black, me)
        if self._failed.get(key, 0) >= depth:
            return None
        if theirs:
            moves = [CELL_OF_POSITION[theirs.bit_length() - 1]]
            makers = BOARD_MASK
        else:
            near = _reach(state.bits[me]) & BOARD_MASK
            moves = [m for m in sorted(state.candidates) if BIT[m] & near]
            makers = threat_makers(state, me) if self.filter else BOARD_MASK
        for move in moves:
            if self.nodes >= self.budget:
                return None  # out of budget: not memoised as a failure
            self.nodes += 1
            if not BIT[move] & makers:
                continue  # makes no threat: `_threaten` would find nothing
            line = self._threaten(state, move, me, depth)
            if line is not None:
                return line
        if self.nodes < self.budget:
            if len(self._failed) >= MEMO_LIMIT:
                self._failed.clear()
            self._failed[key] = depth
        return None

    def _threaten(self, state: AndantinoState, move: int, me: int, depth: int) -> list[int] | None:
        """The line starting with `me` playing `move`, if it wins."""
        state.make(move)
        try:
            if state.reason is not None:
                return [move] if state.winner() == me else None
            made = threats(state, me)
            if not made or threats(state, 1 - me):
                return None  # no threat, or the defender wins first
            if made & (made - 1):
                return [move]  # two threats: one stone cannot block both
            block = CELL_OF_POSITION[made.bit_length() - 1]
            state.make(block)
            try:
                if state.reason is not None:  # the block lost: an enclosed pocket
                    return [move, block] if state.winner() == me else None
                rest = self._attack(state, depth - 1)
                return None if rest is None else [move, block, *rest]
            finally:
                state.undo()
        finally:
            state.undo()

    def follows(self, state: AndantinoState, line: list[int], depth: int | None = None) -> bool:
        """Whether `line` (attacker moves and blocks, as `win` returns them)
        is still a forcing line for the side to move in `state`, one that
        `win` could return: each attacker move is one it would try (the
        block of the defender's one threat, else a legal cell near its
        stones) and leaves it a threat while the defender has none, each
        block is the defender's only move, and the line ends with a win or
        a double threat (or reaches a position with a winning cell)."""
        return self._follows(state, line, 0, self.depth if depth is None else depth)

    def _follows(self, state: AndantinoState, line: list[int], index: int, depth: int) -> bool:
        me = state.to_move
        if threats(state, me):
            return True
        theirs = threats(state, 1 - me)
        if theirs & (theirs - 1) or not depth or index >= len(line):
            return False
        move = line[index]
        bit = BIT[move]
        if theirs:
            if bit != theirs:
                return False
        elif move not in state.candidates or not bit & _reach(state.bits[me]):
            return False
        state.make(move)
        try:
            if state.reason is not None:
                return state.winner() == me
            made = threats(state, me)
            if not made or threats(state, 1 - me):
                return False
            if made & (made - 1):
                return True
            state.make(CELL_OF_POSITION[made.bit_length() - 1])
            try:
                if state.reason is not None:
                    return state.winner() == me
                return self._follows(state, line, index + 2, depth - 1)
            finally:
                state.undo()
        finally:
            state.undo()

    def defences(self, state: AndantinoState, known: list[int] | None = None) -> list[int]:
        """The moves of the side to move after which the opponent has no
        forcing line (a move that wins at once included).  `known`: a line
        the opponent would have if it moved now, tried first after each
        move (with `self.known`): where it still wins, no search is needed."""
        me = state.to_move
        out = []
        if not self.known:
            known = None
        for move in state.legal_moves():
            state.make(move)
            if state.reason is not None:
                safe = state.winner() == me
            elif known is not None and self._follows(state, known, 0, self.depth):
                safe = False
            else:
                safe = self.win(state) is None
            state.undo()
            if safe:
                out.append(move)
        return out

    def threat_win(self, state: AndantinoState, depth: int, budget: Budget) -> bool:
        """Whether the side to move wins by a series of threats of forcing
        lines: each of its moves (any legal move with `wide`, else one near
        its stones) either starts a forcing line (`win`), or leaves one that
        it would start if it moved again, while the opponent has none; then
        every opponent reply that stops it (`defences`) is followed, up to
        `depth` such moves.  False when not found, or once the `budget` is
        spent (its time, or its stop signal)."""
        if self.win(state) is not None:
            return True
        if not depth or budget.expired():
            return False
        me = state.to_move
        near = BOARD_MASK if self.wide else _reach(state.bits[me]) & BOARD_MASK
        for move in [m for m in sorted(state.candidates) if BIT[m] & near]:
            state.make(move)
            try:
                if state.reason is not None:
                    if state.winner() == me:
                        return True
                    continue
                if not self.threat_first and self.win(state) is not None:
                    continue  # the opponent has a line of its own first
                state.to_move = me  # as if the opponent passed
                threat = self.win(state)
                state.to_move = 1 - me
                if threat is None:
                    continue
                if self.threat_first and self.win(state) is not None:
                    continue  # the opponent has a line of its own first
                if all(
                    self._reply_loses(state, reply, me, depth - 1, budget)
                    for reply in self.defences(state, threat)
                ):
                    return not budget.expired()
            finally:
                state.undo()
            if budget.expired():
                return False
        return False

    def _reply_loses(
        self, state: AndantinoState, reply: int, attacker: int, depth: int, budget: Budget
    ) -> bool:
        state.make(reply)
        try:
            if state.reason is not None:
                return state.winner() == attacker
            return self.threat_win(state, depth, budget)
        finally:
            state.undo()

    def clear(self) -> None:
        """Forget the memoised failures."""
        self._failed.clear()
