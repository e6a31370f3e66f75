"""Which side of an edge-game match proves the position first, and does that win?

    python tools/edge_first_proof.py FOLDER_OR_RECORD ... [--fast 0.3]

Reads the game records of HexiFence or dots-and-boxes matches (a match,
SPRT or tournament folder, or record files: one record, or the JSON lines
of `match --records`) and prints a Markdown table,
one row per AI spec.  The edge games' default AI spends its whole time
share on a move until one of its searches finishes: a proof (the exact
solve, a win of the safe-edge model, or an exact win).  So a move played in
under `--fast` seconds while safe edges were left marks the side's first
proof, and the table gives, per spec:

- the games it played and the empty edges left at its first proof (mean
  and median over the games where it proved one);
- the games where it proved first (the other side had played every move
  before on its full time), and how many of those it won and lost: a
  first proof that loses proved a position already lost.

A quick look: `python tools/edge_first_proof.py sprt-threads-hexifence3`
after a few games of `boardgames match hexifence --size 3 --ai
default:threads=2 --ai2 default --time 1 --opening 4 --sprt elo0=0,elo1=10
--out sprt-threads-hexifence3`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, field

from boardgames.errors import BoardgamesError
from boardgames.games.hexifence import EdgeState
from boardgames.match.records import GameRecord
from boardgames.tuning.texel import record_files


@dataclass
class Side:
    """What one AI spec did over the games."""

    games: int = 0
    proofs: list[int] = field(default_factory=list)  # empty edges at its first proof
    first_won: int = 0
    first_lost: int = 0


def first_proofs(record: GameRecord, fast: float) -> dict[int, int]:
    """Empty edges at each side's first move under `fast` seconds while safe
    edges were left (side index -> empty edges), replaying the record."""
    state = record.start_state()
    if not isinstance(state, EdgeState):
        raise BoardgamesError(f"a record of {record.game}, not of an edge game")
    found: dict[int, int] = {}
    for move, seconds in zip(record.moves, record.times, strict=False):
        side = state.to_move
        if side not in found and seconds < fast and state.safe_moves():
            found[side] = state.n_empty
        state.play(move)
    return found


def tally(paths: list[str], fast: float) -> dict[str, Side]:
    """The table's figures per AI spec over the finished records under `paths`."""
    sides: dict[str, Side] = defaultdict(Side)
    records = [record for path in record_files(paths) for record in GameRecord.load_all(path)]
    for record in records:
        if record.winner is None and record.result != "draw":
            continue  # unfinished
        found = first_proofs(record, fast)
        for index, spec in enumerate(record.players):
            sides[spec].games += 1
            if index in found:
                sides[spec].proofs.append(found[index])
        if found:
            first = max(found, key=lambda index: found[index])  # the most edges left
            spec = record.players[first]
            if record.winner == first:
                sides[spec].first_won += 1
            elif record.winner is not None:
                sides[spec].first_lost += 1
    return dict(sides)


def table(sides: dict[str, Side]) -> str:
    """The Markdown table of `tally`."""
    lines = [
        "| AI | games | first proof: empty edges, mean / median | proved first | won | lost |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for spec, side in sorted(sides.items()):
        where = (
            f"{statistics.mean(side.proofs):.1f} / {statistics.median(side.proofs):g}"
            if side.proofs else "-"
        )
        first = side.first_won + side.first_lost
        won, lost = side.first_won, side.first_lost
        lines.append(f"| `{spec}` | {side.games} | {where} | {first} | {won} | {lost} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="match folders or record files")
    parser.add_argument(
        "--fast", type=float, default=0.3,
        help="a move under this many seconds, with safe edges left, is a proof [0.3]",
    )
    args = parser.parse_args(argv)
    try:
        print(table(tally(args.paths, args.fast)))
    except (BoardgamesError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
