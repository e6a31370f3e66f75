"""Round-robin tournaments on any `concurrent.futures.Executor`.

A tournament is a list of independent games (`GameTask`), each plain,
picklable data: the game's name and options, the two player specs, the
time limit and a seed.  `play_task`, a top-level function, plays one and
returns a `GameResult`, so the same tasks run in this process, in worker
processes (`ProcessPoolExecutor`) or on a Dask cluster
(`distributed.Client(...).get_executor()`), and results are streamed back
as they finish.

Reproducibility: every game gets its own seed, derived from (tournament
seed, pair, game index) only, and builds fresh players in the worker, so
with depth- or node-limited players the results are the same whatever the
number of workers or the order in which games finish.  (Time-limited
players depend on the machine's speed, so they cannot be reproducible.)

Robustness: a player that raises, returns an illegal move or overruns the
time limit loses that game (the referee is `play_game`); a player that
hangs is stopped by a worker-side watchdog and loses too.  `TournamentDir`
keeps one record file per finished game plus a manifest, so an interrupted
tournament resumes without replaying finished games; a lock file makes sure
only one process at a time plays a directory's games.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import itertools
import json
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import make_player, parse_spec
from ..errors import BoardgamesError, NotationError
from ..game import Game, OptionError, get_game
from ..io import atomic_write_text
from ..options import check_seconds, check_whole
from ..players import Player
from ..plugins import import_plugins
from .elo import EloFit, fit_elo
from .match import play_game, random_opening
from .records import BadFileError, GameRecord

#: A player spec: "alphabeta:depth=4" for `make_player`, or a picklable
#: callable `factory(game, seed=...) -> Player` (for tuners building players
#: from parameters).
PlayerSpec = str | Callable[..., Player]


# --- seeds ---------------------------------------------------------------------------


def derive_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed from `seed` and a path of integers (stable across runs and machines)."""
    text = ":".join(str(int(x)) for x in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


# --- one game --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game: plain, picklable data."""

    game: str
    params: Mapping[str, int]
    #: The pair of player indices (i < j) in the tournament's list.
    pair: tuple[int, int]
    #: Game number within the pair; i plays first in even games, j in odd ones.
    index: int
    #: Specs and labels of (first player, second player).
    specs: tuple[PlayerSpec, PlayerSpec]
    labels: tuple[str, str]
    seed: int
    time_limit: float | None = None
    #: Hard limits enforced by the watchdog (None: no limit).
    move_timeout: float | None = None
    game_timeout: float | None = None
    max_moves: int | None = None
    #: Random moves played from the start before the players take over, and their seed.
    opening_plies: int = 0
    opening_seed: int = 0
    plugins: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[int, int]:
        """Tournament indices of (first player, second player)."""
        i, j = self.pair
        return (i, j) if self.index % 2 == 0 else (j, i)

    @property
    def key(self) -> tuple[int, int, int]:
        return (*self.pair, self.index)


@dataclass(frozen=True)
class GameResult:
    """One finished game (`record`), or one that could not be played (`error`)."""

    pair: tuple[int, int]
    index: int
    record: GameRecord | None
    error: str | None = None
    seconds: float = 0.0

    @property
    def key(self) -> tuple[int, int, int]:
        return (*self.pair, self.index)

    @property
    def players(self) -> tuple[int, int]:
        i, j = self.pair
        return (i, j) if self.index % 2 == 0 else (j, i)

    @property
    def finished(self) -> bool:
        return self.record is not None and self.record.result != "none"

    @property
    def winner(self) -> int | None:
        """The winner's tournament index; None for a draw or an unfinished game."""
        if self.record is None or self.record.winner is None:
            return None
        return self.players[self.record.winner]

    def points(self, player: int) -> float:
        if not self.finished or player not in self.pair:
            return 0.0
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0


def play_task(task: GameTask) -> GameResult:
    """Play one game in this process (the function executors run).

    Never raises for a player's fault: a player that cannot even be built,
    crashes, cheats or hangs loses the game.  Only a failure outside the
    players (an unknown game, a bug in the rules) gives a result with `error`.
    """
    started = time.perf_counter()

    def result(record: GameRecord | None, error: str | None = None) -> GameResult:
        if record is not None:
            record.players = list(task.labels)
        seconds = round(time.perf_counter() - started, 3)
        return GameResult(task.pair, task.index, record, error, seconds)

    try:
        import_plugins(task.plugins)
        game = get_game(task.game, **dict(task.params))
    except Exception as exc:
        return result(None, f"cannot set up {task.game}: {_describe(exc)}")

    deadline = Deadline(task.move_timeout, task.game_timeout)
    players: list[Player] = []
    for side, spec in enumerate(task.specs):
        try:
            player = build_player(game, spec, derive_seed(task.seed, side))
        except Exception as exc:
            detail = f"{task.labels[side]}: cannot build the player: {_describe(exc)}"
            return result(_forfeit(game, side, "crash", detail))
        players.append(Watched(player, deadline))
    try:
        start = None
        if task.opening_plies:
            start = random_opening(game, task.opening_plies, random.Random(task.opening_seed))
        record = play_game(
            game, players, time_limit=task.time_limit, start=start, max_moves=task.max_moves
        )
    except Exception as exc:
        return result(None, f"game failed outside the players: {_describe(exc)}")
    if record.reason == "interrupted":  # stopped at max_moves: adjudicated a draw
        record.result, record.winner = "draw", None
    if deadline.fired is not None and record.reason == "crash":
        record.reason, record.detail = "timeout", deadline.fired
    return result(record)


def build_player(game: Game, spec: PlayerSpec, seed: int) -> Player:
    """A fresh player for one game (a seed the spec sets itself wins)."""
    if isinstance(spec, str):
        return make_player(game, spec, seed=seed)
    return spec(game, seed=seed)


def _forfeit(game: Game, loser: int, reason: str, detail: str) -> GameRecord:
    winner = 1 - loser
    return GameRecord(
        game=game.name,
        params=dict(game.params),
        result=game.player_names[winner],
        winner=winner,
        reason=reason,
        detail=detail,
    )


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


# --- the watchdog -------------------------------------------------------------------
#
# `play_game` measures a move after the player returns, so a player that never
# returns would stall a worker forever.  `Watched` interrupts a move that runs
# past a hard limit (per move, and for the whole game); it then raises
# `PlayerHung`, which `play_game` scores as a loss for the side to move.
# In a process's main thread (worker processes, serial runs) a SIGALRM timer
# raises inside the player, which also breaks a `time.sleep`.  Dask runs tasks
# in threads, where a timer thread raises the exception asynchronously in the
# player's thread: that stops any pure-Python loop, not a long call into C.


class PlayerHung(BoardgamesError):
    """A player ran past a hard time limit and was stopped."""


class PlayerCrashed(BoardgamesError):
    """A player tried to exit the process."""


class _Interrupt(BaseException):
    """Raised inside the player; a BaseException so `except Exception` cannot swallow it."""


class Deadline:
    """The hard limits shared by both players of one game."""

    def __init__(self, move_seconds: float | None, game_seconds: float | None) -> None:
        self.move_seconds = move_seconds
        self.game_seconds = game_seconds
        self.game_end = None if game_seconds is None else time.monotonic() + game_seconds
        #: Why the game was cut, once it was.
        self.fired: str | None = None

    def next_move(self) -> tuple[float | None, str]:
        """Seconds the next move may take, and the limit that says so."""
        limits = []
        if self.move_seconds is not None:
            limits.append((self.move_seconds, f"hard limit of {self.move_seconds:g} s per move"))
        if self.game_end is not None:
            left = self.game_end - time.monotonic()
            limits.append((left, f"hard limit of {self.game_seconds:g} s per game"))
        return min(limits) if limits else (None, "")


class Watched(Player):
    """`player` under a `Deadline`; in every other way it is `player`."""

    def __init__(self, player: Player, deadline: Deadline) -> None:
        super().__init__(player.name)
        self.player = player
        self.deadline = deadline
        self.timed = player.timed

    def reset(self) -> None:
        self.player.reset()

    def tell(self, message: str) -> None:
        self.player.tell(message)

    def choose(self, state: Any, time_limit: float | None = None) -> int:
        seconds, why = self.deadline.next_move()
        try:
            if seconds is not None and seconds <= 0:
                raise _Interrupt
            with interrupt_after(seconds):
                move = self.player.choose(state, time_limit)
        except _Interrupt:
            self.deadline.fired = f"{self.name} stopped by the {why}"
            raise PlayerHung(self.deadline.fired) from None
        except SystemExit as exc:  # a player may not end the worker
            raise PlayerCrashed(f"{self.name} called exit({exc.code})") from None
        self.last_result = self.player.last_result
        return move


@contextmanager
def interrupt_after(seconds: float | None) -> Iterator[None]:
    """Raise `_Interrupt` in this thread if the block runs longer than `seconds`."""
    if seconds is None:
        yield
    elif threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        with _alarm(seconds):
            yield
    else:
        with _async_raise(seconds):
            yield


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise _Interrupt

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # the one signal may land just before the timer is stopped
            signal.signal(signal.SIGALRM, previous)


@contextmanager
def _async_raise(seconds: float) -> Iterator[None]:
    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    thread = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    state = {"armed": True, "fired": False}

    def ring() -> None:
        with lock:
            if state["armed"]:
                state["fired"] = True
                set_async_exc(thread, ctypes.py_object(_Interrupt))

    timer = threading.Timer(seconds, ring)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["armed"] = False
        if state["fired"]:
            # The exception may still be pending if the block ended just in time:
            # clear it so it cannot go off later in unrelated code, and raise it here.
            set_async_exc(thread, ctypes.c_void_p(0))
            raise _Interrupt


def default_move_timeout(time_limit: float | None) -> float | None:
    """The watchdog's per-move limit: far past the point where `play_game` forfeits."""
    return None if time_limit is None else 2 * time_limit + 5.0


# --- many games ------------------------------------------------------------------------


def run_tasks(tasks: Iterable[GameTask], executor: Executor | None = None) -> Iterator[GameResult]:
    """Play `tasks` and yield their results as they finish.

    Without an executor the games run here, one after the other.  Closing
    the iterator early (or Ctrl-C while waiting) cancels the games not yet
    started.  A task whose worker failed (e.g. a lost Dask worker) yields a
    result with `error`; a broken process pool raises BrokenProcessPool,
    since nothing more can run on it.
    """
    if executor is None:
        for task in tasks:
            yield play_task(task)
        return
    futures = {executor.submit(play_task, task): task for task in tasks}
    try:
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except BrokenProcessPool:
                raise
            except Exception as exc:
                result = GameResult(task.pair, task.index, None, f"worker failed: {_describe(exc)}")
            yield result
    finally:
        for future in futures:
            future.cancel()


def round_robin_tasks(
    game_name: str,
    game_params: Mapping[str, int] | None,
    specs: Sequence[PlayerSpec],
    *,
    games_per_pair: int = 2,
    time_limit: float | None = None,
    seed: int = 0,
    labels: Sequence[str] | None = None,
    pairs: Iterable[tuple[int, int]] | None = None,
    move_timeout: float | None = None,
    game_timeout: float | None = None,
    max_moves: int | None = None,
    opening_plies: int = 0,
    plugins: Sequence[str] = (),
) -> list[GameTask]:
    """Every game of a round robin (or of just `pairs`), rounds interleaved.

    Games are ordered game index first, so a tournament stopped half-way has
    played every pair about equally often.  `move_timeout` and `game_timeout`
    are the watchdog's hard limits (the first defaults to twice the time
    limit plus 5 s); a game still going after `max_moves` moves is a draw.
    With `opening_plies`, games 2k and 2k+1 of every pair start from the same
    random opening (colours swapped), so deterministic players do not repeat
    the same two games.
    """
    if len(specs) < 2:
        raise OptionError("a tournament needs at least two players")
    check_whole("games per pair", games_per_pair, 1)
    check_whole("opening plies", opening_plies, 0)
    for name, seconds in (
        ("time limit", time_limit),
        ("move timeout", move_timeout),
        ("game timeout", game_timeout),
    ):
        if seconds is not None:
            check_seconds(name, seconds)
    if max_moves is not None:
        check_whole("max moves", max_moves, 1)
    names = list(labels) if labels is not None else unique_labels(specs)
    if len(names) != len(specs):
        raise OptionError("give one label per player")
    if pairs is None:
        pair_list = list(itertools.combinations(range(len(specs)), 2))
    else:
        pair_list = sorted({(min(p), max(p)) for p in pairs})
        for i, j in pair_list:
            if i == j or not (0 <= i < len(specs) and 0 <= j < len(specs)):
                raise OptionError(f"bad pair ({i}, {j}) for {len(specs)} players")
    if move_timeout is None:
        move_timeout = default_move_timeout(time_limit)
    tasks = []
    for index in range(games_per_pair):
        for i, j in pair_list:
            first, second = (i, j) if index % 2 == 0 else (j, i)
            tasks.append(
                GameTask(
                    game=game_name,
                    params=dict(game_params or {}),
                    pair=(i, j),
                    index=index,
                    specs=(specs[first], specs[second]),
                    labels=(names[first], names[second]),
                    seed=derive_seed(seed, i, j, index),
                    time_limit=time_limit,
                    move_timeout=move_timeout,
                    game_timeout=game_timeout,
                    max_moves=max_moves,
                    opening_plies=opening_plies,
                    opening_seed=derive_seed(seed, index // 2),
                    plugins=tuple(plugins),
                )
            )
    return tasks


def unique_labels(specs: Sequence[PlayerSpec]) -> list[str]:
    """Player names for tables: the specs, with "#2", "#3"... on repeats."""
    names = [spec_label(s) for s in specs]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def spec_label(spec: PlayerSpec) -> str:
    if isinstance(spec, str):
        return spec
    return getattr(spec, "name", None) or getattr(spec, "__name__", None) or repr(spec)


def round_robin(
    game_name: str,
    game_params: Mapping[str, int] | None,
    specs: Sequence[PlayerSpec],
    *,
    games_per_pair: int = 2,
    time_limit: float | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    done: Iterable[GameResult] = (),
    labels: Sequence[str] | None = None,
    pairs: Iterable[tuple[int, int]] | None = None,
    move_timeout: float | None = None,
    game_timeout: float | None = None,
    max_moves: int | None = None,
    opening_plies: int = 0,
    plugins: Sequence[str] = (),
) -> TournamentResult:
    """Play a round robin: every pair (or each of `pairs`) plays `games_per_pair`
    games, colours alternating.

    `specs` are AI specs ("alphabeta:depth=4") or picklable player factories.
    Games run on `executor` (None: in this process); `on_result` sees each new
    result as it arrives (save it, move a progress bar).  Games in `done`
    (from an earlier, interrupted run) are not played again.  See
    `round_robin_tasks` for the other options.
    """
    tasks = round_robin_tasks(
        game_name,
        game_params,
        specs,
        games_per_pair=games_per_pair,
        time_limit=time_limit,
        seed=seed,
        labels=labels,
        pairs=pairs,
        move_timeout=move_timeout,
        game_timeout=game_timeout,
        max_moves=max_moves,
        opening_plies=opening_plies,
        plugins=plugins,
    )
    planned = {task.key for task in tasks}
    results = {r.key: r for r in done if r.key in planned and r.error is None}
    pending = [task for task in tasks if task.key not in results]
    names = list(labels) if labels is not None else unique_labels(specs)
    failed: list[GameResult] = []
    for result in run_tasks(pending, executor):
        if result.error is None:
            results[result.key] = result
        else:
            failed.append(result)
        if on_result is not None:
            on_result(result)
    return TournamentResult(
        labels=names,
        results=sorted(results.values(), key=lambda r: r.key),
        errors=sorted(failed, key=lambda r: r.key),
        planned=len(tasks),
        anchor=random_anchor(specs),
    )


def random_anchor(specs: Sequence[PlayerSpec]) -> int | None:
    """Index of the first plain random player (rated 0), if any."""
    for index, spec in enumerate(specs):
        if isinstance(spec, str):
            try:
                if parse_spec(spec)[0] == "random":
                    return index
            except OptionError:
                continue
    return None


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line in the results table."""

    player: int
    label: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    elo_error: float

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score_percent(self) -> float:
        return 100.0 * self.points / self.games if self.games else math.nan


@dataclass
class TournamentResult:
    """The games of a tournament (sorted by pair and index) and what they say."""

    labels: list[str]
    results: list[GameResult]
    errors: list[GameResult] = field(default_factory=list)
    planned: int = 0
    #: Player rated 0 (the random player), None for mean 0.
    anchor: int | None = None

    @property
    def complete(self) -> bool:
        return sum(r.finished for r in self.results) == self.planned

    def counts(self) -> tuple[list[list[int]], list[list[int]]]:
        """(wins[i][j], draws[i][j]) over the finished games."""
        n = len(self.labels)
        wins = [[0] * n for _ in range(n)]
        draws = [[0] * n for _ in range(n)]
        for result in self.results:
            if not result.finished:
                continue
            i, j = result.pair
            winner = result.winner
            if winner is None:
                draws[i][j] += 1
                draws[j][i] += 1
            else:
                wins[winner][j if winner == i else i] += 1
        return wins, draws

    @property
    def rated_anchor(self) -> int | None:
        """The anchor if it has played (else ratings are relative to the mean)."""
        if self.anchor is None:
            return None
        played = any(r.finished and self.anchor in r.pair for r in self.results)
        return self.anchor if played else None

    def elo(self) -> EloFit:
        wins, draws = self.counts()
        return fit_elo(wins, draws, anchor=self.rated_anchor)

    def standings(self) -> list[Standing]:
        """Players from the highest Elo down."""
        wins, draws = self.counts()
        fit = fit_elo(wins, draws, anchor=self.rated_anchor)
        n = len(self.labels)
        rows = []
        for i in range(n):
            w = sum(wins[i])
            d = sum(draws[i])
            lost = sum(wins[j][i] for j in range(n))
            rows.append(
                Standing(i, self.labels[i], w + d + lost, w, d, lost, fit.ratings[i], fit.errors[i])
            )
        return sorted(rows, key=lambda s: (-s.elo, s.player))

    def reasons(self) -> dict[str, int]:
        """How many games ended otherwise than on the board, by reason."""
        counts: dict[str, int] = {}
        for result in self.results:
            if result.record is not None and result.record.reason != "normal":
                counts[result.record.reason] = counts.get(result.record.reason, 0) + 1
        return dict(sorted(counts.items()))

    def format(self) -> str:
        """The results table as aligned text."""
        rows = self.standings()
        width = max(6, *(len(s.label) for s in rows))
        lines = [
            f"{'#':>2}  {'player':<{width}}  {'games':>5}  {'wins':>4}  {'draws':>5}"
            f"  {'losses':>6}  {'score':>6}  {'elo':>6}  {'95% CI':>15}"
        ]
        for rank, s in enumerate(rows, start=1):
            if math.isnan(s.elo_error):
                interval = "-"
            elif s.player == self.rated_anchor:
                interval = "anchor"
            else:
                interval = f"{s.elo - s.elo_error:+.0f} .. {s.elo + s.elo_error:+.0f}"
            score = "-" if s.games == 0 else f"{s.score_percent:.1f}%"
            lines.append(
                f"{rank:>2}  {s.label:<{width}}  {s.games:>5}  {s.wins:>4}  {s.draws:>5}"
                f"  {s.losses:>6}  {score:>6}  {s.elo:>+6.0f}  {interval:>15}"
            )
        played = sum(r.finished for r in self.results)
        notes = [f"{played} of {self.planned} games played"]
        notes += [f"{n} by {reason}" for reason, n in self.reasons().items()]
        if self.errors:
            notes.append(f"{len(self.errors)} could not be played")
        anchor = "mean = 0" if self.rated_anchor is None else f"{self.labels[self.anchor]} = 0"
        lines.append(f"{'; '.join(notes)}; Elo by maximum likelihood, {anchor}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: standings, cross table and one line per game."""
        wins, draws = self.counts()
        return {
            "players": self.labels,
            "planned": self.planned,
            "played": sum(r.finished for r in self.results),
            "anchor": None if self.rated_anchor is None else self.labels[self.anchor],
            "standings": [
                {
                    "player": s.label,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "score_percent": _json_number(s.score_percent, 2),
                    "elo": round(s.elo, 1),
                    "elo_95": _json_number(s.elo_error, 1),
                }
                for s in self.standings()
            ],
            "wins": wins,
            "draws": draws,
            "reasons": self.reasons(),
            "games": [
                {
                    "pair": list(r.pair),
                    "index": r.index,
                    "first": self.labels[r.players[0]],
                    "second": self.labels[r.players[1]],
                    "winner": None if r.winner is None else self.labels[r.winner],
                    "reason": r.record.reason if r.record else None,
                    "moves": len(r.record.moves) if r.record else 0,
                    "file": record_name(r.pair, r.index),
                }
                for r in self.results
            ],
            "errors": [
                {"pair": list(r.pair), "index": r.index, "error": r.error} for r in self.errors
            ],
        }


def _json_number(value: float, digits: int) -> float | None:
    return None if math.isnan(value) else round(value, digits)


# --- the tournament directory ---------------------------------------------------------------

MANIFEST = "tournament.json"
LOCK = "tournament.lock"
SUMMARY = "summary.json"
GAMES = "games"
MANIFEST_FORMAT = "boardgames-tournament"


def record_name(pair: tuple[int, int], index: int) -> str:
    return f"{GAMES}/{pair[0]:02d}-{pair[1]:02d}-{index:04d}.json"


@dataclass(frozen=True)
class TournamentSettings:
    """What decides a tournament's games: saved as the manifest, read back to resume."""

    game: str
    params: dict[str, int]
    players: list[str]
    games_per_pair: int = 2
    time_limit: float | None = None
    seed: int = 0
    game_timeout: float | None = None
    max_moves: int | None = None
    opening_plies: int = 0
    plugins: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": MANIFEST_FORMAT,
            "version": 1,
            "game": self.game,
            "params": self.params,
            "players": self.players,
            "games_per_pair": self.games_per_pair,
            "time_limit": self.time_limit,
            "seed": self.seed,
            "game_timeout": self.game_timeout,
            "max_moves": self.max_moves,
            "opening_plies": self.opening_plies,
            "plugins": self.plugins,
        }

    @classmethod
    def from_dict(cls, data: Any, source: str) -> TournamentSettings:
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            raise BadFileError(
                source, f"not a tournament manifest (no format {MANIFEST_FORMAT!r})"
            )
        if data.get("version") != 1:
            raise BadFileError(source, f"unsupported manifest version {data.get('version')!r}")
        try:
            settings = cls(
                game=data["game"],
                params=data["params"],
                players=data["players"],
                games_per_pair=data["games_per_pair"],
                time_limit=data.get("time_limit"),
                seed=data["seed"],
                game_timeout=data.get("game_timeout"),
                max_moves=data.get("max_moves"),
                opening_plies=data.get("opening_plies", 0),
                plugins=data.get("plugins", []),
            )
        except KeyError as exc:
            raise BadFileError(source, f"missing field {exc.args[0]!r}") from None
        checks = [
            isinstance(settings.game, str),
            isinstance(settings.params, dict)
            and all(isinstance(v, int) for v in settings.params.values()),
            isinstance(settings.players, list)
            and all(isinstance(p, str) for p in settings.players),
            isinstance(settings.games_per_pair, int),
            isinstance(settings.seed, int),
            isinstance(settings.opening_plies, int),
            isinstance(settings.plugins, list)
            and all(isinstance(p, str) for p in settings.plugins),
        ]
        if not all(checks):
            raise BadFileError(source, "a field has the wrong type")
        try:  # the checks of the command-line flags: a hand-edited NaN cannot slip in
            check_whole("games_per_pair", settings.games_per_pair, 1)
            check_whole("opening_plies", settings.opening_plies, 0)
            for name in ("time_limit", "game_timeout"):
                if getattr(settings, name) is not None:
                    check_seconds(name, getattr(settings, name))
            if settings.max_moves is not None:
                check_whole("max_moves", settings.max_moves, 1)
            if len(settings.players) < 2:
                raise OptionError("a tournament needs at least two players")
        except OptionError as exc:
            raise BadFileError(source, str(exc)) from None
        return settings

    @property
    def planned(self) -> int:
        n = len(self.players)
        return self.games_per_pair * n * (n - 1) // 2

    def run(
        self,
        executor: Executor | None = None,
        on_result: Callable[[GameResult], None] | None = None,
        done: Iterable[GameResult] = (),
    ) -> TournamentResult:
        return round_robin(
            self.game,
            self.params,
            self.players,
            games_per_pair=self.games_per_pair,
            time_limit=self.time_limit,
            seed=self.seed,
            executor=executor,
            on_result=on_result,
            done=done,
            game_timeout=self.game_timeout,
            max_moves=self.max_moves,
            opening_plies=self.opening_plies,
            plugins=self.plugins,
        )


class TournamentInUseError(OptionError):
    """Another process is playing this tournament directory's games."""


class TournamentDir:
    """A tournament on disk: the manifest, one record per finished game, the summary.

    Files are written atomically as games finish, so an interruption at any
    moment leaves a directory that `resume` continues.  One process at a
    time plays a directory's games: `lock()` holds an exclusive lock on
    `tournament.lock` for the whole run, which the system releases when the
    process ends, however it ends.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    @property
    def manifest(self) -> Path:
        return self.path / MANIFEST

    @property
    def lock_file(self) -> Path:
        return self.path / LOCK

    def exists(self) -> bool:
        return self.manifest.is_file()

    def _check_not_a_file(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise OptionError(f"{self.path} is a file, not a tournament directory")

    def create(self, settings: TournamentSettings) -> None:
        """Start a new tournament here; refuses a directory that already holds one."""
        self._check_not_a_file()
        if self.exists():
            raise OptionError(f"{self.path} already holds a tournament (continue it with --resume)")
        (self.path / GAMES).mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.manifest, json.dumps(settings.to_dict(), indent=2) + "\n")

    @contextmanager
    def lock(self, create: bool = False) -> Iterator[TournamentDir]:
        """Hold this directory for the block: TournamentInUseError (naming the
        holder's pid) if another process holds it.  `create` makes the
        directory first (for a new tournament); otherwise it must hold one.

        The lock is `flock` (`msvcrt.locking` on Windows) on an open file, so
        it goes away with the process even after SIGKILL; the file stays.
        """
        self._check_not_a_file()
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
        elif not self.exists():
            self.settings()  # the clear error: no directory, no manifest
        handle = _acquire(self.lock_file, self.path)
        try:
            self._remove_stale_temporary_files()
            yield self
        finally:
            _release(handle)

    def _remove_stale_temporary_files(self) -> None:
        """Temporary files of a process killed in the middle of a write (we hold
        the lock, so nobody else is writing)."""
        for folder in (self.path, self.path / GAMES):
            for tmp in folder.glob(".*.json.*.tmp"):
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def settings(self) -> TournamentSettings:
        if self.path.exists() and not self.path.is_dir():
            raise OptionError(f"{self.path} is a file, not a tournament directory")
        try:
            text = self.manifest.read_text(encoding="utf-8")
        except FileNotFoundError:
            what = "is missing" if self.path.is_dir() else "is missing: no such directory"
            raise OptionError(f"{self.path} holds no tournament ({MANIFEST} {what})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadFileError(str(self.manifest), f"not JSON ({exc})") from None
        return TournamentSettings.from_dict(data, str(self.manifest))

    def update_settings(self, settings: TournamentSettings) -> None:
        atomic_write_text(self.manifest, json.dumps(settings.to_dict(), indent=2) + "\n")

    def save(self, result: GameResult) -> None:
        """Keep a finished game (results with an error are not kept: they are replayed)."""
        if result.record is None or not result.finished:
            return
        result.record.save(self.path / record_name(result.pair, result.index))

    def finished(self) -> list[GameResult]:
        """The games already played, read back from their records.

        Records are only ever written whole and finished, so a record that
        does not load, or is unfinished, was damaged or put there by hand:
        NotationError names the file (delete it, and the game is played
        again), rather than quietly replaying the game.
        """
        results = []
        for path in sorted((self.path / GAMES).glob("*.json")):
            key = _parse_record_name(path.name)
            if key is None:
                continue
            try:
                record = GameRecord.load(path)
            except NotationError as exc:
                raise BadFileError(str(path), f"{exc.reason}; {_DAMAGED}") from None
            result = GameResult(key[:2], key[2], record)
            if not result.finished:
                raise BadFileError(str(path), f"not a finished game; {_DAMAGED}")
            results.append(result)
        return results

    def result(self, settings: TournamentSettings | None = None) -> TournamentResult:
        """The table of the games finished so far, read from the records."""
        settings = settings or self.settings()
        n = len(settings.players)
        results = [
            r for r in self.finished() if r.pair[1] < n and r.index < settings.games_per_pair
        ]
        return TournamentResult(
            labels=unique_labels(settings.players),
            results=sorted(results, key=lambda r: r.key),
            planned=settings.planned,
            anchor=random_anchor(settings.players),
        )

    def save_summary(self, result: TournamentResult, settings: TournamentSettings) -> None:
        summary = {"settings": settings.to_dict(), **result.to_dict()}
        atomic_write_text(self.path / SUMMARY, json.dumps(summary, indent=2) + "\n")


_DAMAGED = "a damaged game record: delete it to play that game again"


def _acquire(path: Path, directory: Path) -> int:
    """Open and lock `path` without waiting; the descriptor, holding the lock."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        _lock_fd(fd)
    except OSError as exc:
        holder = _read_pid(fd)
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
            who = f" (pid {holder})" if holder else ""
            raise TournamentInUseError(
                f"{directory} is in use by another tournament{who}"
            ) from None
        raise
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:
        pass  # the pid is only for the message
    return fd


def _release(fd: int) -> None:
    # Unlock explicitly: forked workers share the open file and would keep it.
    with contextlib.suppress(OSError):
        _unlock_fd(fd)
    os.close(fd)


def _read_pid(fd: int) -> int | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


try:
    import fcntl

    def _lock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

except ImportError:  # Windows
    import msvcrt

    def _lock_fd(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)  # lock a byte past the pid, which stays readable
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]

    def _unlock_fd(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]


def _parse_record_name(name: str) -> tuple[int, int, int] | None:
    parts = name.removesuffix(".json").split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    i, j, index = (int(p) for p in parts)
    return (i, j, index) if i < j else None
