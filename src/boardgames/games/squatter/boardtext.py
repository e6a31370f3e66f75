"""The course's "Part A" board text: reading, writing and the Part A answer.

Format: a line with N, then N lines of N tokens separated by spaces:
`+` free, `W`/`B` live stones, `-` a captured cell, `w`/`b` a captured
White/Black stone.  Only the enclosing loops say who owns a captured cell,
so the reader infers the owner: the colour whose live stones cut the cell
off from the border.  A stone its own side recaptured lives again (shared
RULES.md), so it is simply a live stone `W`/`B`, and a live stone inside
its own side's territory is read as such.  A board that no legal game can
reach (a captured cell on the border, a captured cell no loop encloses, a
free cell or a live stone inside a loop of the other colour, a captured
stone inside a loop of its own colour) is rejected with the first offending
cell named.

Loaded positions have no history.  The side to move is the one that has
placed fewer stones (live and captured ones), White when both have placed
as many: that is who moves next in a game that started with White.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import NotationError
from ...game import get_game
from .geometry import bits
from .rules import BLACK, COLOUR, MAX_SIZE, MIN_SIZE, WHITE, Squatter, SquatterState

if TYPE_CHECKING:
    from ...game import State

TOKENS = "+WB-wb"


def parse_board(text: str, game: Squatter | None = None) -> SquatterState:
    """A state from Part A board text; NotationError names the first problem."""
    if not isinstance(text, str):
        raise NotationError(repr(text), "a board must be text")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise NotationError(text, "empty board text (expected N, then N rows)")
    head = lines[0].strip()
    if not head.isdigit():
        raise NotationError(head, "the first line must be the board size N")
    n = int(head)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise NotationError(head, f"board size must be {MIN_SIZE}..{MAX_SIZE}")
    rows = lines[1:]
    if len(rows) < n:
        raise NotationError(
            head, f"missing row: a {n} x {n} board needs {n} rows, found {len(rows)}"
        )
    if len(rows) > n:
        raise NotationError(rows[n], f"extra line after the {n} rows of the board")
    if game is None or game.size != n:
        game = get_game("squatter", size=n)
    live = [0, 0]
    dead = [0, 0]
    marked = 0  # every captured cell: '-', 'w', 'b'
    free = 0
    for r, row in enumerate(rows):
        tokens = row.split()
        if len(tokens) != n:
            raise NotationError(
                row, f"row {r + 1} has {len(tokens)} tokens; a {n} x {n} board needs {n}"
            )
        for c, token in enumerate(tokens):
            bit = 1 << (r * n + c)
            if token == "+":
                free |= bit
            elif token == "W":
                live[WHITE] |= bit
            elif token == "B":
                live[BLACK] |= bit
            elif token in ("-", "w", "b"):
                marked |= bit
                if token == "w":
                    dead[WHITE] |= bit
                elif token == "b":
                    dead[BLACK] |= bit
            else:
                raise NotationError(
                    row,
                    f"bad token {token!r} in row {r + 1}, column {c + 1} "
                    f"(expected one of {' '.join(TOKENS)})",
                )
    geo = game.geometry
    name = geo.format_cell
    on_border = marked & geo.border
    if on_border:
        cell = bits(on_border)[0]
        raise NotationError(name(cell), "a border cell is marked captured (border cells never are)")
    enclosed = []
    for p in (WHITE, BLACK):
        passable = geo.full ^ live[p]
        enclosed.append(passable & ~geo.outside(passable))
    both = marked & enclosed[0] & enclosed[1]
    if both:
        raise NotationError(name(bits(both)[0]), "captured cell enclosed by loops of both colours")
    orphan = marked & ~(enclosed[0] | enclosed[1])
    if orphan:
        raise NotationError(name(bits(orphan)[0]), "marked captured but no loop encloses it")
    for p in (WHITE, BLACK):
        loose = enclosed[p] & free
        if loose:
            raise NotationError(
                name(bits(loose)[0]),
                f"free cell inside a {COLOUR[p]} loop (it would have been captured)",
            )
        trapped = enclosed[p] & live[1 - p]
        if trapped:
            raise NotationError(
                name(bits(trapped)[0]),
                f"live {COLOUR[1 - p]} stone inside a {COLOUR[p]} loop "
                f"(it would have been captured)",
            )
        recaptured = enclosed[p] & dead[p]
        if recaptured:
            raise NotationError(
                name(bits(recaptured)[0]),
                f"captured {COLOUR[p]} stone inside a {COLOUR[p]} loop (a recaptured "
                f"stone lives again: write it {'WB'[p]})",
            )
    terr = [marked & enclosed[WHITE], marked & enclosed[BLACK]]
    placed_w = (live[WHITE] | dead[WHITE]).bit_count()
    placed_b = (live[BLACK] | dead[BLACK]).bit_count()
    to_move = WHITE if placed_w <= placed_b else BLACK
    return _build(game, live, terr, dead, free, to_move)


def _build(
    game: Squatter, live: list[int], terr: list[int], dead: list[int], free: int, to_move: int
) -> SquatterState:
    state = game.new_state()
    state.stones = live[:]
    state.terr = terr[:]
    state.dead = dead[:]
    state.free = free
    state.to_move = to_move
    state.hashes = state.recompute_hashes()
    return state


def write_board(state: SquatterState) -> str:
    """Part A text of a position (captured stones as b/w, so stone counts survive)."""
    n = state.game.size
    token = state.cell_token
    rows = [" ".join(token(r * n + c) for c in range(n)) for r in range(n)]
    return "\n".join([str(n), *rows]) + "\n"


def part_a(state: State) -> str:
    """Three lines: White/Black/Draw/None, White's captured count, Black's."""
    white, black = state.scores()
    if not state.is_over():
        verdict = "None"
    elif white == black:
        verdict = "Draw"
    else:
        verdict = "White" if white > black else "Black"
    return f"{verdict}\n{white}\n{black}"


# Middle games for `boardgames bench` and the benchmarks: the default AI
# (White, depth 2) against seed001 (depth 2) after 14 and 20 moves.
_BENCHMARKS = {
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


def benchmark_positions(game: Squatter) -> dict[str, State]:
    positions: dict[str, State] = {"start": game.new_state()}
    text = _BENCHMARKS.get(game.size)
    if text is not None:
        positions["middle"] = parse_board(text, game)
    return positions
