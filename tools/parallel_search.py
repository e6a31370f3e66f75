"""How much sooner do two processes sharing a table reach a depth or a solve than one?

    python tools/parallel_search.py --rounds 3

A quick look: `python tools/parallel_search.py --quick --rounds 1`.

Cases: each game's default AI searching a position to a fixed depth
(Squatter 6 x 6 and Hadron 9 x 9 from the start, Andantino after eight
moves), the exact solves of Squatter 5 x 5 and dots-and-boxes 3 x 4, and
the first move of HexiFence's default AI (N = 2: an exact solve, with the
player's helpers), and a solve of a Hadron endgame.
Each measurement runs in a fresh process, with one thread and with
`--threads` (default 2), alternately, round after round.  A search forks
its helpers first (a depth-1 search, timed as the start-up), empties the
table and then searches: helpers start once a game, not once a move.  A
solve, and the first move of a player, fork their helpers inside the timing.

Printed per measurement: the wall time, the main process's nodes, the
peak resident memory of the main process and of the largest helper (the
shared table is counted in each), the start-up, and the load average;
per case, the ratio of each round (one thread's time / N threads' time)
and their median.  The machine is shared: on Linux, processes of other
sessions take CPU from a parallel search as from one process (autogroup
scheduling), so compare the ratios of one round, and read the load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

#: A Hadron 9 x 9 position where the default AI starts solving (48 live
#: cells, 21 legal; a loss), from a game of two default AIs at 1 s a move.
HADRON_ENDGAME = (
    "G7 F2 I8 H4 E8 H9 C7 B8 C3 B4 B1 H1 I2 F5 D5 E4 A6 H8 I5 H7 E6 D2 D3 C4 A3 B7 H5 C2 "
    "C9 A4 C5 I4 A5"
)
#: (name, kind, game, options, moves, depth): the measured cases.
CASES: list[tuple[str, str, str, dict[str, int], str, int]] = [
    ("squatter search", "search", "squatter", {}, "", 9),
    ("hadron search", "search", "hadron", {}, "", 7),
    ("andantino search", "search", "andantino", {}, "I10 I9 J11 I11 H9 H10 H8 G8", 10),
    ("squatter 5x5 solve", "solve", "squatter", {"size": 5}, "", 0),
    ("dots 3x4 solve", "solve", "dots", {"rows": 3, "cols": 4}, "", 0),
    ("hexifence move", "move", "hexifence", {}, "", 0),
    ("hadron endgame solve", "solve", "hadron", {}, HADRON_ENDGAME, 0),
]
#: Smaller cases of the same kinds (`--quick`).
QUICK: list[tuple[str, str, str, dict[str, int], str, int]] = [
    ("squatter search", "search", "squatter", {}, "", 7),
    ("hadron search", "search", "hadron", {}, "", 5),
    ("andantino search", "search", "andantino", {}, "I10 I9 J11 I11 H9 H10 H8 G8", 8),
    ("squatter 4x4 solve", "solve", "squatter", {"size": 4}, "", 0),
    ("dots 2x4 solve", "solve", "dots", {"rows": 2, "cols": 4}, "", 0),
    ("dots move", "move", "dots", {"rows": 2, "cols": 4}, "", 0),
]


def measure(kind: str, game_name: str, options: dict[str, int], moves: str, depth: int,
            threads: int) -> dict[str, Any]:
    """One measurement in this process: wall time, nodes, start-up, peak memory."""
    from boardgames.ai import make_player
    from boardgames.budget import Limits
    from boardgames.registry import get_game
    from boardgames.solving.position import solve_position

    game = get_game(game_name, **options)
    state = game.replay(moves.split())
    startup = 0.0
    if kind == "search":
        player = make_player(game, f"default:threads={threads}")
        engine = player.engine  # type: ignore[attr-defined]
        started = time.perf_counter()
        engine.search(state.copy(), Limits(depth=1))  # forks the helpers
        startup = time.perf_counter() - started
        engine.clear()
        started = time.perf_counter()
        result = engine.search(state.copy(), Limits(depth=depth))
        wall = time.perf_counter() - started
        nodes, value = result.nodes, result.score
        player.close()
    elif kind == "move":  # the default AI's move, its helpers forked inside the timing
        player = make_player(game, f"default:threads={threads}")
        started = time.perf_counter()
        player.choose(state, Limits(time=600))
        wall = time.perf_counter() - started
        assert player.last_result is not None
        nodes, value = player.last_result.nodes, player.last_result.score
        player.close()
    else:
        started = time.perf_counter()
        solved = solve_position(state, threads=threads)
        wall = time.perf_counter() - started
        nodes, value = solved.nodes, solved.value
    kilobytes = 1 if sys.platform.startswith("linux") else 1024  # ru_maxrss units
    return {
        "wall": wall,
        "nodes": nodes,
        "value": value,
        "startup": startup,
        "rss_main_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / kilobytes,
        "rss_helper_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 / kilobytes,
    }


def run_one(case: tuple[str, str, str, dict[str, int], str, int], threads: int) -> dict[str, Any]:
    """`measure` in a fresh process."""
    _, kind, game, options, moves, depth = case
    spec = json.dumps([kind, game, options, moves, depth, threads])
    output = subprocess.run(
        [sys.executable, __file__, "--one", spec], capture_output=True, text=True, check=True
    ).stdout
    figures: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each case (default 3)")
    parser.add_argument("--threads", type=int, default=2, help="processes to compare with one")
    parser.add_argument("--quick", action="store_true", help="smaller cases, seconds each")
    parser.add_argument("--only", default="", help="run the cases whose name has this text")
    parser.add_argument("--one", default=None, metavar="JSON",
                        help="one measurement in this process (what each run starts)")
    args = parser.parse_args()
    if args.one is not None:
        kind, game, options, moves, depth, threads = json.loads(args.one)
        print(json.dumps(measure(kind, game, options, moves, depth, threads)))
        return
    for case in QUICK if args.quick else CASES:
        if args.only not in case[0]:
            continue
        ratios = []
        for round_ in range(args.rounds):
            walls = {}
            for threads in (1, args.threads) if round_ % 2 == 0 else (args.threads, 1):
                load = os.getloadavg()[0]
                figures = run_one(case, threads)
                walls[threads] = figures["wall"]
                print(
                    f"{case[0]:20} threads {threads}: {figures['wall']:7.2f} s, "
                    f"{figures['nodes']:>10,} nodes (main), value {figures['value']}, "
                    f"start-up {figures['startup']:.3f} s, peak RSS main "
                    f"{figures['rss_main_mb']:.0f} MB, helper {figures['rss_helper_mb']:.0f} MB, "
                    f"load {load:.2f}",
                    flush=True,
                )
            ratios.append(walls[1] / walls[args.threads])
            print(f"{case[0]:20} round {round_ + 1}: ratio {ratios[-1]:.2f}", flush=True)
        print(
            f"{case[0]:20} ratios {', '.join(f'{r:.2f}' for r in ratios)}; "
            f"median {statistics.median(ratios):.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
