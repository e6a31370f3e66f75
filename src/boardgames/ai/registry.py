"""The AI registry: every named AI, its factory, its help line and its options.

`@register_ai(name, game=..., options=...)` declares an AI; `boardgames.ai`
looks them up (`make_player`, `ai_names`).  Kept apart from the package's
entry points so that the modules that declare AIs import nothing above them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..budget import Limits
from ..errors import OptionError
from ..game import Game
from ..options import LIMITS, Option, check_options, keyword_options

if TYPE_CHECKING:
    from ..players import Player

AIFactory = Callable[..., "Player[Any]"]


@dataclass(frozen=True)
class AIEntry:
    """A registered AI: its factory, one line of help and its declared options."""

    factory: AIFactory
    help: str
    options: tuple[Option, ...] | None = None
    extra: bool = False

    def build(self, game: Game[Any], name: str, given: dict[str, Any]) -> Player[Any]:
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
        return self.factory(game, **given)


#: (game name or None for every game, AI name) -> its entry.
AIS: dict[tuple[str | None, str], AIEntry] = {}
#: The declared options that reach a factory as one `limits` value.
LIMIT_NAMES = {option.name for option in LIMITS}


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
        AIS[(game, name)] = AIEntry(factory, line, options, extra)
        return factory

    return decorate
