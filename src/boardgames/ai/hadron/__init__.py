"""Hadron's AIs: the tournament's Aenigma set-up, the library's default, the solver.

Importing the package registers them (`players`); `endgame` is the default
player's play once the solver has spoken.
"""

from . import players  # noqa: F401  (registers the AIs)
