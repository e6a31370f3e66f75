"""Squatter's opening book: prepared lines, and the move to play in each
position of them.

`LINES[size]` lists lines as (colour, moves, opponent): the game's moves
from the start (White first, in the board's notation) and the AI the line
was built against; the book plays `colour`'s
moves of the line (0 White, 1 Black) whenever the game reaches a position
of it.  `book_move` finds a position by the canonical key of the 8 board
symmetries, so the same position reached in another orientation, or by
another order of moves, finds it too.

How a line gets in (docs/squatter.md, Opening book): it is a game against
one opponent, named in the line, whose book side's moves are the default
AI's own choices, one move found by trying every move of a position and
playing on, and then `SquatterSolver`'s winning moves from the first
position the solver proves won for the book side; every line ends in a
proven win.  The moves before that position are not proven best, only
good enough against that opponent; against any other reply the book is
left and the AI plays on its own.

- "seed001" lines are games against the full-strength seed 001, which is
  deterministic (the same position always gets the same reply), so the
  line is what it answers every time.
- "seed003" lines are games against seed 003 at 1 s a move, which searches
  to a time limit, so its replies can change with the load and its seed:
  each opponent move of such a line is the reply seed 003 gave in every
  one of several tries (seeds and games; docs/squatter.md), not a certainty.
  Its book moves must not change a position of a seed001 line (the same
  position has one book move: the tests check that every line's book moves
  are found again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import UNPACK

if TYPE_CHECKING:
    from .rules import SquatterRules, SquatterState

#: size -> [(colour whose moves the book plays, the line's moves, the opponent
#: the line was built against)].
LINES: dict[int, list[tuple[int, str, str]]] = {
    6: [
        # Black beats seed 001: F5 at move 8 (shared with the seed 003 line
        # below), seed 001's A4, C2 (the one move 10 of the first 8 tried that
        # won when played on), seed 001's A5, then the default's own E2: proven
        # won for Black after E2 (move 12, 24 free cells, White to move); D1
        # (move 16) captures, 19 free cells.
        (1, "A2 C4 A3 D3 B3 D5 E4 F5 A4 C2 A5 E2 E3 B5 B1 D1", "seed001"),
        # White beats seed 001: D5 (move 3) and C4, B5, E4, C6, each after
        # seed 001's reply, chosen by a search over White's moves against
        # seed 001's replies (the candidates ranked by the Territory
        # evaluator, the best 12 kept a move) that ended at the first
        # position the solver proved won; seed 001 anchors along the A row
        # (A2 A3 A4 A5) while White's C4 D3 D5 B5 C6 E4 take C5 and D4.
        # Proven won for White after C6 (move 11, 23 free cells, Black to
        # move); C3 and B4 are the solver's moves after seed 001's B3, C2.
        (0, "D3 A2 D5 A3 C4 A4 B5 A5 E4 B1 C6 B3 C3 C2 B4", "seed001"),
        # Black beats seed 003 (stop 24): F5 (move 8, the only one of 29
        # classes that won when played on), seed 003's C6 (8 of 8 fresh and
        # in-game players), the default's own E2, seed 003's B6 (4 of 4
        # in-game; fresh players B6, F3, D6, F4 once each) and F3 (8 of 8);
        # proven won for Black after F4 (move 12, 24 free cells).
        (1, "A2 C4 A3 D3 B3 D5 E4 F5 C6 E2 B6 F4 F3 E3", "seed003"),
        # Black beats seed 003's C6 opening (C6 D6 D5 ... drew every time
        # with the default's own C2 at move 6): E1 (move 6, 31 free cells)
        # instead, found by trying every move and playing on; seed 003
        # answered A2 or B1, and both lines were won.  Black's moves after
        # E1 are the default's own up to move 14, then solver moves; seed
        # 003's are its replies.
        (1, "C6 C4 D6 D3 D5 E1 A2 C2 B3 E4 E2 F2 D1 D2 F3 E3 C1 C3", "seed003"),
        (1, "C6 C4 D6 D3 D5 E1 B1 C2 B3 E4 E2 F2 D1 D2 F3 E3 B4 C3", "seed003"),
        # White against seed 003 where it answers D3 with F3 or F4: C4 (move
        # 3), the default's own choice in every game it won there; its other
        # third moves drew both White draws of the stop 20 matches.  Each
        # line is one of those won games to 20 free cells (seed 003's replies
        # in that match); proven won for White from move 11 (24 free cells),
        # the F2 line from move 9 (27 free cells).
        (0, "D3 F4 C4 F3 D5 E4 B3 D1 C2 B5 E2 C1 B4 A5 C5", "seed003"),
        (0, "D3 F3 C4 F2 B5 E1 D5 C6 B3 E4 C2 D2 E3 A4 D4", "seed003"),
        (0, "D3 F3 C4 F4 D5 E4 B3 A3 C2 A4 B5 C6 E2 D1 C5", "seed003"),
        # White against seed 003's F2 (or its image E1) after D3 (stop 23):
        # C4 (move 3), the default's own choice in 41 of the 46 such games
        # of stops 20-22, all won; its E2 drew 4 of the other 5.  Seed 003
        # answers C4 with F3 or E1, then B5 (the default's own) with D2 (or
        # its image E3: after E1 B5 the board is symmetric in the A6-F1
        # diagonal), E3 or E1; F3 B5 E1 is the F3 F2 line above by
        # transposition.  Each line is a won match game to move 15 (20 or
        # 21 free cells); proven won for White from move 11 (24 or 25 free
        # cells).
        (0, "D3 F2 C4 E1 B5 D2 E3 C2 E5 D5 D6 C6 C5 F4 E4", "seed003"),
        (0, "D3 F2 C4 F3 B5 E3 B3 A4 C2 E1 D5 C6 E2 D2 E4", "seed003"),
        (0, "D3 F2 C4 F3 B5 D2 B3 A4 C2 D5 E2 D1 E3 D6 D4", "seed003"),
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


def table(game: SquatterRules) -> dict[int, int]:
    """The book of `game`'s size as canonical key -> move (canonical frame)."""
    found = _TABLES.get(game.size)
    if found is None:
        found = _TABLES[game.size] = {}
        for colour, line, _ in LINES.get(game.size, []):
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
