"""Where did Squatter match games leave the opening book, and how did they end?

    python tools/squatter_book_exits.py /tmp/squatter/m_s70.jsonl ...

A quick look: `boardgames match squatter --ai default:time=0.05 --ai2
seed003:time=0.05 --games 2 --records games.jsonl`, then
`python tools/squatter_book_exits.py games.jsonl`.

Reads match record files (`boardgames match ... --records F`, one JSON
record a line) and, for every game of `--player` (the default) at
`--size`, maps the game into the book's frame (of the 8 board symmetries,
the one whose moves follow a book line of that colour longest) and finds
where it left the book: the first position with `--player` to move that
`book_move` does not know (found by the canonical key, so transpositions
count as in the book).  Printed per colour of `--player`: each exit (the
moves up to it, in the book's frame) with the games' wins, draws and losses
for `--player`, then every game not won with its next `--after` moves.
"""

from __future__ import annotations

import argparse
import collections
import sys
from typing import TYPE_CHECKING

from boardgames.errors import BoardgamesError
from boardgames.games.squatter.book import LINES, book_move
from boardgames.match.records import GameRecord
from boardgames.registry import get_game

if TYPE_CHECKING:
    from boardgames.games.squatter import Squatter

COLOURS = ("White", "Black")


def common(moves: list[str], line: list[str]) -> int:
    """The number of leading moves `moves` and `line` share."""
    count = 0
    for mine, theirs in zip(moves, line):
        if mine != theirs:
            break
        count += 1
    return count


def in_frame(game: Squatter, moves: list[str], colour: int) -> list[str]:
    """`moves` in the symmetry that follows a book line of `colour` longest
    (the first such symmetry; the identity when none does)."""
    lines = [line.split() for side, line, _ in LINES.get(game.size, []) if side == colour]
    best, best_moves = -1, moves
    for frame in range(8):
        mapped = [game.format_move(game.map_move(game.parse_move(m), frame)) for m in moves]
        length = max((common(mapped, line) for line in lines), default=0)
        if length > best:
            best, best_moves = length, mapped
    return best_moves


def exit_ply(game: Squatter, moves: list[str], colour: int) -> int:
    """The ply at which `colour` was first to move outside the book."""
    state = game.new_state()
    for ply, text in enumerate(moves):
        if state.to_move == colour and book_move(state) is None:
            return ply
        state.make(game.parse_move(text))
    return len(moves)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("records", nargs="+", help="match record files (JSON lines)")
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--player", default="default", help="whose book exits to count")
    parser.add_argument("--after", type=int, default=4, help="moves shown after a non-won exit")
    args = parser.parse_args()
    game = get_game("squatter", size=args.size)
    exits = [collections.defaultdict(collections.Counter) for _ in COLOURS]
    lost: list[list[tuple[str, str, str]]] = [[] for _ in COLOURS]
    for path in args.records:
        for record in GameRecord.load_all(path):
            players = record.players
            if record.params.get("size") != args.size or args.player not in players:
                continue
            colour = players.index(args.player)
            winner = record.winner
            result = "W" if winner == colour else "D" if winner is None else "L"
            moves = in_frame(game, record.moves, colour)
            ply = exit_ply(game, moves, colour)
            prefix = " ".join(moves[:ply]) or "(start)"
            exits[colour][prefix][result] += 1
            if result != "W":
                lost[colour].append((result, prefix, " ".join(moves[ply:ply + args.after])))
    for colour, name in enumerate(COLOURS):
        games = sum(sum(found.values()) for found in exits[colour].values())
        print(f"{args.player} as {name}: {games} games; book exits (W/D/L):")
        for prefix, found in sorted(exits[colour].items()):
            print(f"  {found['W']:3}/{found['D']}/{found['L']}  {prefix}")
        for result, prefix, after in sorted(lost[colour]):
            print(f"  {result}: {prefix} | {after}")


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
