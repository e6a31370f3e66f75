"""The AIs of the edge-capture games (HexiFence and dots-and-boxes).

Importing the package registers them (`players`): the seed's staged player,
the default (`default`: exact play and the chain model) and the
`farrugiulian` sparring partner.
"""

from . import players  # noqa: F401  (registers the AIs)
