"""Commands: (to be written)."""

COMMANDS: list = []
