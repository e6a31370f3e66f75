"""boardgames: adversarial game search in pure Python.

The names below are loaded on first use (PEP 562), so `import boardgames`
(and every `boardgames` command's start-up) costs only this file.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import (
        BoardgamesError,
        IllegalMoveError,
        NotationError,
        OptionError,
        UnknownNameError,
    )
    from .game import Game, State, perft
    from .registry import game_names, get_game, register_game

#: Public name -> the module that defines it.
_EXPORTS = {
    "BoardgamesError": ".errors",
    "IllegalMoveError": ".errors",
    "NotationError": ".errors",
    "UnknownNameError": ".errors",
    "OptionError": ".errors",
    "Game": ".game",
    "State": ".game",
    "game_names": ".registry",
    "get_game": ".registry",
    "perft": ".game",
    "register_game": ".registry",
}

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'boardgames' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
