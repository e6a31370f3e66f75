"""Squatter rules: placement, capture by enclosing loops, recapture, scoring
(`SquatterRules`, the game's rules and tables; `SquatterState`, one
position).  The package's `Squatter` adds the notation, knowledge and pictures.

The position is seven bitboards: live stones of each colour, captured cells
owned by each colour (territory), captured stones by their original colour
(a captured White stone always lies in Black's territory and the other way
round), plus the free cells.

Recapture (docs/squatter.md, "Rules"): when X encloses a region holding X's own stones
that the enemy had captured, those stones come back to life as live X stones
and score for nobody; only the region's free cells, enemy stones and
enemy-owned captured cells become X's.  A captured stone therefore matters
for the rest of the game, so it is part of the Zobrist key.

A capture check only runs when the new stone can have cut a region off:
its passable neighbours split into separate runs around it (`flood_seeds`,
looked up by the mover's stones around it: `Geometry.ring_seeds`);
a neighbour with one straight ray to the border free of the mover's stones
is open at once (four ANDs); only then does a bitboard flood fill grow a
region from it through every cell that is not a live stone of the mover,
stopping as soon as it touches the border.

The eight frame hashes (one per board symmetry) are packed side by side,
64 bits each, into one int (`packed`), so a move is a single XOR; the
`hashes` list that the search reads at interior nodes is unpacked from it.
Every move pushes an undo record: the packed hashes before the move and,
when the move captured, the board before the capture.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from ...errors import OptionError
from ...game import Game, State, nothing_to_undo
from ...zobrist import ZobristTable
from .geometry import Geometry, bits, flood_seeds

WHITE, BLACK = 0, 1
COLOUR = ("White", "Black")
#: Zobrist values of a cell: live White, live Black, a captured empty cell
#: owned by White / by Black, a captured White stone (Black's) / Black stone (White's).
LIVE_W, LIVE_B, TERR_W, TERR_B, DEAD_W, DEAD_B = 0, 1, 2, 3, 4, 5
MIN_SIZE, MAX_SIZE = 3, 26
#: Bits per frame hash in `SquatterState.packed`.
HASH_BITS = 64


#: Frame count -> unpacker of `SquatterState.packed`'s bytes (a module
#: table: a game object holding a `struct.Struct` could not be pickled).
UNPACK: dict[int, Callable[[bytes], tuple[int, ...]]] = {}


def pack(hashes: list[int] | tuple[int, ...]) -> int:
    """Frame hashes side by side in one int, frame 0 in the lowest 64 bits."""
    return sum(h << (HASH_BITS * i) for i, h in enumerate(hashes))


#: Middle games for `boardgames bench` and the benchmarks: the default AI
#: (White, depth 2) against seed001 (depth 2) after 14 and 20 moves.
BENCHMARK_BOARDS = {
    6: """6
+ B B B B +
B W W W W B
+ W + + B +
+ + W W + +
+ + + + + +
+ + + + + +
""",
    7: """7
+ B B B B B +
+ + + W W W +
+ W W + B + +
B B + W + + +
+ W W + B + +
+ W + W + + +
+ + B + + + +
""",
}


class SquatterRules(Game["SquatterState"]):
    """Squatter on an N x N board (official sizes 6 and 7). White moves first."""

    name = "squatter"
    title = "Squatter"
    player_names = ("white", "black")
    scored = True

    def __init__(self, size: int = 6) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise OptionError(f"squatter size must be an integer, not {size!r}")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise OptionError(f"squatter size must be {MIN_SIZE}..{MAX_SIZE}, not {size}")
        super().__init__(size=size)
        self.size = size
        self.geometry = geo = Geometry(size)
        self.num_moves = geo.cells
        self._set_symmetries(geo.symmetries)
        z = self.zobrist = ZobristTable(geo.cells, 6, self.symmetries, seed=0x5A7_0000 + size)
        side = z.side
        keys = z.keys
        self.frames = z.frames
        self.hash_bytes = z.frames * HASH_BITS // 8
        if z.frames not in UNPACK:
            UNPACK[z.frames] = struct.Struct(f"<{z.frames}Q").unpack
        # Every table below holds packed keys (all frames in one int).
        # A stone placed by p also flips the side to move: one XOR.
        self.stone_keys = [
            [pack([k ^ s for k, s in zip(keys[c][p], side)]) for c in range(geo.cells)]
            for p in (WHITE, BLACK)
        ]
        # Capture transitions for a capture by p (q = the other colour):
        # a live q stone becomes a captured q stone, q's captured empty cell
        # becomes p's, a free cell p's, and a captured p stone a live p stone.
        self.enemy_to_dead = [
            [pack(keys[c][1 - p]) ^ pack(keys[c][DEAD_W + 1 - p]) for c in range(geo.cells)]
            for p in (WHITE, BLACK)
        ]
        self.revive = [
            [pack(keys[c][DEAD_W + p]) ^ pack(keys[c][p]) for c in range(geo.cells)]
            for p in (WHITE, BLACK)
        ]
        self.terr_to_terr = [
            [pack(keys[c][TERR_W + 1 - p]) ^ pack(keys[c][TERR_W + p]) for c in range(geo.cells)]
            for p in (WHITE, BLACK)
        ]
        self.free_to_terr = [
            [pack(keys[c][TERR_W + p]) for c in range(geo.cells)] for p in (WHITE, BLACK)
        ]
        # For the capture pre-check: (ring position bit, cell) pairs of each cell.
        self.ring_pairs = [
            tuple((1 << k, x) for k, x in enumerate(ring) if x >= 0) for ring in geo.ring
        ]

    # --- positions -------------------------------------------------------------
    def new_state(self) -> SquatterState:
        """The empty board, White to move."""
        return SquatterState(self)

    def benchmark_positions(self) -> dict[str, SquatterState]:
        """The start and, on 6 x 6 and 7 x 7, a fixed middle game."""
        positions = {"start": self.new_state()}
        text = BENCHMARK_BOARDS.get(self.size)
        if text is not None:
            positions["middle"] = self.parse_position(text)
        return positions


class SquatterState(State["SquatterRules"]):
    """One Squatter position with make/undo."""

    __slots__ = (
        "game",
        "to_move",
        "packed",
        "history",
        "stones",
        "terr",
        "dead",
        "free",
        "_undo",
    )

    def __init__(self, game: SquatterRules) -> None:
        self.game = game
        self.to_move = WHITE
        self.packed = 0  # the frame hashes, packed (see `hashes`)
        self.history: list[int] = []
        self.stones = [0, 0]  # live stones, White then Black
        self.terr = [0, 0]  # captured cells owned by White / Black (the scores)
        self.dead = [0, 0]  # captured White / Black stones (in Black's / White's terr)
        self.free = game.geometry.full
        self._undo: list[tuple[int, tuple[int, ...] | None]] = []

    # The protocol's `hashes` attribute, unpacked from `packed` (one XOR per
    # move for all 8 frames); the setter packs a list (the board reader's).
    @property
    def hashes(self) -> list[int]:
        """The frame hashes, one per board symmetry (frame 0 = the board as it stands)."""
        game = self.game
        return list(UNPACK[game.frames](self.packed.to_bytes(game.hash_bytes, "little")))

    @hashes.setter
    def hashes(self, hashes: list[int]) -> None:
        self.packed = pack(hashes)

    # --- the rules ---------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """The free cells in the static order (middle first, corners last)."""
        free = self.free
        moves: list[int] = []
        for mask, ordered in self.game.geometry.move_groups:
            part = free & mask
            if part:
                moves += ordered[part]
        return moves

    def make(self, move: int) -> None:
        """Place a stone of the side to move on `move` (a free cell, unchecked)
        and capture what its loops enclose."""
        game = self.game
        p = self.to_move
        bit = 1 << move
        stones = self.stones
        mine = stones[p] | bit
        stones[p] = mine
        self.free ^= bit
        packed = self.packed
        self.packed = packed ^ game.stone_keys[p][move]
        snapshot = None
        geo = game.geometry
        around = mine & geo.ring_mask[move]
        seeds = geo.ring_seeds[move].get(around)
        if seeds is None:
            seeds = geo.seeds_at(move, around)
        if seeds:
            snapshot = self._capture(move, p, seeds)
        self._undo.append((packed, snapshot))
        self.history.append(move)
        self.to_move = 1 - p

    def capture_gain(self, move: int, p: int) -> int:
        """How many cells p would gain by playing the free cell `move` now
        (no state change: what the experts call a threat)."""
        game = self.game
        mine = self.stones[p] | 1 << move
        if (mine & game.geometry.ring_mask[move]).bit_count() < 2:
            return 0
        own_ring = 0
        for k, x in game.ring_pairs[move]:
            if mine >> x & 1:
                own_ring |= k
        seeds = flood_seeds(own_ring, game.geometry.offboard[move])
        if not seeds:
            return 0
        # Cells p owns already and p's own captured stones (they revive) gain nothing.
        captured = enclosed(game.geometry, move, mine, seeds)
        return (captured & ~(self.terr[p] | self.dead[p])).bit_count()

    def _capture(self, move: int, p: int, seeds: tuple[int, ...]) -> tuple[int, ...] | None:
        """Capture every region cut off by the stone just placed at `move`.

        Every changed cell is a free cell, a live enemy stone, or a cell of
        the enemy's territory: an empty one (it changes hands) or one of p's
        own captured stones (it lives again, owned by nobody).
        """
        captured = enclosed(self.game.geometry, move, self.stones[p], seeds)
        terr = self.terr
        changed = captured & ~terr[p]
        if not changed:
            return None
        stones, dead = self.stones, self.dead
        q = 1 - p
        snapshot = (stones[0], stones[1], terr[0], terr[1], dead[0], dead[1], self.free)
        enemy = stones[q] & changed
        revived = dead[p] & changed  # (all inside q's territory)
        lost = (terr[q] & changed) ^ revived
        freed = self.free & changed
        stones[q] ^= enemy
        dead[q] |= enemy
        terr[q] &= ~changed
        terr[p] |= changed ^ revived
        stones[p] |= revived
        dead[p] ^= revived
        self.free ^= freed
        packed = self.packed
        game = self.game
        for table, cells in (
            (game.enemy_to_dead[p], enemy),
            (game.terr_to_terr[p], lost),
            (game.free_to_terr[p], freed),
            (game.revive[p], revived),
        ):
            for c in bits(cells):
                packed ^= table[c]
        self.packed = packed
        return snapshot

    def undo(self) -> int:
        """Take back the last move (and its captures) and return it.

        Raises:
            IllegalMoveError: no move has been played."""
        try:
            move = self.history.pop()
        except IndexError:
            raise nothing_to_undo() from None
        packed, snapshot = self._undo.pop()
        self.packed = packed
        p = 1 - self.to_move
        self.to_move = p
        if snapshot is not None:
            stones, terr, dead = self.stones, self.terr, self.dead
            stones[0], stones[1], terr[0], terr[1], dead[0], dead[1], self.free = snapshot
        bit = 1 << move
        self.stones[p] ^= bit
        self.free |= bit
        return move

    def is_over(self) -> bool:
        """Whether every cell is taken."""
        return not self.free

    def winner(self) -> int | None:
        """The player with more captured cells once the board is full; None for
        a tie or while the game goes on."""
        if self.free:
            return None
        w, b = self.terr[0].bit_count(), self.terr[1].bit_count()
        if w == b:
            return None
        return WHITE if w > b else BLACK

    def scores(self) -> tuple[int, int]:
        """Captured cells owned by White and by Black (empty cells and enemy
        stones; a recaptured own stone lives again and scores for nobody)."""
        return self.terr[0].bit_count(), self.terr[1].bit_count()

    def end_reason(self) -> str:
        """The game ends when no cell is free: every cell holds a stone or is captured."""
        return "board full"

    def illegal_reason(self, move: int) -> str | None:
        """Why `move` is illegal here (the game is over, the cell is taken), None
        when it is legal."""
        if not self.free:
            return "the game is over"
        bit = 1 << move
        if self.free & bit:
            return None
        for p in (WHITE, BLACK):
            if self.stones[p] & bit:
                return f"the cell holds a {COLOUR[p]} stone"
            if self.terr[p] & bit:
                return f"{COLOUR[p]} has captured the cell"
        return "the cell is not free"

    def copy(self) -> SquatterState:
        """An independent copy of the position."""
        new = SquatterState.__new__(SquatterState)
        new.game = self.game
        new.to_move = self.to_move
        new.packed = self.packed
        new.history = self.history[:]
        new.stones = self.stones[:]
        new.terr = self.terr[:]
        new.dead = self.dead[:]
        new.free = self.free
        new._undo = self._undo[:]
        return new

    def recompute_hashes(self) -> list[int]:
        """The Zobrist hashes of the position, computed from scratch, to check
        the incremental ones."""
        items: list[tuple[int, int]] = []
        dead = self.dead
        for value, mask in (
            (LIVE_W, self.stones[0]),
            (LIVE_B, self.stones[1]),
            (TERR_W, self.terr[0] & ~dead[1]),
            (TERR_B, self.terr[1] & ~dead[0]),
            (DEAD_W, dead[0]),
            (DEAD_B, dead[1]),
        ):
            items.extend((c, value) for c in bits(mask))
        return self.game.zobrist.full(items, side=self.to_move)

    # --- queries used by experts, text and pictures -----------------------------------
    def cell_token(self, cell: int) -> str:
        """The Part A token of a cell: + W B - w b."""
        bit = 1 << cell
        if self.free & bit:
            return "+"
        if self.stones[0] & bit:
            return "W"
        if self.stones[1] & bit:
            return "B"
        if self.dead[0] & bit:
            return "w"
        if self.dead[1] & bit:
            return "b"
        return "-"

    def owner(self, cell: int) -> int | None:
        """Who owns a captured cell (None when the cell is not captured)."""
        bit = 1 << cell
        if self.terr[0] & bit:
            return WHITE
        if self.terr[1] & bit:
            return BLACK
        return None


def enclosed(geo: Geometry, move: int, mine: int, seeds: tuple[int, ...]) -> int:
    """The cells that the stones `mine` (a stone at `move` among them) cut
    off from the border, flooding from `move`'s ring neighbours `seeds`
    (RING positions, from `flood_seeds`).

    A seed with a straight ray to the border free of `mine` is open at once;
    the others grow by a bitboard flood fill through every cell that is not
    in `mine`, stopping as soon as the region touches the border.
    """
    ring = geo.ring[move]
    rays = geo.rays
    captured = escaped = 0
    for k in seeds:
        seed = ring[k]
        start = 1 << seed
        if start & (captured | escaped):
            continue
        north, east, south, west = rays[seed]
        if not (mine & north and mine & east and mine & south and mine & west):
            continue  # a straight way out: the region touches the border
        n, border = geo.n, geo.border
        not_west, not_east = geo.not_west, geo.not_east
        passable = geo.full ^ mine
        region = frontier = start
        out = 0
        while frontier and not out:
            grown = (
                ((frontier << 1) & not_west)
                | ((frontier >> 1) & not_east)
                | (frontier << n)
                | (frontier >> n)
            )
            frontier = grown & passable & ~region
            region |= frontier
            out = frontier & border
        if out:
            escaped |= region
        else:
            captured |= region
    return captured
