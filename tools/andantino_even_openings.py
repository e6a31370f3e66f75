"""Which Andantino openings give White and Black an even chance between equal players?

    python tools/andantino_even_openings.py --count 100 --out even.txt

A quick look: `python tools/andantino_even_openings.py --count 3 --depth 2
--out /tmp/even.txt`.

Between two copies of the default AI at 1 s a move, Black (who starts
with the centre stone) wins about four games of five from random plies
or from the shipped general openings, so that most pairs of a match split
by colour and say nothing about the players.  This tool writes an opening
file for `boardgames match --opening-file` (and tournaments) whose
openings favour White by a measured amount instead: uniformly random legal
plies (`--plies`, 4 to 8 by default), kept when nobody has a winning cell
yet and a NegaScout search to `--depth` with the default evaluator scores
the position for White within `--white LOW HIGH`.  Openings are distinct
up to the board's 12 symmetries; each line carries White's score as a
comment.  The file is written atomically.

Whether a band evens the colours is a question for a match of the
default AI against itself on the file (see docs/results/parallel-search.md
for the band chosen and its result).
"""

from __future__ import annotations

import argparse
import random
import sys

from andantino_make_openings import GAME, canon, score

from boardgames.errors import BoardgamesError
from boardgames.games.andantino import AndantinoState
from boardgames.games.andantino.threats import winning_cells
from boardgames.io import atomic_write_text


def white_score(state: AndantinoState, depth: int) -> float:
    """The depth-`depth` NegaScout score of `state` (default evaluator) for White."""
    value = score(state, depth)
    return value if state.to_move == 0 else -value


def even_openings(
    rng: random.Random, count: int, plies: tuple[int, int], depth: int,
    band: tuple[float, float], tries: int,
) -> list[tuple[str, float]]:
    """Up to `count` openings (their moves, White's score) from at most `tries`
    random ones, distinct up to symmetry, whose score for White is in `band`."""
    seen: set[int] = set()
    found: list[tuple[str, float]] = []
    for _ in range(tries):
        if len(found) == count:
            break
        state = GAME.new_state()
        assert isinstance(state, AndantinoState)
        moves = []
        for _ in range(rng.randint(*plies)):
            move = rng.choice(state.legal_moves())
            state.make(move)
            moves.append(GAME.format_move(move))
        key = canon(state)
        if state.is_over() or key in seen:
            continue
        seen.add(key)
        if winning_cells(state, 0) or winning_cells(state, 1):
            continue
        score = white_score(state, depth)
        if band[0] <= score <= band[1]:
            found.append((" ".join(moves), score))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=100, help="openings to write [100]")
    parser.add_argument("--out", required=True, help="the opening file to write")
    parser.add_argument("--plies", type=int, nargs=2, default=(4, 8), metavar=("MIN", "MAX"),
                        help="random plies of an opening [4 8]")
    parser.add_argument("--depth", type=int, default=4, help="search depth of the score [4]")
    parser.add_argument("--white", type=float, nargs=2, default=(25.0, 125.0),
                        metavar=("LOW", "HIGH"), help="White's score band [25 125]")
    parser.add_argument("--tries", type=int, default=20_000,
                        help="random openings to try at most [20000]")
    parser.add_argument("--seed", type=int, default=1, help="random seed [1]")
    args = parser.parse_args(argv)
    low, high = args.plies
    if not 1 <= low <= high or args.depth < 1 or args.count < 1:
        parser.error("need 1 <= MIN <= MAX plies, a depth and a count of at least 1")
    rng = random.Random(args.seed)
    band = (float(args.white[0]), float(args.white[1]))
    found = even_openings(rng, args.count, (low, high), args.depth, band, args.tries)
    if not found:
        print("error: no opening in the band", file=sys.stderr)
        return 2
    lines = [f"# Andantino openings: White's depth-{args.depth} score in "
             f"[{args.white[0]:g}, {args.white[1]:g}], seed {args.seed}"]
    lines += [f"{moves}  # White {score:+.0f}" for moves, score in found]
    try:
        atomic_write_text(args.out, "\n".join(lines) + "\n")
    except OSError as exc:
        print(f"error: {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    scores = sorted(score for _, score in found)
    print(f"{len(found)} openings to {args.out}; White's scores {scores[0]:+.0f} .. "
          f"{scores[-1]:+.0f}, median {scores[len(scores) // 2]:+.0f}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BoardgamesError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
