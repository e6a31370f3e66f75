"""What every command shares: error handling, game options, plugins, progress.

Errors the user can fix (a bad move, file, option or name) end the command
with one line `error: ...` on stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..errors import BoardgamesError, OptionError
from ..options import (
    MAX_SECONDS,
    MAX_THREADS,
    MAX_WORKERS,
    check_real,
    check_seconds,
    check_whole,
    parse_pairs,
    parse_value,
)
from ..plugins import PLUGINS_ENV, env_plugins, import_plugins

if TYPE_CHECKING:
    from ..game import Game, State
    from ..match.records import GameRecord

F = TypeVar("F", bound=Callable[..., Any])

#: Longest error line printed (bad input is quoted short at its source too).
MESSAGE_LIMIT = 500


def one_line(message: object) -> str:
    """`message` on one line, at most MESSAGE_LIMIT characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one error line on stderr and exit."""
    click.echo(f"error: {one_line(message)}", err=True)
    sys.exit(code)


# --- numeric flags: every number on the command line is checked by boardgames.options


class Number(click.ParamType[Any]):
    """A numeric flag or argument checked by `boardgames.options`: finite, in
    range, of the right type (NaN and infinities never pass)."""

    def __init__(self, check: Callable[[str, Any], Any], metavar: str) -> None:
        self.check = check
        self.name = metavar

    def get_metavar(self, param: Any, ctx: Any = None) -> str | None:
        """No metavar for an argument (its name shows), the type's name for an option."""
        return None if isinstance(param, click.Argument) else self.name

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        """The checked number; a usage error naming the option for a bad value."""
        if isinstance(value, str):
            value = parse_value(value.strip())
        name = param.opts[0] if param is not None and param.opts else "value"
        try:
            return self.check(name, value)
        except OptionError as exc:
            raise click.UsageError(str(exc), ctx) from None


def Whole(low: int | None = 1, high: int | None = None) -> Number:  # noqa: N802
    """A whole-number flag in [low, high]."""
    return Number(lambda name, v: check_whole(name, v, low, high), "N")


def Real(low: float | None = None, high: float | None = None) -> Number:  # noqa: N802
    """A finite number flag in [low, high]."""
    return Number(lambda name, v: check_real(name, v, low, high), "X")


def Seconds(high: float = MAX_SECONDS) -> Number:  # noqa: N802
    """A time in seconds: finite, > 0, at most `high`."""

    def check(name: str, value: Any) -> float:
        seconds = check_seconds(name, value)
        if seconds > high:
            raise OptionError(f"{name} must be at most {high:g} seconds, not {value!r}")
        return seconds

    return Number(check, "SECONDS")


#: Seeds: any whole number.
SEED = Whole(None)


class Host(click.ParamType[str]):
    """A host name or address to listen on or connect to: not empty (an empty
    host would silently mean every interface, or nowhere)."""

    name = "HOST"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        """The address, stripped; a usage error for an empty one."""
        host = str(value).strip()
        if not host:
            if isinstance(param, click.Option):  # where to listen
                message = (
                    f"{param.opts[0]}: empty address (give 0.0.0.0 for every interface,"
                    " 127.0.0.1 for this machine only)"
                )
            else:
                message = "HOST: empty address"
            raise click.UsageError(message, ctx)
        return host


def _short_help(text: str, limit: int) -> str:
    """The short help click would show for a loaded command with help `text`."""
    return click.Command(None, help=text).get_short_help_str(limit)


class OneLineUsageError(click.ClickException):
    """A command-line usage error shown like every other error: one line, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        """Print the error as one line, `error: ...`, on stderr."""
        click.echo(f"error: {self.format_message()}", err=True)


class Command(click.Command):
    """Every `boardgames` command: usage errors (bad option values, missing
    arguments) and the errors the command raises are one `error: ...` line
    on stderr and exit code 2 (130 on Ctrl-C); never a traceback."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> click.Context:
        """The command's context; a bad command line is one usage error line
        that points to the command's --help."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            where = f"boardgames {info_name} --help" if info_name else "--help"
            raise OneLineUsageError(f"{one_line(exc.format_message())} (see '{where}')") from None

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, with the library's errors shown as one line (exit code 2)."""
        return handle_errors(super().invoke)(ctx)


class Group(click.Group):
    """The `boardgames` group: its own usage errors are one line, and every
    command made with `@main.command` or added to it is a `Command`."""

    command_class = Command

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> click.Context:
        """The group's context; a bad command line is one usage error line."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            raise OneLineUsageError(f"{one_line(exc.format_message())} (see '--help')") from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """The command the arguments name; one usage error line for an unknown one."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            raise OneLineUsageError(f"{one_line(exc.format_message())} (see '--help')") from None

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Add a subcommand, which must be a `Command` (for its one-line errors).

        Raises:
            TypeError: `cmd` is not a `Command`."""
        if not isinstance(cmd, Command):
            raise TypeError(f"command {cmd.name!r} must be made with cls=Command")
        super().add_command(cmd, name)


class LazyGroup(Group):
    """The group with commands declared up front and imported on first use.

    `lazy` maps each command's name to ("module:attribute", its one-line
    help): `--help` lists the names and help lines without importing any
    command module, and a command's module is imported when the command is
    run (or looked up).  `commands` imports every declared command (for
    code that walks them all, like the tests); the checks of `Group` apply
    to a lazy command when it is loaded."""

    def __init__(
        self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None, **kwargs: Any
    ) -> None:
        self._loaded: dict[str, click.Command] = {}
        self.lazy: dict[str, tuple[str, str]] = dict(lazy or {})
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        """Every subcommand, the lazy ones imported."""
        for name in list(self.lazy):
            self._load(name)
        return self._loaded

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._loaded = dict(value)

    def _load(self, name: str) -> click.Command | None:
        where = self.lazy.get(name)
        if where is None:
            return self._loaded.get(name)
        module, _, attribute = where[0].partition(":")
        command: click.Command = getattr(importlib.import_module(module), attribute)
        self.add_command(command, name)
        return command

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Add a subcommand now (replacing a lazy one of the same name).

        Raises:
            TypeError: `cmd` is not a `Command`, or has no name."""
        if not isinstance(cmd, Command):
            raise TypeError(f"command {cmd.name!r} must be made with cls=Command")
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self.lazy.pop(name, None)
        self._loaded[name] = cmd

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The subcommand `cmd_name`, imported on first use; None if there is none."""
        return self._load(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The names of every subcommand, loaded or not, sorted."""
        return sorted(set(self._loaded) | set(self.lazy))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's command list, with the declared help of the commands not loaded."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.lazy:
                rows.append((name, _short_help(self.lazy[name][1], limit)))
                continue
            command = self._loaded[name]
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def handle_errors(command: F) -> F:
    """Turn library, value and file errors into one stderr line and exit code 2
    (`Command` applies it to every command)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            # The reader went away (`boardgames list | head`): not an error.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            fail(f"{where}{exc.strerror or exc}")
        except (BoardgamesError, ValueError, OverflowError) as exc:
            fail(str(exc) or type(exc).__name__)
        except KeyboardInterrupt:
            fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def load_plugins(specs: tuple[str, ...] = ()) -> None:
    """Import the plugins named by BOARDGAMES_PLUGINS and by --plugin options."""
    import_plugins([*env_plugins(), *specs])


def parse_key_values(items: tuple[str, ...], what: str = "option") -> dict[str, Any]:
    """('size=7', 'x=y') -> {'size': 7, 'x': 'y'}; OptionError for items without
    '=' and for a key given twice."""
    return parse_pairs(items, what)


def plugin_paths(plugins: tuple[str, ...]) -> list[str]:
    """Plugins for the workers: the environment's and --plugin's, files made absolute."""
    env = [p for p in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if p]
    out = []
    for plugin in (*env, *plugins):
        if plugin.endswith(".py") or os.sep in plugin:
            plugin = str(Path(plugin).resolve())
        if plugin not in out:
            out.append(plugin)
    return out


#: --workers/-w N for the commands that play games on worker processes.
workers_option = click.option(
    "--workers",
    "-w",
    type=Whole(0, MAX_WORKERS),
    default=None,
    help="Worker processes [default: one per core, one per N cores when an AI has"
    " threads=N; 0: play in this process].",
)


#: --threads N for the commands that make searching AIs.
threads_option = click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=None,
    help="Processes each searching AI thinks with, sharing one table (its threads"
    " option; a spec's own threads=N wins) [default: 1].",
)


def note_cores(threads: int) -> None:
    """A note on stderr when `threads` processes are more than the machine's
    cores: they take turns, so the ones over the count only cost."""
    from ..parallel import default_workers

    cores = default_workers()
    if threads > cores:
        plural = "s" if cores != 1 else ""
        progress(f"note: {threads} processes on {cores} core{plural} take turns on them:"
                 f" beyond {cores} they add work, not speed")


def threads_for(game: Game[Any], specs: tuple[str, ...], threads: int | None) -> list[int | None]:
    """The `threads` default of each AI of `specs` for `--threads`: the
    count for those that take the option, None for the others (a random
    player, a program); an error when `--threads` is given and none does."""
    if threads is None:
        return [None] * len(specs)
    from ..ai import ai_names, takes_option

    out = [threads if takes_option(game, spec, "threads") else None for spec in specs]
    if all(count is None for count in out):
        which = f"AI {specs[0]!r} takes no" if len(specs) == 1 else "neither AI takes a"
        able = ", ".join(name for name in ai_names(game) if takes_option(game, name, "threads"))
        fail(f"--threads: {which} threads option (at {game.name}: {able or 'none'})")
    note_cores(threads)
    return out


#: --opening-file FILE for the commands that play matches.
opening_file = click.option(
    "--opening-file",
    "opening_file",
    metavar="FILE",
    default=None,
    help="Start each pair of games (colours swapped) from the next opening of FILE:"
    " one line of moves each.",
)


def read_opening_file(game: Game[Any], path: str | None) -> list[str]:
    """The openings of --opening-file (none without one); errors name the line."""
    if path is None:
        return []
    from ..match.openings import read_openings

    return read_openings(game, path)


def game_options(command: F) -> F:
    """Add --size/--rows/--cols, repeated -o key=value and --plugin to a command.

    The flags name no game: each game declares the options it takes (its
    factory's keywords, shown by `boardgames list`), and `get_game` rejects
    the others with the list of what the game takes."""
    decorators = [
        click.option("--size", type=Whole(), default=None, help="Board size (the game's `size`)."),
        click.option("--rows", type=Whole(), default=None, help="Rows (the game's `rows`)."),
        click.option("--cols", type=Whole(), default=None, help="Columns (the game's `cols`)."),
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
) -> Game[Any]:
    """The game with only the options the user gave (the game's defaults otherwise)."""
    from ..registry import get_game  # when a command runs: --help stays light

    load_plugins(plugin)
    params = parse_key_values(game_option, "game option")
    for key, value in (("size", size), ("rows", rows), ("cols", cols)):
        if value is not None:
            if key in params:
                raise OptionError(f"game option {key!r} given twice (--{key} and -o {key}=)")
            params[key] = value
    return get_game(name, **params)


def game_from_kwargs(name: str, kwargs: dict[str, Any]) -> Game[Any]:
    """`build_game` from a command's keyword arguments (pops the game options)."""
    keys = ("size", "rows", "cols", "game_option", "plugin")
    return build_game(name, **{k: kwargs.pop(k) for k in keys})


def cannot_listen(host: str, port: int, exc: OSError) -> OptionError:
    """The one error every server command gives for an address it cannot listen
    on (the port is busy, the address is not this machine's): the system's
    words for its error number, without the details some callers add."""
    import socket  # only when a server fails: start-up stays light

    reason = exc.strerror or str(exc)
    if exc.errno and exc.errno > 0 and not isinstance(exc, socket.gaierror):
        reason = os.strerror(exc.errno)
    return OptionError(f"cannot listen on {host}:{port}: {reason}")


def progress(message: str) -> None:
    """A progress line on stderr (stdout stays clean for results)."""
    click.echo(message, err=True)


def given_options(kwargs: dict[str, Any]) -> tuple[str, ...]:
    """The game options named on the command line (--size/--rows/--cols, -o key=);
    call it before `game_from_kwargs` takes them out."""
    flags = tuple(k for k in ("size", "rows", "cols") if kwargs.get(k) is not None)
    return flags + tuple(parse_key_values(kwargs.get("game_option", ()), "game option"))


def load_file(
    game: Game[Any], path: str, given: tuple[str, ...] = ()
) -> tuple[Game[Any], State[Any] | GameRecord]:
    """A saved record (every move checked), or a position in the game's text format.

    The file decides the game's options; those the user `given` must agree.
    """
    from ..io import read_text
    from ..match.records import GameRecord  # the arena is heavy: only when a file is read

    text = read_text(path)
    if text.lstrip().startswith("{"):
        record = GameRecord.from_json(text, source=path)
        if record.game != game.name:
            raise OptionError(f"{path} is a record of {record.game}, not {game.name}")
        loaded = record.get_game()
        _check_same_options(path, game, loaded, given)
        record.replay(loaded)  # check every move now, before any work starts
        return loaded, record
    state = game.parse_position(text)
    _check_same_options(path, game, state.game, given)
    return state.game, state


def load_position(game: Game[Any], path: str, given: tuple[str, ...] = ()) -> State[Any]:
    """The position a file holds: a record's final position, or the game's text format."""
    from ..match.records import GameRecord

    loaded, start = load_file(game, path, given)
    return start.replay(loaded) if isinstance(start, GameRecord) else start


def _check_same_options(
    path: str, asked: Game[Any], loaded: Game[Any], given: tuple[str, ...]
) -> None:
    """OptionError naming both when a game option the user gave disagrees with the file
    (an option the games do not keep, like Hadron's size, compares the whole games)."""
    keys = [k for k in given if k in asked.params or k in loaded.params]
    differ = [k for k in keys if asked.params.get(k) != loaded.params.get(k)]
    if len(keys) < len(given) and asked != loaded:
        differ = sorted(set(asked.params) | set(loaded.params))
    if differ:
        theirs = " ".join(f"{k}={loaded.params.get(k)}" for k in differ)
        ours = " ".join(f"{k}={asked.params.get(k)}" for k in differ)
        raise OptionError(
            f"{path} is a game with {theirs}, but the command line asks for {ours}"
            " (drop the game options to use the file's)"
        )
