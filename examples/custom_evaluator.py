"""Write your own evaluator with `Linear` features and test it in a match.

    python examples/custom_evaluator.py --games 10 --depth 3

A feature is a plain function `(state, player) -> number` (player's view);
`Linear({feature: weight})` turns features into an evaluator that scores
from the side to move, the convention every search in the library uses.
Here: Connect Four windows (four cells in a row) that one side could still
complete, weighted by how many of its discs they already hold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect_four import COLS, ROWS, cell  # noqa: E402  (also registers "connect4")

from boardgames.evaluation import Linear  # noqa: E402
from boardgames.match.play import play_match  # noqa: E402
from boardgames.players import SearchPlayer  # noqa: E402
from boardgames.registry import get_game
from boardgames.search import Searcher  # noqa: E402

#: Every line of four cells on the board.
WINDOWS = [
    [cell(c + i * dc, r + i * dr) for i in range(4)]
    for c in range(COLS)
    for r in range(ROWS)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= c + 3 * dc < COLS and 0 <= r + 3 * dr < ROWS
]


def _open_windows(state, player: int, stones: int) -> int:
    """Windows holding exactly `stones` of player's discs and none of the other's."""
    board = state.board
    count = 0
    for window in WINDOWS:
        mine = theirs = 0
        for x in window:
            v = board[x]
            if v == player:
                mine += 1
            elif v >= 0:
                theirs += 1
        if mine == stones and not theirs:
            count += 1
    return count


def twos(state, player: int) -> float:
    """Open windows with two of my discs, minus the opponent's."""
    return _open_windows(state, player, 2) - _open_windows(state, 1 - player, 2)


def threes(state, player: int) -> float:
    """Open windows with three of my discs (threats), minus the opponent's."""
    return _open_windows(state, player, 3) - _open_windows(state, 1 - player, 3)


def centre(state, player: int) -> float:
    """Discs in the middle column, mine minus theirs."""
    column = state.board[cell(3, 0) : cell(3, ROWS)]
    return column.count(player) - column.count(1 - player)


WINDOWS_EVAL = Linear({centre: 3.0, twos: 2.0, threes: 10.0})


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = get_game("connect4")
    print(f"evaluator: {WINDOWS_EVAL!r}")
    print(f"start position scores {WINDOWS_EVAL(game.new_state()):+g}")
    mine = SearchPlayer(Searcher(WINDOWS_EVAL), depth=args.depth, name="windows")
    theirs = SearchPlayer(Searcher(), depth=args.depth, name="centre-only")
    summary = play_match(game, mine, theirs, games=args.games, seed=args.seed, opening_plies=2)
    print(summary.format())
    return summary


if __name__ == "__main__":
    main()
