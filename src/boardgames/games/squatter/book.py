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
    from .rules import Squatter, SquatterState

#: size -> [(colour whose moves the book plays, the line's moves, the opponent
#: the line was built against)].
LINES: dict[int, list[tuple[int, str, str]]] = {
    6: [
        # White beats seed 001: proven won for White (to move) after the
        # 12th move (24 free cells; a draw after the 11th, so seed 001's D5
        # loses); E3 (move 17) captures, 1-0; solver moves from move 15.
        (
            0,
            "D3 A2 C4 B3 E2 E4 C2 D1 C6 A3 D4 D5 E5 D6 F4 F3 E3 A4 C3 A5 B2 B1 B4 B6",
            "seed001",
        ),
        # Black beats seed 001: proven won for Black (to move: E2) after the
        # 11th move (25 free cells); E6 (move 10, at 27 free cells) is the
        # move that was tried, the earlier Black moves are the default's own
        # at 1 s a move; D1 (move 14) captures D2, 0-1; solver moves from
        # move 16.
        (
            1,
            "A2 C4 A3 D3 B3 D5 E4 C2 C6 E6 A4 E2 F4 D1 A5 C3 B1 D4 B6 B2 C1 B4 D6",
            "seed001",
        ),
        # Black beats seed 003 where it answers E4 with F5 instead of seed
        # 001's C6 (the first eight moves are the line above): E5 (move 10),
        # seed 003's F2 and F4, E2 and D1 from a game Black won 0-1.  After
        # E2 (move 12, 24 free cells) every White move loses; D1 (move 14)
        # captures.  E5 does not win against every reply: after E3 (seen
        # once in a match) the position is a proven draw.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F5 E5 F2 E2 F4 D1", "seed003"),
        # Black beats seed 003's C6 opening (C6 D6 D5 ... drew every time
        # with the default's own C2 at move 6): E1 (move 6, 31 free cells)
        # instead, found by trying every move and playing on; seed 003
        # answered A2 or B1, and both lines were won.  Black's moves after
        # E1 are the default's own up to move 14, then solver moves; seed
        # 003's are its replies.
        (1, "C6 C4 D6 D3 D5 E1 A2 C2 B3 E4 E2 F2 D1 D2 F3 E3 C1 C3", "seed003"),
        (1, "C6 C4 D6 D3 D5 E1 B1 C2 B3 E4 E2 F2 D1 D2 F3 E3 B4 C3", "seed003"),
        # Black against seed 003's F3 at move 9 of the A2 A3 line (where the
        # default's own B5 and E2 drew): E5 (move 10), seed 003's A5 (one
        # fresh player in four answered so, and every play-on), E1 and D1
        # from a play-on won 0-1.  After E1 (move 12) the position is a
        # proven draw, so seed 003's B6 (4 of 4 fresh players) is its losing
        # move; proven won for Black after D1 (move 14, 22 free cells).
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F3 E5 A5 E1 B6 D1", "seed003"),
        # After E5 seed 003's D6 (3 of 5 match games with this line) instead:
        # F2 (move 12), from a play-on won 0-1 (E1 won too); after F2 a
        # proven draw, so seed 003's C6 (3 of 4 fresh players; E6 the
        # other) loses; proven won after E3 (move 14, 22 free cells); F4 was
        # seed 003's reply for 3 of 3 fresh players, D1 the solver's move.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F3 E5 D6 F2 C6 E3 F4 D1", "seed003"),
        # After E5 seed 003's E6 or C6 (stop 21's match games: 2 and 1, all
        # drawn): E1 and F2 at move 12 both won in play-ons; after either the
        # position is a proven draw (E3 holds for White), so the move is the
        # one seed 003 answered with a losing reply more often: after E6 E1
        # D6 (3 of 4 fresh players; E3 1), after C6 F2 B6 or D6 (2 and 2;
        # D6 is the line above).  Proven won after White's move 13 (23 free
        # cells); E3, seed 003's F4 (4 of 4) and the solver's D1 to 20 free
        # cells.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F3 E5 E6 E1 D6 E3 F4 D1", "seed003"),
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F3 E5 C6 F2 B6 E3 F4 D1", "seed003"),
        # After E5 B6 (1 of 4 players that played the game from the start):
        # E1, a proven draw; seed 003's A5 (2 of 4 fresh players) reaches the
        # A5 line, its C6 (the other 2) is lost too: E3, F4 (4 of 4), D1.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F3 E5 B6 E1 C6 E3 F4 D1", "seed003"),
        # Black against seed 003's F4 at move 9 of the A2 A3 line (every
        # Black move 10 played on drew; the default's own B5 and E2 lead to
        # positions that are not Black wins): E1 (move 10), seed 003's F5 (4
        # of 4 fresh players, 2 of 4 that played the game from the start),
        # D1 (move 12: the only one of 25 that won when played on after E1
        # F5), a proven draw, so seed 003's F2 (4 of 4 fresh, 4 of 4 in-game)
        # loses; E2 (move 14) captures D2, 0-1, 21 free cells.
        (1, "A2 C4 A3 D3 B3 D5 E4 C2 F4 E1 F5 D1 F2 E2", "seed003"),
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


def table(game: Squatter) -> dict[int, int]:
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
