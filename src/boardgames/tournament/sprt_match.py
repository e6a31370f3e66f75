"""SPRT matches: game pairs between two players until the test decides.

`run_sprt(settings, test)` plays the games of a two-player `TournamentSettings`
(player 0 is the one tested, player 1 the baseline) in pairs: games 2k and
2k+1 start from the same opening with the colours swapped (the schedule's
`opening_plies` and `openings` give them that), and each pair, once both
its games are in, counts once in the pentanomial results
(`tournament.sprt`).  After each pair the log-likelihood ratio is checked
against its bounds; the match stops as soon as it leaves them (H1 accepted
or H0 accepted, "rejected"), or after the settings' `games_per_pair` games
(the most it may play) with no verdict.

The games run here or on an executor's workers, a few more at once than
it has slots; once the verdict is in, the games still running are dropped
(`parallel.stop_executor`).  An SPRT match lives in a results folder like a
tournament's (`SprtDir`: the manifest, one record per game, `sprt.json`
with the test, `summary.json` with where it stands), so an interrupted one
resumes from its records: pairs finished count again, the rest are played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import BadFileError, OptionError
from ..io import atomic_write_text, parse_json, read_text
from ..match.play import describe
from ..options import MAX_GAMES_PER_PAIR, check_whole
from ..parallel import executor_slots, stop_executor
from .schedule import TournamentSettings, round_robin_tasks
from .sprt import MAX_GAMES, OPENING_PLIES, Pentanomial, Sprt, SprtState
from .standings import TournamentResult
from .store import SUMMARY, TournamentDir
from .tasks import GameResult, GameTask
from .worker import play_task

#: The file of an SPRT match's folder that holds the test.
SPRT_FILE = "sprt.json"
#: Its `format` field.
SPRT_FORMAT = "boardgames-sprt"
#: Games in flight per slot of the executor.
AHEAD = 2


def sprt_settings(
    game: str,
    params: dict[str, int],
    tested: str,
    baseline: str,
    *,
    max_games: int = MAX_GAMES,
    **options: Any,
) -> TournamentSettings:
    """The settings of an SPRT match of `tested` against `baseline`: at most
    `max_games` games (rounded up to whole pairs); `options` are the
    tournament's (time_limit, clock, seed, opening_plies, openings,
    max_moves, plugins, ...), with OPENING_PLIES random plies when neither
    openings nor opening plies are given."""
    check_whole("max games", max_games, 2, MAX_GAMES_PER_PAIR)
    if not options.get("opening_plies") and not options.get("openings"):
        options["opening_plies"] = OPENING_PLIES
    return TournamentSettings(
        game=game,
        params=params,
        players=[tested, baseline],
        games_per_pair=max_games + max_games % 2,
        **options,
    )


@dataclass
class SprtOutcome:
    """Where an SPRT match stands: the test's state, the games, the failures."""

    state: SprtState
    results: list[GameResult]
    errors: list[GameResult] = field(default_factory=list)
    max_games: int = 0
    labels: tuple[str, str] = ("", "")

    @property
    def verdict(self) -> str | None:
        """"H1" (accepted), "H0" (rejected) or None (no verdict yet)."""
        return self.state.verdict

    @property
    def played(self) -> int:
        """The number of games played."""
        return len(self.results)

    def verdict_line(self) -> str:
        """The verdict in words, with the hypotheses it chose between."""
        test, games = self.state.test, self.state.results.games
        tested, baseline = self.labels
        if self.verdict == "H1":
            return (
                f"verdict: accepted (H1) after {games} games: {tested} is stronger than"
                f" {baseline} by elo1 = {test.elo1:g} rather than elo0 = {test.elo0:g}"
            )
        if self.verdict == "H0":
            return (
                f"verdict: rejected (H0) after {games} games: {tested} is not stronger than"
                f" {baseline} by elo1 = {test.elo1:g}; elo0 = {test.elo0:g} fits better"
            )
        lower, upper = test.bounds
        return (
            f"verdict: none: stopped at {self.played} of at most {self.max_games} games with the"
            f" LLR {self.state.llr:+.2f} still inside ({lower:+.2f}, {upper:+.2f})"
        )

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON data: the test's state, the games played and the cap."""
        return {**self.state.to_dict(), "played": self.played, "max_games": self.max_games}


def pair_points(results: dict[int, GameResult], pair: int) -> float | None:
    """The tested player's points in pair `pair` (games 2k and 2k+1), once
    both games are finished; else None."""
    games = [results.get(2 * pair), results.get(2 * pair + 1)]
    if any(g is None or not g.finished for g in games):
        return None
    return sum(g.points(0) for g in games if g is not None)


def _count(results: dict[int, GameResult], pairs: int, into: Pentanomial) -> set[int]:
    """Add every finished pair of `results` to `into`; the pairs counted."""
    counted = set()
    for pair in range(pairs):
        points = pair_points(results, pair)
        if points is not None:
            into.add(points)
            counted.add(pair)
    return counted


def sprt_standing(
    settings: TournamentSettings, test: Sprt, done: Iterable[GameResult]
) -> SprtOutcome:
    """Where the match stands after the games `done` (none is played)."""
    results = {r.index: r for r in done if r.pair == (0, 1) and r.finished}
    pentanomial = Pentanomial()
    _count(results, settings.planned // 2, pentanomial)
    names = settings.names
    played = sorted(results.values(), key=lambda r: r.index)
    state = SprtState.of(test, pentanomial)
    return SprtOutcome(state, played, [], settings.planned, (names[0], names[1]))


def run_sprt(
    settings: TournamentSettings,
    test: Sprt,
    executor: Executor | None = None,
    *,
    done: Iterable[GameResult] = (),
    on_result: Callable[[GameResult], None] | None = None,
    on_pair: Callable[[SprtState], None] | None = None,
    logs: str | None = None,
) -> SprtOutcome:
    """Play the SPRT match of `settings` (two players: tested, baseline) until
    `test` decides or `games_per_pair` games are played.

    `done` holds the games of an earlier run (their pairs count first);
    `on_result` sees every new game (save it), `on_pair` where the test
    stands after each pair.  Games run on `executor` (None: here, one after
    the other).  `logs` is the folder of the programs' stderr logs.
    """
    if len(settings.players) != 2:
        raise OptionError("an SPRT match is between two players")
    tasks = [replace(task, logs=logs) for task in round_robin_tasks(settings)]
    results = {r.index: r for r in done if r.pair == (0, 1) and r.finished}
    pentanomial = Pentanomial()
    counted = _count(results, len(tasks) // 2, pentanomial)
    state = SprtState.of(test, pentanomial)
    errors: list[GameResult] = []

    def outcome() -> SprtOutcome:
        names = settings.names
        played = sorted(results.values(), key=lambda r: r.index)
        return SprtOutcome(state, played, errors, len(tasks), (names[0], names[1]))

    if state.verdict is not None:
        return outcome()

    def take(result: GameResult) -> bool:
        """Count a new game; True once the test has decided."""
        nonlocal state
        if on_result is not None:
            on_result(result)
        if result.error is not None or not result.finished:
            errors.append(result)
            return False
        results[result.index] = result
        pair = result.index // 2
        points = pair_points(results, pair)
        if points is None or pair in counted:
            return False
        counted.add(pair)
        pentanomial.add(points)
        state = SprtState.of(test, pentanomial)
        if on_pair is not None:
            on_pair(state)
        return state.verdict is not None

    pending = [task for task in tasks if task.index not in results]
    if executor is None:
        for task in pending:
            if take(play_task(task)):
                break
        return outcome()
    _run_on(executor, pending, take)
    return outcome()


def _run_on(executor: Executor, tasks: list[GameTask], take: Callable[[GameResult], bool]) -> None:
    """Play `tasks` on `executor`, a few per slot at a time, until `take` says stop."""
    window = AHEAD * executor_slots(executor)
    queue = iter(tasks)
    running: dict[Future[GameResult], GameTask] = {}

    def submit() -> None:
        for task in queue:
            running[executor.submit(play_task, task)] = task
            if len(running) >= window:
                return

    submit()
    try:
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                task = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise
                except Exception as exc:
                    why = f"worker failed: {describe(exc)}"
                    result = GameResult(task.pair, task.index, None, why)
                if take(result):
                    if running:
                        stop_executor(executor)  # the games still running are not needed
                    return
            submit()
    finally:
        for future in running:
            future.cancel()


class SprtDir(TournamentDir):
    """An SPRT match on disk: a tournament folder of two players (the manifest,
    one record per game, the lock, the programs' logs) with the test in
    `sprt.json`, and where it stands in `summary.json`."""

    @property
    def sprt_file(self) -> Any:
        """The path of the test's file, `sprt.json`."""
        return self.path / SPRT_FILE

    def create_sprt(self, settings: TournamentSettings, test: Sprt) -> None:
        """Start a new SPRT match here (refuses a folder that holds a match or a tournament)."""
        self.create(settings)
        data = {"format": SPRT_FORMAT, "version": 1, "sprt": test.to_dict()}
        atomic_write_text(self.sprt_file, json.dumps(data, indent=2) + "\n")

    def test(self) -> Sprt:
        """The test `sprt.json` holds; OptionError (a tournament, not an SPRT
        match) or BadFileError."""
        if not self.sprt_file.is_file():
            self.settings()  # the clear error when the folder holds nothing at all
            raise OptionError(
                f"{self.path} holds a tournament, not an SPRT match (continue it with"
                f" boardgames tournament --resume {self.path})"
            )
        source = str(self.sprt_file)
        data = parse_json(read_text(self.sprt_file), source)
        if not isinstance(data, dict) or data.get("format") != SPRT_FORMAT:
            raise BadFileError(source, f"not an SPRT match's test (no format {SPRT_FORMAT!r})")
        if data.get("version") != 1 or not isinstance(data.get("sprt"), dict):
            raise BadFileError(source, "unsupported version, or no 'sprt' object")
        values = data["sprt"]
        if set(values) != {"elo0", "elo1", "alpha", "beta"}:
            raise BadFileError(source, "'sprt' needs elo0, elo1, alpha and beta")
        try:
            return Sprt(**values)
        except OptionError as exc:
            raise BadFileError(source, str(exc)) from None

    def save_sprt_summary(self, outcome: SprtOutcome, settings: TournamentSettings) -> None:
        """Write where the match stands (settings, test, table) as `summary.json`."""
        table = TournamentResult(
            labels=settings.names,
            results=outcome.results,
            errors=outcome.errors,
            planned=settings.planned,
            anchor=None,
        )
        summary = {"settings": settings.to_dict(), "sprt": outcome.to_dict(), **table.to_dict()}
        atomic_write_text(self.path / SUMMARY, json.dumps(summary, indent=2) + "\n")


def is_sprt_dir(path: Any) -> bool:
    """Whether the folder holds an SPRT match (its `sprt.json`)."""
    return bool(SprtDir(path).sprt_file.is_file())
