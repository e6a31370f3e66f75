"""Squatter's opening book: prepared lines, and the move to play in each
position of them.

`LINES[size]` lists lines as (colour, moves): the game's moves from the
start (White first, in the board's notation); the book plays `colour`'s
moves of the line (0 White, 1 Black) whenever the game reaches a position
of it.  `book_move` finds a position by the canonical key of the 8 board
symmetries, so the same position reached in another orientation, or by
another order of moves, finds it too.

How a line gets in (docs/squatter.md, Opening book): it is a game against
the full-strength seed 001 (deterministic: the same position always gets
the same reply) whose book side's moves are the default AI's own choices,
one move found by trying every move of a position and playing on, and then
`SquatterSolver`'s winning moves from the first position the solver proves
won for the book side; every line ends in a proven win.  The moves before
that position are not proven best, only good enough against that opponent;
against any other reply the book is left and the AI plays on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import UNPACK

if TYPE_CHECKING:
    from .rules import Squatter, SquatterState

#: size -> [(colour whose moves the book plays, the line's moves)].
LINES: dict[int, list[tuple[int, str]]] = {
    6: [
        # White beats seed 001: proven won for White (to move) after the
        # 12th move (24 free cells; a draw after the 11th, so seed 001's D5
        # loses); E3 (move 17) captures, 1-0; solver moves from move 15.
        (0, "D3 A2 C4 B3 E2 E4 C2 D1 C6 A3 D4 D5 E5 D6 F4 F3 E3 A4 C3 A5 B2 B1 B4 B6"),
        # Black beats seed 001: proven won for Black (to move: E2) after the
        # 11th move (25 free cells); E6 (move 10, at 27 free cells) is the
        # move that was tried, the earlier Black moves are the default's own
        # at 1 s a move; D1 (move 14) captures D2, 0-1; solver moves from
        # move 16.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 C6 E6 A4 E2 F4 D1 A5 C3 B1 D4 B6 B2 C1 B4 D6"),
    ],
}

#: size -> {canonical key: move in the canonical frame}, built when first asked.
_TABLES: dict[int, dict[int, int]] = {}


def canonical(state: SquatterState) -> tuple[int, int]:
    """(the smallest of the 8 frame hashes, the index of its frame)."""
    game = state.game
    frames = UNPACK[game.frames](state.packed.to_bytes(game.hash_bytes, "little"))
    key = min(frames)
    return key, frames.index(key)


def table(game: Squatter) -> dict[int, int]:
    """The book of `game`'s size as canonical key -> move (canonical frame)."""
    found = _TABLES.get(game.size)
    if found is None:
        found = _TABLES[game.size] = {}
        for colour, line in LINES.get(game.size, []):
            state = game.new_state()
            for move in (game.parse_move(text) for text in line.split()):
                if state.to_move == colour:
                    key, frame = canonical(state)
                    found.setdefault(key, game.map_move(move, frame))
                state.make(move)
    return found


def book_move(state: SquatterState) -> int | None:
    """The book's move in `state`, or None when the position is not in it."""
    entries = table(state.game)
    if not entries:
        return None
    key, frame = canonical(state)
    move = entries.get(key)
    if move is None:
        return None
    move = state.game.unmap_move(move, frame)
    return move if state.free >> move & 1 else None
