"""How does the default Andantino AI score against the seed 000 bot from set openings?

    python tools/andantino_openings.py --time 1.0 --json results.json

A quick look: `python tools/andantino_openings.py --time 0.05 --only g01,e01`.

Plays every opening of boardgames.games.andantino.openings (or `--openings
FILE`, same line format) twice, A with each colour, at the same time per
move for both sides (`play_game(..., start=state)`).  Prints one line per
game (the opening, A's colour, the result, the plies, A's and B's mean
depth and nodes per move) and the summary: A's wins/draws/losses by colour
and by opening kind.  `--shard I/N` plays every N-th game (for parallel
runs; merge the JSON files with `--merge`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from boardgames.ai import make_player
from boardgames.errors import BoardgamesError
from boardgames.games.andantino.openings import Opening, openings, parse_openings
from boardgames.match.play import play_game
from boardgames.registry import get_game


def play_one(game, opening: Opening, a_colour: int, args, seed: int) -> dict[str, Any]:
    """One game from `opening`, A playing colour `a_colour` (0 White, 1 Black)."""
    a = make_player(game, args.a, seed=seed)
    b = make_player(game, args.b, seed=seed + 1)
    players = [a, b] if a_colour == 0 else [b, a]
    stats: dict[str, list[tuple[int, int]]] = {"a": [], "b": []}

    def on_move(state, move, player) -> None:
        result = getattr(player, "last_result", None)
        if move is not None and result is not None:
            stats["a" if player is a else "b"].append((result.depth, result.nodes))

    start = opening.state(game)
    cpu = time.process_time()
    record = play_game(game, players, time_limit=args.time, start=start, on_move=on_move)
    cpu = time.process_time() - cpu
    won = record.winner == a_colour
    score = "draw" if record.winner is None else ("win" if won else "loss")

    def mean(side: str, k: int) -> float:
        values = [s[k] for s in stats[side]]
        return sum(values) / len(values) if values else 0.0

    # Wall-clock seconds of each side's moves (the first played by the side to move).
    a_first = (start.to_move - a_colour) % 2
    a_times, b_times = record.times[a_first::2], record.times[1 - a_first :: 2]

    return {
        "opening": opening.name,
        "kind": opening.kind,
        "a_colour": game.player_names[a_colour],
        "a_result": score,
        "reason": record.end.value if record.end != "rules" else "",
        "end": record.reason,
        "plies": len(record.moves),
        "moves": record.moves,
        "start": opening.moves,
        "a_depth": round(mean("a", 0), 2),
        "b_depth": round(mean("b", 0), 2),
        "a_nodes": round(mean("a", 1)),
        "b_nodes": round(mean("b", 1)),
        "a_max_depth": max((s[0] for s in stats["a"]), default=0),
        "b_max_depth": max((s[0] for s in stats["b"]), default=0),
        "cpu": round(cpu, 1),
        "wall": round(sum(record.times), 1),
        "a_time": round(sum(a_times) / len(a_times), 3) if a_times else 0.0,
        "b_time": round(sum(b_times) / len(b_times), 3) if b_times else 0.0,
        "a_time_max": round(max(a_times, default=0.0), 3),
        "b_time_max": round(max(b_times, default=0.0), 3),
    }


def summary(games: list[dict[str, Any]]) -> str:
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    index = {"win": 0, "draw": 1, "loss": 2}
    for g in games:
        for key in ("all", f"A {g['a_colour']}", f"{g['kind']}", f"{g['kind']}, A {g['a_colour']}"):
            rows[key][index[g["a_result"]]] += 1
    lines = ["A's W/D/L   games  score"]
    for key, (w, d, lo) in sorted(rows.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        n = w + d + lo
        lines.append(f"{key:22s} {w}/{d}/{lo}  {n:3d}  {100 * (w + d / 2) / n:5.1f}%")

    def avg(k: str) -> float:
        return sum(g[k] for g in games) / len(games)

    lines.append(
        f"mean depth A {avg('a_depth'):.2f} B {avg('b_depth'):.2f}; mean nodes a move "
        f"A {avg('a_nodes'):,.0f} B {avg('b_nodes'):,.0f}; mean plies {avg('plies'):.1f}"
    )
    if all("a_time" in g for g in games):  # files from before stop 20 lack them
        lines.append(
            f"wall-clock s a move: A mean {avg('a_time'):.3f} (max"
            f" {max(g['a_time_max'] for g in games):.3f}), B mean {avg('b_time'):.3f}"
            f" (max {max(g['b_time_max'] for g in games):.3f})"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move, both sides")
    parser.add_argument("--a", default="default", help="AI spec of player A")
    parser.add_argument("--b", default="seed", help="AI spec of player B")
    parser.add_argument("--openings", default=None, help="a file of openings (default: shipped)")
    parser.add_argument("--kind", default=None, help="only openings of this kind")
    parser.add_argument("--only", default=None, help="comma-separated opening names")
    parser.add_argument("--colours", choices=("both", "white", "black"), default="both",
                        help="A's colours (default both)")
    parser.add_argument("--shard", default="0/1", help="I/N: play every N-th game from the I-th")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the players' noise")
    parser.add_argument("--json", default=None, help="write every game to this JSON file")
    parser.add_argument("--merge", nargs="+", default=None, help="JSON files to merge and sum up")
    args = parser.parse_args()
    shard = re.fullmatch(r"(\d+)/(\d+)", args.shard)
    if shard is None or not int(shard[1]) < int(shard[2]):
        parser.error(f"bad --shard {args.shard!r} (expected I/N with 0 <= I < N)")
    if args.merge:
        games = [g for f in args.merge for g in json.loads(Path(f).read_text())["games"]]
        print(summary(games))
        return
    game = get_game("andantino")
    chosen = (
        parse_openings(Path(args.openings).read_text()) if args.openings else openings(args.kind)
    )
    if args.kind:
        chosen = [o for o in chosen if o.kind == args.kind]
    if args.only:
        names = set(args.only.split(","))
        chosen = [o for o in chosen if o.name in names]
    first, step = int(shard[1]), int(shard[2])
    colours = {"both": (0, 1), "white": (0,), "black": (1,)}[args.colours]
    jobs = [(o, colour) for o in chosen for colour in colours][first::step]
    if not jobs:
        parser.error("no opening to play (see --openings, --kind, --only and --shard)")
    games = []
    started = time.perf_counter()
    for number, (opening, colour) in enumerate(jobs):
        g = play_one(game, opening, colour, args, args.seed + 2 * number)
        games.append(g)
        print(
            f"{opening.name} A={g['a_colour']:5s} {g['a_result']:4s} {g['plies']:3d} plies "
            f"{g['reason'] or ''} depth A {g['a_depth']:.1f} (max {g['a_max_depth']}) "
            f"B {g['b_depth']:.1f} (max {g['b_max_depth']}); nodes/move A {g['a_nodes']:,} "
            f"B {g['b_nodes']:,}; {' '.join(g['moves'])}",
            flush=True,
        )
    print(summary(games))
    elapsed = time.perf_counter() - started
    print(f"elapsed: {elapsed:.0f} s")
    if args.json:
        data = {"a": args.a, "b": args.b, "time": args.time, "elapsed": elapsed, "games": games}
        Path(args.json).write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
