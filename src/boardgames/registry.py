"""The games the library knows: each declared once, with everything it offers.

`register_game(name, game, ais=..., solver=..., tuner=..., protocol=...)`
declares a game: its `Game` class (or any factory of keyword options), the
module that registers its AIs (`boardgames.ai.register_ai`), its exact
solver, its tuner and its network protocol.  Each part is the object itself
or a "module:attribute" text (the AIs: a module name), imported the first
time it is used, so a declaration costs nothing at start-up.

The games that ship with the library are declared at the end of this module
with the very call a plugin makes (`examples/connect_four` declares Connect
Four so); `plugins.import_plugins` imports a plugin, whose import declares
its games.

What each part is:

- `solver`: a class (or factory) called with the game; the object's
  `solve(state, all_moves=False, **options)` returns a `SolveResult` and may
  keep its table from one call to the next.  `boardgames.solving` uses it;
  a game without one is solved by the generic `search.solve`.
- `tuner`: a `tuning.selection.Tuner` (`boardgames tune GAME`).
- `protocol`: a `protocols.network.NetworkProtocol` (`boardgames serve` and
  `connect`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .errors import OptionError, UnknownNameError, quote
from .game import Game
from .options import check_whole, keyword_options

#: What a game may declare besides its Game class (the AIs are a module to import).
Part = Literal["solver", "tuner", "protocol"]
PART_NAMES: dict[str, str] = {
    "solver": "exact solver",
    "tuner": "tuner",
    "protocol": "tournament protocol",
}


@dataclass
class GameEntry:
    """One declared game: where its parts are (objects, or "module:attribute" text)."""

    name: str
    game: Callable[..., Game[Any]] | str
    ais: str | None = None
    solver: Any = None
    tuner: Any = None
    protocol: Any = None

    def factory(self) -> Callable[..., Game[Any]]:
        """The Game class (or factory), imported on first use."""
        if isinstance(self.game, str):
            self.game = _resolve(self.game)
        assert not isinstance(self.game, str)
        return self.game

    def part(self, what: Part) -> Any:
        """The declared solver, tuner or protocol (imported on first use), or None."""
        value = getattr(self, what)
        if isinstance(value, str):
            value = _resolve(value)
            setattr(self, what, value)
        return value

    def load_ais(self) -> None:
        """Import the module that registers the game's own AIs (once; Python caches it)."""
        if self.ais is not None:
            importlib.import_module(self.ais)


_ENTRIES: dict[str, GameEntry] = {}
_CACHE: dict[tuple[str, tuple[tuple[str, int], ...]], Game[Any]] = {}


def register_game(
    name: str,
    game: Callable[..., Game[Any]] | str,
    *,
    ais: str | None = None,
    solver: Any = None,
    tuner: Any = None,
    protocol: Any = None,
) -> GameEntry:
    """Declare the game `name` (see the module docstring for the parts).

    Declaring a name again replaces the earlier declaration (and forgets the
    games built from it).
    """
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise OptionError(f"a game name is non-empty text, not {quote(name)}")
    key = name.strip().lower()
    entry = GameEntry(key, game, ais, solver, tuner, protocol)
    _ENTRIES[key] = entry
    for cached in [k for k in _CACHE if k[0] == key]:
        del _CACHE[cached]
    return entry


def game_names() -> list[str]:
    """Every declared game's name, sorted."""
    return sorted(_ENTRIES)


def game_entry(name: str) -> GameEntry:
    """The declaration of the game `name`; UnknownNameError naming the known ones."""
    if not isinstance(name, str):
        raise UnknownNameError(f"a game name is text, not {quote(name)}")
    entry = _ENTRIES.get(name.lower())
    if entry is None:
        raise UnknownNameError(f"unknown game {quote(name)}; known: {', '.join(game_names())}")
    return entry


def game_part(name: str, what: Part) -> Any:
    """The solver, tuner or protocol that the game `name` declares; OptionError
    naming the games that declare one when it has none."""
    value = game_entry(name).part(what)
    if value is None:
        having = [n for n, e in sorted(_ENTRIES.items()) if getattr(e, what) is not None]
        raise OptionError(
            f"no {PART_NAMES[what]} for {quote(name)}; available: {', '.join(having) or 'none'}"
        )
    return value


def get_game(name: str, **params: int) -> Game[Any]:
    """The game called `name` with its options (e.g. size=7); cached per options.

    Raises UnknownNameError for an unknown name and OptionError for bad options.
    """
    entry = game_entry(name)
    params = {k: check_whole(k, v, None) for k, v in params.items() if v is not None}
    cache_key = (entry.name, tuple(sorted(params.items())))
    game = _CACHE.get(cache_key)
    if game is None:
        factory = entry.factory()
        accepted = keyword_options(factory)
        unknown = sorted(set(params) - accepted) if accepted is not None else []
        if unknown:
            takes = f"its options: {', '.join(sorted(accepted))}" if accepted else "no options"
            raise OptionError(f"{name} has no option {', '.join(unknown)} ({takes})")
        game = _CACHE[cache_key] = factory(**params)
    return game


def _resolve(where: str) -> Any:
    """The object named by "module:attribute"."""
    module, _, attribute = where.partition(":")
    value: Any = importlib.import_module(module)
    for part in attribute.split(".") if attribute else ():
        value = getattr(value, part)
    return value


# --- the games that ship with the library ----------------------------------------------

register_game(
    "andantino",
    "boardgames.games.andantino:Andantino",
    ais="boardgames.ai.andantino",
)
register_game(
    "squatter",
    "boardgames.games.squatter:Squatter",
    ais="boardgames.ai.squatter",
    solver="boardgames.games.squatter.solver:SquatterSolver",
)
register_game(
    "hadron",
    "boardgames.games.hadron:Hadron",
    ais="boardgames.ai.hadron",
    solver="boardgames.games.hadron.solver:HadronSolver",
    tuner="boardgames.tuning.hadron:AENIGMA",
    protocol="boardgames.protocols.hadron:PROTOCOL",
)
register_game(
    "hexifence",
    "boardgames.games.hexifence:HexiFence",
    ais="boardgames.ai.hexifence",
    solver="boardgames.games.hexifence.solver:EdgeSolver",
)
register_game(
    "dots",
    "boardgames.games.hexifence:DotsAndBoxes",
    ais="boardgames.ai.hexifence",
    solver="boardgames.games.hexifence.solver:EdgeSolver",
)
