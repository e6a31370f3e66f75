"""The games the package ships: tests run on each by name, so a game that
fails to load fails its tests loudly instead of dropping out of them."""

BUILTIN_GAMES = ("andantino", "squatter", "hadron", "hexifence", "dots")
