"""What the default Andantino AI's root threat-space search costs, in CPU time.

    python benchmarks/andantino_ladders.py --positions 400

Positions: every shipped opening, continued by 0 to 30 plies of a seeded
surround-seeking random game (threats come up often).  For each, the root
steps of `LadderPlayer` are timed in CPU seconds (`time.process_time`):
its own forcing line (`Ladders.win`), the safe moves when the opponent
threatens one (`_safe_moves`, with the threats-of-lines check), and else
the check of one move (`_refuted`, here a random legal move, standing in
for the searched one).  Prints the mean, median, 90th percentile and
maximum, and how often each step decided something.  The search itself is
unchanged by these steps (same tree, same node rate); compare the mean with
the CPU time a move gets in a match (about 0.1 s at a load of 16-24 on 2
cores, 0.4-0.5 s at a load of 4).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boardgames.ai import make_player
from boardgames.game import get_game
from boardgames.games.andantino.openings import openings


def positions(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    starts = openings()
    while len(out) < count:
        state = starts[len(out) % len(starts)].state(game)
        for _ in range(rng.randint(0, 30)):
            legal = state.legal_moves()
            if rng.random() < 0.7:
                move = max(legal, key=lambda c: (state.masks[c] >> 36) + 3 * rng.random())
            else:
                move = rng.choice(legal)
            state.make(move)
            if state.is_over():
                state.undo()
                break
        out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("andantino")
    player = make_player(game, "default")
    rng = random.Random(args.seed)
    costs: list[float] = []
    own = restricted = refuted = 0
    for state in positions(game, args.positions, args.seed):
        state = state.copy()
        start = time.process_time()
        if player.ladders.win(state) is not None:
            own += 1
        else:
            safe = player._safe_moves(state, None)
            if safe is not None:
                restricted += 1
            elif player._refuted(state, rng.choice(state.legal_moves()), None):
                refuted += 1
        costs.append(time.process_time() - start)
    costs.sort()
    n = len(costs)
    print(
        f"{n} positions: own line {own}, root restricted {restricted}, checked move refuted "
        f"{refuted}; CPU ms a position: mean {1000 * statistics.mean(costs):.1f}, median "
        f"{1000 * costs[n // 2]:.1f}, 90th percentile {1000 * costs[int(0.9 * n)]:.1f}, "
        f"max {1000 * costs[-1]:.0f}"
    )


if __name__ == "__main__":
    main()
