"""Andantino's AIs: the seed player (seed 000) and the library's default.

Importing the package registers them (`players`).
"""

from . import players  # noqa: F401  (registers the AIs)
