"""What the new-game form offers: every registered game (plugins included),
its options with their defaults, its colours and its AIs."""

from __future__ import annotations

from typing import Any

from ..ai import ai_names
from ..game import Game
from ..options import parameter_defaults
from ..plugins import env_plugins, try_plugins
from ..registry import game_names, get_game
from .model import DEFAULT_TIME


def option_defaults(game: Game[Any]) -> dict[str, int]:
    """A game's whole-number options with the values this instance uses."""
    options = {**parameter_defaults(type(game).__init__), **game.params}
    return {k: v for k, v in options.items() if isinstance(v, int) and not isinstance(v, bool)}


def describe_game(name: str) -> dict[str, Any]:
    """One entry of the catalog; a game that cannot be built says why."""
    try:
        game = get_game(name)
        ais = ai_names(game)
    except Exception as exc:  # a broken plugin must not hide the other games
        return {"name": name, "error": f"{type(exc).__name__}: {exc}"}
    return {
        "name": name,
        "title": game.title,
        "players": list(game.player_names),
        "scored": game.scored,
        "options": option_defaults(game),
        "ais": ais,
    }


def load_plugins(extra: tuple[str, ...] = ()) -> list[str]:
    """Import BOARDGAMES_PLUGINS and `extra`; one message per plugin that failed."""
    return try_plugins([*env_plugins(), *extra])


def catalog(plugin_failures: list[str]) -> dict[str, Any]:
    """What the page offers: every game described, the plugins that failed
    to load, the default time per move."""
    return {
        "games": [describe_game(name) for name in game_names()],
        "plugin_failures": plugin_failures,
        "default_time": DEFAULT_TIME,
    }
