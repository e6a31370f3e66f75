"""The default Andantino AI's move at a time per move, against an older
version of its root (`LadderPlayer`): time used and the moves' safety.

    python benchmarks/andantino_choose.py --games a.json b.json --every 4 --old 2a95ca8

Positions: every `--every`-th position where A was to move in the JSON
files of `andantino_openings.py` (`--games`).  `--old REV`: the
`LadderPlayer` of `src/boardgames/ai/andantino.py` at git revision REV
(read with `git show`, its AI registrations left out); the new one is the
installed library's.  Both play `choose(state, time_limit=--time)` on each
position, alternated (which goes first alternates too), in this one
process.  Prints each one's CPU time (`time.process_time`) and wall-clock
time per move (mean, 90th percentile, max), the ratio of the means, how
often the moves differ, and, where they differ, how often each way's move
loses to threats of forcing lines (`Ladders.threat_win`, `--depth` deep,
default 3), checked after the move (at most `--cap` s a check).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
import types
from pathlib import Path

from andantino_ladders import game_positions

from boardgames.ai import make_player
from boardgames.games.andantino.ladders import Ladders
from boardgames.registry import get_game

ROOT = Path(__file__).resolve().parent.parent


def old_player_class(rev: str) -> type:
    """`LadderPlayer` as it was at git revision `rev`."""
    text = subprocess.run(
        ["git", "show", f"{rev}:src/boardgames/ai/andantino.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    text = text.replace("from . import register_ai", "register_ai = None")
    text = text.replace("@register_ai(", "@(lambda *a, **k: (lambda f: f))(")
    module = types.ModuleType("boardgames.ai.andantino_old")
    module.__package__ = "boardgames.ai"
    exec(compile(text, f"{rev}:andantino.py", "exec"), module.__dict__)  # noqa: S102
    return module.LadderPlayer


def player_like(game, cls: type):
    """A `cls` player built like the default AI (same engine and options)."""
    new = make_player(game, "default")
    return cls(new.engine, Ladders(new.ladders.depth), 3, limits=new.limits, name="old")


def loses(state, move: int, depth: int, cap: float) -> bool | None:
    """Whether `move` loses to threats of forcing lines `depth` deep (None:
    the check ran out of `cap` seconds)."""
    state = state.copy()
    me = state.to_move
    state.make(move)
    if state.reason is not None:
        return state.winner() != me
    end = time.perf_counter() + cap
    found = Ladders().threat_win(state, depth, end)
    return None if not found and time.perf_counter() > end else found


def summary(name: str, values: list[float]) -> str:
    v = sorted(values)
    return (
        f"{name}: mean {statistics.mean(v):.3f} s, 90th percentile {v[int(0.9 * len(v))]:.3f}, "
        f"max {v[-1]:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", required=True)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--old", required=True, help="git revision of the old LadderPlayer")
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--cap", type=float, default=5.0)
    parser.add_argument("--limit", type=int, default=0, help="at most this many positions")
    args = parser.parse_args()
    game = get_game("andantino")
    states = game_positions(game, args.games, args.every)
    if args.limit:
        states = states[: args.limit]
    players = {"old": player_like(game, old_player_class(args.old)),
               "new": make_player(game, "default")}
    cpu: dict[str, list[float]] = {"old": [], "new": []}
    wall: dict[str, list[float]] = {"old": [], "new": []}
    moves: dict[str, list[int]] = {"old": [], "new": []}
    for index, state in enumerate(states):
        for name in ("old", "new") if index % 2 == 0 else ("new", "old"):
            players[name].reset()
            c, w = time.process_time(), time.perf_counter()
            moves[name].append(players[name].choose(state.copy(), time_limit=args.time))
            cpu[name].append(time.process_time() - c)
            wall[name].append(time.perf_counter() - w)
    print(f"{len(states)} positions, {args.time} s a move")
    for name in ("old", "new"):
        print(summary(f"{name} CPU", cpu[name]) + " | " + summary("wall", wall[name]))
    print(f"new / old: CPU {sum(cpu['new']) / sum(cpu['old']):.2f}, "
          f"wall {sum(wall['new']) / sum(wall['old']):.2f}")
    differ = [i for i in range(len(states)) if moves["old"][i] != moves["new"][i]]
    print(f"moves differ in {len(differ)} positions")
    lost = {"old": 0, "new": 0}
    unknown = 0
    for i in differ:
        verdict = {name: loses(states[i], moves[name][i], args.depth, args.cap)
                   for name in ("old", "new")}
        if None in verdict.values():
            unknown += 1
            continue
        for name in ("old", "new"):
            lost[name] += bool(verdict[name])
    print(f"where they differ, the move loses to threats {args.depth} deep: old {lost['old']}, "
          f"new {lost['new']} (unknown within {args.cap} s: {unknown})")


if __name__ == "__main__":
    main()
