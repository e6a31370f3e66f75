"""What a tournament's games are, as plain picklable data: tasks and results.

A `GameTask` is everything a worker needs to play one game; a `GameResult`
is what comes back.  Both are plain data that cross process boundaries (a
process pool, a Dask cluster), so this module imports nothing of the
tournament's machinery; every other module of the tournament builds on it.
Every game's seed is derived from (tournament seed, pair, game index) only
(`derive_seed`), so the games do not depend on the order they run in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..match.records import GameRecord
from ..players import Player

#: A player spec: "alphabeta:depth=4" for `make_player`, or a picklable
#: callable `factory(game, seed=...) -> Player` (for tuners building players
#: from parameters).
PlayerSpec = str | Callable[..., Player[Any]]

#: The folder of a tournament directory that holds one record per game.
GAMES = "games"


def derive_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed from `seed` and a path of integers (stable across runs and machines)."""
    text = ":".join(str(int(x)) for x in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def record_name(pair: tuple[int, int], index: int) -> str:
    """Where game `index` of `pair` is kept in a tournament directory."""
    return f"{GAMES}/{pair[0]:02d}-{pair[1]:02d}-{index:04d}.json"


def log_name(pair: tuple[int, int], index: int, player: int) -> str:
    """The log file, in a tournament's log folder, of the stderr of `player`
    (a program) in game `index` of `pair`: "00-03-0001.3.log"."""
    return f"{pair[0]:02d}-{pair[1]:02d}-{index:04d}.{player}.log"


def parse_record_name(name: str) -> tuple[int, int, int] | None:
    """The key (i, j, index) of a record's file name; None for other files."""
    parts = name.removesuffix(".json").split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    i, j, index = (int(p) for p in parts)
    return (i, j, index) if i < j else None


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game: plain, picklable data."""

    game: str
    params: Mapping[str, int]
    #: The pair of player indices (i < j) in the tournament's list.
    pair: tuple[int, int]
    #: Game number within the pair; i plays first in even games, j in odd ones.
    index: int
    #: Specs and labels of (first player, second player).
    specs: tuple[PlayerSpec, PlayerSpec]
    labels: tuple[str, str]
    seed: int
    time_limit: float | None = None
    #: Hard limits enforced by the watchdog (None: no limit).
    move_timeout: float | None = None
    game_timeout: float | None = None
    max_moves: int | None = None
    #: Random moves played from the start before the players take over, and their seed.
    opening_plies: int = 0
    opening_seed: int = 0
    #: An opening's moves (notation) to start from instead ("": the start).
    opening: str = ""
    plugins: tuple[str, ...] = ()
    #: The game clock ("SECONDS[+INCREMENT]"), None for none.
    clock: str | None = None
    #: The folder for the programs' stderr logs (`log_name`), None: the default.
    logs: str | None = None

    @property
    def players(self) -> tuple[int, int]:
        """Tournament indices of (first player, second player)."""
        i, j = self.pair
        return (i, j) if self.index % 2 == 0 else (j, i)

    @property
    def key(self) -> tuple[int, int, int]:
        """The game's key: its pair and its index in the pair."""
        return (*self.pair, self.index)


@dataclass(frozen=True)
class GameResult:
    """One finished game (`record`), or one that could not be played (`error`)."""

    pair: tuple[int, int]
    index: int
    record: GameRecord | None
    error: str | None = None
    seconds: float = 0.0

    @property
    def key(self) -> tuple[int, int, int]:
        """The game's key: its pair and its index in the pair."""
        return (*self.pair, self.index)

    @property
    def players(self) -> tuple[int, int]:
        """The players in colour order: the pair's first plays first in even games."""
        i, j = self.pair
        return (i, j) if self.index % 2 == 0 else (j, i)

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end."""
        return self.record is not None and self.record.result != "none"

    @property
    def winner(self) -> int | None:
        """The winner's tournament index; None for a draw or an unfinished game."""
        if self.record is None or self.record.winner is None:
            return None
        return self.players[self.record.winner]

    def points(self, player: int) -> float:
        """The points `player` scored in this game: 1, 1/2 for a draw, 0 (also for
        a game not finished or not theirs)."""
        if not self.finished or player not in self.pair:
            return 0.0
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0
