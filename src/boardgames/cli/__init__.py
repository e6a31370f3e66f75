"""The `boardgames` command: a thin click layer over the library.

Each module below owns a few commands and lists them in COMMANDS.
"""

from __future__ import annotations

import click

from . import engine, net, play, tools, tournament, tune, web
from .common import Group

MODULES = (play, tools, engine, tune, net, tournament, web)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardgames-ai")
def main() -> None:
    """Adversarial game search: play, analyse, solve and benchmark board games."""


for _module in MODULES:
    for _command in _module.COMMANDS:
        main.add_command(_command)
