"""Andantino notation: `J10` (row letter + number) and cube `x,y,z`.

Rows A..S run from the top (z = -9) to the bottom (z = +9); within a row the
cells are numbered 1.. from the left (smallest x).  The centre is J10.

A position is its move list (`J10` cells or cube `x,y,z`, White first; the
Black centre stone is implied), which `parse_position` reads.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...errors import IllegalMoveError, NotationError
from .geometry import CUBES, INDEX, RADIUS

if TYPE_CHECKING:
    from .rules import AndantinoRules, AndantinoState

ROW_LETTERS = "ABCDEFGHIJKLMNOPQRS"

# Digits are ASCII only ([0-9], not \d: no other scripts' digits), and a cube
# coordinate has at most 9 of them (any longer is off the board, and too long for int).
_CELL = re.compile(r"([a-s])([0-9]{1,2})", re.IGNORECASE | re.ASCII)
_CUBE = re.compile(r"\(?\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*\)?")
#: One move in a move list: a cube triple (spaces allowed after commas) or a word.
_TOKEN = re.compile(r"\(?\s*-?[0-9]+\s*,\s*-?[0-9]+\s*,\s*-?[0-9]+\s*\)?|[^\s,;]+")


def row_start(z: int) -> int:
    """Smallest x in row z."""
    return max(-RADIUS, -RADIUS - z)


def row_length(z: int) -> int:
    """The number of cells in the row at cube coordinate `z`."""
    return 2 * RADIUS + 1 - abs(z)


def format_cell(index: int) -> str:
    """The cell's name: its row letter and its place in the row, e.g. `J10`."""
    x, _, z = CUBES[index]
    return f"{ROW_LETTERS[z + RADIUS]}{x - row_start(z) + 1}"


def format_cube(index: int) -> str:
    """The cell's cube coordinates as text, `x,y,z`."""
    return ",".join(str(v) for v in CUBES[index])


def parse_cell(text: str) -> int:
    """A cell index from `J10` or `x,y,z` (case and spaces ignored)."""
    t = text.strip()
    m = _CELL.fullmatch(t)
    if m:
        z = ROW_LETTERS.index(m.group(1).upper()) - RADIUS
        number = int(m.group(2))
        if not 1 <= number <= row_length(z):
            raise NotationError(text, f"row {m.group(1).upper()} has cells 1..{row_length(z)}")
        x = row_start(z) + number - 1
        return INDEX[(x, -x - z, z)]
    m = _CUBE.fullmatch(t)
    if m and t.startswith("(") != t.endswith(")"):
        raise NotationError(text, "unbalanced parentheses around the cube x,y,z")
    if m:
        x, y, z = (int(g) for g in m.groups())
        if x + y + z != 0:
            raise NotationError(text, "cube coordinates must add up to 0")
        if max(abs(x), abs(y), abs(z)) > RADIUS:
            raise NotationError(text, f"off the board (radius {RADIUS})")
        return INDEX[(x, y, z)]
    raise NotationError(
        text, "expected a cell like J10 (row A-S, number from the left) or cube x,y,z"
    )


def split_moves(text: str) -> list[str]:
    """The move tokens of a move list; `#` starts a comment to the end of line."""
    tokens: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        tokens.extend(m.group(0).strip() for m in _TOKEN.finditer(line))
    return tokens


def parse_position(game: AndantinoRules, text: str) -> AndantinoState:
    """The position after the move list `text` (see `split_moves`); the error
    names the move at fault and its number."""
    state = game.new_state()
    for number, token in enumerate(split_moves(text), 1):
        try:
            state.play(token)
        except IllegalMoveError as exc:
            raise NotationError(text.strip(), f"move {number} ({token}): {exc}") from None
        except NotationError as exc:
            raise NotationError(text.strip(), f"move {number}: {exc}") from None
    return state
