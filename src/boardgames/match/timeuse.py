"""How much of its time each player used, read from game records.

`time_use(records)` sums, per player name, the seconds each of its moves
took (`GameRecord.times`), what the time manager allotted them (with a game
clock, `GameRecord.allotted`) and the least time a player had left on its
clock at the end of a game.  The match command prints it after a match at a
clock, and the clock tests read it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..game import End, Game
from .records import GameRecord


@dataclass
class TimeUse:
    """One player's moves and their times over some games."""

    name: str
    times: list[float] = field(default_factory=list)
    allotted: list[float] = field(default_factory=list)
    #: Seconds left on the player's clock at the end of each clocked game.
    left: list[float] = field(default_factory=list)
    losses_on_time: int = 0

    @property
    def moves(self) -> int:
        """The number of moves timed."""
        return len(self.times)

    @property
    def mean(self) -> float:
        """The mean time a move took (NaN with none)."""
        return sum(self.times) / len(self.times) if self.times else math.nan

    @property
    def longest(self) -> float:
        """The longest time a move took (NaN with none)."""
        return max(self.times, default=math.nan)

    @property
    def mean_allotted(self) -> float:
        """The mean time allotted to a move (NaN with none)."""
        return sum(self.allotted) / len(self.allotted) if self.allotted else math.nan

    @property
    def least_left(self) -> float:
        """The least time left on the player's clock at the end of a game (NaN
        without a clock)."""
        return min(self.left, default=math.nan)

    def line(self) -> str:
        """'default: 64 moves, 0.081 s a move (longest 0.312 s), allotted 0.110 s;
        least left on the clock 1.20 s'."""
        text = f"{self.name}: {self.moves} moves, {self.mean:.3f} s a move"
        text += f" (longest {self.longest:.3f} s)"
        if self.allotted:
            text += f", allotted {self.mean_allotted:.3f} s"
        if self.left:
            text += f"; least left on the clock {self.least_left:.2f} s"
        if self.losses_on_time:
            text += f"; lost {self.losses_on_time} on time"
        return text


def time_use(records: Iterable[GameRecord], game: Game[Any] | None = None) -> dict[str, TimeUse]:
    """Each player's time use over `records`, by the names the records give."""
    uses: dict[str, TimeUse] = {}
    for record in records:
        sides = record.sides(game)
        for side, name in enumerate(record.players):
            use = uses.setdefault(name, TimeUse(name))
            mine = [i for i, s in enumerate(sides) if s == side]
            use.times += [record.times[i] for i in mine if i < len(record.times)]
            if record.allotted:
                use.allotted += [a for i in mine if (a := record.allotted[i]) is not None]
            if record.clock_left is not None:
                use.left.append(max(0.0, record.clock_left[side]))
            if record.end is End.TIME and record.winner == 1 - side:
                use.losses_on_time += 1
    return uses
