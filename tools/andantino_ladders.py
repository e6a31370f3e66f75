"""What does the default Andantino AI's root threat-space search cost in CPU time?

    python tools/andantino_ladders.py --positions 400

A quick look: `python tools/andantino_ladders.py --positions 5`.

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

    python tools/andantino_ladders.py --games a.json b.json --every 3 --compare

`--games` takes the positions instead from the JSON files of
`andantino_openings.py` (every `--every`-th position where A was to move).
`--compare` times the root steps four ways, alternated position by
position in this one process: the threat-space search with and without
its short-cuts (`Ladders.filter`: the moves outside `threat_makers` are
not played; `Ladders.known`: after each reply, the line the opponent had
is tried before a search), each with the checks of the
moves that stop a ladder 2 and 3 deep (`pressure`); it prints each way's
CPU time and the ratios, and counts the positions where the short-cuts changed the result.
`--cap` is the deadline of each step in seconds of wall-clock time (as in
play, where a step past its deadline keeps the moves it has not checked).

`--wide` times the root steps (with the short-cuts, pressure 3) with
`threat_win` trying only the attacker's moves near its stones and every
legal move (`Ladders.wide`), alternated the same way, and counts the
positions where the result changed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from boardgames.ai import make_player
from boardgames.budget import Budget, Limits
from boardgames.errors import BoardgamesError
from boardgames.games.andantino.openings import openings
from boardgames.registry import get_game


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


def game_positions(game, files: list[str], every: int) -> list:
    """Every `every`-th position of the recorded games where A was to move."""
    out = []
    count = 0
    for name in files:
        with open(name) as f:
            games = json.load(f)["games"]
        for record in games:
            state = game.parse_position(record["start"])
            colour = game.player_names.index(record["a_colour"])
            for move in record["moves"]:
                if state.reason is not None:
                    break
                if state.to_move == colour:
                    count += 1
                    if count % every == 0:
                        out.append(state.copy())
                state.play(move)
    return out


def root_steps(player, state, rng: random.Random, cap: float | None) -> tuple:
    """The root steps of `player` on `state` (see the module notes): what
    each decided, for comparing two ways."""
    state = state.copy()
    line = player.ladders.win(state)
    if line is not None:
        return ("line", tuple(line))
    safe = player._safe_moves(state, Budget(Limits(time=cap) if cap else None))
    if safe is not None:
        return ("safe", tuple(sorted(safe)))
    budget = Budget(Limits(time=cap) if cap else None)
    return ("refuted", player._refuted(state, rng.choice(state.legal_moves()), budget))


def compare(game, states: list, seed: int, cap: float | None) -> None:
    """Time the four ways of `--compare`, alternated position by position."""
    ways = [(filt, pressure) for pressure in (2, 3) for filt in (False, True)]
    players = {}
    for filt, pressure in ways:
        player = make_player(game, f"default:pressure={pressure}")
        player.ladders.filter = player.ladders.known = player.ladders.threat_first = filt
        players[filt, pressure] = player
    costs: dict[tuple[bool, int], list[float]] = {way: [] for way in ways}
    results: dict[tuple[bool, int], list[tuple]] = {way: [] for way in ways}
    for index, state in enumerate(states):
        order = ways[index % 4 :] + ways[: index % 4]
        for way in order:
            rng = random.Random(seed * 100_003 + index)
            start = time.process_time()
            results[way].append(root_steps(players[way], state, rng, cap))
            costs[way].append(time.process_time() - start)
    for filt, pressure in ways:
        c = sorted(costs[filt, pressure])
        n = len(c)
        print(
            f"pressure {pressure}, short-cuts {'on ' if filt else 'off'}: CPU s total "
            f"{sum(c):.2f}, ms a position mean {1000 * statistics.mean(c):.1f}, median "
            f"{1000 * c[n // 2]:.2f}, 90th percentile {1000 * c[int(0.9 * n)]:.1f}, "
            f"99th {1000 * c[int(0.99 * n)]:.0f}, max {1000 * c[-1]:.0f}"
        )
    for pressure in (2, 3):
        old, new = sum(costs[False, pressure]), sum(costs[True, pressure])
        same = sum(a == b for a, b in zip(results[False, pressure], results[True, pressure]))
        print(
            f"pressure {pressure}: short-cuts on / off = {new / old:.2f} of the CPU time; "
            f"same result in {same} of {len(states)} positions"
        )
    base = sum(costs[False, 2])
    print(f"pressure 3 with the short-cuts / pressure 2 without: {sum(costs[True, 3]) / base:.2f}")


def compare_wide(game, states: list, seed: int, cap: float | None) -> None:
    """Time the root steps with `Ladders.wide` off and on, alternated."""
    players = {}
    for wide in (False, True):
        player = make_player(game, "default")
        player.ladders.wide = wide
        players[wide] = player
    costs: dict[bool, list[float]] = {False: [], True: []}
    results: dict[bool, list[tuple]] = {False: [], True: []}
    for index, state in enumerate(states):
        for wide in (False, True) if index % 2 == 0 else (True, False):
            rng = random.Random(seed * 100_003 + index)
            start = time.process_time()
            results[wide].append(root_steps(players[wide], state, rng, cap))
            costs[wide].append(time.process_time() - start)
    for wide in (False, True):
        c = sorted(costs[wide])
        n = len(c)
        print(
            f"{'wide' if wide else 'near'}: CPU s total {sum(c):.2f}, ms a position mean "
            f"{1000 * statistics.mean(c):.1f}, median {1000 * c[n // 2]:.2f}, 90th percentile "
            f"{1000 * c[int(0.9 * n)]:.1f}, max {1000 * c[-1]:.0f}"
        )
    same = sum(a == b for a, b in zip(results[False], results[True]))
    print(
        f"wide / near = {sum(costs[True]) / sum(costs[False]):.2f} of the CPU time; "
        f"same result in {same} of {len(states)} positions"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=400,
                        help="generated positions to time (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated positions")
    parser.add_argument("--games", nargs="+",
                        help="take the positions from these JSON files of andantino_openings.py")
    parser.add_argument("--every", type=int, default=1,
                        help="with --games, every N-th position where A was to move")
    parser.add_argument("--compare", action="store_true",
                        help="time the short-cuts off and on, pressure 2 and 3")
    parser.add_argument("--wide", action="store_true", help="compare Ladders.wide off and on")
    parser.add_argument("--cap", type=float, default=None, help="deadline of a step (s)")
    args = parser.parse_args()
    if args.positions < 1 or args.every < 1:
        parser.error("--positions and --every must be at least 1")
    game = get_game("andantino")
    if args.games:
        states = game_positions(game, args.games, args.every)
    else:
        states = positions(game, args.positions, args.seed)
    if args.compare or args.wide:
        print(f"{len(states)} positions")
        (compare_wide if args.wide else compare)(game, states, args.seed, args.cap)
        return
    player = make_player(game, "default")
    rng = random.Random(args.seed)
    costs: list[float] = []
    own = restricted = refuted = 0
    for state in states:
        state = state.copy()
        start = time.process_time()
        if player.ladders.win(state) is not None:
            own += 1
        else:
            safe = player._safe_moves(state, Budget())
            if safe is not None:
                restricted += 1
            elif player._refuted(state, rng.choice(state.legal_moves()), Budget()):
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
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
