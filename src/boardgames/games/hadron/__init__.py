"""Hadron (Mark Steere): balanced-neighbour placement, last player to place wins."""

from .experts import Aenigma, AenigmaParams, Specials, scan_specials
from .rules import BLACK, EMPTY, WHITE, Hadron, HadronState

__all__ = [
    "BLACK", "EMPTY", "WHITE", "Aenigma", "AenigmaParams", "Hadron", "HadronState",
    "Specials", "scan_specials",
]
