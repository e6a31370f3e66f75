"""Connect Four drawn as text and as SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import COLS, ROWS, cell

if TYPE_CHECKING:
    from .rules import C4State


def render_text(state: C4State, color: bool = False) -> str:
    marks = ".XO"
    rows = [
        " ".join(marks[state.board[cell(c, r)] + 1] for c in range(COLS))
        for r in reversed(range(ROWS))
    ]
    return "\n".join(rows + ["a b c d e f g"])


def render_svg(state: C4State) -> str:
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
