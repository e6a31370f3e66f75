"""docs/cli.md says what the commands do: defaults, and what they print."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI_DOC = (ROOT / "docs" / "cli.md").read_text()


def section(title: str) -> str:
    """The text of the docs/cli.md section whose heading starts with `title`."""
    parts = re.split(r"^## ", CLI_DOC, flags=re.M)
    return next(part for part in parts if part.startswith(title))


def option_row(text: str, flag: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| `{flag}"))


def test_web_page_opening_default_is_the_documented_one():
    from boardgames.cli.web import web

    (option,) = [p for p in web.params if p.name == "open_browser"]
    default = "--open" if option.default else "--no-open"
    web_doc = section("`boardgames web`")
    assert f"(default `{default}`" in option_row(web_doc, "--open/--no-open")
    # The examples open the page only where they say --open.
    for line in web_doc.splitlines():
        if line.startswith("$ boardgames web") and "--open" not in line.split("#")[0]:
            assert "opens the page" not in line and "opened" not in line, line


def test_every_option_that_takes_a_player_says_a_program_may_be_one():
    """`--help` is where a user looks first: each option naming a player says
    `program:CMD ARGS` goes there too."""
    import click

    from boardgames.cli import main

    options = {"play": "ai_spec", "match": "ai_spec", "tournament": "players",
               "ladder": "players", "connect": "ai_spec"}  # fmt: skip
    with click.Context(main) as context:
        for name, param in options.items():
            command = main.get_command(context, name)
            assert command is not None, name
            (option,) = [p for p in command.params if p.name == param]
            assert "program:CMD ARGS" in str(getattr(option, "help", "")), (name, param)
