"""Game records: what was played, by whom, and how it ended, as JSON.

Moves are stored in the game's notation (readable, and stable if a game's
internal move numbering ever changes).  A record names the game and its
options, so `replay()` rebuilds the final position from the file alone.
Loading checks every field and reports a bad file with its path and reason.

How the game ended is written by three methods only: `from_state` (a new
record), `finish` (the result the position has) and `forfeit` (a player
loses by the referee's decision).  They keep `result`, `winner`, `scores`,
`end` (an `End`) and `reason` (the game's words, or the referee's) in
agreement, as `load` checks.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..clock import TimeControl
from ..errors import BadFileError, BoardgamesError, NotationError, OptionError, quote
from ..game import End, Game, Outcome, State
from ..io import atomic_write_text, parse_json, read_text
from ..registry import get_game

FORMAT = "boardgames-record"
VERSION = 2
#: The ends by which the referee makes a player lose (`forfeit`).
LOSSES = frozenset(
    (End.RESIGNATION, End.TIME, End.TIMEOUT, End.HANG, End.ILLEGAL, End.MALFORMED, End.CRASH)
)
#: The kinds of end a record may have.
ENDS = tuple(end.value for end in End)
#: Fields written only when a game clock was used.
CLOCK_FIELDS = ("clock", "clock_left", "allotted")


def _check_clock(values: dict[str, Any], bad: Callable[[str], NotationError]) -> None:
    """The clock fields of a record being loaded (BadFileError via `bad`)."""
    if values.get("clock") is not None:
        try:
            TimeControl.parse(values["clock"])
        except OptionError as exc:
            raise bad(f"bad clock: {exc}") from None
    left = values.get("clock_left")
    if left is not None and (len(left) != 2 or not all(_is_number(x) for x in left)):
        raise bad("clock_left must be a list of two numbers of seconds")
    allotted = values.get("allotted", [])
    if not all(x is None or _is_number(x) for x in allotted):
        raise bad("allotted must be numbers of seconds (or null)")
    if allotted and len(allotted) != len(values["moves"]):
        raise bad("allotted must have one entry per move")


def _check_outcome(values: dict[str, Any], bad: Callable[[str], NotationError]) -> None:
    """The result, winner, scores and end of a record being loaded agree
    (BadFileError via `bad`): a winner in a draw, no winner when a colour won
    or a player lost by the referee, or a result for an interrupted game, is a
    hand edit that a tournament's table would count one way or the other."""
    result, winner = values.get("result", "none"), values.get("winner")
    if result != "none" and (winner is None) != (result == "draw"):
        said = "no winner" if winner is None else f"winner {winner}"
        raise bad(f"result {quote(result)} and {said} disagree")
    end = values["end"]
    if (result == "none") != (end is End.INTERRUPTED):
        raise bad(f"result {quote(result)} and end {quote(end.value)} disagree")
    if end in LOSSES and winner is None:
        raise bad(f"end {quote(end.value)} and no winner disagree")
    scores = values.get("scores")
    whole = all(isinstance(x, int) and not isinstance(x, bool) for x in scores or ())
    if scores is not None and (len(scores) != 2 or not whole):
        raise bad("scores must be null or a list of two whole numbers")


def _check_end(values: dict[str, Any], bad: Callable[[str], NotationError]) -> None:
    """`values["end"]` as an End: checked, or when missing, read from the result."""
    if "end" not in values:
        finished = values.get("result", "none") != "none"
        values["end"] = End.RULES if finished else End.INTERRUPTED
    elif values["end"] in ENDS:
        values["end"] = End(values["end"])
    else:
        raise bad(f"unknown end {quote(values['end'])} (expected one of {', '.join(ENDS)})")


#: The `reason` of a version 1 record, the kind of end it became (a stopped
#: game with a result was adjudicated; one without, interrupted).
_VERSION_1_ENDS = {
    "normal": (End.RULES, End.INTERRUPTED),
    "interrupted": (End.ADJUDICATION, End.INTERRUPTED),
    "timeout": (End.TIMEOUT, End.TIMEOUT),
    "time": (End.TIME, End.TIME),
    "illegal": (End.ILLEGAL, End.ILLEGAL),
    "crash": (End.CRASH, End.CRASH),
}


def _from_version_1(data: dict[str, Any], bad: Callable[[str], NotationError]) -> dict[str, Any]:
    """The fields of a version 1 record as this version has them: its `reason`
    was the kind of end and its `detail` the referee's words, which become
    `end` and `reason` (a game the rules ended has no words of its own)."""
    data = dict(data)
    kind, detail = data.pop("reason", "normal"), data.pop("detail", "")
    if not isinstance(kind, str) or kind not in _VERSION_1_ENDS:
        known = ", ".join(_VERSION_1_ENDS)
        raise bad(f"unknown reason {quote(str(kind))} (expected one of {known})")
    if not isinstance(detail, str):
        raise bad(f"field 'detail' has the wrong type ({type(detail).__name__})")
    finished, unfinished = _VERSION_1_ENDS[kind]
    data["end"] = (unfinished if data.get("result", "none") == "none" else finished).value
    data["reason"] = detail
    return data


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class GameRecord:
    """One game: the game and its options, the players, the moves and their
    times, and how it ended (written by `from_state`, `finish` and `forfeit`)."""

    game: str
    params: dict[str, int] = field(default_factory=dict)
    players: list[str] = field(default_factory=lambda: ["", ""])
    moves: list[str] = field(default_factory=list)
    #: "none" (unfinished), "draw", or the winner's colour.
    result: str = "none"
    #: 0 or 1 (first / second player), None for a draw or an unfinished game.
    winner: int | None = None
    scores: list[int] | None = None
    #: How the game ended; `End.INTERRUPTED` while it has no result.
    end: End = End.INTERRUPTED
    #: Why: in the game's words when the rules ended it ("five in a row"),
    #: else in the referee's (the exception, the bad move, the overrun, "Ctrl-C").
    reason: str = ""
    #: The start position in the game's text format, None for the usual start.
    start: str | None = None
    #: Seconds each move took, parallel to `moves`.
    times: list[float] = field(default_factory=list)
    date: str = field(default_factory=_now)
    #: The game clock ("SECONDS[+INCREMENT]"), None when moves were timed one by one.
    clock: str | None = None
    #: Seconds left on each side's clock (first player first) when the record was made.
    clock_left: list[float] | None = None
    #: With a clock: the seconds each move was allotted (None: an untimed player).
    allotted: list[float | None] = field(default_factory=list)

    @property
    def forfeited(self) -> bool:
        """Lost by a player's fault: time, a bad move, a crash or a hang."""
        return self.end.forfeit

    # --- the result: these three methods alone write it ------------------------------
    @classmethod
    def from_state(
        cls,
        state: State[Any],
        *,
        players: Sequence[str] = ("", ""),
        moves: Iterable[int] | None = None,
        start: str | None = None,
        times: Iterable[float] = (),
        why: str = "",
    ) -> GameRecord:
        """A record of the game that reached `state`: `moves` (indices; default:
        every move made on `state`) played from `start` (a position's text; None:
        the usual start), with the result `state` has (`finish(state, why)`)."""
        game = state.game
        played = state.history if moves is None else moves
        record = cls(
            game=game.name,
            params=dict(game.params),
            players=list(players),
            moves=[game.format_move(move) for move in played],
            start=start,
            times=list(times),
        )
        return record.finish(state, why)

    def finish(self, state: State[Any], why: str = "", *, draw: bool = False) -> GameRecord:
        """Write the result `state` has, and return the record: its outcome when
        the rules ended the game (`End.RULES`, in the game's words); otherwise
        the game stopped for `why`: unfinished (`End.INTERRUPTED`) or, with
        `draw`, adjudicated a draw (`End.ADJUDICATION`)."""
        outcome = state.outcome()
        if outcome is None and draw:
            outcome = Outcome(None, why, None, End.ADJUDICATION)
        return self._write(state, outcome, why)

    def forfeit(self, state: State[Any], loser: int, end: End, why: str) -> GameRecord:
        """Write that `loser` (0 or 1) lost at `state` by `end` (a resignation or
        a fault, one of `LOSSES`) for `why`, and return the record."""
        if end not in LOSSES:
            raise ValueError(f"{end!r} is not a way to lose ({', '.join(sorted(LOSSES))})")
        if loser not in (0, 1):
            raise ValueError(f"the loser is 0 or 1, not {loser!r}")
        return self._write(state, Outcome(1 - loser, why, None, end), why)

    def _write(self, state: State[Any], outcome: Outcome | None, why: str) -> GameRecord:
        game = state.game
        if (game.name, game.params) != (self.game, self.params):
            raise ValueError(f"a position of {game.describe()} for a record of {self.game}")
        if outcome is None:
            self.result, self.winner, self.end, self.reason = "none", None, End.INTERRUPTED, why
        else:
            self.result, self.winner = outcome.result(game.player_names), outcome.winner
            self.end, self.reason = outcome.end, outcome.reason
        self.scores = list(state.scores()) if game.scored else None
        return self

    # --- JSON --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data (`save` writes it)."""
        data = {"format": FORMAT, "version": VERSION, **asdict(self)}
        data["end"] = self.end.value
        if self.clock is None:  # records without a clock look as they always did
            for key in CLOCK_FIELDS:
                del data[key]
        return data

    def sides(self, game: Game[Any] | None = None) -> list[int]:
        """Who made each move (0: first player): replayed, since turns need not alternate."""
        state = self.start_state(game)
        sides = []
        for move in self.moves:
            sides.append(state.to_move)
            state.play(move)
        return sides

    def to_json(self) -> str:
        """One field per line, lists kept on one line: easy to read and to diff."""
        items = (f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in self.to_dict().items())
        return "{\n" + ",\n".join(items) + "\n}\n"

    @classmethod
    def from_json(cls, text: str, source: str = "<record>") -> GameRecord:
        """Parse and check a record; NotationError names `source` and the problem."""
        return cls.from_dict(parse_json(text, source, "a JSON game record"), source)

    @classmethod
    def from_dict(cls, data: Any, source: str = "<record>") -> GameRecord:
        """The record that `data` (from `to_dict`) describes; `source` names it
        in errors.

        Raises:
            BadFileError: data that is not a game record of a known version, or
                with a missing field or a field of the wrong type."""
        def bad(reason: str) -> NotationError:
            return BadFileError(source, reason)

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f'not a game record (no "format": "{FORMAT}")')
        if "version" not in data:
            raise bad(f'no "version" field (a record this program writes has "version": {VERSION})')
        version = data.get("version")
        if type(version) is not int or not 1 <= version <= VERSION:
            raise bad(f"unsupported record version {version!r} (expected 1 to {VERSION})")
        if version == 1:
            data = _from_version_1(data, bad)
        checks: dict[str, tuple[type | tuple[type, ...], bool]] = {
            "game": (str, True),
            "params": (dict, False),
            "players": (list, False),
            "moves": (list, True),
            "result": (str, False),
            "winner": ((int, type(None)), False),
            "scores": ((list, type(None)), False),
            "end": (str, False),
            "reason": (str, False),
            "start": ((str, type(None)), False),
            "times": (list, False),
            "date": (str, False),
            "clock": ((str, type(None)), False),
            "clock_left": ((list, type(None)), False),
            "allotted": (list, False),
        }
        values: dict[str, Any] = {}
        for key, (kind, required) in checks.items():
            if key not in data:
                if required:
                    raise bad(f"missing field {key!r}")
                continue
            value = data[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise bad(f"field {key!r} has the wrong type ({type(value).__name__})")
            values[key] = value
        if not all(isinstance(m, str) for m in values["moves"]):
            raise bad("every move must be a string in the game's notation")
        params = values.get("params", {})
        if not all(isinstance(k, str) and isinstance(v, int) for k, v in params.items()):
            raise bad("params must map option names to whole numbers")
        if not all(_is_number(t) and t >= 0 for t in values.get("times", [])):
            raise bad("times must be numbers of seconds (finite, >= 0)")
        _check_clock(values, bad)
        _check_end(values, bad)
        if values.get("winner") not in (None, 0, 1):
            raise bad(f"winner must be 0, 1 or null, not {values['winner']!r}")
        _check_outcome(values, bad)
        players = values.get("players", ["", ""])
        if len(players) != 2 or not all(isinstance(p, str) for p in players):
            raise bad("players must be a list of two names")
        return cls(**values)

    # --- files -------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        atomic_write_text(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record; OSError if unreadable, NotationError (BadFileError, naming
        `path`) if it is not a good record."""
        return cls.from_json(read_text(path), source=str(path))

    @classmethod
    def load_all(cls, path: str | os.PathLike[str]) -> list[GameRecord]:
        """The records of a record file: one record, or JSON lines (`records_in_text`);
        OSError if unreadable, BadFileError naming `path` (and the line)."""
        return records_in_text(read_text(path), str(path))

    # --- positions ---------------------------------------------------------------
    def get_game(self) -> Game[Any]:
        """The game the record was played at, with its options."""
        return get_game(self.game, **self.params)

    def start_state(self, game: Game[Any] | None = None) -> State[Any]:
        """The position before the first move; NotationError for a start position
        of another board than the record's game (a 4 x 4 board in a size=3 record)."""
        game = game or self.get_game()
        if self.start is None:
            start: State[Any] = game.new_state()
            return start
        state: State[Any] = game.parse_position(self.start)
        if state.game != game:
            raise NotationError(
                self.start, f"a start position of {state.game.describe()} in a record of"
                f" {game.describe()}"
            )
        return state

    def replay(self, game: Game[Any] | None = None, upto: int | None = None) -> State[Any]:
        """The position after the record's moves (the first `upto` of them).

        A move that does not parse or is illegal raises BoardgamesError
        naming its number, so a hand-edited file is easy to fix.
        """
        game = game or self.get_game()
        state = self.start_state(game)
        for number, move in enumerate(self.moves[:upto], start=1):
            try:
                state.play(move)
            except BoardgamesError as exc:
                raise BoardgamesError(f"record move {number} ({move!r}): {exc}") from None
        return state

    def summary(self) -> str:
        """'hadron: a vs b: white wins (no legal move), 41 moves', '... red wins by
        timeout: b took 2.3 s (limit 1 s), 12 moves', '... unfinished (Ctrl-C),
        5 moves'."""
        names = " vs ".join(p or "?" for p in self.players)
        outcome = {"none": "unfinished", "draw": "draw"}.get(self.result, f"{self.result} wins")
        line = f"{self.game}: {names}: {outcome}"
        notes = [] if self.scores is None else [f"{self.scores[0]}-{self.scores[1]}"]
        in_words = self.end in (End.RULES, End.INTERRUPTED)
        if in_words and self.reason:
            notes.append(self.reason)
        if notes:
            line += f" ({', '.join(notes)})"
        if not in_words:
            line += f" by {self.end.value}" + (f": {self.reason}" if self.reason else "")
        return f"{line}, {len(self.moves)} moves"


def records_in_text(text: str, source: str) -> list[GameRecord]:
    """The records of a record file's `text`: one JSON record (a tournament
    folder's games/ files), or JSON lines, a record a line (what `match
    --records` writes).  BadFileError naming `source` (and the line) for
    anything else."""
    try:
        data = parse_json(text, source, "a JSON game record")
    except BadFileError:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) < 2:
            raise BadFileError(source, "neither a JSON game record nor JSON lines") from None
        return [GameRecord.from_json(line, f"{source}, line {n}") for n, line in lines]
    if isinstance(data, dict) and "format" not in data:
        raise BadFileError(
            source,
            "JSON, but not a game record (no \"format\": \"boardgames-record\"); a"
            " tournament's game records are the files in its games/ folder",
        )
    return [GameRecord.from_dict(data, source)]
