"""Named AIs: `make_player(game, "alphabeta:depth=4,time=1")`.

Generic AIs (random, minimax, alphabeta, negascout, mcts) work for every
game; a game adds its own with `@register_ai(name, game=...)` in the module
its declaration names (`register_game(..., ais="boardgames.ai.hadron")`,
imported on first use).  A game-specific name wins over a generic one, so a
game can give "default" its strongest setup.

Each AI declares its options once (`options=` of `register_ai`, built from
`boardgames.options.Option`): `make_player` checks every value, fills in the
defaults and rejects unknown names for every game alike, and the factory is
called as `factory(game, **checked)` with clean values; an AI that declares
the three search limits (`options.LIMITS`) gets them as one
`limits=Limits(...)`.  An AI declared with `extra=True` also receives the
options it does not declare (evaluator weights, which the evaluator checks).
A factory registered without `options` gets what its signature accepts,
unchecked.

A spec "program:CMD ARGS" is no registered AI: it is an external program
that speaks the engine protocol (`boardgames.programs`), started with that
command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import OptionError, UnknownNameError, quote
from ..game import Game
from ..options import Option, keyword_options, parse_pairs
from ..programs.spec import PREFIX, is_program_spec
from ..registry import game_entry
from . import generic  # noqa: F401  (registers the generic AIs)
from .registry import AIS, AIEntry

if TYPE_CHECKING:
    from ..players import Player

__all__ = [
    "PROGRAM", "ai_names", "ai_options", "make_player", "parse_spec", "spec_threads",
    "takes_option",
]

#: The spec name of an external program ("program:CMD ARGS", see `boardgames.programs`).
PROGRAM = "program"

_LOADED: set[str] = set()


def ai_options(game: Game[Any], name: str) -> tuple[Option, ...] | None:
    """The options AI `name` declares for `game` (None if it declares none)."""
    return _entry(game, name).options


def _load(game_name: str) -> None:
    """Register the generic AIs and the game's own (its declaration's `ais` module)."""
    if game_name in _LOADED:
        return
    game_entry(game_name).load_ais()
    _LOADED.add(game_name)


def ai_names(game: Game[Any]) -> dict[str, str]:
    """Every AI name usable for `game`, with a one-line help."""
    _load(game.name)
    names = {n: e.help for (g, n), e in AIS.items() if g is None}
    names.update({n: e.help for (g, n), e in AIS.items() if g == game.name})
    return dict(sorted(names.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'alphabeta:depth=4,time=1' -> ('alphabeta', {'depth': 4, 'time': 1});
    a program's spec 'program:./engine --fast' -> ('program', {'command':
    './engine --fast'}) (its command line is not split into options)."""
    if not isinstance(spec, str):
        raise OptionError(f"an AI spec is text like 'alphabeta:depth=4', not {quote(spec)}")
    if is_program_spec(spec):
        return PROGRAM, {"command": spec.strip()[len(PREFIX) :]}
    name, _, rest = spec.strip().partition(":")
    items = [p.strip() for p in rest.split(",") if p.strip()]
    try:
        options = parse_pairs(items, "AI option")
    except OptionError as exc:
        raise OptionError(f"{exc} in {quote(spec)}") from None
    if not name:
        raise OptionError(f"empty AI name in {quote(spec)}")
    return name.lower(), options


def spec_threads(spec: str) -> int:
    """The processes an AI spec searches with: its `threads` option, 1
    without one (or with a bad spec, which making the player reports)."""
    try:
        _, options = parse_spec(spec)
    except OptionError:
        return 1
    threads = options.get("threads", 1)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        return 1
    return threads


def takes_option(game: Game[Any], spec: str, option: str) -> bool:
    """Does the AI of `spec` take `option` (declared, or a keyword of an
    undeclared factory)?  False for a program, whose options are its own,
    and for a spec `game` does not know (making the player reports it)."""
    try:
        name, _ = parse_spec(spec)
        if name == PROGRAM:
            return False
        entry = _entry(game, name)
    except (OptionError, UnknownNameError):
        return False
    if entry.options is not None:
        return any(declared.name == option for declared in entry.options)
    accepted = keyword_options(entry.factory)
    return accepted is not None and option in accepted


def _entry(game: Game[Any], name: str) -> AIEntry:
    _load(game.name)
    entry = AIS.get((game.name, name)) or AIS.get((None, name))
    if entry is None:
        raise UnknownNameError(
            f"unknown AI {quote(name)} for {game.name}; known: {', '.join(ai_names(game))}"
        )
    return entry


def make_player(game: Game[Any], spec: str, **defaults: Any) -> Player[Any]:
    """A player from a spec 'name[:key=value,...]'; `defaults` (e.g. depth,
    time, seed) fill in options the spec does not give (None is ignored)."""
    name, options = parse_spec(spec)
    return build_player(game, name, options, spec, **defaults)


def build_player(
    game: Game[Any], name: str, options: dict[str, Any], spec: str | None = None, **defaults: Any
) -> Player[Any]:
    """`make_player` from a spec already parsed (`parse_spec`): AI `name` with
    `options`, `defaults` filling in the options not given; the player is
    named `spec` (or `name`) unless it names itself.  The name "program"
    builds an external program (`programs.program_player`)."""
    if name == PROGRAM:
        from ..programs.player import program_player

        given = {key: value for key, value in defaults.items() if value is not None}
        extra = {key: value for key, value in options.items() if key != "command"}
        return program_player(game, str(options.get("command", "")), spec=spec, **extra, **given)
    entry = _entry(game, name)
    options = dict(options)
    for key, value in defaults.items():
        if value is not None:
            options.setdefault(key, value)
    player = entry.build(game, name, options)
    if not getattr(player, "name", None) or player.name == type(player).__name__:
        player.name = spec or name
    return player
