"""What a game declares for the generic arena: its tuner, its network protocol.

The generic layers (the tuner loop, the `tune`, `serve` and `connect`
commands) hold no list of games.  A game declares what it offers by
registering it, either from a module of this package named after the game
(`tune_hadron.py` registers Hadron's tuner, `hadron_net.py` its tournament
protocol), which is imported the first time the game is looked up, or from
any module of its own, e.g. a plugin given with `--plugin`.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from typing import Generic, TypeVar

from ..errors import OptionError

T = TypeVar("T")


class Registry(Generic[T]):
    """One kind of declaration (`what`), by game name.

    `module` names the modules of `boardgames.arena` that declare it, with
    `{game}` for the game's name (e.g. "tune_{game}").
    """

    def __init__(self, what: str, module: str) -> None:
        self.what = what
        self.module = module
        self._items: dict[str, T] = {}
        prefix, _, suffix = module.partition("{game}")
        self._pattern = re.compile(f"{re.escape(prefix)}(\\w+){re.escape(suffix)}")

    def register(self, game: str, item: T) -> T:
        """Declare `item` for the game called `game` (the last declaration wins)."""
        self._items[game.lower()] = item
        return item

    def get(self, game: str) -> T:
        """The declaration for `game`; OptionError naming the games that have one."""
        name = game.lower()
        if name not in self._items:
            self._import(name)
        try:
            return self._items[name]
        except KeyError:
            available = ", ".join(self.games()) or "none"
            raise OptionError(f"no {self.what} for {game!r}; available: {available}") from None

    def games(self) -> list[str]:
        """Every game with a declaration, registered or in this package's modules."""
        names = set(self._items)
        for module in pkgutil.iter_modules(_package_folders()):
            match = self._pattern.fullmatch(module.name)
            if match:
                names.add(match.group(1))
        return sorted(names)

    def _import(self, game: str) -> None:
        if not game.isidentifier():
            return
        module = f"{__package__}.{self.module.format(game=game)}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


def _package_folders() -> list[str]:
    """The folders of the `boardgames.arena` package."""
    package = importlib.import_module(__package__ or "boardgames.arena")
    return list(package.__path__)
