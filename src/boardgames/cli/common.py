"""What every command shares: error handling, game options, plugins, progress.

Errors the user can fix (a bad move, file, option or name) end the command
with one line `error: ...` on stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..ai import parse_value
from ..arena.records import GameRecord
from ..errors import BoardgamesError
from ..game import Game, OptionError, State, get_game

F = TypeVar("F", bound=Callable[..., Any])

#: Environment variable naming extra game modules or files to import.
PLUGINS_ENV = "BOARDGAMES_PLUGINS"


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
    """Import modules or .py files that register extra games (and their AIs).

    Sources: `--plugin` options and the BOARDGAMES_PLUGINS variable
    (separated by the OS path separator), e.g. examples/connect_four.py.
    """
    env = [s for s in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if s]
    for spec in (*env, *specs):
        _import_plugin(spec)


_IMPORTED: set[str] = set()


def _import_plugin(spec: str) -> None:
    if spec in _IMPORTED:
        return
    if spec.endswith(".py") or os.sep in spec:
        path = Path(spec)
        if not path.is_file():
            raise OptionError(f"plugin file not found: {spec}")
        name = f"boardgames_plugin_{path.stem}"
        loaded = sys.modules.get(path.stem)
        if loaded is not None and _same_file(getattr(loaded, "__file__", None), path):
            _IMPORTED.add(spec)  # already imported under its own name (tests, scripts)
            return
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise OptionError(f"cannot import plugin {spec}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
    else:
        try:
            importlib.import_module(spec)
        except ImportError as exc:
            raise OptionError(f"cannot import plugin {spec!r}: {exc}") from None
    _IMPORTED.add(spec)


def _same_file(a: str | None, b: Path) -> bool:
    try:
        return a is not None and Path(a).resolve() == b.resolve()
    except OSError:
        return False


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
