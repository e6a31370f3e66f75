"""Pictures of a Squatter position: a terminal board and an SVG showing territory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..grid import LETTERS
from .rules import BLACK, WHITE

if TYPE_CHECKING:
    from .rules import SquatterState

_RESET = "\x1b[0m"
_TERRITORY_BG = {WHITE: "\x1b[47m\x1b[30m", BLACK: "\x1b[100m\x1b[97m"}
_LAST = "\x1b[1;31m"


def render_text(state: SquatterState, color: bool = False) -> str:
    """Part A tokens with coordinates; with `color`, territory gets a background."""
    game = state.game
    n = game.size
    header = "   " + " ".join(f"{c + 1:>2}" for c in range(n))
    lines = [header]
    last = state.last_move
    for r in range(n):
        cells = []
        for c in range(n):
            cell = r * n + c
            token = state.cell_token(cell)
            if color:
                owner = state.owner(cell)
                if owner is not None:
                    token = f"{_TERRITORY_BG[owner]}{token}{_RESET}"
                elif cell == last:
                    token = f"{_LAST}{token}{_RESET}"
            cells.append(f"{token:>2}" if not color else f" {token}")
        lines.append(f"{LETTERS[r]:>2} " + " ".join(cells))
    white, black = state.scores()
    to_move = "game over" if state.is_over() else f"{game.player_names[state.to_move]} to move"
    lines.append(f"White {white}  Black {black}  ({to_move}; - captured, w/b captured stones)")
    return "\n".join(lines)


def render_svg(state: SquatterState, cell: int = 40) -> str:
    """Territory as tinted squares, live stones as discs, captured stones faded."""
    n = state.game.size
    margin = cell
    width = margin + n * cell + cell // 2
    height = margin + n * cell + cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#e8c88a"/>',
    ]
    tint = {WHITE: "#fbf7ee", BLACK: "#5a4a3a"}
    for i in range(n * n):
        r, c = divmod(i, n)
        x, y = margin + c * cell, margin + r * cell
        owner = state.owner(i)
        fill = tint[owner] if owner is not None else "none"
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
            f'stroke="#7a5c2e" stroke-width="1"/>'
        )
    for c in range(n):
        parts.append(
            f'<text x="{margin + c * cell + cell / 2}" y="{margin - 10}" '
            f'text-anchor="middle" font-size="14">{c + 1}</text>'
        )
    for r in range(n):
        parts.append(
            f'<text x="{margin - 14}" y="{margin + r * cell + cell / 2 + 5}" '
            f'text-anchor="middle" font-size="14">{LETTERS[r]}</text>'
        )
    radius = cell * 0.4
    for i in range(n * n):
        token = state.cell_token(i)
        if token in "+-":
            continue
        r, c = divmod(i, n)
        cx, cy = margin + c * cell + cell / 2, margin + r * cell + cell / 2
        colour = "white" if token in "Ww" else "black"
        opacity = "1" if token in "WB" else "0.35"
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{colour}" '
            f'fill-opacity="{opacity}" stroke="black" stroke-opacity="{opacity}"/>'
        )
        if i == state.last_move:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.1}" fill="red"/>')
    white, black = state.scores()
    status = "game over" if state.is_over() else f"{state.game.player_names[state.to_move]} to move"
    parts.append(
        f'<text x="{margin}" y="{height - 12}" font-size="14">'
        f"White {white} - Black {black} ({status})</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
