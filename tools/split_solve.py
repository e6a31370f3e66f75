"""What does splitting a solve over workers cost and gain against one solve?

    python tools/split_solve.py hadron -o rows=5 -o cols=5 --all --workers 2 --rounds 3

A quick look: `python tools/split_solve.py hadron -o rows=3 -o cols=4`.

Each round solves the same position once in this process and once split
over `--workers` local processes (a fresh pool each time, its start-up
counted), alternating which goes first.  Printed per round: the single
solve's CPU and wall time; the split's wall time, this process's CPU and
the workers' CPU (the sum of the tasks' `time.process_time()`); the load
average.  The closing lines give the medians and the ratios: the wall-time
speed-up (single / split), the work ratio (workers' CPU / single CPU: what
splitting costs in extra work; 1.0 would be none), and the speed-up that
idle cores would give, estimated from the tasks' CPU times (`idle`: each
task, in the order they finished, given to the least busy worker).  On a
loaded machine the wall times follow the load, and under Linux's
autogroup scheduling a solve's workers together get one session's share,
as one process would: only the CPU times say much there.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from boardgames.errors import BoardgamesError
from boardgames.options import parse_pairs
from boardgames.registry import get_game
from boardgames.solving.position import solve_position
from boardgames.solving.split import solve_with_workers


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="the game's name (boardgames list)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game parameter, e.g. -o rows=5 (repeatable)")
    parser.add_argument("--moves", default="", help="solve the position after these moves")
    parser.add_argument("--all", action="store_true", help="every optimal first move")
    parser.add_argument("--outcome", action="store_true", help="win, draw or loss only")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--tasks", type=int, default=None, help="open leaves to aim at")
    parser.add_argument("--depth", type=int, default=3, help="deepest split tree (default 3)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of single and split, alternated (default 1)")
    args = parser.parse_args()
    if args.workers < 1 or args.rounds < 1:
        parser.error("--workers and --rounds must be at least 1")
    options = parse_pairs(args.option, "game option")
    state = get_game(args.game, **options).replay(args.moves.split())
    print(
        f"{state.game.describe()} moves={args.moves!r} all={args.all} outcome={args.outcome}"
        f" workers={args.workers} cores={os.cpu_count()}"
    )
    rows = []
    for index in range(args.rounds):
        order = ("single", "split") if index % 2 == 0 else ("split", "single")
        row: dict[str, float] = {}
        for what in order:
            load = os.getloadavg()[0]
            cpu, wall = time.process_time(), time.perf_counter()
            if what == "single":
                result = solve_position(state, all_moves=args.all, outcome=args.outcome)
            else:
                report = solve_with_workers(
                    state,
                    workers=args.workers,
                    all_moves=args.all,
                    outcome=args.outcome,
                    tasks=args.tasks,
                    max_depth=args.depth,
                )
                result = report.result
                row["workers_cpu"] = report.cpu
                row["tasks"] = report.tasks
                row["idle_wall"] = makespan([r.cpu for _, r in report.log], args.workers)
            row[f"{what}_cpu"] = time.process_time() - cpu
            row[f"{what}_wall"] = time.perf_counter() - wall
            row[f"{what}_load"] = load
            row[f"{what}_value"] = result.value
            row[f"{what}_best"] = len(result.best)
        assert row["single_value"] == row["split_value"], row
        rows.append(row)
        print(
            f"round {index + 1}: single {row['single_cpu']:.2f} s CPU, {row['single_wall']:.2f} s"
            f" wall (load {row['single_load']:.1f}) | split {row['split_wall']:.2f} s wall,"
            f" driver {row['split_cpu']:.2f} s CPU, workers {row['workers_cpu']:.2f} s CPU,"
            f" {row['tasks']:.0f} tasks, {row['idle_wall']:.2f} s on idle cores"
            f" (load {row['split_load']:.1f})",
            flush=True,
        )

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rows)

    print(
        f"median: single {median('single_wall'):.2f} s wall / {median('single_cpu'):.2f} s CPU;"
        f" split {median('split_wall'):.2f} s wall / {median('workers_cpu'):.2f} s workers' CPU"
    )
    speed_up = statistics.median(r["single_wall"] / r["split_wall"] for r in rows)
    work = statistics.median(r["workers_cpu"] / r["single_cpu"] for r in rows)
    idle = statistics.median(r["single_cpu"] / r["idle_wall"] for r in rows)
    print(f"speed-up (wall) {speed_up:.2f}; work ratio (CPU) {work:.2f}; on idle cores {idle:.2f}")


def makespan(seconds: list[float], workers: int) -> float:
    """When `workers` would finish tasks of these CPU times, each given in turn
    to the worker free first."""
    busy = [0.0] * max(workers, 1)
    for task in seconds:
        busy[busy.index(min(busy))] += task
    return max(busy)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
