"""Which candidate book move of a Squatter position wins most over many seeded games?

    python tools/squatter_branch_games.py --size 6 \\
        --moves "A2 C4 A3 D3 B3 D5 E4 F5 C6" --candidates "E2 C3 A4 D1" \\
        --seeds 1-20 --out /tmp/squatter/branch.jsonl

A quick look: the same with `--candidates "E2 C3" --seeds 1 --opponent
seed003:time=0.05 --me default:time=0.05 --stop 20 --solve 3`.

For each seed, each board symmetry of `--frames` and each candidate
(seeds outer, so a run cut short has about as many games of every
candidate), the candidate is played after `--moves` (the book side to
move there), all turned by the symmetry, and the game is played on between
`--me` (the default with its book unless told) and an in-game `--opponent`
with that seed: a new player first asked at each of its own earlier
positions of the line (its answers dropped and the line's moves played),
as in a match game that followed the line (tools/squatter_seed_replies.py).
Play stops at `--stop` free cells and `SquatterSolver` decides with one
null-window test whether the position is won for the book side (1) or not
(0: a draw or a loss; null when the test ran out of `--solve` seconds).
The symmetries matter: seed 003's move order is not symmetric, so in one
position it can answer differently in each orientation of the board
(stop 24: after F5 C6 E2 it played B6 in two orientations, D6 in one and
F3 in three).  One JSON line per game: candidate, seed, frame, the line
in the book's frame and as played, outcome, CPU seconds
(`time.process_time()`) of play and solve, load average.  A summary per
candidate is printed at the end.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

from squatter_tryout import outcome, play_on, play_on_record

from boardgames.ai import make_player
from boardgames.errors import BoardgamesError, SearchStopped
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.registry import get_game


def seed_list(text: str) -> list[int]:
    """The numbers of "1-20" or "1,2,5"."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def play(args: argparse.Namespace, candidate: str, seed: int, frame: int) -> dict[str, object]:
    """One game from the position after `args.moves` and `candidate`, the
    board turned by `frame` (`Squatter.unmap_move`)."""
    game = get_game("squatter", size=args.size)
    prefix = [game.format_move(game.unmap_move(game.parse_move(text), frame))
              for text in [*args.moves.split(), candidate]]
    side = len(args.moves.split()) % 2  # the book side
    opponent = make_player(game, f"{args.opponent},seed={seed}")
    me = make_player(game, args.me)
    start = time.process_time()
    state = game.new_state()
    for text in prefix:
        if state.to_move != side:
            opponent.choose(state)
        state.play(text)
    line = list(prefix)
    play_on(state, side, me, opponent, args.stop, line)
    played = time.process_time() - start
    found: int | None
    try:
        found = outcome(SquatterSolver(game), state, side, True, args.solve)
    except SearchStopped:
        found = None
    return {
        "candidate": candidate,
        "seed": seed,
        "frame": frame,
        "line": " ".join(game.format_move(game.map_move(game.parse_move(text), frame))
                         for text in line),
        "played": " ".join(line),
        **play_on_record(state, found, start, played),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--moves", required=True, help="moves from the start (book side to move)")
    parser.add_argument("--candidates", required=True, help="the book side's moves to compare")
    parser.add_argument("--seeds", default="1-20", help='opponent seeds: "1-20" or "1,2,5"')
    parser.add_argument("--frames", default="0", help='board symmetries: "0-7" or "0,4"')
    parser.add_argument("--opponent", default="seed003:time=1",
                        help="AI spec of the opponent, given each seed (default seed003:time=1)")
    parser.add_argument("--me", default="default:time=1",
                        help="AI spec of the book side (default default:time=1)")
    parser.add_argument("--stop", type=int, default=22, help="free cells at which to solve")
    parser.add_argument("--solve", type=float, default=30.0, help="seconds for each solve")
    parser.add_argument("--out", required=True, help="append one JSON line a game to this file")
    args = parser.parse_args()
    counts: dict[str, collections.Counter[object]] = collections.defaultdict(collections.Counter)
    with open(args.out, "a") as out:
        for seed in seed_list(args.seeds):
            for frame in seed_list(args.frames):
                for candidate in args.candidates.split():
                    record = play(args, candidate, seed, frame)
                    counts[candidate][record["outcome"]] += 1
                    out.write(json.dumps(record) + "\n")
                    out.flush()
    for candidate, found in counts.items():
        print(f"{candidate}: won {found[1]}, not won {found[0]}, unknown {found[None]}")


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
