"""Dots-and-boxes AIs: the same players and solver as HexiFence (same rules)."""

from __future__ import annotations

from .hexifence import register_for

register_for("dots")
