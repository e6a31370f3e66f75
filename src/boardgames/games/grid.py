"""The common notation of the grid games (docs/squatter.md, hadron.md and
hexifence.md, "Notation"): a point is a row
letter + column number, `A1` = row 0, column 0, the top-left corner; rows go
down (A, B, ...), columns go right (1, 2, ...).  `row,col` (0-based integers)
is accepted too, as the original Java referees used.  Case-insensitive.

Squatter and Hadron name cells this way, HexiFence the points of its edge grid.
"""

from __future__ import annotations

from ..errors import NotationError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def format_point(row: int, col: int) -> str:
    """The point's name: row letter and column number, e.g. `B3` for (1, 2)."""
    return f"{LETTERS[row]}{col + 1}"


def parse_point(text: str, rows: int, cols: int) -> tuple[int, int]:
    """(row, col) of a cell name on a rows x cols board; NotationError otherwise."""
    t = text.strip() if isinstance(text, str) else ""
    if not t:
        raise NotationError(str(text), "empty cell name (expected e.g. E5 or 4,4)")
    if not t.isascii():  # no other scripts' digits or letters that upper-case to ASCII
        raise NotationError(text, "a cell name is ASCII letters and digits, e.g. E5 or 4,4")
    t = t.upper()
    if "," in t:
        parts = [p.strip() for p in t.split(",")]
        if len(parts) != 2 or not all(p.removeprefix("-").isdigit() for p in parts):
            raise NotationError(text, "expected row,col as two 0-based integers")
        row, col = _number(parts[0]), _number(parts[1])
    else:
        letter, digits = t[0], t[1:]
        if letter not in LETTERS or not digits.isdigit():
            raise NotationError(text, "expected a row letter and a column number, e.g. E5")
        row, col = LETTERS.index(letter), _number(digits) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        last = format_point(rows - 1, cols - 1)
        raise NotationError(text, f"off the {rows} x {cols} board (A1..{last})")
    return row, col


def _number(digits: str) -> int:
    """An ASCII integer; one too long for any board (or for `int`) as -1, off every board."""
    return int(digits) if len(digits) <= 9 else -1
