"""Connect Four (7 x 6), written only against the public game protocol.

A worked example of a game package (docs/write-a-game.md), laid out like the
library's own games:

    rules.py      ConnectFour (the Game: rules and tables) and C4State (one
                  position: make/undo, incremental frame hashes, the outcome)
    notation.py   moves as text: a column is a letter a-g (or 1-7)
    experts.py    evaluators, in one EVALUATORS table
    render.py     the text board and the SVG picture

Importing the package registers the game as "connect4", so it works as a
plugin: `boardgames play connect4 --plugin examples/connect_four`.  Run it to
see a board: `python examples/connect_four`.
"""

from boardgames.registry import register_game

from .experts import EVALUATORS, centre
from .rules import COLS, ROWS, C4State, ConnectFour, cell

__all__ = ["COLS", "EVALUATORS", "ROWS", "C4State", "ConnectFour", "cell", "centre"]

register_game("connect4", ConnectFour)
