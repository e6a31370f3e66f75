"""Compare the search algorithms on one position: nodes, time, ordering.

    python examples/search_stats.py --game connect4 --depth 6

Minimax, alpha-beta and negascout must agree on the value at a fixed depth;
what differs is how many nodes they need.  The SearchResult of each run
carries the numbers: nodes, nodes/s, transposition-table hits and how often
the first move tried caused the cutoff (the quality of move ordering).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import connect_four  # noqa: E402, F401  (registers "connect4")

from boardgames.registry import get_game
from boardgames.search import Searcher  # noqa: E402

ALGORITHMS = ("minimax", "alphabeta", "negascout")


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--moves", default="", help="moves from the start, in notation")
    parser.add_argument("--no-tt", action="store_true", help="search without a TT")
    args = parser.parse_args(argv)

    game = get_game(args.game)
    state = game.replay(args.moves.split())
    print(state, end="\n\n")
    results = {}
    header = f"{'algorithm':<10} {'score':>8} {'move':>5} {'nodes':>9} {'nodes/s':>9}"
    print(header + f" {'tt hits':>8} {'first-move cutoffs':>19}")
    for algorithm in ALGORITHMS:
        searcher = Searcher(algorithm=algorithm, tt_size=0 if args.no_tt else 1 << 16)
        result = searcher.search(state, depth=args.depth)
        results[algorithm] = result
        print(
            f"{algorithm:<10} {result.score:>8g} {game.format_move(result.move):>5}"
            f" {result.nodes:>9} {result.nps:>9.0f} {result.tt_hit_rate:>8.1%}"
            f" {result.first_move_cutoff_rate:>19.1%}"
        )
    base = results["minimax"].nodes
    for algorithm in ALGORITHMS[1:]:
        print(f"{algorithm} visits {results[algorithm].nodes / base:.1%} of minimax's nodes")
    return results


if __name__ == "__main__":
    main()
