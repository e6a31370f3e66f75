"""How does the default Hadron AI score against the untuned Aenigma on 9 x 9?

    python tools/hadron_strength.py [--games 40] [--shards 4] [--time 0.93]
        [--cpu] [--seed 1] [--ai default] [--ai2 aenigma] [--records FILE]

A quick look: `python tools/hadron_strength.py --games 2 --shards 1 --time 0.05`.

Plays `--games` games on 9 x 9 between `AI:time=T` and `AI2:time=T`, split
over `--shards` worker processes, each playing whole pairs of games with
colours alternating (an odd game last), under the tournament server's 2 s
limit (a move past it by 10% + 50 ms forfeits).  Prints the score by
colour, the seconds each side used a move and the load average.

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
import sys
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
            "a_side": index % 2, "winner": record.winner, "end": record.end.value,
            "reason": record.reason,
            "forfeited": record.forfeited,
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
    forfeits = sum(row["forfeited"] for row in rows)
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


def shares(games: int, shards: int) -> list[int]:
    """Games for each shard: whole pairs (both colours) spread evenly, an odd
    game last; `games` in all."""
    pairs, odd = divmod(games, 2)
    counts = [2 * (pairs // shards + (k < pairs % shards)) for k in range(shards)]
    counts[-1] += odd
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40, help="games in all (default 40)")
    parser.add_argument("--shards", type=int, default=4,
                        help="worker processes, each playing a share (default 4)")
    parser.add_argument("--time", type=float, default=0.93,
                        help="seconds a move for both sides (default 0.93)")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds, not wall-clock")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first shard (default 1)")
    parser.add_argument("--ai", default="default", help="AI spec of the first side")
    parser.add_argument("--ai2", default="aenigma", help="AI spec of the second side")
    parser.add_argument("--records", help="write every game as a JSON line")
    args = parser.parse_args()
    if args.games < 1 or args.shards < 1:
        parser.error("--games and --shards must be at least 1")
    if not 0 < args.time <= 2.0:
        parser.error("--time must be above 0 and at most the server's 2 s")
    counts = shares(args.games, args.shards)
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
    from boardgames.errors import BoardgamesError  # not above: --cpu patches the clock first

    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
