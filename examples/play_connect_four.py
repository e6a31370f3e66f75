"""Watch two AIs play Connect Four, move by move.

    python examples/play_connect_four.py --red alphabeta:depth=4 --yellow mcts --time 0.5

Shows the library's match loop: `make_player` builds players from AI specs,
`play_game` referees the game (per-move time limit, forfeits) and returns a
`GameRecord` that can be saved as JSON and replayed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import connect_four  # noqa: E402, F401  (registers "connect4")

from boardgames.ai import make_player  # noqa: E402
from boardgames.match.play import play_game  # noqa: E402
from boardgames.match.records import GameRecord  # noqa: E402
from boardgames.registry import get_game


def main(argv: list[str] | None = None) -> GameRecord:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--red", default="default", help="AI spec for red (moves first)")
    parser.add_argument("--yellow", default="alphabeta:depth=3", help="AI spec for yellow")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--record", help="save the game record (JSON) here")
    args = parser.parse_args(argv)

    game = get_game("connect4")
    red = make_player(game, args.red, time=args.time, seed=args.seed)
    yellow = make_player(game, args.yellow, time=args.time, seed=args.seed)

    def show(state, move, player):
        result = player.last_result
        detail = "" if result is None else f" (depth {result.depth}, {result.nodes} nodes)"
        print(f"{player.name} plays {game.format_move(move)}{detail}")
        print(state, end="\n\n")

    record = play_game(game, [red, yellow], time_limit=args.time, on_move=show)
    print(record.summary())
    if args.record:
        record.save(args.record)
        print(f"saved to {args.record}")
    return record


if __name__ == "__main__":
    main()
