"""Text and SVG pictures of edge-capture boards (HexiFence and dots-and-boxes)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from .rules import UNKNOWN

if TYPE_CHECKING:
    from .rules import EdgeState

ANSI = {0: "\033[1;34m", 1: "\033[1;31m", UNKNOWN: "\033[1m"}
RESET = "\033[0m"
EDGE_COLOURS = {0: "#1f5fbf", 1: "#c8102e", UNKNOWN: "#333333"}
CELL_COLOURS = {0: "#a9c8f5", 1: "#f5a9b4", UNKNOWN: "#cccccc"}

XY = tuple[float, float]


def _paint(text: str, who: int, color: bool) -> str:
    return f"{ANSI[who]}{text}{RESET}" if color and who >= 0 else text


def _footer(state: EdgeState) -> str:
    names = state.game.player_names
    a, b = state.scores()
    turn = "game over" if state.is_over() else f"{names[state.to_move]} to move"
    return f"{names[0]} {a} - {b} {names[1]}, {turn}"


def render_text(state: EdgeState, color: bool = False) -> str:
    """The board as text, with the scores and the side to move below it
    (ANSI colours with `color`)."""
    if state.game.name == "hexifence":
        return _hex_text(state, color) + "\n" + _footer(state)
    return _dots_text(state, color) + "\n" + _footer(state)


def _hex_text(state: EdgeState, color: bool) -> str:
    """The course grid slanted into a hexagon: row i shifts left by half a token."""
    game = state.game
    size = game.layout.rows
    width = 2 * size - 1 + size
    canvas = [[" "] * width for _ in range(size)]
    for e, (i, j) in enumerate(game.layout.edge_points):
        who = state.claimed[e]
        canvas[i][2 * j - i + size - 1] = _paint("+BRB"[who + 1], who, color)
    for c, (i, j) in enumerate(game.layout.cell_points):
        who = state.owner[c]
        canvas[i][2 * j - i + size - 1] = _paint(".br?"[who + 1], who, color)
    lines = [f"{chr(ord('A') + i)}  " + "".join(row).rstrip() for i, row in enumerate(canvas)]
    return "\n".join(lines)


def _dots_text(state: EdgeState, color: bool) -> str:
    game = state.game
    edge_at = game.point_to_edge
    cell_at = {p: c for c, p in enumerate(game.layout.cell_points)}
    out = []
    for i in range(game.layout.rows):
        parts = []
        for j in range(game.layout.cols):
            if i % 2 == 0 and j % 2 == 0:
                parts.append("+")
            elif i % 2 == 0 or j % 2 == 0:
                who = state.claimed[edge_at[(i, j)]]
                mark = ("---" if i % 2 == 0 else "|") if who >= 0 else (
                    "   " if i % 2 == 0 else " ")
                parts.append(_paint(mark, who, color))
            else:
                who = state.owner[cell_at[(i, j)]]
                parts.append(" " + _paint("12?"[who] if who >= 0 else " ", who, color) + " ")
        out.append(f"{chr(ord('A') + i)}  " + "".join(parts).rstrip())
    return "\n".join(out)


# --- SVG ------------------------------------------------------------------------------


def render_svg(state: EdgeState) -> str:
    """Claimed edges coloured by player, captured cells filled, empty edges dotted."""
    game = state.game
    hexagonal = game.name == "hexifence"
    unit = 18.0
    if hexagonal:
        # Grid step (i, j) -> i * down-left + j * right; the cell apothem is one step.
        def xy(i: float, j: float) -> tuple[float, float]:
            return unit * (j - i / 2), unit * i * math.sqrt(3) / 2

        half_side = unit / math.sqrt(3)
    else:
        def xy(i: float, j: float) -> tuple[float, float]:
            return unit * j, unit * i

        half_side = unit
    layout = game.layout
    cells = []
    for c, (i, j) in enumerate(layout.cell_points):
        corners: list[XY] = []
        for e in game.cell_edges[c]:
            corners.extend(_segment(xy, layout.edge_points[e], (i, j), half_side))
        who = state.owner[c]
        fill = CELL_COLOURS.get(who, "#f7f3e8")
        pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in _polygon(corners, xy(i, j)))
        cells.append(f'<polygon points="{pts}" fill="{fill}"/>')
    edges = []
    for e, point in enumerate(layout.edge_points):
        centre = layout.cell_points[game.edge_cells[e][0]]
        (x1, y1), (x2, y2) = _segment(xy, point, centre, half_side)
        who = state.claimed[e]
        if who >= 0:
            style = f'stroke="{EDGE_COLOURS[who]}" stroke-width="4" stroke-linecap="round"'
        else:
            style = 'stroke="#999999" stroke-width="1" stroke-dasharray="2,3"'
        edges.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" {style}/>')
    xs, ys = [], []
    for i, j in layout.edge_points:
        x, y = xy(i, j)
        xs.append(x)
        ys.append(y)
    pad = unit * 1.5
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    names = game.player_names
    a, b = state.scores()
    title = f"{game.title}: {names[0]} {a} - {b} {names[1]}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{left:.2f} {top:.2f} {width:.2f} {height:.2f}">'
        f"<title>{title}</title>"
        f'<rect x="{left:.2f}" y="{top:.2f}" width="100%" height="100%" fill="white"/>'
        + "".join(cells)
        + "".join(edges)
        + "</svg>"
    )


def _polygon(corners: list[XY], centre: XY) -> list[XY]:
    """The cell's corners (each side gives two) in order around `centre`, once each."""
    cx, cy = centre
    corners = sorted(corners, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    unique: list[XY] = []
    for p in corners:
        if not unique or math.dist(p, unique[-1]) > 1e-6:
            unique.append(p)
    if len(unique) > 1 and math.dist(unique[0], unique[-1]) < 1e-6:
        unique.pop()
    return unique


def _segment(
    xy: Callable[[float, float], XY],
    point: tuple[int, int],
    centre: tuple[int, int],
    half_side: float,
) -> tuple[XY, XY]:
    """The side of the cell at `centre` through the edge point `point`."""
    ex, ey = xy(*point)
    cx, cy = xy(*centre)
    dx, dy = ex - cx, ey - cy
    norm = math.hypot(dx, dy)
    px, py = -dy / norm * half_side, dx / norm * half_side
    return (ex + px, ey + py), (ex - px, ey - py)
