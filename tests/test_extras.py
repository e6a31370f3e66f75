"""The optional dependencies: `pip install -e '.[test]'` brings everything
the default test run needs, so that no test module is skipped for lack of a
package (the browser tests excepted: they need Chromium, and say so)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def requirements(
    extra: str, extras: dict[str, list[str]], seen: set[str] | None = None
) -> set[str]:
    """The distributions an extra names, self-references ("boardgames-ai[web]") followed."""
    seen = seen if seen is not None else set()
    names: set[str] = set()
    for requirement in extras[extra]:
        name, _, inner = re.match(r"([A-Za-z0-9_.-]+)(\[([^\]]*)\])?", requirement).groups()
        if name == "boardgames-ai":
            for other in inner.split(","):
                if other.strip() not in seen:
                    seen.add(other.strip())
                    names |= requirements(other.strip(), extras, seen)
        else:
            names.add(name.lower())
    return names


def test_the_test_extra_brings_what_the_web_tests_import():
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    needed = {"pytest", "hypothesis", "starlette", "uvicorn", "websockets", "httpx2"}
    assert needed <= requirements("test", extras)


def test_the_rl_and_openspiel_extras_and_ci_installs_them():
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    assert requirements("rl", extras) == {"pettingzoo", "gymnasium"}
    assert requirements("openspiel", extras) == {"open_spiel"}
    ci = (PYPROJECT.parent / ".ci" / "run").read_text()
    installed = re.search(r"pip install -e '\.\[([^\]]*)\]'", ci).group(1).split(",")
    assert {"rl", "openspiel"} <= set(installed)
