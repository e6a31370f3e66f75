"""Connect Four moves as text: a column is a letter a-g or a number 1-7."""

from __future__ import annotations

from boardgames.errors import NotationError

LETTERS = "abcdefg"


def parse_column(text: str) -> int:
    """The column index of 'd' or '4' (case-insensitive); NotationError otherwise."""
    t = text.strip().lower()
    if len(t) == 1 and t in LETTERS:
        return LETTERS.index(t)
    if t.isdigit() and 1 <= int(t) <= len(LETTERS):
        return int(t) - 1
    raise NotationError(text, "a column is a letter a-g or a number 1-7")


def format_column(move: int) -> str:
    return LETTERS[move]
