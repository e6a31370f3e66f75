"""Connect Four's rules: `ConnectFourRules` (the game's rules: tables built
once) and `C4State` (one position with make/undo and incremental frame
hashes).  The package's `ConnectFour` adds the notation, evaluators and
pictures to the rules."""

from __future__ import annotations

from boardgames.game import Game, State, nothing_to_undo
from boardgames.zobrist import ZobristTable

COLS, ROWS = 7, 6
CELLS = COLS * ROWS
#: Columns in search order, centre first (central discs take part in more lines).
ORDER = (3, 2, 4, 1, 5, 0, 6)
#: Line directions (columns, rows): across, down a column, the two diagonals.
DIRECTIONS = ((1, 0), (0, -1), (1, 1), (1, -1))


def cell(col: int, row: int) -> int:
    return col * ROWS + row


def _ray(c: int, r: int, dc: int, dr: int) -> list[int]:
    """Up to three cells from (c, r) in direction (dc, dr), the cell itself excluded."""
    out = []
    c, r = c + dc, r + dr
    while 0 <= c < COLS and 0 <= r < ROWS and len(out) < 3:
        out.append(cell(c, r))
        c, r = c + dc, r + dr
    return out


class ConnectFourRules(Game["C4State"]):
    name = "connect4"
    title = "Connect Four"
    player_names = ("red", "yellow")

    def __init__(self) -> None:
        super().__init__()
        self.num_moves = COLS
        mirror_moves = tuple(COLS - 1 - c for c in range(COLS))
        self._set_symmetries([tuple(range(COLS)), mirror_moves])
        mirror_cells = [cell(COLS - 1 - c, r) for c in range(COLS) for r in range(ROWS)]
        self.zobrist = ZobristTable(COLS * ROWS, 2, [list(range(COLS * ROWS)), mirror_cells])
        # For each cell and direction: the cells before and after it on that
        # line.  Up a column there is never a disc to count (the new disc is
        # the top one), so a column's line only runs down (dc == 0).
        self.rays = [
            [(_ray(c, r, dc, dr), _ray(c, r, -dc, -dr) if dc else []) for dc, dr in DIRECTIONS]
            for c in range(COLS)
            for r in range(ROWS)
        ]
        self.order = list(ORDER)

    @property
    def max_length(self) -> int:
        return CELLS  # a column is played up to ROWS times

    def new_state(self) -> C4State:
        return C4State(self)


class C4State(State[ConnectFourRules]):
    def __init__(self, game: ConnectFourRules) -> None:
        self.game = game
        self.board = [-1] * (COLS * ROWS)
        self.heights = [0] * COLS
        self.to_move = 0
        self.history: list[int] = []
        self.hashes = list(game.zobrist.zero)
        self._winner: int | None = None
        # Cached tables: make/undo are the search's hot path.
        self._keys = game.zobrist.keys
        self._rays = game.rays

    def legal_moves(self) -> list[int]:
        if self._winner is not None:
            return []
        h = self.heights
        if ROWS not in h:  # no column is full: the common case, and the cheap one
            return [*ORDER]  # a new list each time: the search may sort it
        return [c for c in ORDER if h[c] < ROWS]

    def make(self, move: int) -> None:
        height = self.heights[move]
        c = move * ROWS + height
        p = self.to_move
        board = self.board
        board[c] = p
        self.heights[move] = height + 1
        # Two symmetry frames (identity, mirror): both hashes updated in place.
        h, k = self.hashes, self._keys[c][p]
        h[0] ^= k[0]
        h[1] ^= k[1]
        self.history.append(move)
        for before, after in self._rays[c]:
            run = 1
            for x in before:
                if board[x] != p:
                    break
                run += 1
            for x in after:
                if board[x] != p:
                    break
                run += 1
            if run >= 4:
                self._winner = p
                break
        self.to_move = 1 - p

    def undo(self) -> int:
        try:
            move = self.history.pop()
        except IndexError:  # costs nothing until it happens
            raise nothing_to_undo() from None
        height = self.heights[move] - 1
        self.heights[move] = height
        c = move * ROWS + height
        p = self.board[c]
        self.board[c] = -1
        h, k = self.hashes, self._keys[c][p]
        h[0] ^= k[0]
        h[1] ^= k[1]
        self.to_move = p
        self._winner = None
        return move

    def is_over(self) -> bool:
        return self._winner is not None or len(self.history) == CELLS

    def winner(self) -> int | None:
        return self._winner

    def end_reason(self) -> str:
        return "four in a row" if self._winner is not None else "board full"

    def illegal_reason(self, move: int) -> str | None:
        if self.is_over():
            return "the game is over"
        return "column full" if self.heights[move] >= ROWS else None

    def copy(self) -> C4State:
        new = C4State.__new__(C4State)
        new.__dict__.update(self.__dict__)
        new.board, new.heights = self.board[:], self.heights[:]
        new.history, new.hashes = self.history[:], self.hashes[:]
        return new

    def recompute_hashes(self) -> list[int]:
        stones = [(c, p) for c, p in enumerate(self.board) if p >= 0]
        return self.game.zobrist.full(stones)
