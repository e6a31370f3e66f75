"""The library's exceptions: one place, one reason per error."""

from __future__ import annotations

from typing import Any

#: Longest quotation of bad input in an error message.
QUOTE_LIMIT = 80


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, escaped; a long one keeps its start and its end (a file
    name) around a '...' mark, so a huge bad input never makes a huge message."""
    text = repr(value)
    if len(text) <= limit:
        return text
    tail = max(8, limit // 4)
    return f"{text[: limit - tail]}...{text[-tail:]} ({len(str(value))} characters)"


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
    """A move was asked for in a finished game.

    The message says so, with the result when the raiser knows it:
    "the game is over (white won)".  It is still an IllegalMoveError (what
    was asked for, `move`, is kept) for code that catches those.
    """

    def __init__(self, move: str = "", result: str = "") -> None:
        self.move = move
        self.reason = "the game is over"
        self.result = result
        message = self.reason + (f" ({result})" if result else "")
        BoardgamesError.__init__(self, message)


class SearchStopped(BoardgamesError, TimeoutError):
    """A search or a solve stopped before it finished: its time or node budget ran out.

    The one "stopped early" exception of every search and solver in the
    library (raised by their `budget.Budget`).  `seconds` and `nodes` say
    how far it got when the raiser knows (None otherwise).  A TimeoutError,
    so that code catching timeouts catches it too.
    """

    seconds: float | None = None
    nodes: int | None = None

    @classmethod
    def gave_up(
        cls, seconds: float, nodes: int | None = None, what: str = "solve"
    ) -> SearchStopped:
        """The documented message: "solve gave up after 2.00 s (1234 nodes)"."""
        shown = f" ({nodes} nodes)" if nodes is not None else ""
        error = cls(f"{what} gave up after {seconds:.2f} s{shown}")
        error.seconds, error.nodes = seconds, nodes
        return error


# --- files, extras and the arena ------------------------------------------------------------


class BadFileError(NotationError):
    """A file that is not a good record (or manifest): the message names the
    whole path, then the reason ('games/00-01-0000.json: not a JSON ...')."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.args = (f"{path}: {reason}",)


class MissingExtraError(BoardgamesError, ImportError):
    """An optional dependency is not installed."""


class TournamentInUseError(OptionError):
    """Another process is playing this tournament directory's games."""


class PlayerHung(BoardgamesError):
    """A player ran past a hard time limit and was stopped."""


class PlayerCrashed(BoardgamesError):
    """A player tried to exit the process."""


class PlayerFault(BoardgamesError):
    """A player broke the referee's rules in a way that loses the game, and
    says how: `end` is the kind of end (a `game.End` value: "crash",
    "malformed", "hang", ...), the message the reason.  An external
    program's faults (a crash, a garbled answer, a flood, no answer) reach
    the referee as these."""

    def __init__(self, end: str, message: str) -> None:
        super().__init__(message)
        self.end = end


class ProgramError(OptionError):
    """A program that cannot be used as a player: missing, not executable,
    silent or garbled at its handshake, or refusing the game."""


class GameInterrupted(KeyboardInterrupt):
    """Ctrl-C during `play_game`; `record` holds the moves so far, unfinished."""

    def __init__(self, record: Any) -> None:  # an match.records.GameRecord
        super().__init__("interrupted")
        self.record = record


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `play_match`; `summary` holds the games so far, the
    interrupted one last (unfinished)."""

    def __init__(self, summary: Any) -> None:  # an match.play.MatchSummary
        super().__init__("interrupted")
        self.summary = summary


# --- requests from a human player (not errors: the match loop acts on them) --------------


class PlayerRequest(BoardgamesError):
    """A request from a player that is not a move; the match loop handles it."""


class QuitRequest(PlayerRequest):
    """Stop the game now: `quit`, end of input or Ctrl-C; or `resign` and lose it
    (`args[0]` says which)."""


class UndoRequest(PlayerRequest):
    """Take back this player's last move and every move made after it."""


class SaveRequest(PlayerRequest):
    """Save the game so far to `path`, then ask the same player again."""

    def __init__(self, path: str) -> None:
        super().__init__(f"save to {path}")
        self.path = path
