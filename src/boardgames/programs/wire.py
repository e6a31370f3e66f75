"""The runner's side of the engine protocol's framing (docs/engine-protocol.md).

`ask` sends one command to a `process.Program` and reads its answer: the
`info` lines before it, then `= result` or `? reason` and the empty line
that ends it; anything else is `Garbled`, nothing by the deadline `Late`.
`parse_info` reads an `info` line as a `SearchResult`, `position_moves`
gives a position as the protocol does (the moves from the start), and
`format_seconds` writes a time for a command line.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

from ..errors import BoardgamesError
from ..game import Game, State
from ..search.result import SearchResult
from .process import Program


class Late(Exception):
    """No answer (or not all of it) by the deadline."""


class Garbled(Exception):
    """A line where an answer was expected that is none."""


def ask(
    program: Program,
    command: str,
    deadline: float,
    on_info: Callable[[str], None] | None = None,
) -> tuple[bool, str]:
    """Send `command`, read its answer: (True, result) for `=`, (False,
    reason) for `?`; info lines before it go to `on_info`.  Late, Garbled,
    Exited or Flood when the program does not answer as it must."""
    stale = program.pending()
    if stale.strip():
        raise Garbled(stale.decode("utf-8", "replace").strip().splitlines()[0])
    program.start_answer()
    if not program.send(command, deadline):
        raise Late
    while True:
        line = program.read_line(deadline)
        if line is None:
            raise Late
        if not line.strip():
            continue  # blank lines before an answer are harmless
        if line.split()[0] == "info":
            if on_info is not None:
                on_info(line)
            continue
        if line[0] not in "=?":
            raise Garbled(line)
        result = line[1:].strip()
        while True:  # the answer's other lines, up to the empty line that ends it
            more = program.read_line(deadline)
            if more is None:
                raise Late
            if more == "":
                return line[0] == "=", result


def position_moves(state: State[Any]) -> list[str]:
    """The moves from the game's start to `state`, in notation (what `moves`
    sends); BoardgamesError for a position not reached from the start (a
    board loaded from a file), which a program cannot be given."""
    game = state.game
    start = game.new_state()
    for move in state.history:
        start.make(move)
    if start.hashes != state.hashes:
        raise BoardgamesError(
            "a program is given a position as the moves from the game's start, and this one"
            " was not reached from the start (load a game record rather than a board)"
        )
    return [game.format_move(move) for move in state.history]


def parse_info(game: Game[Any], line: str, elapsed: float) -> SearchResult | None:
    """An `info` line as a SearchResult (the fields it gives; what does not
    parse is left out), or None when it says nothing."""
    words = line.split()[1:]
    fields: dict[str, str] = {}
    pv_words: list[str] = []
    for index, word in enumerate(words):
        key, eq, value = word.partition("=")
        if key == "pv" and eq:
            pv_words = ([value] if value else []) + words[index + 1 :]
            break
        if eq:
            fields[key] = value
    pv = []
    for word in pv_words:
        try:
            pv.append(game.parse_move(word))
        except BoardgamesError:
            break
    depth = _whole(fields.get("depth"))
    nodes = _whole(fields.get("nodes"))
    score = _real(fields.get("score"))
    seconds = _real(fields.get("time"))
    if not pv and depth is None and nodes is None and score is None:
        return None
    return SearchResult(
        move=pv[0] if pv else None,
        score=score or 0.0,
        pv=pv,
        depth=depth or 0,
        nodes=nodes or 0,
        time=seconds if seconds is not None and seconds >= 0 else elapsed,
        completed=False,
        algorithm="program",
    )


def _whole(text: str | None) -> int | None:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return int(text)


def _real(text: str | None) -> float | None:
    if text is None or len(text) > 40:
        return None
    with contextlib.suppress(ValueError):
        value = float(text)
        if math.isfinite(value):
            return value
    return None


def format_seconds(seconds: float) -> str:
    """Seconds for a command line: '0.25', '2', '0.0015'."""
    return f"{seconds:.6g}" if seconds < 1e6 else f"{seconds:.0f}"
