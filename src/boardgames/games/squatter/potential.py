"""What can still change on a Squatter board: the cells each colour could
ever capture, the cells that no longer matter, and bounds on the final margin.

A region that X captures is a 4-connected set of cells off the border whose
4-neighbours are all live X stones.  The cells that can ever be live X stones
are the free cells, X's live stones and X's captured stones (which come back
to life when X recaptures them): call them X's *walls*.  Everything else (the
enemy's stones, live or captured, and captured empty cells) can never wall
in a region for X, so a region that contains one of those cells must contain
every such cell 4-connected to it.  Hence `capturable(X)`: the cells off the
border that are neither joined to the border through non-wall cells nor
4-adjacent to such a joined cell.  Every region X captures from now on lies
inside it.

The walls of a colour only ever shrink (a free cell takes a stone or is
captured; a live stone is captured and stays a wall; a captured stone comes
back to life), so `capturable` only ever shrinks too.  Hence:

- a free cell outside both colours' capturable cells and not 4-adjacent to
  any of them can never be captured and never be part of a loop that
  captures: what stone it gets changes nothing.  Such *dead* cells (the
  corners from the start) are interchangeable tempo moves, passes in effect;
- X's final territory lies within X's territory now plus X's capturable
  cells, less X's own stones (a recaptured stone scores for nobody), and the
  enemy keeps at least the part of its territory that X cannot capture:
  `upper_bound`, the most the final margin can be for X.

Proofs of these, with the board-level checks, are in tests/games/test_squatter_solver.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .geometry import Geometry
    from .rules import SquatterState


def capturable(geo: Geometry, free: int, stones: int, dead: int) -> int:
    """The cells a colour with live stones `stones` and captured stones
    `dead` could still capture, given the free cells `free`."""
    walls = free | stones | dead
    joined = geo.outside(geo.full & ~walls)
    return geo.interior & ~geo.grow(joined)


def live_cells(geo: Geometry, c_white: int, c_black: int) -> int:
    """The cells that still matter: capturable by a colour, or next to such a cell."""
    both = c_white | c_black
    return geo.grow(both)


def dead_cells(state: SquatterState) -> int:
    """The free cells whose stone can no longer change anything."""
    geo = state.game.geometry
    free, stones, dead = state.free, state.stones, state.dead
    c_white = capturable(geo, free, stones[0], dead[0])
    c_black = capturable(geo, free, stones[1], dead[1])
    return free & ~live_cells(geo, c_white, c_black)


def upper_bound(state: SquatterState, player: int, reach: int) -> int:
    """The largest final margin (player's captured cells minus the enemy's)
    the game can still end with, where `reach` is `player`'s capturable cells."""
    terr, stones, dead = state.terr, state.stones, state.dead
    mine, theirs = terr[player], terr[1 - player]
    gain = reach & ~mine & ~stones[player] & ~dead[player]
    return mine.bit_count() + gain.bit_count() - (theirs & ~reach).bit_count()
