"""Andantino: the rules (`AndantinoRules`, the game's rules and tables;
`AndantinoState`, one position with incremental make/undo).  The package's
`Andantino` adds the notation, knowledge and pictures.  See
docs/andantino.md for the rules.

Per move the state updates, in constant work:
- the board list and one bitboard per colour;
- the neighbour mask of the six neighbours (which neighbours hold which
  colour, and how many are occupied), and with it the set of legal cells
  (empty cells touching two or more stones);
- one Zobrist hash per board symmetry (12 frames), packed side by side into
  one Python int so that a move is a single XOR (`hashes` unpacks them,
  which the search does only at interior nodes, not at the leaves);
- the evaluator's counts (`tallies.py`): a neighbour mask per cell, the
  contents of the three lines through the stone, the packed `tally` of line
  windows, surrounds, bridges and mobility, and the potential walls `two`;
  undo restores the tally and walls from a stack;
- the result, looking only through the last stone: five in a row (the
  tally's five count went up), and enclosures that the stone itself can
  have closed.

Enclosure is the costly rule, so it is checked in stages, cheapest first:
1. a stone inside the board can only close a region when its non-wall
   neighbours form two or more separate runs around it (OPEN_RUNS on the
   cell's neighbour mask);
2. a region is open when one of the six straight rays from a seed cell holds
   no wall (a few AND operations on bitboards);
3. only then a bitboard flood fill (`geometry.flood`), which stops as soon
   as it touches a ring beyond the outermost wall (from there a straight
   walk out meets no wall), or ring 9.
The mover's own stone can only sit in an enemy pocket when none of its
neighbours is its own (in a game still going, every stone is free, and an
own neighbour joins the new stone to it); only then are the rays and the
flood tried from the stone.
"""

from __future__ import annotations

from struct import Struct

from ...errors import NotationError
from ...game import Game, State, nothing_to_undo
from ...zobrist import ZobristTable
from .geometry import (
    BIT,
    BOARD_MASK,
    CUBES,
    INDEX,
    LINES,
    NEIGHBOURS6,
    OPEN_RUNS,
    RADIUS,
    RAY_MASKS,
    RING,
    SIZE,
    SYMMETRIES,
    escape_mask,
    flood,
)
from .tallies import (
    CAND_VALUE,
    COLOUR_BITS,
    COUNT_SHIFT,
    FIVES,
    INITIAL_MASKS,
    LINE_BITS,
    NEIGHBOUR_BITS,
    ONE_STONE,
    SIDES,
    THREE_STONES,
    TWO_STONES,
    line_value,
)

WHITE, BLACK, EMPTY = 0, 1, -1
HASH_BITS = 64
HASH_MASK = (1 << HASH_BITS) - 1
#: Unpacks the 12 frames of `packed` in one call (`hashes`).
_FRAMES = Struct(f"<{len(SYMMETRIES)}Q")
_PACKED_BYTES = _FRAMES.size
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


class AndantinoRules(Game["AndantinoState"]):
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
        """The start: a Black stone on the centre, White to move."""
        return AndantinoState(self)

    def benchmark_positions(self) -> dict[str, AndantinoState]:
        """The positions `boardgames bench` searches, by name."""
        return {name: self.parse_position(moves) for name, moves in BENCHMARK_POSITIONS.items()}

    # --- cells ---------------------------------------------------------------------
    def index(self, x: int, y: int, z: int) -> int:
        """The seed's tile index of cube (x, y, z)."""
        if (x, y, z) not in INDEX:
            raise NotationError(f"{x},{y},{z}", "not a cell of the board")
        return INDEX[(x, y, z)]

    def cube(self, move: int) -> tuple[int, int, int]:
        """Cube coordinates of a tile index."""
        return CUBES[move]


class AndantinoState(State["AndantinoRules"]):
    """One position: White to move first, a Black stone on the centre."""

    __slots__ = (
        "game",
        "board",
        "bits",
        "candidates",
        "to_move",
        "history",
        "packed",
        "_winner",
        "reason",
        "masks",
        "line_keys",
        "tally",
        "two",
        "sur5",
        "saved",
    )

    def __init__(self, game: AndantinoRules) -> None:
        self.game = game
        self.board = [EMPTY] * SIZE
        self.bits = [0, 0]
        #: Empty cells touching two or more stones (the first move is special).
        self.candidates: set[int] = set()
        self.history: list[int] = []
        self.packed: int = 0
        #: Each cell's neighbour mask, with its occupied-neighbour count
        #: (see tallies.py and `counts`).
        self.masks: list[int] = list(INITIAL_MASKS)
        #: Each line's contents (see tallies.py).
        self.line_keys: list[int] = [0] * len(LINES)
        #: The evaluator's counts, packed (see tallies.py).
        self.tally = 0
        #: Per colour, the cells with two or more neighbours of that colour
        #: (a bitboard, exact on the empty cells: the potential walls).
        self.two = [0, 0]
        #: Per colour, its stones off the border with five enemy stones
        #: around them (a bitboard: stones one move from enclosure).
        self.sur5: tuple[int, int] = (0, 0)
        #: (tally, the mover's `two`, `sur5`) before each move, for undo.
        self.saved: list[tuple[int, int, tuple[int, int]]] = []
        # The centre stone, placed by the ordinary update.
        self.to_move = BLACK
        self._winner: int | None = None
        #: Why the game ended (FIVE, ENCLOSURE, SELF_ENCLOSED, NO_MOVES) or None.
        self.reason: str | None = None
        self.make(CENTRE)
        self.history.clear()
        self.saved.clear()
        self.to_move = WHITE
        self._winner = None
        self.reason = None

    # --- the rules ------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """The empty cells a stone may go to (touching two stones; for White's
        first stone, touching the centre), sorted; none once the game is over."""
        if self.reason is not None:
            return []
        if not self.history:
            return list(FIRST_MOVES)
        return sorted(self.candidates)

    def make(self, move: int) -> None:
        """Play `move` for the side to move (unchecked: `play` checks).

        A hot loop, kept whole on purpose: the search calls it once per
        node, and it does all the incremental work (see the module notes);
        a helper call for the results or the counts would cost about 7% of
        it (a call is 0.1 us of about 1.4 us)."""
        player = self.to_move
        enemy = 1 - player
        settled = self.reason is None
        (
            own_value,
            enemy_value,
            own_five_around,
            five_around,
            one,
            colour_bits,
            mobility,
            neighbour_bits,
            line_bits,
        ) = SIDES[player]
        board = self.board
        board[move] = player
        bit = BIT[move]
        self.bits[player] |= bit
        self.packed ^= self.game.packed_keys[move][player]
        masks = self.masks
        candidates = self.candidates
        tally = before = self.tally
        mask = masks[move]
        if mask >= TWO_STONES:
            candidates.discard(move)
            tally -= CAND_VALUE[mask]
        tally += own_value[mask]
        two = self.two
        walls = old_walls = two[player]
        sur5 = self.sur5
        surrounded = sur5[enemy]
        for n, delta in neighbour_bits[move]:
            old = masks[n]
            new = old + delta
            masks[n] = new
            owner = board[n]
            if owner < 0:
                if new >= THREE_STONES:
                    if not old & colour_bits:
                        tally += mobility
                elif new >= TWO_STONES:
                    candidates.add(n)
                    tally += CAND_VALUE[new]
                if one[old]:
                    walls |= BIT[n]
            elif owner == enemy:
                tally += enemy_value[new] - enemy_value[old]
                if five_around[new]:
                    surrounded |= BIT[n]
                elif five_around[old]:
                    surrounded ^= BIT[n]
        two[player] = walls
        if surrounded != sur5[enemy] or own_five_around[mask]:
            pair = [0, 0]
            pair[enemy] = surrounded
            pair[player] = sur5[player] | bit if own_five_around[mask] else sur5[player]
            self.sur5 = (pair[0], pair[1])
        keys = self.line_keys
        for line, line_bit, memo in line_bits[move]:
            k0 = keys[line]
            k1 = k0 | line_bit
            keys[line] = k1
            try:
                tally += memo[k1] - memo[k0]
            except KeyError:
                tally += line_value(line, k1) - line_value(line, k0)
        self.tally = tally
        self.saved.append((before, old_walls, sur5))
        self.history.append(move)
        self.to_move = enemy
        # Stage 1 of the enclosure check (see _encloses), here to spare a call.
        may_close = OPEN_RUNS[mask >> (6 * player) & 63] > 1 or RING[move] == RADIUS
        if tally >> FIVES != before >> FIVES:
            self._winner, self.reason = player, FIVE
        elif may_close and self._encloses(move, player):
            self._winner, self.reason = player, ENCLOSURE
        elif (settled and mask & COLOUR_BITS[player]) or not self._self_enclosed(move, player):
            if not candidates:
                self.reason = NO_MOVES
        else:
            self._winner, self.reason = enemy, SELF_ENCLOSED

    def undo(self) -> int:
        """Take back the last move and return it.

        Raises:
            IllegalMoveError: no move has been played."""
        try:
            move = self.history.pop()
        except IndexError:
            raise nothing_to_undo() from None
        board = self.board
        player = board[move]
        board[move] = EMPTY
        self.bits[player] ^= BIT[move]
        self.packed ^= self.game.packed_keys[move][player]
        self.tally, self.two[player], self.sur5 = self.saved.pop()
        masks = self.masks
        candidates = self.candidates
        for n, delta in NEIGHBOUR_BITS[player][move]:
            mask = masks[n] - delta
            masks[n] = mask
            if ONE_STONE <= mask < TWO_STONES and board[n] < 0:
                candidates.discard(n)
        if masks[move] >= TWO_STONES:
            candidates.add(move)
        keys = self.line_keys
        for line, bit, _ in LINE_BITS[player][move]:
            keys[line] ^= bit
        self.to_move = player
        self._winner = None
        self.reason = None
        return move

    def is_over(self) -> bool:
        """Whether the game has ended (five in a row, an enclosure, no legal move)."""
        return self.reason is not None

    def winner(self) -> int | None:
        """The winner's index, None while the game goes on."""
        return self._winner

    def end_reason(self) -> str:
        """Five in a row, enclosure, self-enclosure (the mover played into an
        enemy pocket and lost) or no move left (a draw)."""
        return self.reason or "game in progress"

    def illegal_reason(self, move: int) -> str | None:
        """Why `move` is illegal here, None when it is legal."""
        if self.reason is not None:
            return "the game is over"
        if self.board[move] != EMPTY:
            return "cell occupied"
        if not self.history:
            return None if move in FIRST_MOVES else "White's first stone must touch the centre"
        if self.masks[move] < TWO_STONES:
            return "a stone must touch at least two stones"
        return None

    # The protocol's `hashes` attribute is computed here from `packed` (one XOR
    # per move for all 12 frames); mypy cannot let a property override it.
    @property
    def hashes(self) -> list[int]:  # type: ignore[override]
        """The 12 frame hashes (frame 0 = the board as it stands)."""
        return list(_FRAMES.unpack(self.packed.to_bytes(_PACKED_BYTES, "little")))

    @property
    def counts(self) -> list[int]:
        """The number of occupied neighbours of each cell (a new list; the
        masks hold them)."""
        return [mask >> COUNT_SHIFT for mask in self.masks]

    @property
    def key(self) -> int:
        """The position's hash, from the packed incremental state."""
        return self.packed & HASH_MASK

    # --- results through the last stone -----------------------------------------------
    def _encloses(self, move: int, player: int) -> bool:
        """Did `player`'s stone at `move` close a region holding enemy stones?"""
        walls = self.bits[player]
        neighbours = NEIGHBOURS6[move]
        mask = self.masks[move] >> (6 * player) & 63
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
            region = flood(BIT[n], passable, escape)
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
        return bool(flood(BIT[move], BOARD_MASK & ~walls, escape_mask(walls)))

    # --- the rest of the protocol ---------------------------------------------------
    def copy(self) -> AndantinoState:
        """An independent copy of the position."""
        new = AndantinoState.__new__(AndantinoState)
        new.game = self.game
        new.board = self.board[:]
        new.bits = self.bits[:]
        new.candidates = set(self.candidates)
        new.to_move = self.to_move
        new.history = self.history[:]
        new.packed = self.packed
        new._winner = self._winner
        new.reason = self.reason
        new.masks = self.masks[:]
        new.line_keys = self.line_keys[:]
        new.tally = self.tally
        new.two = self.two[:]
        new.sur5 = self.sur5
        new.saved = self.saved[:]
        return new

    def recompute_hashes(self) -> list[int]:
        """The Zobrist hashes of the position, computed from scratch (every
        symmetry), to check the incremental ones."""
        stones = [(c, p) for c, p in enumerate(self.board) if p != EMPTY]
        return [h & HASH_MASK for h in self.game.zobrist.full(stones)]

    def stones(self, player: int) -> list[int]:
        """Cells holding `player`'s stones, in index order."""
        return [c for c, p in enumerate(self.board) if p == player]
