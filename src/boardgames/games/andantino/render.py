"""Pictures of an Andantino position: a text hex grid and an SVG.

Text: one line per row A..S, cells two columns apart and each row shifted by
half a cell, so the six neighbours of a cell sit where the eye expects them.
`W`/`B` are stones, `+` marks the legal cells, `.` the other empty cells, and
the last stone is framed by brackets.  Each row is labelled with its letter
and its cell numbers (1 at the left end).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .geometry import INDEX, RADIUS
from .notation import ROW_LETTERS, format_cell, row_length, row_start
from .rules import SELF_ENCLOSED

if TYPE_CHECKING:
    from .rules import AndantinoState

_RESET = "\033[0m"
_STYLE = {0: "\033[1;97m", 1: "\033[1;31m", "legal": "\033[32m", "last": "\033[1;33m"}
_MARK = {0: "W", 1: "B"}


def _cell_char(state: AndantinoState, cell: int, legal: set[int], color: bool) -> str:
    player = state.board[cell]
    if player >= 0:
        char = _MARK[player]
        return f"{_STYLE[player]}{char}{_RESET}" if color else char
    if cell in legal:
        return f"{_STYLE['legal']}+{_RESET}" if color else "+"
    return "."


def outcome_text(state: AndantinoState) -> str:
    """'white wins by five in a row', 'draw: no move left', ..."""
    outcome = state.outcome()
    if outcome is None:
        return "game in progress"
    winner = outcome.winner
    if winner is None:
        return f"draw: {outcome.reason}"
    names = state.game.player_names
    if outcome.reason == SELF_ENCLOSED:
        return f"{names[winner]} wins: {names[1 - winner]} played into an enclosed pocket"
    return f"{names[winner]} wins by {outcome.reason}"


def render_text(state: AndantinoState, color: bool = False) -> str:
    """The board as text, row by row, with the legal cells and the last
    move marked (ANSI colours with `color`)."""
    legal = set(state.legal_moves())
    last = state.last_move
    names = state.game.player_names
    lines = []
    for row, letter in enumerate(ROW_LETTERS):
        z = row - RADIUS
        x0 = row_start(z)
        cells = [INDEX[(x, -x - z, z)] for x in range(x0, x0 + row_length(z))]
        chars = [" "] * (2 * len(cells) + 1)
        for i, cell in enumerate(cells):
            chars[2 * i + 1] = _cell_char(state, cell, legal, color)
            if cell == last:
                chars[2 * i] = f"{_STYLE['last']}[{_RESET}" if color else "["
                chars[2 * i + 2] = f"{_STYLE['last']}]{_RESET}" if color else "]"
        pad = " " * abs(z)
        lines.append(f"{letter} {pad}{''.join(chars)}{pad} {letter}  1-{len(cells)}")
    if state.is_over():
        status = outcome_text(state)
    else:
        status = f"{names[state.to_move]} to move, {len(legal)} legal"
    moved = f"last: {format_cell(last)}" if last is not None else "no move yet"
    lines.append(f"W white, B black, + legal. {moved}; {status}")
    return "\n".join(lines)


def render_svg(state: AndantinoState, size: float = 14.0) -> str:
    """Pointy-top hexagons with row labels; the last stone gets a ring."""
    w = math.sqrt(3) * size
    h = 1.5 * size
    margin = 2.2 * size
    width = 19 * w + 2 * margin
    height = 18 * h + 2 * size + 2 * margin
    legal = set(state.legal_moves())
    corners = [
        (size * math.cos(math.radians(60 * k - 30)), size * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#f4e8c8"/>',
    ]
    for row, letter in enumerate(ROW_LETTERS):
        z = row - RADIUS
        x0 = row_start(z)
        cy = margin + size + row * h
        for x in range(x0, x0 + row_length(z)):
            cell = INDEX[(x, -x - z, z)]
            cx = margin + w / 2 + (x + RADIUS + z / 2) * w
            points = " ".join(f"{cx + dx:.1f},{cy + dy:.1f}" for dx, dy in corners)
            fill = "#e6f2d0" if cell in legal else "#e8d9b0"
            parts.append(
                f'<polygon points="{points}" fill="{fill}" stroke="#8a7a55" stroke-width="1">'
                f"<title>{format_cell(cell)}</title></polygon>"
            )
            player = state.board[cell]
            if player >= 0:
                colour = ("#fafafa", "#202020")[player]
                parts.append(
                    f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{0.72 * size:.1f}" '
                    f'fill="{colour}" stroke="#202020" stroke-width="1"/>'
                )
            if cell == state.last_move:
                parts.append(
                    f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{0.35 * size:.1f}" '
                    'fill="none" stroke="#d03020" stroke-width="2.5"/>'
                )
        lx = margin + w / 2 + (x0 + RADIUS + z / 2) * w - w
        parts.append(
            f'<text x="{lx:.1f}" y="{cy + 4:.1f}" font-size="{0.8 * size:.0f}" '
            f'text-anchor="middle">{letter}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
