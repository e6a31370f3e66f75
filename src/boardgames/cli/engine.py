"""Command: engine (the line protocol of boardgames.protocols.engine on stdin/stdout)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..protocols.engine import serve
from .common import Command, game_from_kwargs, game_options, load_plugins


@click.command(cls=Command)
@click.argument("game_name", metavar="[GAME]", required=False)
@game_options
def engine(game_name: str | None, **kwargs: Any) -> None:
    """Speak the engine protocol on stdin/stdout.

    See docs/engine-protocol.md.
    """
    if game_name is None:
        load_plugins(kwargs["plugin"])
        game = None
    else:
        game = game_from_kwargs(game_name, kwargs)
    code = serve(game, sys.stdin, sys.stdout)
    sys.exit(code)


COMMANDS = [engine]
