"""Where each move is on a game's own SVG board: the web page's click regions.

The games draw their boards (`game.render_svg`) without saying which shape is
which move, and no game has web-specific code.  This module finds the moves
on the picture of the start position by one of a few generic rules, tried in
this order:

1. *titled*: area shapes (polygon, rect) whose `<title>` starts with a move's
   name (Andantino titles every cell);
2. *grid*: exactly `num_moves` congruent area shapes, the k-th in document
   order being move k (Squatter's and Hadron's cell squares);
3. *edges*: exactly `num_moves` lines of one length, the k-th being move k
   (HexiFence and dots); each gets a diamond reaching to the centres of the
   cells beside it, so the whole board is clickable;
4. *titled* shapes of any kind (small discs, for instance).

A rule's answer is then checked on the board itself: a few legal moves are
played and each must change the picture inside its own region.  A game
where no rule passes the check (Connect Four's moves are columns) has no
click regions; the page then offers its legal moves as buttons.

The proper library hook would be for `render_svg` to mark each move's shape
(`data-move="k"`) or for `Game` to expose `move_regions()`; this module is
the stand-in that needs neither.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from ..errors import BoardgamesError
from ..game import Game

Point = tuple[float, float]
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


@dataclass(frozen=True)
class Region:
    """One move's clickable shape, in the SVG's own coordinates."""

    move: int
    name: str
    #: "polygon" (points), "rect" (x, y, w, h), "circle" (cx, cy, r).
    kind: str
    coords: tuple[float, ...]
    #: Where a mark for the move goes (the shape's centre).
    centre: Point
    #: For edge moves: the drawn segment (x1, y1, x2, y2), else None.
    segment: tuple[float, float, float, float] | None = None

    def contains(self, x: float, y: float, slack: float = 0.5) -> bool:
        """Whether the point (x, y) lies in the region (or within `slack` of it)."""
        if self.kind == "rect":
            rx, ry, w, h = self.coords
            return rx - slack <= x <= rx + w + slack and ry - slack <= y <= ry + h + slack
        if self.kind == "circle":
            cx, cy, r = self.coords
            return math.hypot(x - cx, y - cy) <= r + slack
        points = list(zip(self.coords[0::2], self.coords[1::2]))
        return _in_polygon(points, x, y) or any(
            math.hypot(x - px, y - py) <= slack for px, py in points
        )

    def to_json(self) -> dict[str, Any]:
        """The region as JSON data for the page."""
        data: dict[str, Any] = {
            "move": self.move,
            "name": self.name,
            "kind": self.kind,
            "coords": [round(c, 2) for c in self.coords],
            "centre": [round(self.centre[0], 2), round(self.centre[1], 2)],
        }
        if self.segment is not None:
            data["segment"] = [round(c, 2) for c in self.segment]
        return data


@dataclass(frozen=True)
class Board:
    """A game's click regions (empty when none could be found) and how they were found."""

    regions: tuple[Region, ...]
    rule: str

    def to_json(self) -> dict[str, Any]:
        """The board as JSON data for the page: the rule that found it, the regions."""
        return {"rule": self.rule, "regions": [r.to_json() for r in self.regions]}


_BOARDS: dict[Game[Any], Board] = {}


def board_for(game: Game[Any]) -> Board:
    """The click regions of `game` (computed once per game and options)."""
    if game not in _BOARDS:
        _BOARDS[game] = find_board(game)
    return _BOARDS[game]


def find_board(game: Game[Any]) -> Board:
    """Try each rule in turn; the first whose regions pass `verify` wins."""
    try:
        elements = parse_svg(game.render_svg(game.new_state()))
    except (ET.ParseError, BoardgamesError, ValueError):
        return Board((), "none")
    for rule, find in RULES:
        try:
            regions = find(game, elements)
        except (BoardgamesError, ValueError, ZeroDivisionError):
            continue
        if regions is not None and verify(game, regions):
            return Board(tuple(regions), rule)
    return Board((), "none")


# --- reading the SVG ----------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """One drawn element: its tag, its geometry, its title, its serialized form."""

    tag: str
    coords: tuple[float, ...]
    title: str
    text: str

    @property
    def centre(self) -> Point:
        """The shape's centre (a polygon's: the mean of its corners)."""
        if self.tag in ("rect",):
            x, y, w, h = self.coords
            return x + w / 2, y + h / 2
        if self.tag in ("circle", "text"):
            return self.coords[0], self.coords[1]
        xs, ys = self.coords[0::2], self.coords[1::2]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    def signature(self) -> tuple[Any, ...]:
        """What congruent shapes share: the size, not the place."""
        if self.tag == "rect":
            return ("rect", round(self.coords[2], 1), round(self.coords[3], 1))
        if self.tag == "circle":
            return ("circle", round(self.coords[2], 1))
        if self.tag == "line":
            x1, y1, x2, y2 = self.coords
            return ("line", round(math.hypot(x2 - x1, y2 - y1), 1))
        xs, ys = self.coords[0::2], self.coords[1::2]
        return ("polygon", len(xs), round(max(xs) - min(xs), 1), round(max(ys) - min(ys), 1))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _numbers(element: ET.Element, names: tuple[str, ...]) -> tuple[float, ...] | None:
    values = []
    for name in names:
        text = element.get(name, "")
        try:
            values.append(float(text))
        except ValueError:
            return None  # "100%" and the like: not a shape with a place
    return tuple(values)


def _coords(element: ET.Element, tag: str) -> tuple[float, ...] | None:
    if tag == "rect":
        return _numbers(element, ("x", "y", "width", "height")) if element.get("x") else None
    if tag == "circle":
        return _numbers(element, ("cx", "cy", "r"))
    if tag == "line":
        return _numbers(element, ("x1", "y1", "x2", "y2"))
    if tag == "text":
        return _numbers(element, ("x", "y"))
    if tag == "polygon":
        numbers = tuple(float(n) for n in _NUMBER.findall(element.get("points", "")))
        return numbers if len(numbers) >= 6 and len(numbers) % 2 == 0 else None
    return None


def parse_svg(svg: str) -> list[Shape]:
    """The drawn elements of an SVG in document order (those with a geometry)."""
    root = ET.fromstring(svg)
    shapes = []
    for element in root.iter():
        tag = _local(element.tag)
        coords = _coords(element, tag)
        if coords is None:
            continue
        title = ""
        for child in element:
            if _local(child.tag) == "title":
                title = (child.text or "").strip()
        shapes.append(Shape(tag, coords, title, ET.tostring(element, encoding="unicode")))
    return shapes


# --- the rules ------------------------------------------------------------------------


def _region(game: Game[Any], move: int, shape: Shape) -> Region:
    kind = "polygon" if shape.tag == "polygon" else shape.tag
    return Region(move, game.format_move(move), kind, shape.coords, shape.centre)


def _titled(game: Game[Any], shapes: list[Shape], tags: tuple[str, ...]) -> list[Region] | None:
    found: dict[int, Region] = {}
    for shape in shapes:
        if shape.tag not in tags or not shape.title:
            continue
        try:
            move = game.parse_move(shape.title.split()[0])
        except BoardgamesError:
            continue
        found.setdefault(move, _region(game, move, shape))
    if len(found) != game.num_moves:
        return None
    return [found[m] for m in range(game.num_moves)]


def _congruent(shapes: list[Shape], tags: tuple[str, ...], count: int) -> list[Shape] | None:
    """The one group of exactly `count` congruent shapes of these tags, in order."""
    groups: dict[tuple[Any, ...], list[Shape]] = {}
    for shape in shapes:
        if shape.tag in tags:
            groups.setdefault(shape.signature(), []).append(shape)
    matches = [group for group in groups.values() if len(group) == count]
    return matches[0] if len(matches) == 1 else None


def titled_areas(game: Game[Any], shapes: list[Shape]) -> list[Region] | None:
    """The regions of shapes whose titles name the moves (polygons, rectangles)."""
    return _titled(game, shapes, ("polygon", "rect"))


def grid(game: Game[Any], shapes: list[Shape]) -> list[Region] | None:
    """The regions of a group of congruent cells, one per move, in move order."""
    group = _congruent(shapes, ("polygon", "rect"), game.num_moves)
    if group is None:
        return None
    return [_region(game, move, shape) for move, shape in enumerate(group)]


def edges(game: Game[Any], shapes: list[Shape]) -> list[Region] | None:
    """The regions of a group of congruent lines, one per move (the edges of
    the edge games)."""
    lines = _congruent(shapes, ("line",), game.num_moves)
    if lines is None:
        return None
    cells = [s.centre for s in shapes if s.tag == "polygon"]
    regions = []
    for move, line in enumerate(lines):
        x1, y1, x2, y2 = line.coords
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            return None
        # Half the diamond's width: to the nearest cell centre (the apothem),
        # which makes the diamonds of a board tile it.
        reach = min((math.hypot(cx - mx, cy - my) for cx, cy in cells), default=length / 2)
        reach = max(min(reach, length), length / 4)
        nx, ny = -(y2 - y1) / length * reach, (x2 - x1) / length * reach
        points = (x1, y1, mx + nx, my + ny, x2, y2, mx - nx, my - ny)
        segment = (x1, y1, x2, y2)
        regions.append(Region(move, game.format_move(move), "polygon", points, (mx, my), segment))
    return regions


def titled_any(game: Game[Any], shapes: list[Shape]) -> list[Region] | None:
    """The regions of any shapes whose titles name the moves (circles too)."""
    return _titled(game, shapes, ("polygon", "rect", "circle"))


RULES = (("titled", titled_areas), ("grid", grid), ("edges", edges), ("titled", titled_any))


# --- the check --------------------------------------------------------------------------


def verify(game: Game[Any], regions: list[Region], samples: int = 3) -> bool:
    """Play a few legal moves from the start: each must change the picture
    inside its own region (a new or changed shape centred there)."""
    state = game.new_state()
    legal = state.legal_moves()
    if not legal or len(regions) != game.num_moves:
        return False
    picks = sorted({legal[0], legal[len(legal) // 2], legal[-1]})[:samples]
    before = {s.text for s in parse_svg(game.render_svg(state))}
    for move in picks:
        state.make(move)
        try:
            after = parse_svg(game.render_svg(state))
        finally:
            state.undo()
        new = [s for s in after if s.text not in before and s.tag != "text"]
        region = regions[move]
        if not any(region.contains(*s.centre) for s in new):
            return False
    return True


def _in_polygon(points: list[Point], x: float, y: float) -> bool:
    inside = False
    j = len(points) - 1
    for i, (xi, yi) in enumerate(points):
        xj, yj = points[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside

