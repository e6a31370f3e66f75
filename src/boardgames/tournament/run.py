"""Round-robin tournaments on any `concurrent.futures.Executor`.

A tournament is a list of independent games (`GameTask`), each plain,
picklable data: the game's name and options, the two player specs, the
time limit and a seed.  `play_task` plays one and returns a `GameResult`,
so the same tasks run in this process, in worker processes
(`ProcessPoolExecutor`) or on a Dask cluster
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

The parts, one job each:

- `tasks`: `GameTask` and `GameResult`, plain data, and the seeds;
- `schedule`: `TournamentSettings` (checked once) and `round_robin_tasks`;
- `worker`: `play_task`, one game in a worker;
- `match.watchdog`: the hard time limits that stop a hung player;
- `standings`: `TournamentResult`, the table with Elo ratings;
- `store`: `TournamentDir`, the directory, its lock and resume;
- this module: `run_tasks` and `round_robin`, which tie them together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from ..match.play import describe
from .schedule import TournamentSettings, round_robin_tasks
from .standings import TournamentResult
from .tasks import GameResult, GameTask
from .worker import play_task


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
                result = GameResult(task.pair, task.index, None, f"worker failed: {describe(exc)}")
            yield result
    finally:
        for future in futures:
            future.cancel()


def round_robin(
    settings: TournamentSettings,
    executor: Executor | None = None,
    *,
    on_result: Callable[[GameResult], None] | None = None,
    done: Iterable[GameResult] = (),
    logs: str | None = None,
) -> TournamentResult:
    """Play the games of `settings` and return the table.

    Games run on `executor` (None: in this process); `on_result` sees each new
    result as it arrives (save it, move a progress bar).  Games in `done`
    (from an earlier, interrupted run) are not played again.  `logs` is the
    folder of the programs' stderr logs (one file per program and game).
    """
    tasks = [replace(task, logs=logs) for task in round_robin_tasks(settings)]
    planned = {task.key for task in tasks}
    results = {r.key: r for r in done if r.key in planned and r.error is None}
    pending = [task for task in tasks if task.key not in results]
    failed: list[GameResult] = []
    for result in run_tasks(pending, executor):
        if result.error is None:
            results[result.key] = result
        else:
            failed.append(result)
        if on_result is not None:
            on_result(result)
    return TournamentResult(
        labels=settings.names,
        results=sorted(results.values(), key=lambda r: r.key),
        errors=sorted(failed, key=lambda r: r.key),
        planned=len(tasks),
        anchor=settings.anchor,
    )
