"""The research tools (tools/) and the benchmark scripts start: `--help` works.

Every script in tools/, and the two benchmark helpers that also run as
scripts, is started with `--help` in its own interpreter (all at once, so
the whole check takes a few seconds); each must exit 0, show the question
it answers (its docstring's first line) and name every option it declares
(read from its `add_argument` calls).  tools/README.md lists every tool.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = sorted((ROOT / "tools").glob("*.py"))
#: Benchmark helpers that the benchmark tests import and that also run as scripts.
SCRIPTS = [ROOT / "benchmarks" / "easyai_compare.py", ROOT / "benchmarks" / "reference_negamax.py"]
ALL = TOOLS + SCRIPTS


def declared_options(path: Path) -> list[str]:
    """The names and option strings of every `add_argument` call in `path`."""
    options = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            options += [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
    return options


@cache
def helps() -> dict[Path, subprocess.CompletedProcess[str]]:
    """`python SCRIPT --help` of every script, run side by side."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    running = {
        path: subprocess.Popen(
            [sys.executable, str(path), "--help"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for path in ALL
    }
    done = {}
    for path, process in running.items():
        out, err = process.communicate(timeout=120)
        done[path] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


def test_there_are_tools_and_scripts():
    assert len(TOOLS) >= 10
    assert all(path.exists() for path in SCRIPTS)


@pytest.mark.parametrize("path", ALL, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_help_works_and_names_the_options(path: Path):
    result = helps()[path]
    assert result.returncode == 0, result.stderr
    question = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))).splitlines()[0]
    assert question.rstrip("?.:") in " ".join(result.stdout.split())
    options = declared_options(path)
    assert options, f"{path.name} declares no options"
    missing = [
        option
        for option in options
        if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", result.stdout)
    ]
    assert missing == [], result.stdout
    assert "usage:" in result.stdout


def test_every_tool_asks_a_question():
    for path in TOOLS:
        question = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))).splitlines()[0]
        assert question.endswith("?"), f"{path.name}: {question!r}"


def test_the_readme_lists_every_tool_with_an_example():
    readme = (ROOT / "tools" / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+\.py)` \|", readme, flags=re.MULTILINE))
    assert listed == {path.name for path in TOOLS}
    for path in TOOLS:
        assert f"python tools/{path.name}" in readme, path.name


def test_squatter_replies_scores_the_replies_for_the_side_that_moved():
    """The position after this line is a proven win for Black (the F5 A4 C2 C6
    game against the seed text's seed 001, `seed001:side=10`), so every White
    reply is a win for Black, the side whose move is tested."""
    line = "A2 C4 A3 D3 B3 D5 E4 F5 A4 C2 C6 E2 F4 D1"
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "squatter_replies.py"), "--moves", line,
         "--first", "C3", "--per", "5", "--total", "60", "--stop-on-refutation"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert "C3: win for the tester" in result.stdout
    assert "21 of 21 replies proven won, refuted by none, 0 open" in result.stdout
