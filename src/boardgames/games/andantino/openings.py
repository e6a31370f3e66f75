"""Andantino test openings: short positions to start strength matches from.

One opening a line in `OPENINGS_TEXT`: `name | kind | moves | check | comment`
(an indented line continues the line before).

- `moves`: the move list from the start in the game's notation (White first).
- `kind`: `general` (varied, roughly balanced positions) or `enclosure`
  (the side to move must deal with an enclosure threat).
- `check`: what an enclosure opening claims, in a form the tests verify
  with the rules (`-` for general openings):
  - `threat=X/Y`: the opponent of the side to move encloses a stone by
    playing X (an enclosure, not a five): if the side to move plays Y
    instead of blocking, X wins by enclosure.  Blocking at X is legal and
    does not lose at once.
  - `double=T/Y`: nobody has a winning cell yet, but if the side to move
    plays Y, the opponent's T leaves two cells that each win by enclosure,
    which one stone cannot both block.

How they were made (tools/andantino_make_openings.py: seed 1; seed 2
with --general 0; seed 3 with --general 0 --attacker white for threats
against Black; e20-e25 seed 4 with --general 0 --threat 6 --double 0
--attacker black --first 20 --search 3; g25 the second of seed 5 with
--general 3 --threat 0 --double 0, whose first and third were g19 and g17
up to symmetry):
general openings are 3 to 8 uniformly random legal plies whose depth-3
search score (default evaluator) is within +-150 for the side to move (a
four is worth 400); enclosure openings come from surround-seeking random
games, stopped at the first position holding such a threat, kept when a
short search (depth 3 after the block, depth 4 for `double`) sees no
forced loss.  All are distinct up to the board's 12 symmetries.

Retired, because the default AI's 10 to 30 s search scores them lost or
nearly so for the side to move (White), so that a match from them measures
the colour, not the players: g13 and e09 (-900,000 at depth 12: Black gets
a winning cell in every line), e11 (a proven loss, Black wins in 12
plies), e02, e05 and e08 (-580 at depth 11 each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import NotationError

if TYPE_CHECKING:
    from .rules import AndantinoRules, AndantinoState

KINDS = ("general", "enclosure")

OPENINGS_TEXT = """\
# name | kind | moves | check | comment
g01 | general | I9 I10 J9 K9 | - | random 4 plies, white to move, depth-3 score -130
g02 | general | I10 I9 H9 H8 J9 K9 | - | random 6 plies, white to move, depth-3 score -93
g03 | general | K9 J9 I9 K10 I8 L9 | - | random 6 plies, white to move, depth-3 score -84
g04 | general | J9 I9 K9 I8 | - | random 4 plies, white to move, depth-3 score -57
g05 | general | K10 K9 J11 J9 K11 J12 L9 | - | random 7 plies, black to move, depth-3 score -115
g06 | general | J11 K10 K11 J12 I11 L10 | - | random 6 plies, white to move, depth-3 score +88
g07 | general | J9 I9 I8 H8 | - | random 4 plies, white to move, depth-3 score -130
g08 | general | J9 I9 I10 I8 K9 K10 | - | random 6 plies, white to move, depth-3 score -93
g09 | general | I9 J9 K9 K10 I8 K8 H8 H7 | - | random 8 plies, white to move, depth-3 score -109
g10 | general | I9 J9 K9 K10 | - | random 4 plies, white to move, depth-3 score -54
g11 | general | I10 J11 I9 H9 I11 K10 J9 | - | random 7 plies, black to move, depth-3 score -80
g12 | general | J11 K10 I10 I11 | - | random 4 plies, white to move, depth-3 score +128
g14 | general | K10 K9 J9 I9 I10 L9 | - | random 6 plies, white to move, depth-3 score +4
g15 | general | I9 J9 I8 H8 H9 I10 G8 | - | random 7 plies, black to move, depth-3 score -80
g16 | general | J11 K10 K9 L9 | - | random 4 plies, white to move, depth-3 score -54
g17 | general | K10 J11 K9 I10 J9 | - | random 5 plies, black to move, depth-3 score +35
g18 | general | K9 J9 I9 K8 I8 I10 K10 H8 | - | random 8 plies, white to move, depth-3 score -88
g19 | general | J9 I9 I10 | - | random 3 plies, black to move, depth-3 score +86
g20 | general | K9 K10 L9 L8 M8 J9 M7 | - | random 7 plies, black to move, depth-3 score +144
g21 | general | J9 K9 K10 L9 L10 M9 K11 I9 | - | random 8 plies, white to move, depth-3 score -90
g22 | general | I10 I9 H9 H10 J11 | - | random 5 plies, black to move, depth-3 score -18
g23 | general | J9 K9 I9 K8 L8 L7 I10 K7 | - | random 8 plies, white to move, depth-3 score -34
g24 | general | J11 K10 I10 I9 K11 H9 | - | random 6 plies, white to move, depth-3 score -137
g25 | general | K10 J11 K11 K9 J12 J9 | - | random 6 plies, white to move, depth-3 score -21
e01 | enclosure | J11 I10 I11 J12 I9 K10 H9 J9 H10 K11 K9 H8 I8 L9 J8 K8 | threat=L8/K7 | white to
    move must stop black enclosing at L8
e03 | enclosure | K10 J11 I10 I9 J9 H9 K9 I11 | threat=H10/K8 | white to move must stop black
    enclosing at H10
e04 | enclosure | I9 J9 K9 K8 J8 L8 I10 L9 | threat=K10/L7 | white to move must stop black
    enclosing at K10
e06 | enclosure | K9 K10 J11 J9 I9 L9 I10 I8 L10 L8 | threat=K8/M9 | white to move must stop black
    enclosing at K8
e07 | enclosure | K10 K9 J9 L9 L8 J11 K8 L10 | threat=K11/L7 | white to move must stop black
    enclosing at K11
e10 | enclosure | J9 K9 K10 I9 I10 I8 J11 K8 L8 L9 | threat=J8/L7 | white to move must stop black
    enclosing at J8
e12 | enclosure | I9 I10 J11 K10 K9 K11 J9 I8 L10 J12 | threat=I11/K12 | white to move must stop
    black enclosing at I11
e13 | enclosure | K10 J11 I10 I9 J9 I11 K11 H10 | threat=H9/H11 | white to move must stop black
    enclosing at H9
e14 | enclosure | J9 K9 K10 I9 I10 I8 H8 J8 | threat=K8/I7 | white to move must stop black
    enclosing at K8
e15 | enclosure | J9 I9 K9 I10 K10 H9 J11 K8 J8 H8 K7 L9 L8 | threat=L7/J7 | black to move must
    stop white enclosing at L7
e16 | enclosure | I10 J11 K10 K9 J9 L9 I9 K11 L8 J12 K8 L7 L10 M8 M7 M9 M6 I8 K7 | threat=L6/N8 |
    black to move must stop white enclosing at L6
e17 | enclosure | I9 I10 J11 J9 K9 I8 K10 H8 H7 J8 H9 G7 I7 L9 G8 I11 H10 G9 F8 K11 G10 |
    threat=F9/H6 | black to move must stop white enclosing at F9
e18 | enclosure | I9 I10 H9 J9 J11 I8 H10 K10 J8 G9 K8 K9 I11 K7 L7 H11 J7 G10 K6 | threat=L6/J6 |
    black to move must stop white enclosing at L6
e19 | enclosure | I10 J11 I9 K10 K9 L9 J9 H9 H10 K8 H8 L10 G8 | threat=G9/G7 | black to move must
    stop white enclosing at G9
e20 | enclosure | K10 J11 K9 L9 J9 L10 I10 K8 K11 L8 L11 I9 M9 H9 H8 I11 J8 M10 | threat=H10/M11 |
    white to move must stop black enclosing at H10
e21 | enclosure | J9 K9 K10 K8 J11 I9 L9 L10 L8 J8 | threat=I8/L7 | white to move must stop black
    enclosing at I8
e22 | enclosure | I9 I10 J11 J9 I11 H9 K10 I8 | threat=H8/J8 | white to move must stop black
    enclosing at H8
e23 | enclosure | I9 J9 K9 K8 J8 L8 I10 K10 | threat=L9/L7 | white to move must stop black enclosing
    at L9
e24 | enclosure | K9 J9 I9 I8 I10 H9 J11 H8 K8 L8 G8 G9 H7 G7 K10 F8 | threat=F7/G6 | white to move
    must stop black enclosing at F7
e25 | enclosure | J11 I10 K10 K11 L10 I11 L9 J12 H10 H9 G9 M9 G10 H11 G11 K9 I12 H12 L11 J13 |
    threat=I13/G12 | white to move must stop black enclosing at I13
"""


@dataclass(frozen=True)
class Opening:
    """One opening: its name, kind, moves (text), check and comment."""

    name: str
    kind: str
    moves: str
    check: str
    comment: str

    def state(self, game: AndantinoRules) -> AndantinoState:
        """The position after the opening's moves."""
        return game.parse_position(self.moves)


def _joined(text: str) -> list[tuple[int, str]]:
    """(first line number, line) with continuation lines (indented) joined
    on, blank and comment lines dropped."""
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if raw[0].isspace() and out:
            out[-1] = (out[-1][0], f"{out[-1][1]} {line}")
        else:
            out.append((number, line))
    return out


def parse_openings(text: str) -> list[Opening]:
    """Openings from lines `name | kind | moves | check | comment` (an
    indented line continues the one before; blank lines and lines starting
    with `#` are skipped); a bad line raises
    NotationError naming its line number."""
    out: list[Opening] = []
    names: set[str] = set()
    for number, line in _joined(text):
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 5:
            raise NotationError(f"opening line {number}: expected 5 fields separated by '|'")
        name, kind, moves, check, comment = fields
        if kind not in KINDS:
            raise NotationError(f"opening line {number}: kind {kind!r} is not one of {KINDS}")
        if name in names:
            raise NotationError(f"opening line {number}: duplicate name {name!r}")
        if not moves:
            raise NotationError(f"opening line {number}: no moves")
        if (kind == "enclosure") != check.startswith(("threat=", "double=")):
            raise NotationError(
                f"opening line {number}: enclosure openings need a threat= or double= check, "
                "general ones '-'"
            )
        names.add(name)
        out.append(Opening(name, kind, moves, check, comment))
    return out


def openings(kind: str | None = None) -> list[Opening]:
    """The shipped openings, all or those of one kind."""
    found = parse_openings(OPENINGS_TEXT)
    return found if kind is None else [o for o in found if o.kind == kind]
