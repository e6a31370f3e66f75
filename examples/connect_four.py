"""Connect Four (7 x 6), written only against the public game protocol.

This file doubles as the "write your own game" guide (docs/write-a-game.md):
a `Game` holds the rules and tables, a `State` one mutable position with
make/undo, incremental frame hashes for the transposition table, and a text
and SVG rendering.  Run it to watch two AIs play:

    python examples/connect_four.py
"""

from __future__ import annotations

from boardgames.errors import NotationError
from boardgames.evaluation import Linear
from boardgames.game import Game, State, register_game
from boardgames.zobrist import ZobristTable

COLS, ROWS = 7, 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def cell(col: int, row: int) -> int:
    return col * ROWS + row


class ConnectFour(Game):
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
        # For each cell and direction: the cells before and after it on that line.
        self.rays = [
            [
                (self._ray(c, r, dc, dr), self._ray(c, r, -dc, -dr))
                for dc, dr in DIRECTIONS
            ]
            for c in range(COLS)
            for r in range(ROWS)
        ]
        self.order = [3, 2, 4, 1, 5, 0, 6]

    @staticmethod
    def _ray(c: int, r: int, dc: int, dr: int) -> list[int]:
        out = []
        c, r = c + dc, r + dr
        while 0 <= c < COLS and 0 <= r < ROWS and len(out) < 3:
            out.append(cell(c, r))
            c, r = c + dc, r + dr
        return out

    def new_state(self) -> C4State:
        return C4State(self)

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) == 1 and "a" <= t <= "g":
            return ord(t) - ord("a")
        if t.isdigit() and 1 <= int(t) <= COLS:
            return int(t) - 1
        raise NotationError(text, "a column is a letter a-g or a number 1-7")

    def format_move(self, move: int) -> str:
        return "abcdefg"[move]

    def evaluators(self):
        return {"default": lambda: Linear({centre: 1.0})}

    def render_text(self, state: C4State, color: bool = False) -> str:
        marks = ".XO"
        rows = [
            " ".join(marks[state.board[cell(c, r)] + 1] for c in range(COLS))
            for r in reversed(range(ROWS))
        ]
        return "\n".join(rows + ["a b c d e f g"])

    def render_svg(self, state: C4State) -> str:
        fill = {-1: "white", 0: "red", 1: "gold"}
        discs = "".join(
            f'<circle cx="{40 * c + 20}" cy="{40 * (ROWS - 1 - r) + 20}" r="16" '
            f'fill="{fill[state.board[cell(c, r)]]}" stroke="black"/>'
            for c in range(COLS)
            for r in range(ROWS)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{40 * COLS}" height="{40 * ROWS}">'
            f'<rect width="100%" height="100%" fill="royalblue"/>{discs}</svg>'
        )


def centre(state: C4State, player: int) -> float:
    """Stones in the middle column, mine minus theirs."""
    col = state.board[cell(3, 0) : cell(3, ROWS)]
    return col.count(player) - col.count(1 - player)


class C4State(State):
    def __init__(self, game: ConnectFour) -> None:
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
        return [c for c in self.game.order if h[c] < ROWS]

    def make(self, move: int) -> None:
        height = self.heights[move]
        c = move * ROWS + height
        p = self.to_move
        board = self.board
        board[c] = p
        self.heights[move] = height + 1
        # Two symmetry frames (identity, mirror): update both hashes unrolled.
        h, k = self.hashes, self._keys[c][p]
        self.hashes = [h[0] ^ k[0], h[1] ^ k[1]]
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

    def undo(self) -> None:
        move = self.history.pop()
        height = self.heights[move] - 1
        self.heights[move] = height
        c = move * ROWS + height
        p = self.board[c]
        self.board[c] = -1
        h, k = self.hashes, self._keys[c][p]
        self.hashes = [h[0] ^ k[0], h[1] ^ k[1]]
        self.to_move = p
        self._winner = None

    def is_over(self) -> bool:
        return self._winner is not None or len(self.history) == COLS * ROWS

    def winner(self) -> int | None:
        return self._winner

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




register_game("connect4", ConnectFour)


if __name__ == "__main__":
    from boardgames.game import get_game

    state = get_game("connect4").new_state()
    print(state)
