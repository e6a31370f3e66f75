"""The games the library knows: each declared once, with everything it offers.

`register_game(name, game, ais=..., solver=..., tuner=..., protocol=...,
observation=...)` declares a game: its `Game` class (or any factory of
keyword options), the module that registers its AIs
(`boardgames.ai.register_ai`), its exact solver, its tuner, its network
protocol and the planes a learning agent observes.  Each part is the object itself
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
- `observation`: a `planes.Planes` class, built with the game (`boardgames.envs`
  and the OpenSpiel games use it; without one they observe `planes.MovePlanes`).

`register_family(prefix, factory)` declares a family of games named
"prefix:name" (`openspiel:tic_tac_toe`): the factory, called with the name and
the options, builds the game; it too may be "module:attribute" text.
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
Part = Literal["solver", "tuner", "protocol", "observation"]
PART_NAMES: dict[str, str] = {
    "solver": "exact solver",
    "tuner": "tuner",
    "protocol": "tournament protocol",
    "observation": "observation planes",
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
    observation: Any = None

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
_FAMILIES: dict[str, Callable[..., Game[Any]] | str] = {}
_CACHE: dict[tuple[str, tuple[tuple[str, int], ...]], Game[Any]] = {}


def register_game(
    name: str,
    game: Callable[..., Game[Any]] | str,
    *,
    ais: str | None = None,
    solver: Any = None,
    tuner: Any = None,
    protocol: Any = None,
    observation: Any = None,
) -> GameEntry:
    """Declare the game `name` (see the module docstring for the parts).

    Declaring a name again replaces the earlier declaration (and forgets the
    games built from it).
    """
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise OptionError(f"a game name is non-empty text, not {quote(name)}")
    key = name.strip().lower()
    entry = GameEntry(key, game, ais, solver, tuner, protocol, observation)
    _ENTRIES[key] = entry
    for cached in [k for k in _CACHE if k[0] == key]:
        del _CACHE[cached]
    return entry


def register_family(prefix: str, factory: Callable[..., Game[Any]] | str) -> None:
    """Declare the games named "prefix:name": `factory(name, **options)` builds
    one (the factory may be "module:attribute" text, imported on first use)."""
    if not isinstance(prefix, str) or not prefix.isidentifier():
        raise OptionError(f"a family prefix is a name, not {quote(prefix)}")
    _FAMILIES[prefix.lower()] = factory


def family_names() -> list[str]:
    """The declared families' prefixes, sorted."""
    return sorted(_FAMILIES)


def game_names() -> list[str]:
    """Every declared game's name, sorted."""
    return sorted(_ENTRIES)


def game_entry(name: str) -> GameEntry:
    """The declaration of the game `name`; UnknownNameError naming the known ones."""
    if not isinstance(name, str):
        raise UnknownNameError(f"a game name is text, not {quote(name)}")
    entry = _ENTRIES.get(name.lower())
    if entry is None and ":" in name:
        entry = _family_entry(name)
    if entry is None:
        raise UnknownNameError(f"unknown game {quote(name)}; known: {', '.join(game_names())}")
    return entry


def _family_entry(name: str) -> GameEntry | None:
    """The entry of "prefix:member" in a declared family, or None.  It is kept
    (and listed by `game_names`) only once `get_game` has made the game: a
    name the family refuses leaves nothing behind."""
    prefix, _, member = name.partition(":")
    family = _FAMILIES.get(prefix.lower())
    if family is None or not member:
        return None
    if isinstance(family, str):
        family = _FAMILIES[prefix.lower()] = _resolve(family)
    build = family

    def factory(**options: int) -> Game[Any]:
        return build(member, **options)

    return GameEntry(name.lower(), factory)


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
        _ENTRIES.setdefault(entry.name, entry)  # a family member, once it is made
    return game


_PLANES: dict[Game[Any], Any] = {}


def game_planes(game: Game[Any]) -> Any:
    """The `planes.Planes` of a game built by `get_game` (its declared
    observation, else `planes.MovePlanes`), built once per game and options."""
    planes = _PLANES.get(game)
    if planes is None:
        factory = game_entry(game.name).part("observation")
        if factory is None:
            from .planes import MovePlanes

            factory = MovePlanes
        planes = _PLANES[game] = factory(game)
    return planes


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
    observation="boardgames.games.andantino.planes:AndantinoPlanes",
)
register_game(
    "squatter",
    "boardgames.games.squatter:Squatter",
    ais="boardgames.ai.squatter",
    observation="boardgames.games.squatter.planes:SquatterPlanes",
    solver="boardgames.games.squatter.solver:SquatterSolver",
)
register_game(
    "hadron",
    "boardgames.games.hadron:Hadron",
    ais="boardgames.ai.hadron",
    observation="boardgames.games.hadron.planes:HadronPlanes",
    solver="boardgames.games.hadron.solver:HadronSolver",
    tuner="boardgames.tuning.hadron:AENIGMA",
    protocol="boardgames.protocols.hadron:PROTOCOL",
)
register_game(
    "hexifence",
    "boardgames.games.hexifence:HexiFence",
    ais="boardgames.ai.hexifence",
    solver="boardgames.games.hexifence.solver:EdgeSolver",
    observation="boardgames.games.hexifence.planes:EdgePlanes",
)
register_game(
    "dots",
    "boardgames.games.hexifence:DotsAndBoxes",
    ais="boardgames.ai.hexifence",
    solver="boardgames.games.hexifence.solver:EdgeSolver",
    observation="boardgames.games.hexifence.planes:EdgePlanes",
)

# OpenSpiel's games, played here as "openspiel:NAME" (needs the openspiel extra).
register_family("openspiel", "boardgames.openspiel.loaded:load_game")
