"""boardgames: adversarial game search in pure Python."""

from .errors import BoardgamesError, IllegalMoveError, NotationError, UnknownNameError
from .game import Game, OptionError, State, game_names, get_game, perft, register_game

__all__ = [
    "BoardgamesError",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "State",
    "UnknownNameError",
    "game_names",
    "get_game",
    "perft",
    "register_game",
]
__version__ = "0.1.0"
