"""How much time does each game's default AI use a move on whole-game clocks?

    python tools/clock_use.py [--games 4] [--game NAME ...] [--clock CLOCK ...]

Plays default against default at each clock below (`--games` games, 2 at
the 30 s clocks) and prints a Markdown table, both sides pooled: moves,
seconds a move (mean, median, 90th percentile, longest), the mean
allotment, the share of the allotments used, the least time left on a
clock at the end of a game, games lost on time, and the wall time.  The
load average is printed before and after (a match at a clock is fair to
both sides under load, but a loaded machine is where a time manager is
tested).  `--game` and `--clock` keep only those rows, e.g. a quick look:
`--games 2 --game dots --clock 3`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from boardgames.errors import BoardgamesError
from boardgames.match.play import play_match
from boardgames.match.timeuse import time_use
from boardgames.registry import get_game

CASES = [
    ("andantino", {}, ["3", "5+0.05", "30"]),
    ("dots", {}, ["3", "5+0.05"]),
    ("dots", {"rows": 4, "cols": 4}, ["5", "30"]),
    ("hadron", {"rows": 5, "cols": 5}, ["3", "5+0.05"]),
    ("hadron", {}, ["5", "30"]),
    ("hexifence", {}, ["3", "5+0.05"]),
    ("hexifence", {"size": 3}, ["5", "30"]),
    ("squatter", {"size": 5}, ["3", "5+0.05"]),
    ("squatter", {}, ["5", "30"]),
]


def row(name: str, params: dict[str, int], clock: str, games: int) -> str:
    game = get_game(name, **params)
    board = ",".join(f"{k}={v}" for k, v in sorted(params.items())) or "default"
    started = time.perf_counter()
    summary = play_match(game, "default", "default", games=games, clock=clock, seed=11)
    wall = time.perf_counter() - started
    uses = list(time_use(summary.records).values())
    times = sorted(t for u in uses for t in u.times)
    allotted = [a for u in uses for a in u.allotted]
    p90 = times[int(0.9 * (len(times) - 1))]
    return (
        f"| {name} | {board} | {clock} | {games} | {len(times)} | {statistics.mean(times):.3f}"
        f" | {statistics.median(times):.3f} | {p90:.3f} | {times[-1]:.3f}"
        f" | {statistics.mean(allotted):.3f} | {sum(times) / sum(allotted):.2f}"
        f" | {min(u.least_left for u in uses):.2f} | {sum(u.losses_on_time for u in uses)}"
        f" | {wall:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4,
                        help="games at each clock (the 30 s clocks play 2; default 4)")
    names = sorted({name for name, _, _ in CASES})
    parser.add_argument("--game", action="append", choices=names,
                        help="only this game (repeatable; default every game)")
    clocks = sorted({clock for _, _, row in CASES for clock in row})
    parser.add_argument("--clock", action="append", choices=clocks,
                        help="only this clock (repeatable; default every clock)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    print("load", os.getloadavg(), flush=True)
    print(
        "| game | board | clock | games | moves | s/move mean | median | p90 | longest"
        " | allotted mean | used/allotted | least left | lost on time | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, params, clocks in CASES:
        if args.game and name not in args.game:
            continue
        for clock in clocks:
            if args.clock and clock not in args.clock:
                continue
            n = min(2, args.games) if clock.startswith("30") else args.games
            print(row(name, params, clock, n), flush=True)
    print("load", os.getloadavg(), flush=True)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
