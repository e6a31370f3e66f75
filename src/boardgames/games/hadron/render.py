"""Text and SVG pictures of a Hadron position, marking legal and special cells.

Text: `W`/`B` stones, `+` a legal cell, `*` a legal cell that is a special
move (see experts.py), `.` an empty cell nobody may play now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..grid import LETTERS
from .experts import scan_specials
from .rules import BLACK, EMPTY, WHITE

if TYPE_CHECKING:
    from .rules import HadronState

ANSI = {"W": "\x1b[1;97m", "B": "\x1b[1;34m", "+": "\x1b[32m", "*": "\x1b[33m",
        ".": "\x1b[90m"}
RESET = "\x1b[0m"


def cell_marks(state: HadronState) -> list[str]:
    """One mark per cell: `W` and `B` for stones, `*` for a legal cell that is
    a special move, `+` for another legal cell, `.` for a cell no stone may take."""
    detail: dict[int, list[int]] = {}
    scan_specials(state, detail)
    marks = []
    for i, stone in enumerate(state.board):
        if stone == WHITE:
            marks.append("W")
        elif stone == BLACK:
            marks.append("B")
        elif state.legal >> i & 1:
            marks.append("*" if i in detail else "+")
        else:
            marks.append(".")
    return marks


def render_text(state: HadronState, color: bool = False) -> str:
    """The board as text, with a header of column numbers and a row letter
    per line (ANSI colours with `color`)."""
    game = state.game
    marks = cell_marks(state)
    if color:
        marks = [f"{ANSI[m]}{m}{RESET}" for m in marks]
    width = 3
    header = "   " + "".join(f"{c + 1:>{width}}" for c in range(game.cols))
    lines = [header]
    for r in range(game.rows):
        row = marks[r * game.cols:(r + 1) * game.cols]
        lines.append(f" {LETTERS[r]} " + "".join(" " * (width - 1) + m for m in row))
    outcome = state.outcome()
    if outcome is None:
        lines.append(f"{game.player_names[state.to_move]} to move, {state.legal.bit_count()} legal")
    else:  # who won follows (the last to place); `play`'s result line names the winner
        lines.append(f"game over: {game.player_names[state.to_move]} has no legal cell")
    return "\n".join(lines)


def render_svg(state: HadronState, cell: int = 36) -> str:
    """Stones, legal cells (green dots) and special moves (ringed in the owner's colour)."""
    game = state.game
    detail: dict[int, list[int]] = {}
    scan_specials(state, detail)
    margin = cell
    width, height = margin + game.cols * cell + 8, margin + game.rows * cell + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{cell // 3}">',
        '<rect width="100%" height="100%" fill="#e8c98b"/>',
    ]
    for c in range(game.cols):
        x = margin + c * cell + cell // 2
        parts.append(f'<text x="{x}" y="{margin * 2 // 3}" text-anchor="middle">{c + 1}</text>')
    for r in range(game.rows):
        y = margin + r * cell + cell // 2 + cell // 8
        parts.append(f'<text x="{margin // 2}" y="{y}" text-anchor="middle">{LETTERS[r]}</text>')
    for i, stone in enumerate(state.board):
        r, c = divmod(i, game.cols)
        x, y = margin + c * cell, margin + r * cell
        cx, cy = x + cell / 2, y + cell / 2
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="none" stroke="#6b4e1f"/>'
        )
        name = game.format_move(i)
        if stone != EMPTY:
            fill, edge = ("#ffffff", "#000000") if stone == WHITE else ("#111111", "#000000")
            parts.append(
                f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.4}" fill="{fill}" stroke="{edge}">'
                f"<title>{name}</title></circle>"
            )
        elif state.legal >> i & 1:
            parts.append(
                f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.12}" fill="#2e8b57">'
                f"<title>{name} legal</title></circle>"
            )
            for k, owner in enumerate(detail.get(i, [])):
                ring = "#ffffff" if owner == WHITE else "#111111"
                parts.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{cell * (0.3 - 0.07 * k)}" fill="none" '
                    f'stroke="{ring}" stroke-width="2.5" stroke-dasharray="4 2">'
                    f"<title>{name} special for {game.player_names[owner]}</title></circle>"
                )
    last = state.last_move
    if last is not None:
        r, c = divmod(last, game.cols)
        parts.append(
            f'<rect x="{margin + c * cell + 2}" y="{margin + r * cell + 2}" width="{cell - 4}" '
            f'height="{cell - 4}" fill="none" stroke="#c0392b" stroke-width="2"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
