"""Opening books of the edge games: an optimal move for the first plies.

A solve of HexiFence N=2 from one of its first positions takes 1 to 3 s of
CPU (docs/hexifence.md), more than a move's second, and a move chosen on a
solve cut short may lose value.  The book holds, for every position that
safe moves reach within its first plies, one move that keeps the solved
value, found by the exact solver (`build`).  Keys are the solver's
canonical keys, so symmetric positions share an entry, and the move is
stored in the key's frame.

The text form (`encode`, `decode`) is `key:move` in hex, space-separated;
`book_data` holds the books made by `python -m
boardgames.games.hexifence.book` and `lookup` reads them.  tests check a
sample of every shipped book against a fresh solve.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import TYPE_CHECKING

from .solver import EdgeSolver

if TYPE_CHECKING:
    from .rules import EdgeGame, EdgeState


def build(game: EdgeGame, plies: int, solver: EdgeSolver | None = None) -> dict[int, int]:
    """key -> optimal move (in the key's frame) of every position that safe
    moves reach from the start in at most `plies` moves."""
    solver = solver or EdgeSolver(game)
    book: dict[int, int] = {}
    layer = [game.new_state()]
    for depth in range(plies + 1):
        following = []
        for state in layer:
            key, frame = solver.canonical(state)
            if key in book:
                continue
            best = solver.solve(state).best[0]
            book[key] = solver.to_frame(frame, best)
            if depth < plies:
                for move in state.safe_moves():
                    child = state.copy()
                    child.make(move)
                    following.append(child)
        layer = following
    return book


def encode(book: dict[int, int]) -> str:
    """The book as text: `key:move` pairs in hexadecimal, sorted by key."""
    return " ".join(f"{key:x}:{move:x}" for key, move in sorted(book.items()))


def decode(text: str) -> dict[int, int]:
    """The book that `encode` wrote."""
    book = {}
    for item in text.split():
        key, move = item.split(":")
        book[int(key, 16)] = int(move, 16)
    return book


@cache
def _shipped(name: str, params: tuple[tuple[str, int], ...]) -> dict[int, int]:
    from .book_data import BOOKS

    text = BOOKS.get((name, params))
    return {} if text is None else decode(text)


def shipped(game: EdgeGame) -> dict[int, int]:
    """The shipped book of `game` (empty when there is none)."""
    return _shipped(game.name, tuple(sorted(game.params.items())))


def lookup(solver: EdgeSolver, state: EdgeState) -> int | None:
    """The book's edge for `state`, or None when it is not in the book."""
    book = shipped(state.game)
    if not book:
        return None
    key, frame = solver.canonical(state)
    move = book.get(key)
    return None if move is None else solver.from_frame(state, frame, move)


def main(argv: list[str] | None = None) -> None:
    """Print the `book_data` entry of HexiFence of size N to depth PLIES."""
    from ...registry import get_game

    args = sys.argv[1:] if argv is None else argv
    size, plies = (int(a) for a in args) if args else (2, 5)
    game = get_game("hexifence", size=size)
    book = build(game, plies)  # type: ignore[arg-type]
    print(f"# hexifence size {size}, {plies} plies: {len(book)} positions")
    print(encode(book))


if __name__ == "__main__":
    main()
