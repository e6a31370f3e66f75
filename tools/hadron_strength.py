"""The default Hadron AI against the untuned Aenigma (issue #15), in parallel shards.

    python tools/hadron_strength.py [--games 40] [--shards 4] [--time 0.93]
        [--cpu] [--seed 1] [--ai default] [--ai2 aenigma] [--records FILE]

Plays `--games` games on 9 x 9 between `AI:time=T` and `AI2:time=T`, split
over `--shards` worker processes, each playing an even share with colours
alternating (the last shard takes what is left), under the tournament
server's 2 s limit (a move past it by 10% + 50 ms forfeits).  Prints the
score by colour, the seconds each side used a move and the load average.

Two clocks:
- by default wall-clock seconds, as `boardgames match` and the tournament
  server measure them: fair to both sides under load, but on a loaded
  machine each side gets only its share of a core;
- `--cpu`: every clock of the library reads the worker's CPU time
  (`time.perf_counter` is replaced by `time.process_time` before the
  library is imported), so a move's budget is CPU seconds, as on an idle
  core, whatever the load.  The two players of a game take turns in one
  process, so each move's CPU time is its own.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time


def shard(task: tuple[str, str, int, int, float, bool]) -> list[dict]:
    """One worker's games (in a fresh interpreter: `spawn`)."""
    ai, ai2, games, seed, seconds, cpu = task
    if cpu:
        time.perf_counter = time.process_time
    from boardgames.match.play import play_match
    from boardgames.registry import get_game

    rows: list[dict] = []

    def keep(index: int, record, summary) -> None:
        rows.append({
            "a_side": index % 2, "winner": record.winner, "reason": record.reason,
            "moves": record.moves, "times": record.times, "load": os.getloadavg()[0],
        })

    play_match(
        get_game("hadron"), f"{ai}:time={seconds}", f"{ai2}:time={seconds}",
        games=games, time_limit=2.0, seed=seed, on_game=keep,
    )
    return rows


def report(rows: list[dict], names: tuple[str, str]) -> str:
    """'A: W-L as White, W-L as Black, total; seconds a move; load'."""
    won = {0: [0, 0], 1: [0, 0]}
    used: tuple[list[float], list[float]] = ([], [])
    for row in rows:
        side = row["a_side"]
        won[side][0 if row["winner"] == side else 1] += 1
        for ply, seconds in enumerate(row["times"]):
            used[0 if ply % 2 == side else 1].append(seconds)
    wins = won[0][0] + won[1][0]
    forfeits = sum(row["reason"] not in ("normal", "no legal move") for row in rows)
    loads = [row["load"] for row in rows]
    lines = [
        f"{names[0]} against {names[1]}: {wins}-{len(rows) - wins} in {len(rows)} games "
        f"({100 * wins / len(rows):.1f}%), no draws; as White {won[0][0]}-{won[0][1]}, "
        f"as Black {won[1][0]}-{won[1][1]}; forfeits {forfeits}",
    ]
    for name, times in zip(names, used):
        lines.append(
            f"{name}: {len(times)} moves, {statistics.mean(times):.3f} s a move "
            f"(median {statistics.median(times):.3f}, longest {max(times):.3f})"
        )
    lines.append(f"load average at the end of each game: {min(loads):.1f} to {max(loads):.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--time", type=float, default=0.93)
    parser.add_argument("--cpu", action="store_true", help="CPU seconds, not wall-clock")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", default="default")
    parser.add_argument("--ai2", default="aenigma")
    parser.add_argument("--records", help="write every game as a JSON line")
    args = parser.parse_args()
    per = 2 * max(1, args.games // (2 * args.shards))
    counts = [per] * (args.shards - 1)
    counts.append(max(0, args.games - sum(counts)))
    tasks = [
        (args.ai, args.ai2, n, args.seed + 1000 * k, args.time, args.cpu)
        for k, n in enumerate(counts) if n
    ]
    started = time.time()
    with multiprocessing.get_context("spawn").Pool(len(tasks)) as pool:
        rows = [row for part in pool.map(shard, tasks) for row in part]
    if args.records:
        with open(args.records, "w") as out:
            out.writelines(json.dumps(row) + "\n" for row in rows)
    clock = "CPU" if args.cpu else "wall-clock"
    print(f"{args.time} {clock} seconds a move, {len(tasks)} shards, "
          f"{(time.time() - started) / 60:.0f} min")
    print(report(rows, (args.ai, args.ai2)))


if __name__ == "__main__":
    main()
