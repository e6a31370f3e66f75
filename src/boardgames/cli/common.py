"""What every command shares: error handling, game options, plugins, progress.

Errors the user can fix (a bad move, file, option or name) end the command
with one line `error: ...` on stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..ai import parse_value
from ..arena.records import GameRecord
from ..errors import BoardgamesError
from ..game import Game, OptionError, State, get_game
from ..plugins import PLUGINS_ENV, env_plugins, import_plugins

F = TypeVar("F", bound=Callable[..., Any])

#: Environment variable naming extra game modules or files to import.



def fail(message: str, code: int = 2) -> None:
    """Print one error line on stderr and exit."""
    click.echo(f"error: {' '.join(str(message).split())}", err=True)
    sys.exit(code)


class OneLineUsageError(click.ClickException):
    """A command-line usage error shown like every other error: one line, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class Command(click.Command):
    """A click command whose usage errors (bad option values, missing
    arguments) are one `error: ...` line too, with a pointer to --help."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            where = f"boardgames {info_name} --help" if info_name else "--help"
            message = " ".join(exc.format_message().split())
            raise OneLineUsageError(f"{message} (see '{where}')") from None


def handle_errors(command: F) -> F:
    """Turn library, value and file errors into one stderr line and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            fail(f"{where}{exc.strerror or exc}")
        except (BoardgamesError, ValueError) as exc:
            fail(str(exc) or type(exc).__name__)
        except KeyboardInterrupt:
            fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def load_plugins(specs: tuple[str, ...] = ()) -> None:
    """Import the plugins named by BOARDGAMES_PLUGINS and by --plugin options."""
    import_plugins([*env_plugins(), *specs])


def parse_key_values(items: tuple[str, ...], what: str = "option") -> dict[str, Any]:
    """('size=7', 'x=y') -> {'size': 7, 'x': 'y'}; OptionError for items without '='."""
    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bad {what} {item!r} (expected key=value)")
        options[key.strip()] = parse_value(value.strip())
    return options


def game_options(command: F) -> F:
    """Add --size/--rows/--cols, repeated -o key=value and --plugin to a command."""
    decorators = [
        click.option("--size", type=int, default=None, help="Board size (squatter, hexifence)."),
        click.option("--rows", type=int, default=None, help="Rows (hadron, dots)."),
        click.option("--cols", type=int, default=None, help="Columns (hadron, dots)."),
        click.option(
            "-o",
            "--option",
            "game_option",
            multiple=True,
            metavar="KEY=VALUE",
            help="Any other game option (repeatable).",
        ),
        click.option(
            "--plugin",
            multiple=True,
            metavar="MODULE|FILE.py",
            help=f"Import a module that registers games (also ${PLUGINS_ENV}).",
        ),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def build_game(
    name: str,
    size: int | None = None,
    rows: int | None = None,
    cols: int | None = None,
    game_option: tuple[str, ...] = (),
    plugin: tuple[str, ...] = (),
) -> Game:
    """The game with only the options the user gave (the game's defaults otherwise)."""
    load_plugins(plugin)
    params = parse_key_values(game_option, "game option")
    for key, value in (("size", size), ("rows", rows), ("cols", cols)):
        if value is not None:
            params[key] = value
    return get_game(name, **params)


def game_from_kwargs(name: str, kwargs: dict[str, Any]) -> Game:
    """`build_game` from a command's keyword arguments (pops the game options)."""
    keys = ("size", "rows", "cols", "game_option", "plugin")
    return build_game(name, **{k: kwargs.pop(k) for k in keys})


def progress(message: str) -> None:
    """A progress line on stderr (stdout stays clean for results)."""
    click.echo(message, err=True)


def read_text(path: str) -> str:
    """A text file's contents; OSError and bad encodings become clear errors."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"{path}: not a text file") from None


def load_position(game: Game, path: str) -> State:
    """A position from a file: a JSON game record (its final position) or the
    game's own text format (read by `game.parse_position`)."""
    text = read_text(path)
    if text.lstrip().startswith("{"):
        record = GameRecord.from_json(text, source=path)
        if record.game != game.name:
            raise OptionError(f"{path}: a record of {record.game}, not {game.name}")
        return record.replay()
    return game.parse_position(text)
