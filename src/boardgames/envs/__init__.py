"""Every game for reinforcement learning (the `rl` extra: PettingZoo and Gymnasium).

- `env(game, **options)`: a PettingZoo AEC environment of two agents, as
  PettingZoo's classic environments are (`raw_env` without the wrappers);
- `against(game, ai="default", **options)`: a Gymnasium environment of one
  agent playing one side against a library AI.

Both observe the game's planes (`boardgames.planes`) and act by move index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .aec import env, raw_env
    from .single import against

__all__ = ["against", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    """The public names, imported on first use (PettingZoo is imported by `env`)."""
    if name in ("env", "raw_env"):
        from . import aec

        return getattr(aec, name)
    if name == "against":
        from .single import against

        return against
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
