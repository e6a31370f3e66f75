"""Checks of AI options from specs ("alphabeta:depth=4,noise=0.5"): each
returns the value or raises OptionError naming the option and the bad value."""

from __future__ import annotations

from typing import Any

from ..game import OptionError


def check_seed(seed: Any) -> int | None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise OptionError(f"seed must be a whole number, not {seed!r}")
    return seed


def check_number(name: str, value: Any) -> float:
    """A number >= 0 (weights, noise, shares)."""
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
        raise OptionError(f"{name} must be a number >= 0, not {value!r}")
    return float(value)


def check_real(name: str, value: Any) -> float:
    """Any number (signed weights)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise OptionError(f"{name} must be a number, not {value!r}")
    return float(value)


def check_flag(name: str, value: Any) -> bool:
    """true/false (the spec parser turns true/yes/on and false/no/off into bools)."""
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be true or false, not {value!r}")
    return value


def check_whole(name: str, value: Any, low: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise OptionError(f"{name} must be a whole number >= {low}, not {value!r}")
    return value


def check_tt(tt: Any, default: int | None = None) -> int | None:
    """A transposition-table size in entries (0 disables it); `default` when not given."""
    if tt is None:
        return default
    if not isinstance(tt, int) or isinstance(tt, bool) or tt < 0:
        raise OptionError(f"tt must be a number of entries >= 0, not {tt!r}")
    return tt
