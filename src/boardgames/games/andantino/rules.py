"""Andantino: the rules (`Andantino`, the game; `AndantinoState`, one position
with incremental make/undo).  See docs/andantino.md for the rules.

Per move the state updates, in constant work:
- the board list and one bitboard per colour;
- the occupied-neighbour count of the six neighbours, and with it the set of
  legal cells (empty cells touching two or more stones);
- one Zobrist hash per board symmetry (12 frames), packed side by side into
  one Python int so that a move is a single XOR (`hashes` unpacks them,
  which the search does only at interior nodes, not at the leaves);
- the result, looking only through the last stone: five in a row along its
  three axes (skipped on an axis holding fewer than four of our stones
  within reach, a bit count), and enclosures that the stone itself can have
  closed.

Enclosure is the costly rule, so it is checked in stages, cheapest first:
1. a stone inside the board can only close a region when its non-wall
   neighbours form two or more separate runs around it (OPEN_RUNS);
2. a region is open when one of the six straight rays from a seed cell holds
   no wall (a few AND operations on bitboards);
3. only then a bitboard flood fill (`geometry.flood_enclosed`), which stops
   as soon as it touches a ring beyond the outermost wall (from there a
   straight walk out meets no wall), or ring 9.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import IllegalMoveError, NotationError
from ...game import Game, State
from ...zobrist import ZobristTable
from .geometry import (
    BIT,
    BOARD_MASK,
    CUBES,
    INDEX,
    LINE_MASKS,
    LINE_RAYS,
    NEIGHBOURS,
    NEIGHBOURS6,
    OPEN_RUNS,
    RADIUS,
    RAY_MASKS,
    RING,
    SIZE,
    SYMMETRIES,
    escape_mask,
    flood_enclosed,
)
from .notation import format_cell, format_cube, parse_cell, split_moves

WHITE, BLACK, EMPTY = 0, 1, -1
HASH_BITS = 64
HASH_MASK = (1 << HASH_BITS) - 1
FRAME_SHIFTS = tuple(HASH_BITS * f for f in range(len(SYMMETRIES)))
CENTRE = 0
FIRST_MOVES = (1, 2, 3, 4, 5, 6)

#: How a finished game ended (`AndantinoState.reason`, `end_reason()`): the
#: mover's five in a row, the mover's enclosure of enemy stones, the mover's
#: own stone played into an enemy pocket (a loss), or a draw with no legal cell.
FIVE, ENCLOSURE, SELF_ENCLOSED, NO_MOVES = (
    "five in a row",
    "enclosure",
    "self-enclosure",
    "no move left",
)

#: Fixed positions for benchmarks (cube move lists, White first), taken from
#: games between the default AI and the seed bot; none is decided yet.
BENCHMARK_POSITIONS = {
    "opening": "0,-1,1 -1,0,1 -1,1,0 1,-1,0",
    "middle-12": (
        "1,-1,0 0,-1,1 -1,0,1 -1,1,0 0,1,-1 1,0,-1 2,-1,-1 1,1,-2 2,0,-2 1,-2,1 2,-2,0 0,2,-2"
    ),
    "middle-18": (
        "0,-1,1 -1,0,1 -1,1,0 -2,1,1 -2,0,2 -1,-1,2 -2,-1,3 -2,2,0 -1,-2,3 0,1,-1 -1,2,-1 "
        "0,-2,2 -3,0,3 1,-2,1 1,-1,0 0,-3,3 1,0,-1 -3,1,2"
    ),
    "middle-24": (
        "1,-1,0 0,-1,1 -1,0,1 -1,1,0 0,1,-1 1,0,-1 2,-1,-1 1,1,-2 2,0,-2 1,-2,1 2,-2,0 0,2,-2 "
        "-1,2,-1 2,1,-3 2,-3,1 3,0,-3 3,-3,0 -1,-1,2 -2,1,1 -2,2,0 3,-1,-2 -2,3,-1 -1,3,-2 -3,2,1"
    ),
}


class Andantino(Game["AndantinoState"]):
    """The radius-9 hexagonal board of 271 cells; moves are the seed's tile
    indices (centre 0, rings from the south-west corner)."""

    name = "andantino"
    title = "Andantino"
    player_names = ("white", "black")

    def __init__(self) -> None:
        super().__init__()
        self.num_moves = SIZE
        self._set_symmetries(SYMMETRIES)
        #: 2 x 271 keys per frame, slot = the seed's tile index.
        self.zobrist = ZobristTable(SIZE, 2, SYMMETRIES)
        #: The same keys with the 12 frames packed into one int, 64 bits each
        #: (frame f in bits 64f..64f+63): one XOR updates every frame.  Keys
        #: are taken as unsigned 64-bit patterns (ZobristTable's may be negative).
        self.packed_keys: list[list[int]] = [
            [sum((k & HASH_MASK) << (64 * f) for f, k in enumerate(frames)) for frames in slot]
            for slot in self.zobrist.keys
        ]

    def new_state(self) -> AndantinoState:
        return AndantinoState(self)

    # --- notation ----------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        return parse_cell(text)

    def format_move(self, move: int) -> str:
        return format_cell(move)

    def format_cube(self, move: int) -> str:
        """A move in cube coordinates `x,y,z`."""
        return format_cube(move)

    def index(self, x: int, y: int, z: int) -> int:
        """The seed's tile index of cube (x, y, z)."""
        if (x, y, z) not in INDEX:
            raise NotationError(f"{x},{y},{z}", "not a cell of the board")
        return INDEX[(x, y, z)]

    def cube(self, move: int) -> tuple[int, int, int]:
        """Cube coordinates of a tile index."""
        return CUBES[move]

    def parse_position(self, text: str) -> AndantinoState:
        """A position from its move list (`J10` cells or cube `x,y,z`, White first;
        the Black centre stone is implied)."""
        state = self.new_state()
        for number, token in enumerate(split_moves(text), 1):
            try:
                state.play(token)
            except IllegalMoveError as exc:
                raise NotationError(text.strip(), f"move {number} ({token}): {exc}") from None
            except NotationError as exc:
                raise NotationError(text.strip(), f"move {number}: {exc}") from None
        return state

    # --- knowledge ---------------------------------------------------------------
    def evaluators(self) -> dict[str, Callable[..., Callable[[AndantinoState], float]]]:
        from .experts import EVALUATORS

        return dict(EVALUATORS)

    def analyse(self, state: AndantinoState) -> str:
        """The generic report and both sides' threats (lines, enclosures, bridges)."""
        from .experts import describe

        return super().analyse(state) + "\n" + describe(state)

    def benchmark_positions(self) -> dict[str, AndantinoState]:
        return {name: self.parse_position(moves) for name, moves in BENCHMARK_POSITIONS.items()}

    # --- drawing -----------------------------------------------------------------
    def render_text(self, state: AndantinoState, color: bool = False) -> str:
        from .render import render_text

        return render_text(state, color)

    def render_svg(self, state: AndantinoState) -> str:
        from .render import render_svg

        return render_svg(state)


class AndantinoState(State["Andantino"]):
    """One position: White to move first, a Black stone on the centre."""

    __slots__ = (
        "game",
        "board",
        "bits",
        "counts",
        "candidates",
        "to_move",
        "history",
        "packed",
        "_winner",
        "reason",
    )

    def __init__(self, game: Andantino) -> None:
        self.game = game
        self.board = [EMPTY] * SIZE
        self.board[CENTRE] = BLACK
        self.bits = [0, BIT[CENTRE]]
        self.counts = [0] * SIZE
        for n in NEIGHBOURS[CENTRE]:
            self.counts[n] = 1
        #: Empty cells touching two or more stones (the first move is special).
        self.candidates: set[int] = set()
        self.to_move = WHITE
        self.history: list[int] = []
        self.packed: int = game.packed_keys[CENTRE][BLACK]
        self._winner: int | None = None
        #: Why the game ended (FIVE, ENCLOSURE, SELF_ENCLOSED, NO_MOVES) or None.
        self.reason: str | None = None

    # --- the rules ------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        if self.reason is not None:
            return []
        if not self.history:
            return list(FIRST_MOVES)
        return sorted(self.candidates)

    def make(self, move: int) -> None:
        player = self.to_move
        board = self.board
        board[move] = player
        self.bits[player] |= BIT[move]
        self.packed ^= self.game.packed_keys[move][player]
        candidates = self.candidates
        candidates.discard(move)
        counts = self.counts
        for n in NEIGHBOURS[move]:
            k = counts[n] + 1
            counts[n] = k
            if k == 2 and board[n] < 0:
                candidates.add(n)
        self.history.append(move)
        self.to_move = 1 - player
        if self._five(move, player):
            self._winner, self.reason = player, FIVE
        elif self._encloses(move, player):
            self._winner, self.reason = player, ENCLOSURE
        elif self._self_enclosed(move, player):
            self._winner, self.reason = 1 - player, SELF_ENCLOSED
        elif not candidates:
            self.reason = NO_MOVES

    def undo(self) -> None:
        move = self.history.pop()
        board = self.board
        player = board[move]
        board[move] = EMPTY
        self.bits[player] ^= BIT[move]
        self.packed ^= self.game.packed_keys[move][player]
        candidates = self.candidates
        counts = self.counts
        for n in NEIGHBOURS[move]:
            k = counts[n]
            counts[n] = k - 1
            if k == 2 and board[n] < 0:
                candidates.discard(n)
        if counts[move] >= 2:
            candidates.add(move)
        self.to_move = player
        self._winner = None
        self.reason = None

    def is_over(self) -> bool:
        return self.reason is not None

    def winner(self) -> int | None:
        return self._winner

    def end_reason(self) -> str:
        """Five in a row, enclosure, self-enclosure (the mover played into an
        enemy pocket and lost) or no move left (a draw)."""
        return self.reason or "game in progress"

    def illegal_reason(self, move: int) -> str | None:
        if self.reason is not None:
            return "the game is over"
        if self.board[move] != EMPTY:
            return "cell occupied"
        if not self.history:
            return None if move in FIRST_MOVES else "White's first stone must touch the centre"
        if self.counts[move] < 2:
            return "a stone must touch at least two stones"
        return None

    # The protocol's `hashes` attribute is computed here from `packed` (one XOR
    # per move for all 12 frames); mypy cannot let a property override it.
    @property
    def hashes(self) -> list[int]:  # type: ignore[override]
        """The 12 frame hashes (frame 0 = the board as it stands)."""
        packed = self.packed
        return [(packed >> shift) & HASH_MASK for shift in FRAME_SHIFTS]

    @property
    def key(self) -> int:
        return self.packed & HASH_MASK

    # --- results through the last stone -----------------------------------------------
    def _five(self, move: int, player: int) -> bool:
        board = self.board
        own = self.bits[player]
        for axis, (one_way, other_way) in enumerate(LINE_RAYS[move]):
            if (own & LINE_MASKS[move][axis]).bit_count() < 4:
                continue
            run = 1
            for c in one_way:
                if board[c] != player:
                    break
                run += 1
            for c in other_way:
                if board[c] != player:
                    break
                run += 1
            if run >= 5:
                return True
        return False

    def _encloses(self, move: int, player: int) -> bool:
        """Did `player`'s stone at `move` close a region holding enemy stones?"""
        walls = self.bits[player]
        neighbours = NEIGHBOURS6[move]
        mask = 0
        for d in range(6):
            n = neighbours[d]
            if n >= 0 and self.board[n] == player:
                mask |= 1 << d
        if RING[move] < RADIUS and OPEN_RUNS[mask] < 2:
            return False
        enemy = self.bits[1 - player]
        if not enemy:
            return False
        passable = BOARD_MASK & ~walls
        escape = -1
        done = 0
        for d in range(6):
            n = neighbours[d]
            if n < 0 or mask >> d & 1 or BIT[n] & done:
                continue
            r0, r1, r2, r3, r4, r5 = RAY_MASKS[n]
            if not (
                r0 & walls
                and r1 & walls
                and r2 & walls
                and r3 & walls
                and r4 & walls
                and r5 & walls
            ):
                continue
            if escape < 0:
                escape = escape_mask(walls)
            region = flood_enclosed(BIT[n], passable, escape)
            if region & enemy:
                return True
            done |= region
        return False

    def _self_enclosed(self, move: int, player: int) -> bool:
        """Is the stone just played at `move` inside an enemy pocket?"""
        if RING[move] == RADIUS:
            return False
        walls = self.bits[1 - player]
        for r in RAY_MASKS[move]:
            if not r & walls:
                return False
        return bool(flood_enclosed(BIT[move], BOARD_MASK & ~walls, escape_mask(walls)))

    # --- the rest of the protocol ---------------------------------------------------
    def copy(self) -> AndantinoState:
        new = AndantinoState.__new__(AndantinoState)
        new.game = self.game
        new.board = self.board[:]
        new.bits = self.bits[:]
        new.counts = self.counts[:]
        new.candidates = set(self.candidates)
        new.to_move = self.to_move
        new.history = self.history[:]
        new.packed = self.packed
        new._winner = self._winner
        new.reason = self.reason
        return new

    def recompute_hashes(self) -> list[int]:
        stones = [(c, p) for c, p in enumerate(self.board) if p != EMPTY]
        return [h & HASH_MASK for h in self.game.zobrist.full(stones)]

    def stones(self, player: int) -> list[int]:
        """Cells holding `player`'s stones, in index order."""
        return [c for c, p in enumerate(self.board) if p == player]


