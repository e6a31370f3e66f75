"""Any program that speaks the engine protocol, as a player: `ProgramPlayer`.

The runner's side of docs/engine-protocol.md (version 2).  At start-up the
program must answer the handshake within `startup_time` seconds
(`protocol` -> `= 2` or later, `name`, `version`) and accept the game
(`game NAME key=value ...`).  Each move is then `moves M1 M2 ...` (the
position: the game's start and those moves) and `genmove time=S
[left=S inc=S] [depth=N] [nodes=N]`, answered by optional `info` lines and
`= MOVE`.  The program is not trusted; whatever it does, the game goes on
or ends with a clear reason, and the program's process never outlives the
player (`programs.process`):

- an answer that does not parse as a move is `malformed`, an illegal move
  is `illegal` (the referee's check); a `?` answer, an exit, a closed pipe
  or a failed restart is a `crash`; output past the bounds (a flood) is
  `malformed`; no answer at all by the hard limit (the move's time plus
  `max(1 s, half of it)`, or the clock's time left plus a little) is a
  `hang`.  A late answer before that is the referee's `timeout` (or `time`
  on a clock).  Each raises `PlayerFault`, which the referee turns into a
  forfeit with that reason.
- after a fault the program is killed at once; `reset` (the referee calls
  it before every game) starts it again, so one crash costs one game.
- stderr goes to a log file per program (`log`, default a file in the
  system's temporary folder), whose last line crash messages quote.

The spec `program:CMD ARGS` (`make_player(game, "program:./engine --fast")`)
builds one: everything after `program:` is a command line, split as a POSIX
shell would (`shlex`), with no `key=value` options of its own; the limits a
caller gives as defaults (`time=`, `depth=`, `nodes=`) are its own limits.
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
import threading
import time as _time
from collections.abc import Callable, Sequence
from itertools import count
from pathlib import Path
from typing import Any

from ..budget import NO_LIMITS, Limits, given_limits
from ..errors import BoardgamesError, PlayerFault, ProgramError, quote
from ..game import Game, State
from ..options import check_seconds
from ..players import DEFAULT_TIME, Player
from ..search.result import SearchResult
from .process import Exited, Flood, Program, describe_status
from .spec import PREFIX, check_executable, program_argv
from .wire import Garbled, Late, ask, format_seconds, parse_info, position_moves

#: The protocol version this runner speaks.
PROTOCOL = 2
#: Seconds a program has to start and answer its handshake (and to take a new game).
STARTUP_TIME = 10.0
#: The environment variable that changes STARTUP_TIME (seconds).
STARTUP_ENV = "BOARDGAMES_PROGRAM_STARTUP"
#: Seconds a program is given to end after `quit` before it is killed.
QUIT_TIME = 0.5
#: Seconds a move may take when the move has no time limit (a depth or node limit only).
PATIENCE = 60.0
#: Seconds allowed past a move's limit before a silent program is stopped (at least).
GRACE = 1.0
#: The folder of the logs of programs given no log file.
LOG_FOLDER = "boardgames-programs"
#: Days a log in LOG_FOLDER is kept: older ones are removed when a process
#: first writes a log there.
LOG_DAYS = 7

_numbers = count(1)
_pruned: set[Path] = set()


def program_startup_time() -> float:
    """STARTUP_TIME, or the seconds $BOARDGAMES_PROGRAM_STARTUP gives."""
    text = os.environ.get(STARTUP_ENV, "").strip()
    if not text:
        return STARTUP_TIME
    try:
        return check_seconds(STARTUP_ENV, float(text))
    except (ValueError, BoardgamesError):
        raise ProgramError(
            f"{STARTUP_ENV} must be a number of seconds, not {quote(text)}"
        ) from None


def default_log(name: str) -> Path:
    """A log file of its own for a program given none: in the temporary folder."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.")[:60] or "program"
    folder = Path(tempfile.gettempdir()) / LOG_FOLDER
    if folder not in _pruned:
        _pruned.add(folder)
        prune_logs(folder, LOG_DAYS)
    return folder / f"{slug}-{os.getpid()}-{next(_numbers)}.log"


def prune_logs(folder: Path, days: float) -> int:
    """Remove the logs (`*.log`) in `folder` last written over `days` days ago;
    how many were removed.  Best effort: a file that cannot go stays."""
    oldest = _time.time() - days * 86400
    removed = 0
    try:
        logs = list(folder.glob("*.log"))
    except OSError:
        return 0
    for log in logs:
        try:
            if log.stat().st_mtime < oldest:
                log.unlink()
                removed += 1
        except OSError:
            continue
    return removed


class ProgramPlayer(Player[Any]):
    """An external program that speaks the engine protocol, as a player.

    Not `stoppable`: the protocol has no "move now", so a stop signal in the
    limits does not reach the program (its answer comes within its time).

    `command` is the program's command line (a list of words, or one text
    split as a shell would).  `limits` (or `depth=`, `time=`, `nodes=`) are
    its own limits, capped by each move's; with none at all it gets
    DEFAULT_TIME seconds a move.  The program starts here (ProgramError if
    it cannot: missing, not executable, no handshake within `startup_time`,
    or it refuses `game`).  `close()` ends it; every builder of a player
    closes it (see `Player.close`).
    """

    #: The web page offers no "move now" for it (the protocol has none).
    stoppable = False

    def __init__(
        self,
        game: Game[Any],
        command: str | Sequence[str],
        *,
        name: str | None = None,
        limits: Limits | None = None,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        log: str | os.PathLike[str] | None = None,
        startup_time: float | None = None,
        quit_time: float = QUIT_TIME,
        patience: float = PATIENCE,
    ) -> None:
        if os.name != "posix":
            raise ProgramError("programs as players need a POSIX system (Linux, macOS)")
        argv = program_argv(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ProgramError("give the program's command")
        check_executable(argv)
        label = name or PREFIX + shlex.join(argv)
        super().__init__(label)
        self.limits = given_limits(limits, depth, time, nodes)
        self.game = game
        self.argv = argv
        self.log = Path(log) if log is not None else default_log(label)
        self.startup_time = startup_time if startup_time is not None else program_startup_time()
        self.quit_time = quit_time
        self.patience = patience
        #: What the program said of itself at its handshake.
        self.protocol = 0
        self.engine_name = ""
        self.engine_version = ""
        #: Called with a SearchResult for every `info` line that names a move
        #: (the web page's live view sets it, as it sets a Searcher's).
        self.on_iteration: Callable[[SearchResult], None] | None = None
        self._program: Program | None = None
        self._lock = threading.Lock()
        self._setup: Game[Any] | None = None  # the game the running program was given
        self._fresh = False  # given its game, and no move asked since
        self._broken: str | None = None  # why the program could not be started again
        self.start()

    # --- the program's life -------------------------------------------------------------
    def start(self) -> None:
        """Start the program (ending one still running), shake hands and give
        it the game; ProgramError naming what went wrong."""
        self.close()
        try:
            program = Program(self.argv, self.log)
        except OSError as exc:
            why = exc.strerror or exc
            raise ProgramError(f"cannot start {quote(self.argv[0])}: {why}") from None
        with self._lock:
            self._program = program
        deadline = _time.monotonic() + self.startup_time
        try:
            self._handshake(program, deadline)
            self._give_game(program, self.game, deadline)
        except BaseException:
            self._discard(program)
            raise
        self._fresh = True

    def _handshake(self, program: Program, deadline: float) -> None:
        answers = []
        for command in ("protocol", "name", "version"):
            ok, text = self._startup_ask(program, command, deadline)
            if not ok:
                raise ProgramError(
                    f"{self.name} does not speak the engine protocol version {PROTOCOL}:"
                    f" it answered {quote('? ' + text)} to {command!r}{self._see_log()}"
                )
            answers.append(text)
        version = answers[0].split()[0] if answers[0].split() else ""
        if not version.isdigit() or int(version) < PROTOCOL:
            raise ProgramError(
                f"{self.name} answered {quote('= ' + answers[0])} to 'protocol': this runner"
                f" speaks version {PROTOCOL}, and the program must answer {PROTOCOL} or later"
            )
        self.protocol = int(version)
        self.engine_name, self.engine_version = answers[1], answers[2]

    def _give_game(self, program: Program, game: Game[Any], deadline: float) -> None:
        command = " ".join(["game", game.name, *(f"{k}={v}" for k, v in game.params.items())])
        ok, text = self._startup_ask(program, command, deadline)
        if not ok:
            raise ProgramError(
                f"{self.name} cannot play {game.describe()}: it answered"
                f" {quote('? ' + text)} to {command!r}"
            )
        self._setup = game

    def _startup_ask(self, program: Program, command: str, deadline: float) -> tuple[bool, str]:
        """`_ask` for the start-up, its faults as ProgramError."""
        try:
            return ask(program, command, deadline)
        except Late:
            raise ProgramError(
                f"{self.name} gave no answer to {command!r} within {self.startup_time:g} s of"
                f" starting (a program must answer the handshake: 'protocol' -> '= {PROTOCOL}',"
                f" then 'name' and 'version'; {STARTUP_ENV} gives it longer){self._see_log()}"
            ) from None
        except Garbled as exc:
            raise ProgramError(
                f"{self.name} answered {quote(str(exc))} to {command!r}, not '= ...' or"
                f" '? ...'{self._see_log()}"
            ) from None
        except Exited:
            raise ProgramError(
                f"{self.name} {self._ending(program, f'before answering {command!r}')}"
            ) from None
        except Flood as exc:
            raise ProgramError(f"{self.name} flooded its output: {exc}") from None

    def reset(self) -> None:
        """A new game: the program is started again if it is not running (a
        fault ended it), and given the game.  Never raises: a program that
        cannot start loses its first move of the game instead (`crash`)."""
        super().reset()
        self._broken = None
        program = self._program
        try:
            if program is None or program.killed or program.exit_status() is not None:
                self.start()
            elif not (self._fresh and self._setup == self.game):  # else: just given it
                self._setup = None
                deadline = _time.monotonic() + self.startup_time
                self._give_game_or_fault(program, self.game, deadline)
        except (ProgramError, PlayerFault) as exc:
            self._broken = str(exc)

    def close(self) -> None:
        """Say `quit`, give the program `quit_time` seconds, then end it and
        every process it started (SIGKILL to its group).  Using the player
        again starts the program again."""
        with self._lock:
            program, self._program = self._program, None
            self._setup = None
        if program is not None:
            program.close(self.quit_time)

    def _discard(self, program: Program) -> None:
        """Kill `program` now (after a fault); the next game starts it again."""
        with self._lock:
            if self._program is program:
                self._program = None
                self._setup = None
        program.kill()

    # --- a move -------------------------------------------------------------------------
    def choose(self, state: State[Any], limits: Limits | None = None) -> int:
        """The program's move for `state`, the program started (again) first if
        needed; `state` is left unchanged.

        Raises:
            PlayerFault: the program could not be started, or answered badly."""
        if self._broken is not None:
            raise PlayerFault("crash", f"could not be started again: {self._broken}")
        program = self._program
        if program is None or program.killed:
            try:
                self.start()
            except ProgramError as exc:
                raise PlayerFault("crash", f"could not be started: {exc}") from None
            program = self._program
            assert program is not None
        self._fresh = False
        given = NO_LIMITS if limits is None else limits
        command, seconds, hard = self._genmove(given)
        deadline = _time.monotonic() + hard
        try:
            if self._setup != state.game:
                self._give_game_or_fault(program, state.game, deadline)
            moves = " ".join(["moves", *position_moves(state)])
            ok, text = self._move_ask(program, moves, deadline, seconds, hard)
            if not ok:
                said = quote("? " + text)
                raise PlayerFault("crash", f"refused the position: it answered {said}")
            ok, text = self._move_ask(program, command, deadline, seconds, hard, state)
            if not ok:
                raise PlayerFault("crash", f"answered {quote('? ' + text)} to {command!r}")
            try:
                move: int = state.game.parse_move(text.strip())
            except BoardgamesError as exc:
                raise PlayerFault("malformed", f"answered {quote('= ' + text)}: {exc}") from None
        except BaseException:
            self._discard(program)  # a fault, Ctrl-C, a watchdog: its state is unknown
            raise
        return move

    def _genmove(self, given: Limits) -> tuple[str, float | None, float]:
        """The genmove command, its time limit and the seconds to wait at most."""
        own = self.limits
        times = [t for t in (own.time, given.time) if t is not None]
        seconds = min(times) if times else None
        depth = _smaller(own.depth, given.depth)
        nodes = _smaller(own.nodes, given.nodes)
        if seconds is None and depth is None and nodes is None:
            seconds = DEFAULT_TIME
        words = ["genmove"]
        if seconds is not None:
            words.append(f"time={format_seconds(seconds)}")
        if given.left is not None:
            words.append(f"left={format_seconds(given.left)}")
            words.append(f"inc={format_seconds(given.increment or 0.0)}")
        if depth is not None:
            words.append(f"depth={depth}")
        if nodes is not None:
            words.append(f"nodes={nodes}")
        if given.left is not None:
            hard = given.left + max(GRACE, 0.1 * given.left)
        elif seconds is not None:
            hard = seconds + max(GRACE, 0.5 * seconds)
        else:
            hard = self.patience
        return " ".join(words), seconds, hard

    def _give_game_or_fault(self, program: Program, game: Game[Any], deadline: float) -> None:
        try:
            self._give_game(program, game, deadline)
        except ProgramError as exc:
            self._discard(program)
            raise PlayerFault("crash", str(exc)) from None

    def _move_ask(
        self,
        program: Program,
        command: str,
        deadline: float,
        seconds: float | None,
        hard: float,
        state: State[Any] | None = None,
    ) -> tuple[bool, str]:
        """`_ask` during a move, its faults as PlayerFault."""
        on_info = None if state is None else self._info_reader(state)
        try:
            return ask(program, command, deadline, on_info)
        except Late:
            limit = "" if seconds is None else f" (its limit: {seconds:g} s)"
            raise PlayerFault(
                "hang", f"gave no answer to {command!r} within {hard:.3g} s{limit}; stopped"
            ) from None
        except Garbled as exc:
            raise PlayerFault(
                "malformed", f"answered {quote(str(exc))} to {command!r}, not '= ...' or '? ...'"
            ) from None
        except Exited:
            raise PlayerFault("crash", self._ending(program, f"during {command!r}")) from None
        except Flood as exc:
            raise PlayerFault("malformed", f"flooded its output: {exc}") from None
        except (OSError, ValueError) as exc:  # its pipes closed by another thread's close()
            raise PlayerFault("crash", f"was ended during {command!r} ({exc})") from None

    def _info_reader(self, state: State[Any]) -> Callable[[str], None]:
        game, started = state.game, _time.perf_counter()
        self.last_result = None

        def read(line: str) -> None:
            result = parse_info(game, line, _time.perf_counter() - started)
            if result is None:
                return
            self.last_result = result
            if self.on_iteration is not None and result.move is not None:
                self.on_iteration(result)

        return read

    def _ending(self, program: Program, during: str) -> str:
        """"exited (exit code 3) during 'genmove time=1'; its stderr ends:
        'ZeroDivisionError...'; log: PATH", or "closed its output during ..."."""
        status = program.wait_exit(0.5)
        what = "closed its output" if status is None else f"exited ({describe_status(status)})"
        what += f" {during}"
        tail = program.tail()
        if tail:
            what += f"; its stderr ends: {quote(tail, 160)}"
        return what + f"; log: {self.log}"

    def _see_log(self) -> str:
        return f" (its stderr is in {self.log})"


def _smaller(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def program_player(
    game: Game[Any],
    command: str,
    *,
    spec: str | None = None,
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    seed: int | None = None,
    params: str | None = None,
    log: str | os.PathLike[str] | None = None,
    **unknown: Any,
) -> ProgramPlayer:
    """The player of a spec "program:CMD ARGS" (`command` is CMD ARGS):
    `make_player`'s defaults `depth`, `time` and `nodes` are its limits;
    `seed` does not reach a program; `params` (a library AI's file of
    weights) and any other option are an error."""
    del seed  # a program has its own randomness, if any
    if params is not None:
        raise ProgramError(
            f"params={quote(params)} is for the library's AIs; a program takes its options"
            " on its command line"
        )
    if unknown:
        raise ProgramError(
            f"unknown option(s) {', '.join(sorted(unknown))} for a program (its options go on"
            " its command line: program:CMD ARGS)"
        )
    name = spec.strip() if spec is not None else None
    return ProgramPlayer(game, command, name=name, depth=depth, time=time, nodes=nodes, log=log)
