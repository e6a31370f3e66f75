"""AI specs from a request, held to the server's limits before any player is built.

An AI spec names options (`alphabeta:depth=4,time=2`), and some options
name files (`aenigma:params=FILE`).  From the web, which any page in the
user's browser can reach:

- an option that names a file (declared with the "path" kind, or any
  option the AI does not declare that is given as text) is refused,
  unless the server was started with a data folder (`--data-dir`): then
  it names a regular file inside that folder, no larger than
  MAX_DATA_FILE, and nothing outside it (no absolute name, no `..`, no
  link leading out) is ever opened;
- every option in seconds (`time=`) is at most the server's `max_time`;
- `threads=` (the processes of a parallel search) is at most the number of
  cores of the server;
- a program ("program:CMD ARGS") is refused unless the server was started
  with `--allow-programs` (then it runs with the side's seconds a move).

`web_player` builds the player; it may open a file and import an AI's
module, so it runs in a worker thread, never on the event loop.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePath
from typing import Any

from ..ai import PROGRAM, ai_options, build_player, parse_spec
from ..errors import OptionError, quote
from ..game import Game
from ..options import Option
from ..players import Player
from .settings import MAX_DATA_FILE, WebSettings


def web_player(
    game: Game[Any], spec: str, seconds: float, settings: WebSettings
) -> tuple[Player[Any], float]:
    """The player for `spec` with `seconds` per move unless the spec says
    otherwise, and the seconds it will think; OptionError if the spec names
    a file it may not, or asks for more time than the server gives."""
    name, options = parse_spec(spec)
    if name == PROGRAM:
        if not settings.allow_programs:
            raise OptionError(
                "this server runs no programs (start it with boardgames web --allow-programs"
                " to let a side be a program: any page you open could then run commands here)"
            )
        return build_player(game, name, options, spec, time=seconds), seconds
    declared = {option.name: option for option in ai_options(game, name) or ()}
    for key, value in list(options.items()):
        kind = declared[key].kind if key in declared else None
        if kind == "path" or (kind is None and isinstance(value, str)):
            options[key] = data_file(key, value, settings.data_dir)
        elif kind == "seconds" or key == "time":
            options[key] = capped_seconds(key, value, settings)
        elif key == "threads":
            options[key] = capped_threads(value)
    player = build_player(game, name, options, spec, time=seconds)
    return player, options.get("time", seconds)


def capped_seconds(key: str, value: Any, settings: WebSettings) -> float:
    """A time in seconds no longer than the server allows."""
    seconds = Option(key, "seconds").check(value)
    assert isinstance(seconds, float)
    if seconds > settings.max_time:
        raise OptionError(
            f"{key} must be at most {settings.max_time:g} seconds on this server, not"
            f" {quote(value)} (boardgames web --max-time)"
        )
    return seconds


def capped_threads(value: Any) -> int:
    """A number of search processes no larger than the server's cores."""
    cores = os.cpu_count() or 1
    threads = Option("threads", "whole", low=1).check(value)
    assert isinstance(threads, int)
    if threads > cores:
        raise OptionError(f"threads must be at most {cores} (the cores of this server), not"
                          f" {quote(value)}")
    return threads


def data_file(key: str, value: Any, folder: Path | None) -> str:
    """The file an option names, inside the data folder; OptionError otherwise."""
    if folder is None:
        raise OptionError(
            f"{key}={quote(value)}: the web page cannot name files on the server"
            " (start boardgames web with --data-dir DIR to let AI options name the files in DIR)"
        )
    if not isinstance(value, str) or not value.strip():
        raise OptionError(f"{key} must name a file in the data folder, not {quote(value)}")
    name = PurePath(value)
    if name.is_absolute() or ".." in name.parts or name.drive:
        raise OptionError(
            f"{key}={quote(value)}: give a file name inside the data folder (no '..', not absolute)"
        )
    path = (folder / name).resolve()
    if not path.is_relative_to(folder):
        raise OptionError(f"{key}={quote(value)} leads out of the data folder")
    try:
        info = os.stat(path)
    except OSError:
        raise OptionError(f"{key}: no file {quote(value)} in the data folder") from None
    if not stat.S_ISREG(info.st_mode):
        raise OptionError(f"{key}: {quote(value)} in the data folder is not a regular file")
    if info.st_size > MAX_DATA_FILE:
        raise OptionError(f"{key}: {quote(value)} is too large (over {MAX_DATA_FILE} bytes)")
    return str(path)
