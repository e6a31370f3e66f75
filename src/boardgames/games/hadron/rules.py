"""Hadron (Mark Steere): the rules on any R x C board (`HadronRules`, the
game's rules and tables; `HadronState`, one position), with incremental
legality.  The package's `Hadron` adds the notation, knowledge and pictures.

A stone may go on an empty cell whose orthogonal neighbours hold as many
White as Black stones; the player to move with no legal cell loses.  Both
players always share one legal set, and a stone changes the legality of its
four neighbours only, so the state keeps, per empty cell, White-minus-Black
and stone counts of its neighbours plus the legal set as a bitboard (a Python
int) updated around the last stone.  Undo pops the previous bitboards and
hashes (kept on a stack) and takes the stone back from its empty neighbours'
counts.

Speed (make/undo run once per search node): `Hadron.links` gives each cell's
neighbours with their bit and degree in one tuple each; make clears the stone
and its neighbours from the legal set in one mask (`Hadron.keep`) and sets
back the neighbours it balanced; the counts of an occupied cell are never
read, so make and undo skip occupied neighbours (LIFO order keeps this
consistent: the empty neighbours at undo are those at make).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_

from ...errors import OptionError
from ...game import Game, State, nothing_to_undo
from ...zobrist import ZobristTable, closure

WHITE, BLACK, EMPTY = 0, 1, -1
MAX_SIDE = 26


class HadronRules(Game["HadronState"]):
    """Rules and tables for one R x C board (9 x 9 by default; `size=N` for N x N)."""

    name = "hadron"
    title = "Hadron"
    player_names = ("white", "black")

    def __init__(self, rows: int | None = None, cols: int | None = None, size: int | None = None):
        if size is not None:
            if rows is not None or cols is not None:
                raise OptionError("hadron: give either size or rows/cols, not both")
            rows = cols = size
        rows = 9 if rows is None else rows
        cols = 9 if cols is None else cols
        for label, value in (("rows", rows), ("cols", cols)):
            if not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise OptionError(
                    f"hadron: {label} must be an integer 1..{MAX_SIDE}, got {value!r}"
                )
        super().__init__(rows=rows, cols=cols)
        self.rows, self.cols = rows, cols
        n = rows * cols
        self.num_moves = self.cells = n
        self.neighbours: list[tuple[int, ...]] = [
            tuple(
                (r + dr) * cols + (c + dc)
                for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            )
            for r in range(rows)
            for c in range(cols)
        ]
        self.bit: list[int] = [1 << i for i in range(n)]
        self.degree: list[int] = [len(nb) for nb in self.neighbours]
        self.neighbour_mask: list[int] = [sum(1 << j for j in nb) for nb in self.neighbours]
        self.full_mask = (1 << n) - 1
        self.not_first_col = sum(1 << i for i in range(n) if i % cols)
        self.not_last_col = sum(1 << i for i in range(n) if i % cols != cols - 1)
        #: Per cell: (neighbour, its bit, its degree) for each neighbour (make's loop).
        self.links: list[tuple[tuple[int, int, int], ...]] = [
            tuple((j, 1 << j, len(self.neighbours[j])) for j in nb) for nb in self.neighbours
        ]
        #: Per cell: every cell but it and its neighbours (make clears them from legal).
        self.keep: list[int] = [
            self.full_mask & ~(self.neighbour_mask[i] | 1 << i) for i in range(n)
        ]
        self._set_symmetries(self._symmetry_group())
        self.zobrist = ZobristTable(n, 2, self.symmetries)
        # Static order: centre first, then outwards (ties by index, so it is stable).
        mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2
        self.order: list[int] = sorted(
            range(n), key=lambda i: (abs(i // cols - mid_r) + abs(i % cols - mid_c), i)
        )
        #: The bit of each cell of `order`, in that order (legal_moves filters by them).
        self.order_bits: list[int] = [1 << i for i in self.order]

    def _symmetry_group(self) -> tuple[tuple[int, ...], ...]:
        rows, cols = self.rows, self.cols
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        flip_rows = [(rows - 1 - r) * cols + c for r, c in cells]
        flip_cols = [r * cols + (cols - 1 - c) for r, c in cells]
        generators = [flip_rows, flip_cols]
        if rows == cols:
            generators.append([c * cols + r for r, c in cells])  # transpose
        return closure(generators, rows * cols)

    def spread(self, mask: int) -> int:
        """The cells orthogonally next to some cell of `mask` (a bitboard)."""
        cols = self.cols
        return (
            (mask << cols) | (mask >> cols)
            | ((mask & self.not_last_col) << 1) | ((mask & self.not_first_col) >> 1)
        ) & self.full_mask

    # --- positions ----------------------------------------------------------------
    def new_state(self) -> HadronState:
        """The empty board, White to move."""
        return HadronState(self)

    def benchmark_positions(self) -> dict[str, HadronState]:
        """The start and two fixed positions (a quiet opening, a tight middle game)."""
        positions: dict[str, HadronState] = {"start": self.new_state()}
        if self.rows >= 5 and self.cols >= 5:
            r, c, cols = self.rows // 2, self.cols // 2, self.cols
            cells = [(r, c), (0, 0), (r, c + 2), (r - 2, c), (self.rows - 1, cols - 1)]
            positions["opening"] = self.replay([row * cols + col for row, col in cells])
        middle = self.new_state()
        # A deterministic filling: the first legal move in index order, half the board.
        for _ in range(self.cells // 3):
            moves = middle.legal_moves()
            if not moves:
                break
            middle.make(min(moves))
        if not middle.is_over():
            positions["middle"] = middle
        return positions


class HadronState(State["HadronRules"]):
    """A Hadron position: stones, neighbour counters and the legal bitboard."""

    __slots__ = ("game", "board", "diff", "filled", "legal", "occupied", "to_move",
                 "hashes", "history", "live", "_stack")

    def __init__(self, game: HadronRules) -> None:
        self.game = game
        n = game.cells
        self.board: list[int] = [EMPTY] * n
        #: White minus Black stones among each empty cell's neighbours (an
        #: occupied cell's entry is stale: nothing reads it).
        self.diff: list[int] = [0] * n
        #: Stones among each empty cell's neighbours (stale for occupied cells).
        self.filled: list[int] = [0] * n
        self.legal: int = game.full_mask
        #: Bitboard of the cells holding a stone.
        self.occupied: int = 0
        self.to_move = WHITE
        self.hashes: list[int] = list(game.zobrist.zero)
        self.history: list[int] = []
        #: Bitboard of the empty cells that later stones could still balance
        #: (|White - Black| <= empty neighbours); the others are dead for good.
        self.live: int = game.full_mask
        #: (legal, live, hashes, occupied) before each move, for undo.
        self._stack: list[tuple[int, int, list[int], int]] = []

    # --- the rules ------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """The legal cells (balanced neighbours), in the game's move order; none
        once the game is over."""
        legal = self.legal
        if not legal:
            return []
        game = self.game
        return list(compress(game.order, map(and_, repeat(legal), game.order_bits)))

    def make(self, move: int) -> None:
        """Place a stone of the side to move on `move` (a legal cell, unchecked)
        and update the legal and live cells and the hashes."""
        game = self.game
        player = self.to_move
        board = self.board
        board[move] = player
        hashes = self.hashes
        occupied = self.occupied
        self._stack.append((self.legal, self.live, hashes, occupied))
        diff, filled = self.diff, self.filled
        delta = 1 - 2 * player
        balanced = dead = 0
        for j, bit, degree in game.links[move]:
            if board[j] < 0:  # empty
                d = diff[j] + delta
                diff[j] = d
                f = filled[j] + 1
                filled[j] = f
                if not d:
                    balanced |= bit
                elif (d if d > 0 else -d) + f > degree:
                    dead |= bit  # a stone never brings a dead cell back
        bit = game.bit[move]
        self.legal = (self.legal & game.keep[move]) | balanced
        self.live = self.live & ~(bit | dead)
        self.occupied = occupied | bit
        self.hashes = [h ^ k for h, k in zip(hashes, game.zobrist.keys[move][player])]
        self.history.append(move)
        self.to_move = 1 - player

    def undo(self) -> int:
        """Take back the last move and return it.

        Raises:
            IllegalMoveError: no move has been played."""
        try:
            move = self.history.pop()
        except IndexError:
            raise nothing_to_undo() from None
        board, diff, filled = self.board, self.diff, self.filled
        player = board[move]
        board[move] = EMPTY
        delta = 1 - 2 * player
        for j in self.game.neighbours[move]:
            if board[j] < 0:
                diff[j] -= delta
                filled[j] -= 1
        self.legal, self.live, self.hashes, self.occupied = self._stack.pop()
        self.to_move = player
        return move

    def is_over(self) -> bool:
        """Whether the side to move has no legal cell (and so has lost)."""
        return not self.legal

    def winner(self) -> int | None:
        """The last player to place wins: the one not to move once no cell is legal."""
        return 1 - self.to_move if not self.legal else None

    def end_reason(self) -> str:
        """The side to move has no legal move (and loses: the last player to place wins)."""
        return "no legal move" if not self.legal else "game in progress"

    def illegal_reason(self, move: int) -> str | None:
        """Why `move` is illegal here (the cell's neighbour counts when they are
        unbalanced), None when it is legal."""
        if not self.legal:
            return "the game is over"
        if self.board[move] != EMPTY:
            return "cell occupied"
        if not self.legal >> move & 1:
            white, black = self.counts(move)
            return f"unbalanced neighbours: {white} white, {black} black"
        return None

    def copy(self) -> HadronState:
        """An independent copy of the position."""
        new = HadronState.__new__(HadronState)
        new.game = self.game
        new.board, new.diff, new.filled = self.board[:], self.diff[:], self.filled[:]
        new.legal, new.occupied, new.to_move = self.legal, self.occupied, self.to_move
        new.hashes, new.history = self.hashes[:], self.history[:]
        new.live, new._stack = self.live, self._stack[:]
        return new

    def recompute_hashes(self) -> list[int]:
        """The Zobrist hashes of the position, computed from scratch, to check
        the incremental ones."""
        stones = [(c, p) for c, p in enumerate(self.board) if p != EMPTY]
        return self.game.zobrist.full(stones)

    def recompute_counts(self) -> tuple[list[int], list[int]]:
        """(diff, filled) of every cell from the board (tests compare the empty
        cells' entries with `diff` and `filled`)."""
        game, board = self.game, self.board
        diff, filled = [0] * game.cells, [0] * game.cells
        for i in range(game.cells):
            for j in game.neighbours[i]:
                if board[j] != EMPTY:
                    diff[i] += 1 if board[j] == WHITE else -1
                    filled[i] += 1
        return diff, filled

    def recompute_legal(self) -> int:
        """The legal bitboard from scratch (tests compare it with `legal`)."""
        game, board = self.game, self.board
        diff = self.recompute_counts()[0]
        return sum(game.bit[i] for i in range(game.cells) if board[i] == EMPTY and not diff[i])

    def recompute_live(self) -> int:
        """The live bitboard from scratch (tests compare it with `live`)."""
        game, board = self.game, self.board
        diff, filled = self.recompute_counts()
        return sum(
            game.bit[i] for i in range(game.cells)
            if board[i] == EMPTY and abs(diff[i]) <= game.degree[i] - filled[i]
        )

    def counts(self, cell: int) -> tuple[int, int]:
        """(White, Black) stones among the neighbours of the empty `cell`."""
        white = (self.filled[cell] + self.diff[cell]) // 2
        return white, self.filled[cell] - white
