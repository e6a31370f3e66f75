"""Squatter as text: cell names and the course's "Part A" board text and answer.

Cells are named `E5` (row letter, column number) or `4,4` (0-based row,col):
`geometry.Geometry.parse_cell` / `format_cell`.

Board text: a line with N, then N lines of N tokens separated by spaces:
`+` free, `W`/`B` live stones, `-` a captured cell, `w`/`b` a captured
White/Black stone.  Only the enclosing loops say who owns a captured cell,
so the reader infers the owner: the colour whose live stones cut the cell
off from the border.  A stone its own side recaptured lives again (the
recapture rule, docs/squatter.md), so it is simply a live stone `W`/`B`,
and a live stone inside its own side's territory is read as such.  A board that no legal game can
reach (a captured cell on the border, a captured cell no loop encloses, a
free cell or a live stone inside a loop of the other colour, a captured
stone inside a loop of its own colour) is rejected with the first offending
cell named.

Loaded positions have no history.  The side to move is the one that has
placed fewer stones (live and captured ones), White when both have placed
as many: that is who moves next in a game that started with White.

The Part A answer (`part_a`) is three lines: White/Black/Draw/None, then
White's and Black's captured counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ...errors import NotationError
from ...registry import get_game
from .geometry import Geometry, bits
from .rules import BLACK, COLOUR, MAX_SIZE, MIN_SIZE, WHITE, SquatterRules, SquatterState

TOKENS = "+WB-wb"


@dataclass
class _Board:
    """The cells of a board text by token, as bitboards (before any check)."""

    free: int
    live: list[int]  # live stones, White then Black
    dead: list[int]  # captured stones, White then Black
    marked: int  # every captured cell: '-', 'w', 'b'


def parse_board(text: str, game: SquatterRules | None = None) -> SquatterState:
    """A state from Part A board text; NotationError names the first problem.

    The size comes from the text: `game` is used when it has that size.
    """
    n, rows = _size_and_rows(text)
    if game is None or game.size != n:
        game = cast(SquatterRules, get_game("squatter", size=n))
    board = _read_cells(rows, n)
    terr = _territory(game.geometry, board)
    placed_w = (board.live[WHITE] | board.dead[WHITE]).bit_count()
    placed_b = (board.live[BLACK] | board.dead[BLACK]).bit_count()
    to_move = WHITE if placed_w <= placed_b else BLACK
    return _build(game, board, terr, to_move)


def _size_and_rows(text: str) -> tuple[int, list[str]]:
    """N from the first line and the N rows after it (blank lines around trimmed)."""
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
    if not (head.isascii() and head.isdigit()):
        raise NotationError(head, "the first line must be the board size N")
    if len(head) > 9 or not MIN_SIZE <= int(head) <= MAX_SIZE:  # int() of huge text fails
        raise NotationError(head, f"board size must be {MIN_SIZE}..{MAX_SIZE}")
    n = int(head)
    rows = lines[1:]
    if len(rows) < n:
        raise NotationError(
            head, f"missing row: a {n} x {n} board needs {n} rows, found {len(rows)}"
        )
    if len(rows) > n:
        raise NotationError(rows[n], f"extra line after the {n} rows of the board")
    return n, rows


def _read_cells(rows: list[str], n: int) -> _Board:
    """Every token of the N rows into one bitboard per token."""
    masks = dict.fromkeys(TOKENS, 0)
    for r, row in enumerate(rows):
        tokens = row.split()
        if len(tokens) != n:
            raise NotationError(
                row, f"row {r + 1} has {len(tokens)} tokens; a {n} x {n} board needs {n}"
            )
        for c, token in enumerate(tokens):
            if token not in masks:
                raise NotationError(
                    row,
                    f"bad token {token!r} in row {r + 1}, column {c + 1} "
                    f"(expected one of {' '.join(TOKENS)})",
                )
            masks[token] |= 1 << (r * n + c)
    return _Board(
        free=masks["+"],
        live=[masks["W"], masks["B"]],
        dead=[masks["w"], masks["b"]],
        marked=masks["-"] | masks["w"] | masks["b"],
    )


def _territory(geo: Geometry, board: _Board) -> list[int]:
    """The captured cells each colour owns; NotationError when no game reaches the board."""
    name = geo.format_cell

    def reject(cells: int, reason: str) -> None:
        if cells:
            raise NotationError(name(bits(cells)[0]), reason)

    marked = board.marked
    reject(marked & geo.border, "a border cell is marked captured (border cells never are)")
    enclosed = []
    for p in (WHITE, BLACK):
        passable = geo.full ^ board.live[p]
        enclosed.append(passable & ~geo.outside(passable))
    reject(marked & enclosed[0] & enclosed[1], "captured cell enclosed by loops of both colours")
    reject(marked & ~(enclosed[0] | enclosed[1]), "marked captured but no loop encloses it")
    for p in (WHITE, BLACK):
        mine, theirs = COLOUR[p], COLOUR[1 - p]
        reject(
            enclosed[p] & board.free,
            f"free cell inside a {mine} loop (it would have been captured)",
        )
        reject(
            enclosed[p] & board.live[1 - p],
            f"live {theirs} stone inside a {mine} loop (it would have been captured)",
        )
        reject(
            enclosed[p] & board.dead[p],
            f"captured {mine} stone inside a {mine} loop (a recaptured "
            f"stone lives again: write it {'WB'[p]})",
        )
    return [marked & enclosed[WHITE], marked & enclosed[BLACK]]


def _build(game: SquatterRules, board: _Board, terr: list[int], to_move: int) -> SquatterState:
    state = game.new_state()
    state.stones = board.live[:]
    state.terr = terr[:]
    state.dead = board.dead[:]
    state.free = board.free
    state.to_move = to_move
    state.hashes = state.recompute_hashes()
    return state


def write_board(state: SquatterState) -> str:
    """Part A text of a position (captured stones as b/w, so stone counts survive)."""
    n = state.game.size
    token = state.cell_token
    rows = [" ".join(token(r * n + c) for c in range(n)) for r in range(n)]
    return "\n".join([str(n), *rows]) + "\n"


def part_a(state: SquatterState) -> str:
    """Three lines: White/Black/Draw/None, White's captured count, Black's."""
    white, black = state.scores()
    if not state.is_over():
        verdict = "None"
    elif white == black:
        verdict = "Draw"
    else:
        verdict = "White" if white > black else "Black"
    return f"{verdict}\n{white}\n{black}"
