"""Squatter's opening book: positions solved ahead of time and the move to
play in each.

`LINES[size]` maps a game's moves so far (White first, in the board's
notation) to the move to play next.  Each entry comes from outcome solves
with `SquatterSolver` (docs/squatter.md, Opening book): the move keeps the
position's value, and where several do, it is the one that left the
opponent the most ways to go wrong in the games the book was built from.
`book_move` finds an entry by the canonical key of the 8 board symmetries,
so the same position reached in any orientation, or by another order of
moves, finds it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import UNPACK

if TYPE_CHECKING:
    from .rules import Squatter, SquatterState

#: size -> {moves so far: move to play}.
LINES: dict[int, dict[str, str]] = {}

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
        for line, reply in LINES.get(game.size, {}).items():
            state = game.replay(line.split())
            key, frame = canonical(state)
            found[key] = game.map_move(game.parse_move(reply), frame)
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
