"""What does seed 003 reply at a Squatter position, over seeds, fresh and in a game?

    python tools/squatter_seed_replies.py --size 6 --seeds 1,2,3,4 \\
        "D3 F2 C4" "D3 F2 C4 E1 B5"

A quick look: the same with `--seeds 1,2 --opponent seed003:time=0.05`.

Seed 003 searches to a time limit, so its reply at a position can change
with its seed, the load and what it searched before.  For each position
(moves from the start, the opponent to move after them) and each seed,
two players are asked:

- fresh: a new `--opponent` player with that seed, asked once at the
  position;
- in-game: a new player with that seed that is first asked at each of its
  own earlier positions of the line (its answers there are dropped and the
  line's moves played), as in a match game that followed the line.

One line per position and mode: the replies counted, and the load
average.  This is how the book's seed 003 replies are checked
(docs/squatter.md, Opening book): a line's opponent move goes in when it
is the reply of most fresh and in-game players.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

from boardgames.ai import make_player
from boardgames.errors import BoardgamesError
from boardgames.registry import get_game


def replies(size: int, moves: list[str], seeds: list[int], opponent: str,
            in_game: bool) -> collections.Counter[str]:
    """The opponent's reply after `moves`, counted over `seeds`."""
    game = get_game("squatter", size=size)
    side = len(moves) % 2  # the colour to move after `moves`
    counts: collections.Counter[str] = collections.Counter()
    for seed in seeds:
        player = make_player(game, f"{opponent},seed={seed}")
        if in_game:
            state = game.new_state()
            for text in moves:
                if state.to_move == side:
                    player.choose(state)
                state.play(text)
        else:
            state = game.replay(moves)
        counts[game.format_move(player.choose(state))] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("positions", nargs="+", help="moves from the start, one string each")
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--seeds", default="1,2,3,4", help="comma-separated player seeds")
    parser.add_argument("--opponent", default="seed003:time=1",
                        help="AI spec of the player asked, given each seed "
                        "(default seed003:time=1)")
    parser.add_argument("--mode", choices=("fresh", "game", "both"), default="both",
                        help="fresh players, in-game players or both (default both)")
    args = parser.parse_args()
    seeds = [int(text) for text in args.seeds.split(",")]
    modes = ("fresh", "game") if args.mode == "both" else (args.mode,)
    for position in args.positions:
        for mode in modes:
            counts = replies(args.size, position.split(), seeds, args.opponent, mode == "game")
            found = ", ".join(f"{move} {n}" for move, n in counts.most_common())
            print(f"{mode:5} {position} -> {found} (of {len(seeds)}; "
                  f"load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
