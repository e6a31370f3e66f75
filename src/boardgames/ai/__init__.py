"""Named AIs: `make_player(game, "alphabeta:depth=4,time=1")`.

Generic AIs (random, minimax, alphabeta, negascout, mcts) work for every
game; a game adds its own in `boardgames/ai/<game name>.py` (imported on
first use) with `@register_ai(name, game=...)`.  A game-specific name wins
over a generic one, so a game can give "default" its strongest setup.

Each AI declares its options once (`options=` of `register_ai`, built from
`boardgames.options.Option`): `make_player` checks every value, fills in the
defaults and rejects unknown names for every game alike, and the factory is
called as `factory(game, **checked)` with clean values; an AI that declares
the three search limits (`options.LIMITS`) gets them as one
`limits=Limits(...)`.  An AI declared with `extra=True` also receives the
options it does not declare (evaluator weights, which the evaluator checks).
A factory registered without `options` gets what its signature accepts,
unchecked.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, UnknownNameError
from ..game import Game
from ..options import (  # noqa: F401  (parse_value is re-exported)
    LIMITS,
    Limits,
    Option,
    check_options,
    keyword_options,
    parse_pairs,
    parse_value,
    quote,
)

if TYPE_CHECKING:
    from ..players import Player

AIFactory = Callable[..., "Player"]



@dataclass(frozen=True)
class AIEntry:
    """A registered AI: its factory, one line of help and its declared options."""

    factory: AIFactory
    help: str
    options: tuple[Option, ...] | None = None
    extra: bool = False

    def build(self, game: Game, name: str, given: dict[str, Any]) -> Player:
        """The player, from `given` options checked against the declaration."""
        if self.options is not None:
            checked, rest = check_options(
                self.options, given, extra=self.extra, what=f"AI {name!r}"
            )
            if checked.keys() >= LIMIT_NAMES:  # the search budget travels as one value
                checked["limits"] = Limits(**{n: checked.pop(n) for n in LIMIT_NAMES})
            return self.factory(game, **checked, **rest)
        accepted = keyword_options(self.factory)
        if accepted is not None and set(given) - accepted:
            unknown = ", ".join(sorted(set(given) - accepted))
            takes = ", ".join(sorted(accepted - {"game"}))
            raise OptionError(f"unknown option(s) {unknown} for AI {name!r} (its options: {takes})")
        try:
            return self.factory(game, **given)
        except TypeError as exc:
            raise OptionError(f"bad options for AI {name!r}: {exc}") from None


_AIS: dict[tuple[str | None, str], AIEntry] = {}
#: The declared options that reach a factory as one `limits` value.
LIMIT_NAMES = {option.name for option in LIMITS}
_SOLVERS: dict[str, Callable[..., Any]] = {}
_LOADED: set[str] = set()


def register_ai(
    name: str,
    *,
    game: str | None = None,
    help: str = "",
    options: tuple[Option, ...] | None = None,
    extra: bool = False,
) -> Callable[[AIFactory], AIFactory]:
    """Decorator: register `factory(game, **options) -> Player` under `name`
    (for every game, or for `game` only), with its declared `options`."""

    def decorate(factory: AIFactory) -> AIFactory:
        line = help or (factory.__doc__ or "").strip().split("\n")[0]
        _AIS[(game, name)] = AIEntry(factory, line, options, extra)
        return factory

    return decorate


def ai_options(game: Game, name: str) -> tuple[Option, ...] | None:
    """The options AI `name` declares for `game` (None if it declares none)."""
    return _entry(game, name).options


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
    names = {n: e.help for (g, n), e in _AIS.items() if g is None}
    names.update({n: e.help for (g, n), e in _AIS.items() if g == game.name})
    return dict(sorted(names.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'alphabeta:depth=4,time=1' -> ('alphabeta', {'depth': 4, 'time': 1})."""
    if not isinstance(spec, str):
        raise OptionError(f"an AI spec is text like 'alphabeta:depth=4', not {quote(spec)}")
    name, _, rest = spec.strip().partition(":")
    items = [p.strip() for p in rest.split(",") if p.strip()]
    try:
        options = parse_pairs(items, "AI option")
    except OptionError as exc:
        raise OptionError(f"{exc} in {quote(spec)}") from None
    if not name:
        raise OptionError(f"empty AI name in {quote(spec)}")
    return name.lower(), options


def _entry(game: Game, name: str) -> AIEntry:
    _load(game.name)
    entry = _AIS.get((game.name, name)) or _AIS.get((None, name))
    if entry is None:
        raise UnknownNameError(
            f"unknown AI {quote(name)} for {game.name}; known: {', '.join(ai_names(game))}"
        )
    return entry


def make_player(game: Game, spec: str, **defaults: Any) -> Player:
    """A player from a spec 'name[:key=value,...]'; `defaults` (e.g. depth,
    time, seed) fill in options the spec does not give (None is ignored)."""
    name, options = parse_spec(spec)
    entry = _entry(game, name)
    for key, value in defaults.items():
        if value is not None:
            options.setdefault(key, value)
    player = entry.build(game, name, options)
    if not getattr(player, "name", None) or player.name == type(player).__name__:
        player.name = spec
    return player


def solver_for(game: Game) -> Callable[..., Any] | None:
    _load(game.name)
    return _SOLVERS.get(game.name)
