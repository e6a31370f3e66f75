"""Where were the default Andantino AI's lost games decided?

    python tools/andantino_lost.py --games a.json b.json [--choose] [--variant ...]

A quick look: play a few games that A loses, then replay them:
`python tools/andantino_openings.py --a random --time 0.05 --only g01,e01
--json lost.json` and `python tools/andantino_lost.py --games lost.json
--cap 0.2`.

For every game A lost in the JSON files of `andantino_openings.py`
(`--games`), the game is replayed and each of A's moves is tagged by what
the opponent has after it: `L` a forcing line (`Ladders.win`), `1`..`3` a
win by threats of forcing lines that deep (`Ladders.threat_win`, at most
`--cap` s each), `.` neither.  The replay stops at the first tagged move.
At the last two positions where A moved, it prints how many moves hold 3
deep (are not refuted), and of those which hold 4 deep (with the CPU time
of each check; `cut` when the check ran out of 2 * `--cap` s).

`--choose` then plays the default AI's `choose(state, Limits(time=--time))`
at the last `--back` positions where A moved, with each `--variant`
(name=depths/search share of the check of the searched move, e.g.
`now=2,3/0.9 deep=2,3,4/0.75`; `LadderPlayer.depths`, `.search_share`),
alternated position by position in this one process, and counts the
chosen moves that are refuted 4 deep (a check of at most 10 s; `?` when it
ran out).  Positions where every move is refuted measure nothing, so the
count is a comparison, not a rate.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from boardgames.ai import make_player
from boardgames.budget import Budget, Limits
from boardgames.errors import BoardgamesError
from boardgames.games.andantino.ladders import Ladders
from boardgames.registry import get_game


def loses(state, move: int, depth: int, cap: float) -> bool | None:
    """Whether `move` loses to threats of forcing lines `depth` deep (None:
    the check ran out of `cap` seconds)."""
    state = state.copy()
    me = state.to_move
    state.make(move)
    if state.reason is not None:
        return state.winner() != me
    budget = Budget(Limits(time=cap))
    found = Ladders().threat_win(state, depth, budget)
    return None if not found and budget.expired() else found


def tag(state, cap: float) -> str:
    """What the side to move has: a forcing line, threats of lines d deep, or nothing."""
    ladders = Ladders()
    if ladders.win(state) is not None:
        return "L"
    for depth in (1, 2, 3):
        if ladders.threat_win(state, depth, Budget(Limits(time=cap))):
            return str(depth)
    return "."


def lost_positions(game, record: dict, cap: float) -> tuple[list[str], list[tuple]]:
    """The tags of A's moves up to the first tagged one, and the positions
    where A moved (ply, state, move played)."""
    state = game.parse_position(record["start"])
    colour = game.player_names.index(record["a_colour"])
    tags: list[str] = []
    before: list[tuple] = []
    for ply, move in enumerate(record["moves"]):
        if state.reason is not None:
            break
        mover = state.to_move
        if mover == colour:
            before.append((ply, state.copy(), move))
        state.play(move)
        if mover == colour and state.reason is None:
            tags.append(f"{ply}:{move}{tag(state.copy(), cap)}")
            if not tags[-1].endswith("."):
                break
    return tags, before


def holding(game, state, cap: float) -> str:
    """The moves that hold 3 deep, and of those the ones that hold 4 deep."""
    fmt = game.format_move
    moves = state.legal_moves()
    three = [m for m in moves if loses(state, m, 3, cap) is False]
    four, cut = [], []
    for move in three:
        start = time.process_time()
        verdict = loses(state, move, 4, 2 * cap)
        spent = f"{fmt(move)} {time.process_time() - start:.2f} s"
        if verdict is None:
            cut.append(spent)
        elif not verdict:
            four.append(spent)
    return (f"hold 3 deep {len(three)}/{len(moves)} {[fmt(m) for m in three]}; "
            f"4 deep {four}; cut {cut}")


def parse_variant(text: str) -> tuple[str, tuple[int, ...], float]:
    name, spec = text.split("=")
    depths, share = spec.split("/")
    return name, tuple(int(d) for d in depths.split(",")), float(share)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="+", required=True,
                        help="JSON files of andantino_openings.py")
    parser.add_argument("--cap", type=float, default=3.0,
                        help="seconds for each check of threats of lines (default 3)")
    parser.add_argument("--choose", action="store_true",
                        help="play the default AI's choose with each --variant")
    parser.add_argument("--variant", nargs="+", default=["now=2,3/0.9"],
                        help="NAME=DEPTHS/SHARE, e.g. deep=2,3,4/0.75 (default now=2,3/0.9)")
    parser.add_argument("--back", type=int, default=4,
                        help="with --choose, positions before the last one (default 4)")
    parser.add_argument("--time", type=float, default=1.0,
                        help="with --choose, seconds a move (default 1)")
    args = parser.parse_args()
    game = get_game("andantino")
    try:
        variants = [parse_variant(v) for v in args.variant]
    except ValueError:
        parser.error(f"bad --variant {args.variant} (expected NAME=DEPTHS/SHARE)")
    counts = {name: [0, 0, 0] for name, _, _ in variants}  # refuted, held, unknown
    verdicts: dict[tuple, bool | None] = {}
    index = 0
    for path in args.games:
        with open(path) as f:
            records = json.load(f)["games"]
        for number, record in enumerate(records):
            if record["a_result"] != "loss":
                continue
            tags, before = lost_positions(game, record, args.cap)
            print(path, record["opening"], record["a_colour"], " ".join(tags), flush=True)
            if not args.choose:
                for ply, state, move in before[-2:]:
                    where = holding(game, state, args.cap)
                    print(f"  ply {ply} played {move}: {where}", flush=True)
                continue
            for ply, state, move in before[-args.back - 1:]:
                order = variants[index % len(variants):] + variants[:index % len(variants)]
                index += 1
                out = []
                for name, depths, share in order:
                    player = make_player(game, "default")
                    player.depths, player.search_share = depths, share
                    chosen = player.choose(state.copy(), Limits(time=args.time))
                    key = (path, number, ply, chosen)
                    if key not in verdicts:
                        verdicts[key] = loses(state, chosen, 4, 10.0)
                    verdict = verdicts[key]
                    counts[name][0 if verdict else 2 if verdict is None else 1] += 1
                    mark = "x" if verdict else "?" if verdict is None else ""
                    out.append(f"{name}:{game.format_move(chosen)}{mark}")
                print(f"  ply {ply} played {move}: {' '.join(out)}", flush=True)
    for name, (lost, held, unknown) in counts.items():
        if args.choose:
            print(f"{name}: chosen move refuted 4 deep {lost}, holds {held}, unknown {unknown}")


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
