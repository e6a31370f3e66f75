"""Squatter's AIs: the two seed players, the library's default and the solver.

Importing the package registers them (`players`); `default` is the default
player's book, solver and search, `seed001` seed 001's search as the
original program ran it.
"""

from . import players  # noqa: F401  (registers the AIs)
