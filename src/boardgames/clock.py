"""Game clocks and the time manager: a whole-game budget shared among moves.

A `TimeControl` is what a match is played at: each side has `seconds` for
the whole game and gains `increment` seconds after each of its moves (a
Fischer increment); a side whose clock runs out loses on time.  Its text
form is "SECONDS[+INCREMENT]" ("60", "5+0.1").

A `TimeManager` decides how much of the clock one move may use: a share of
the time left, of the increments still to come and of the game's phase,
read as an estimate of the moves left.  The estimate is the game's own when
its State has the optional hook `plies_left_estimate()` (plain game
knowledge: how many more plies, both sides together, the game will likely
last), and otherwise the number of legal moves (exact where every move fills
one cell or edge, a rough guide elsewhere), with a floor of `min_moves` of
one's own.  The manager keeps back a share of the clock (`reserve`) and a
per-move `overhead` for what is spent outside the player's search (copies,
the referee, a busy machine); the overhead grows to the largest recent
overrun of an allotment, so a player that always overruns a little is given
less.  The allotment is handed to the player as its per-move `time_limit`,
which players already keep well inside (`players.time_budget`).

Why it cannot run out, for a player that keeps to its allotment plus the
overhead, in a game that lasts no longer than estimated: the manager first
keeps back what every later move costs at the least (the overhead and
`min_time`, less its increment), and allots at most `(1 - reserve)` of the
rest, less this move's overhead.  So after any move the clock still holds
the least cost of every move to come, and by induction it never runs out
(tests/test_clock.py checks this on random games).  Where the estimate is
short the `min_moves` floor and the reserve absorb it; a player that
overruns is given its overrun as overhead from then on.

`GameClock` is the running clock of one game: both sides' time left and a
manager per side.  The referee (`match.play.play_game`) asks it for each
move's allotment, charges the time the move took and adds the increment.
As an emergency brake the referee also hands players that take one a stop
signal, set when the side's clock is all but gone (`brake_after`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import OptionError, quote
from .options import MAX_SECONDS, check_real, check_seconds, check_whole


@dataclass(frozen=True)
class TimeControl:
    """`seconds` per side for the whole game, plus `increment` after each move."""

    seconds: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "seconds", check_seconds("clock", self.seconds))
        increment = check_real("clock increment", self.increment, 0, MAX_SECONDS, unit="seconds")
        object.__setattr__(self, "increment", increment)

    @classmethod
    def parse(cls, text: Any, name: str = "clock") -> TimeControl:
        """A time control from "SECONDS[+INCREMENT]" (or a number of seconds).

        OptionError, naming `name`, for anything else (NaN, a negative or
        zero budget, a negative increment, stray text)."""
        if isinstance(text, TimeControl):
            return text
        if isinstance(text, int | float) and not isinstance(text, bool):
            return cls(check_seconds(name, text))
        if not isinstance(text, str):
            raise OptionError(f"{name} must be SECONDS[+INCREMENT], not {quote(text)}")
        seconds, plus, increment = text.strip().partition("+")
        try:
            budget = check_seconds(name, _number(seconds))
            extra = 0.0
            if plus:
                extra = check_real(f"{name} increment", _number(increment), 0, MAX_SECONDS)
        except OptionError as exc:
            raise OptionError(f"{exc} (expected SECONDS[+INCREMENT], e.g. 60 or 5+0.1)") from None
        return cls(budget, extra)

    def __str__(self) -> str:
        return f"{self.seconds:g}" + (f"+{self.increment:g}" if self.increment else "")


def _number(text: str) -> float | str:
    """A finite float from text, else the text itself (for the check's message)."""
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


# --- the phase of the game ---------------------------------------------------------------

#: The optional State method that estimates the plies left (game knowledge only).
HOOK = "plies_left_estimate"


def plies_left(state: Any) -> tuple[float, bool]:
    """(estimated plies left, True if the game's own hook gave it).

    The game's `plies_left_estimate()` when its State has one and it answers
    a finite number >= 0; else the number of legal moves.  A hook that fails
    or answers nonsense is ignored: the clock must never stop a game.
    """
    hook = getattr(state, HOOK, None)
    if callable(hook):
        try:
            value = hook()
        except Exception:
            value = None
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and math.isfinite(value) and value >= 0:
            return float(value), True
    return float(len(state.legal_moves())), False


# --- the manager -------------------------------------------------------------------------


@dataclass
class TimeManager:
    """Shares one side's clock among its moves (see the module's notes).

    `reserve`: share of the time left kept back at every move.  `overhead`:
    seconds per move assumed spent outside the search (it rises to the
    largest recent overrun of an allotment, decaying by `decay` a move).
    `min_moves`: own moves assumed left at least when the estimate is the
    generic one; `min_moves_hook` when the game gave it.  `max_share`: most
    of the time left one move may have.  `min_time`: the least allotment.
    """

    reserve: float = 0.1
    overhead: float = 0.03
    min_moves: int = 8
    min_moves_hook: int = 2
    max_share: float = 0.25
    min_time: float = 0.005
    decay: float = 0.7
    min_ratio: float = 0.5
    #: The largest recent overrun of an allotment (seconds), decaying.
    overrun: float = field(default=0.0, compare=False)
    #: The share of its allotments the player has lately used (a moving average).
    ratio: float = field(default=1.0, compare=False)

    def __post_init__(self) -> None:
        check_real("reserve", self.reserve, 0.01, 0.9)
        check_real("overhead", self.overhead, 0, 10)
        check_whole("min_moves", self.min_moves, 1)
        check_whole("min_moves_hook", self.min_moves_hook, 1)
        check_real("max_share", self.max_share, 0.01, 1 - self.reserve)
        check_real("min_time", self.min_time, 0.0001, 1)
        check_real("decay", self.decay, 0, 1)
        check_real("min_ratio", self.min_ratio, 0.05, 1)

    def fresh(self) -> TimeManager:
        """A manager with these settings and nothing learnt (for a new side or game)."""
        return replace(self, overrun=0.0, ratio=1.0)

    @property
    def margin(self) -> float:
        """Seconds per move kept for what happens outside the search."""
        return max(self.overhead, self.overrun)

    def moves_left(self, state: Any) -> int:
        """Own moves still to play, as far as the phase of the game tells."""
        plies, from_hook = plies_left(state)
        floor = self.min_moves_hook if from_hook else self.min_moves
        return max(floor, math.ceil(plies / 2))

    def allot(
        self, state: Any, left: float, increment: float = 0.0, cap: float | None = None
    ) -> float:
        """Seconds for the move about to be chosen in `state`, with `left` on
        the clock and `increment` to come after each move (`cap`: a per-move
        limit that also applies)."""
        return self.share(left, self.moves_left(state), increment, cap)

    def share(
        self, left: float, moves: int, increment: float = 0.0, cap: float | None = None
    ) -> float:
        """The allotment with `moves` own moves left (see `allot`).

        Kept back first: what each later move costs at the least (the margin
        and `min_time`, less the increment it brings).  Of the rest, this move
        may have its fair share (the rest and the later increments' surplus,
        over `moves`), divided by the share of its allotments the player has
        lately used (at least `min_ratio`), and never more than `max_share`
        of the clock nor more than `1 - reserve` of the rest, less the margin.
        """
        moves = max(1, moves)
        least = self.margin + self.min_time
        free = left - (moves - 1) * max(0.0, least - increment)
        surplus = (moves - 1) * max(0.0, increment - least)
        fair = ((1 - self.reserve) * free + surplus) / moves - self.margin
        most = min(self.max_share * left, (1 - self.reserve) * free - self.margin)
        seconds = min(fair / max(self.ratio, self.min_ratio), most)
        if cap is not None:
            seconds = min(seconds, cap)
        return max(self.min_time, seconds)

    def observe(self, allotted: float, used: float) -> None:
        """Learn from a move that was allotted `allotted` s and took `used` s."""
        self.overrun = max(used - allotted, self.overrun * self.decay, 0.0)
        share = min(1.0, used / allotted)
        self.ratio = self.decay * self.ratio + (1 - self.decay) * share


# --- one game's clock --------------------------------------------------------------------


class GameClock:
    """Both sides' time left in one game, and a manager for each side.

    `allot(state)` is the side to move's allotment; `charge(side, used,
    allotted)` takes the time a move used from that side's clock, then adds
    the increment, and returns False if the clock ran out (the side lost on
    time).  `left` may start from a saved game's clocks.
    """

    def __init__(
        self,
        control: TimeControl,
        manager: TimeManager | None = None,
        left: tuple[float, float] | list[float] | None = None,
    ) -> None:
        self.control = control
        base = manager or TimeManager()
        self.managers = (base.fresh(), base.fresh())
        self.left = [control.seconds, control.seconds] if left is None else [*left]
        if len(self.left) != 2:
            raise OptionError("a clock needs the time left of two sides")

    def allot(self, state: Any, cap: float | None = None) -> float:
        """The seconds the side to move may use for this move, by its time
        manager, at most `cap`."""
        side = state.to_move
        manager = self.managers[side]
        return manager.allot(state, self.left[side], self.control.increment, cap)

    def brake_after(self, side: int) -> float:
        """Seconds into a move of `side` after which it must stop thinking: its
        clock less a little (twice the margin, a tenth of the clock, or 50 ms,
        whichever is most: a loaded machine may wake the brake late)."""
        left = self.left[side]
        return max(0.0, left - max(2 * self.managers[side].margin, 0.1 * left, 0.05))

    def charge(self, side: int, used: float, allotted: float) -> bool:
        """Charge `used` seconds to `side` and add the increment; False when the
        side has run out of time (then nothing is added)."""
        self.left[side] -= used
        if self.left[side] < 0:
            return False
        self.left[side] += self.control.increment
        self.managers[side].observe(allotted, used)
        return True
