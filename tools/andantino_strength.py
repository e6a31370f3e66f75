"""How does the default Andantino AI score against the seed 000 bot?

    python tools/andantino_strength.py --games 20 --time 1.0

A quick look: `python tools/andantino_strength.py --games 2 --time 0.05`.

Colours alternate every game; each pair of games starts from the same short
seeded random opening (2 plies by default) so the deterministic default AI
plays different games.  Prints one line per game and the summary (score,
Elo difference); `--json FILE` saves it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from boardgames.errors import BoardgamesError
from boardgames.match.play import play_match
from boardgames.registry import get_game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move (default 1)")
    parser.add_argument("--a", default="default", help="AI spec of player A (default: default)")
    parser.add_argument("--b", default="seed", help="AI spec of player B (default: seed)")
    parser.add_argument("--opening", type=int, default=2,
                        help="random opening plies (default 2)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the openings")
    parser.add_argument("--json", default=None, help="write the summary to this JSON file")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    game = get_game("andantino")
    start = time.perf_counter()

    def report(index, record, summary) -> None:
        a_side = index % 2
        colour = game.player_names[a_side]
        print(
            f"game {index + 1:2d}: A plays {colour}, result {record.result} "
            f"({len(record.moves)} moves, {record.end.value}: {record.reason}); "
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
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
