"""Andantino strength: the default AI against the seed 000 bot.

    python tools/andantino_strength.py --games 20 --time 1.0

Colours alternate every game; each pair of games starts from the same short
seeded random opening (2 plies by default) so the deterministic default AI
plays different games.  Prints one line per game and the summary (score,
Elo difference); `--json FILE` saves it.
"""

from __future__ import annotations

import argparse
import json
import time

from boardgames.match.play import play_match
from boardgames.registry import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--a", default="default", help="AI spec of player A")
    parser.add_argument("--b", default="seed", help="AI spec of player B")
    parser.add_argument("--opening", type=int, default=2, help="random opening plies")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    game = get_game("andantino")
    start = time.perf_counter()

    def report(index, record, summary) -> None:
        a_side = index % 2
        colour = game.player_names[a_side]
        print(
            f"game {index + 1:2d}: A plays {colour}, result {record.result} "
            f"({len(record.moves)} moves, {record.reason}); "
            f"A {summary.wins}-{summary.draws}-{summary.losses}",
            flush=True,
        )

    summary = play_match(
        game,
        args.a,
        args.b,
        games=args.games,
        time_limit=args.time,
        seed=args.seed,
        opening_plies=args.opening,
        on_game=report,
    )
    elapsed = time.perf_counter() - start
    print(summary.format())
    print(f"elapsed: {elapsed:.0f} s")
    if args.json:
        data = {
            "a": args.a,
            "b": args.b,
            "games": summary.games,
            "time": args.time,
            "wins": summary.wins,
            "draws": summary.draws,
            "losses": summary.losses,
            "score_percent": summary.score_percent,
            "elapsed": elapsed,
        }
        with open(args.json, "w") as fh:
            json.dump(data, fh, indent=2)


if __name__ == "__main__":
    main()
