"""Named AIs: `make_player(game, "alphabeta:depth=4,time=1")`.

Generic AIs (random, minimax, alphabeta, negascout, mcts) work for every
game; a game adds its own in `boardgames/ai/<game name>.py` (imported on
first use) with `@register_ai(name, game=...)`.  A game-specific name wins
over a generic one, so a game can give "default" its strongest setup.

A factory is called as `factory(game, **options)` and returns a Player.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import UnknownNameError
from ..game import Game, OptionError
from ..options import keyword_options, parse_pairs, parse_value, quote  # noqa: F401  (parse_value re-exported)

if TYPE_CHECKING:
    from ..players import Player

AIFactory = Callable[..., "Player"]

_AIS: dict[tuple[str | None, str], tuple[AIFactory, str]] = {}
_SOLVERS: dict[str, Callable[..., Any]] = {}
_LOADED: set[str] = set()


def register_ai(name: str, *, game: str | None = None, help: str = "") -> Callable:
    """Decorator: register `factory(game, **options) -> Player` under `name`."""

    def decorate(factory: AIFactory) -> AIFactory:
        _AIS[(game, name)] = (factory, help or (factory.__doc__ or "").strip().split("\n")[0])
        return factory

    return decorate


def register_solver(game: str, solver: Callable[..., Any]) -> None:
    """A game's own exact solver: `solver(state, all_moves=False) -> SolveResult`."""
    _SOLVERS[game] = solver


def _load(game_name: str) -> None:
    if game_name in _LOADED:
        return
    _LOADED.add(game_name)
    importlib.import_module(f"{__name__}.generic")
    module = f"{__name__}.{game_name}"
    if importlib.util.find_spec(module) is not None:
        importlib.import_module(module)


def ai_names(game: Game) -> dict[str, str]:
    """Every AI name usable for `game`, with a one-line help."""
    _load(game.name)
    names = {n: h for (g, n), (_, h) in _AIS.items() if g is None}
    names.update({n: h for (g, n), (_, h) in _AIS.items() if g == game.name})
    return dict(sorted(names.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'alphabeta:depth=4,time=1' -> ('alphabeta', {'depth': 4, 'time': 1})."""
    name, _, rest = spec.strip().partition(":")
    items = [p.strip() for p in rest.split(",") if p.strip()]
    try:
        options = parse_pairs(items, "AI option")
    except OptionError as exc:
        raise OptionError(f"{exc} in {quote(spec)}") from None
    if not name:
        raise OptionError(f"empty AI name in {quote(spec)}")
    return name.lower(), options


def make_player(game: Game, spec: str, **defaults: Any) -> Player:
    """A player from a spec 'name[:key=value,...]'; `defaults` (e.g. depth,
    time, seed) fill in options the spec does not give (None is ignored)."""
    name, options = parse_spec(spec)
    _load(game.name)
    entry = _AIS.get((game.name, name)) or _AIS.get((None, name))
    if entry is None:
        raise UnknownNameError(
            f"unknown AI {name!r} for {game.name}; known: {', '.join(ai_names(game))}"
        )
    for key, value in defaults.items():
        if value is not None:
            options.setdefault(key, value)
    accepted = keyword_options(entry[0])
    if accepted is not None and set(options) - accepted:
        unknown = ", ".join(sorted(set(options) - accepted))
        takes = ", ".join(sorted(accepted - {"game"}))
        raise OptionError(f"unknown option(s) {unknown} for AI {name!r} (its options: {takes})")
    try:
        player = entry[0](game, **options)
    except TypeError as exc:
        raise OptionError(f"bad options for AI {name!r}: {exc}") from None
    if not getattr(player, "name", None) or player.name == type(player).__name__:
        player.name = spec
    return player


def solver_for(game: Game) -> Callable[..., Any] | None:
    _load(game.name)
    return _SOLVERS.get(game.name)
