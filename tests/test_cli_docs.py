"""docs/cli.md says what the commands do: defaults, and what they print."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
