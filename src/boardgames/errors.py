"""The library's exceptions: one place, one reason per error."""

from __future__ import annotations

from typing import Any

#: Longest quotation of bad input in an error message.
QUOTE_LIMIT = 40


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, escaped, cut to about `limit` characters with a '...' mark,
    so that a huge bad input never makes a huge error message."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}...({len(str(value))} characters)"


class BoardgamesError(Exception):
    """Base class of every error the library raises on purpose."""


class NotationError(BoardgamesError, ValueError):
    """Text that cannot be parsed as a move, a position or a file."""

    def __init__(self, text: str, reason: str = "") -> None:
        self.text = text
        self.reason = reason
        message = f"cannot parse {quote(text)}" + (f": {reason}" if reason else "")
        super().__init__(message)


class IllegalMoveError(BoardgamesError, ValueError):
    """A well-formed move that the rules forbid in this position."""

    def __init__(self, move: str, reason: str = "") -> None:
        self.move = move
        self.reason = reason
        shown = move if len(move) <= QUOTE_LIMIT else quote(move)
        message = f"illegal move: {shown}" + (f" ({reason})" if reason else "")
        super().__init__(message)


class OptionError(BoardgamesError, ValueError):
    """A game, AI, search or command option with a bad value (NaN, out of range, ...)."""


class UnknownNameError(BoardgamesError, ValueError):
    """An unknown game, AI, evaluator or option name."""


class ProtocolError(BoardgamesError):
    """A line protocol was broken: a command that cannot be carried out (the
    engine protocol's `?` line), or a peer that sent a bad line or went away
    (the tournament protocol)."""


class GameOverError(IllegalMoveError):
    """A move was asked for in a finished game."""

    def __init__(self, move: str = "") -> None:
        super().__init__(move, "the game is over")
