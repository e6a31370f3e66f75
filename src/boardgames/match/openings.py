"""Opening files: a fixed set of start positions for matches and tournaments.

One opening per line, its moves from the start in the game's notation,
separated by spaces; `#` starts a comment, blank lines are skipped:

    # Andantino: two balanced starts
    J10 K10 K11
    J10 J11 I11 K12

Each opening is played twice, colours swapped (games 2k and 2k+1), and
the openings are used in turn; so `2 x len(openings)` games play every
opening with each colour once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import BadFileError, BoardgamesError, OptionError
from ..game import Game, State
from ..io import read_text


def parse_openings(game: Game[Any], text: str, source: str) -> list[str]:
    """The openings of an opening file's `text`, each as its moves in the
    game's own notation; BadFileError naming `source`, the line and the fault
    for a move that does not parse or is illegal, or an opening that ends
    the game."""
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            state = game.new_state()
            moves = []
            for word in words:
                move = state.play(word)
                moves.append(game.format_move(move))
        except BoardgamesError as exc:
            raise BadFileError(source, f"line {number}: {exc}") from None
        if state.is_over():
            raise BadFileError(source, f"line {number}: the game is over after this opening")
        openings.append(" ".join(moves))
    if not openings:
        raise BadFileError(source, "no opening in the file")
    return openings


def read_openings(game: Game[Any], path: str) -> list[str]:
    """The openings of the file at `path` (see `parse_openings`); OSError if
    it cannot be read."""
    return parse_openings(game, read_text(path), path)


def opening_for(openings: Sequence[str], game_index: int) -> str:
    """The opening of game `game_index`: games 2k and 2k+1 share opening k
    (taken in turn)."""
    if not openings:
        raise OptionError("no openings given")
    return openings[(game_index // 2) % len(openings)]


def opening_position(game: Game[Any], opening: str) -> State[Any]:
    """The position after an opening's moves."""
    state: State[Any] = game.replay(opening.split())
    return state
