"""The one place that reads and checks option values.

Every number a user can give, whether a CLI flag, an AI spec
(`alphabeta:depth=4,noise=0.5`), an engine command or a server setting, is
parsed by `parse_value` and checked by one of the `check_*` functions below.
They reject booleans where numbers are meant, NaN and infinities everywhere,
and values out of range, with one message that names the option and quotes
the bad value briefly (`quote`).  The options every search AI declares
(`LIMITS`: depth, time, nodes) reach it as one `budget.Limits` value.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .errors import OptionError, quote

#: Longest time limit accepted anywhere (seconds): about 11 days.  Larger
#: values overflow timers and sockets, and no game needs them.
MAX_SECONDS = 1e6

#: Most local worker processes (`-w N`): more is a typo, not a plan (a process
#: pool starts them all at once, and each is a whole Python process).
MAX_WORKERS = 256

#: Most processes of one parallel search or solve (`threads`).
MAX_THREADS = 256

#: Most games a pair plays in a tournament or a ladder: every game is scheduled
#: up front, and no rating needs more (the ladder's focus gives up at 100 000).
MAX_GAMES_PER_PAIR = 100_000

def parse_value(text: str) -> Any:
    """'3' -> 3, '0.5' -> 0.5, 'true' -> True; anything else stays a string.

    'nan', 'inf' and numbers too large for a float stay strings, so that no
    check ever sees a non-finite number from text; so do numbers in other
    scripts' digits ('٣': `int` would take it), since numbers are ASCII.
    """
    if not text.isascii():
        return text
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text


def parse_pairs(items: list[str] | tuple[str, ...], what: str) -> dict[str, Any]:
    """['size=7', 'ai=mcts'] -> {'size': 7, 'ai': 'mcts'}; each key at most once."""
    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise OptionError(f"bad {what} {quote(item)} (expected key=value)")
        if key in options:
            raise OptionError(f"{what} {key!r} given twice")
        options[key] = parse_value(value)
    return options


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and (isinstance(value, int) or math.isfinite(value))
    )


def _number_text(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value) if isinstance(value, int) else f"{value:g}"


def _range_text(low: float | None, high: float | None, open_low: bool) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if open_low else '>='} {_number_text(low)}")
    if high is not None:
        parts.append(f"<= {_number_text(high)}")
    return " and ".join(parts)


def check_real(
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    open_low: bool = False,
    unit: str = "",
) -> float:
    """A finite number in [low, high] (or (low, high] with `open_low`)."""
    ok = _is_number(value)
    if ok and low is not None:
        ok = value > low if open_low else value >= low
    if ok and high is not None:
        ok = value <= high
    if not ok:
        where = _range_text(low, high, open_low)
        what = f"a number{' of ' + unit if unit else ''}{' ' + where if where else ''}"
        raise OptionError(f"{name} must be {what}, not {quote(value)}")
    return float(value)


def check_number(name: str, value: Any, high: float | None = None) -> float:
    """A finite number >= 0 (weights, noise, shares)."""
    return check_real(name, value, 0, high)


def check_whole(name: str, value: Any, low: int | None = 1, high: int | None = None) -> int:
    """A whole number in [low, high]; 3.0 is not whole here, nor is True."""
    ok = isinstance(value, int) and not isinstance(value, bool)
    ok = ok and (low is None or value >= low) and (high is None or value <= high)
    if not ok:
        where = _range_text(low, high, False)
        raise OptionError(
            f"{name} must be a whole number{' ' + where if where else ''}, not {quote(value)}"
        )
    return int(value)


def check_seconds(name: str, value: Any) -> float:
    """A time in seconds: finite, > 0 and at most MAX_SECONDS."""
    return check_real(name, value, 0, MAX_SECONDS, open_low=True, unit="seconds")


def check_flag(name: str, value: Any) -> bool:
    """true/false (`parse_value` turns true/yes/on and false/no/off into bools)."""
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be true or false, not {quote(value)}")
    return value


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    """`value` if it is one of `choices`.

    Raises:
        OptionError: naming the option and the choices."""
    if value not in choices:
        raise OptionError(f"{name} must be one of {', '.join(choices)}, not {quote(value)}")
    return str(value)


def check_seed(seed: Any) -> int | None:
    """A random seed: a whole number, or None for an unseeded generator."""
    return None if seed is None else check_whole("seed", seed, None)




def named_parameters(factory: Callable[..., Any]) -> set[str]:
    """The keyword parameters a factory names (whether or not it takes **kwargs too)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return set()
    return {p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


def parameter_defaults(factory: Callable[..., Any]) -> dict[str, Any]:
    """The keyword parameters a factory names, with their defaults (None where
    it has none); {} when its signature cannot be read."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {
        p.name: None if p.default is p.empty else p.default
        for p in parameters
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"
    }


def check_like_defaults(factory: Callable[..., Any], options: dict[str, Any]) -> None:
    """OptionError for an option whose value is not of the kind of its default in
    `factory`'s signature: a finite number where the default is a number (an
    evaluator's weights), true or false where it is a flag.  Other options are
    the factory's to check; the values are passed on as they are."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    for key, value in options.items():
        default = parameters[key].default if key in parameters else None
        if isinstance(default, bool):
            check_flag(key, value)
        elif isinstance(default, int | float):
            check_real(key, value)


def keyword_options(factory: Callable[..., Any]) -> set[str] | None:
    """The keyword options a factory takes; None when it takes any (**kwargs)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return named_parameters(factory)


# --- declared options ----------------------------------------------------------------------

#: How each kind of declared option is checked.
_KINDS: dict[str, Callable[[Option, Any], Any]] = {}


@dataclass(frozen=True, slots=True)
class Option:
    """One option an AI (or any factory) declares: name, kind, range, default, help.

    Kinds: "whole" and "number" (finite, in [low, high]), "seconds" (> 0),
    "flag" (true/false), "choice" (one of `choices`), "text" (a name, never a
    file), "path" (a file the factory reads: the web server refuses it, or
    confines it to the folder its user named).
    A default of None means "not given" and is passed on as None.
    """

    name: str
    kind: str
    default: Any = None
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        """The value, checked; OptionError naming the option otherwise."""
        if value is None and self.default is None:
            return None
        return _KINDS[self.kind](self, value)

    def with_default(self, default: Any) -> Option:
        """The same option with another default."""
        return replace(self, default=default)

    def describe(self) -> str:
        """'depth (whole >= 1)': for help texts and error messages."""
        default = "" if self.default is None else f"={self.default}"
        return f"{self.name}{default}"


def _check_text(option: Option, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise OptionError(f"{option.name} must be a name, not {quote(value)}")
    return value


def _check_path(option: Option, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise OptionError(f"{option.name} must be a file name, not {quote(value)}")
    return value


_KINDS.update(
    whole=lambda o, v: check_whole(o.name, v, o.low, o.high),  # type: ignore[arg-type]
    number=lambda o, v: check_real(o.name, v, o.low, o.high),
    seconds=lambda o, v: check_seconds(o.name, v),
    flag=lambda o, v: check_flag(o.name, v),
    choice=lambda o, v: check_choice(o.name, v, o.choices),
    text=_check_text,
    path=_check_path,
)

#: The options every search AI takes.
DEPTH = Option("depth", "whole", help="search depth in plies", low=1, high=1000)
TIME = Option("time", "seconds", help="seconds per move")
NODES = Option("nodes", "whole", help="nodes per move", low=1)
SEED = Option("seed", "whole", help="seed for random choices and noise")
LIMITS = (DEPTH, TIME, NODES)
TT = Option(
    "tt", "whole", help="most transposition-table entries (it grows up to them; 0: none)",
    low=0, high=1 << 30,
)
LMR = Option("lmr", "flag", False, "late move reductions (NegaScout)")
THREADS = Option(
    "threads", "whole", 1, help="processes searching each move, sharing one table (1: one)",
    low=1, high=MAX_THREADS,
)
ORDER = Option("order", "flag", False, "the game's static move order")


def noise(default: float = 0.0) -> Option:
    """The `noise` option of the search AIs: the scale of a random tie-break
    (>= 0), `default` unless given."""
    return Option("noise", "number", default, "scale of random tie-break noise", low=0)


def check_options(
    declared: tuple[Option, ...], given: dict[str, Any], *, extra: bool = False, what: str = ""
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(checked declared options with defaults filled in, the rest).

    The rest is an error unless `extra` (options a factory passes on, e.g.
    evaluator weights, which are checked where they are used)."""
    names = {option.name for option in declared}
    rest = {k: v for k, v in given.items() if k not in names}
    if rest and not extra:
        known = ", ".join(option.describe() for option in declared) or "none"
        raise OptionError(
            f"unknown option(s) {', '.join(sorted(rest))}{' for ' + what if what else ''} "
            f"(its options: {known})"
        )
    checked = {o.name: o.check(given.get(o.name, o.default)) for o in declared}
    return checked, rest
