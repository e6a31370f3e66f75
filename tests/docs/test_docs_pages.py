"""The guides stay guides: short pages without work history, whose examples work.

- No guide page is longer than about 400 lines, and none holds work history
  (issue numbers, "stage N", "before the fix", commit hashes, load
  averages): measured figures live in docs/results/, history in
  CHANGELOG.md.
- Every `python` block of the guides compiles and imports only names the
  library has; the blocks of the pages in RUNS run as written, in order.
- Every `boardgames ...` command line of the guides parses with the CLI's
  own parser (its command, options and values), without running it.
- Every `boardgames-svg` picture names a game, its options and moves or a
  position the library accepts (the site draws it at build time).
"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
from pathlib import Path

import click
import pytest

from boardgames.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RESULTS = DOCS / "results"
#: The guide pages: every page of docs/ but the results section.
GUIDES = sorted(p for p in DOCS.rglob("*.md") if RESULTS not in p.parents)
#: About 400 lines, with a little slack for a table row or two.
MAX_LINES = 420
#: Pages whose python blocks run as written, in order (search.md has its own test).
RUNS = ["evaluators.md", "solving.md", "network.md", "andantino.md", "hexifence.md"]

FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```", flags=re.S | re.M)
HISTORY = {
    "an issue number": re.compile(r"\bissues? #?\d|(?<![\w&/])#\d{1,3}\b", re.I),
    "a work stage": re.compile(r"\b(stage|stop)s? \d", re.I),
    "a fix's history": re.compile(r"\bbefore the (fix|change)\b|\bafter the fix\b", re.I),
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"),
    "a load log": re.compile(r"\bload averages?\b|\bat a load of\b|/proc/loadavg", re.I),
}


def blocks(page: Path, language: str | None = None) -> list[str]:
    return [body for lang, body in FENCE.findall(page.read_text()) if language in (None, lang)]


def work_history(text: str) -> list[str]:
    """The phrases of text that read as work history, with what gave them away
    (searched across line breaks: a phrase may wrap)."""
    flat = " ".join(text.split())
    return [
        f"{what}: ...{flat[max(0, m.start() - 40) : m.end() + 40]}..."
        for what, pattern in HISTORY.items()
        for m in pattern.finditer(flat)
    ]


def test_the_history_check_finds_history():
    text = (
        "Issue #15 asks for 90%.\nMeasured in stage 3, at commit 5c19438f.\n"
        "Before the fix it lost.\nLoad average 3 to 4.\nSee #14.\n"
    )
    assert sorted(found.split(":")[0] for found in work_history(text)) == sorted([
        "an issue number", "a work stage", "a commit hash", "a fix's history", "a load log",
        "an issue number",
    ])
    assert work_history("measured at a load\naverage of 3") != []  # wrapped
    clean = "Heading [link](#section), cells C3 and J10, 25327193 nodes, `ddddddcccccceeeeee`.\n"
    assert work_history(clean) == []


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(DOCS)))
def test_guide_pages_are_short(page):
    assert len(page.read_text().splitlines()) <= MAX_LINES, "split the page or move figures out"


@pytest.mark.parametrize(
    "page", [*GUIDES, ROOT / "README.md"], ids=lambda p: str(p.relative_to(ROOT))
)
def test_guide_pages_hold_no_work_history(page):
    assert work_history(page.read_text()) == []


def test_the_results_section_has_an_index_of_its_pages():
    index = (DOCS / "results.md").read_text()
    for page in RESULTS.glob("*.md"):
        assert f"(results/{page.name})" in index, page.name


# --- python blocks ---------------------------------------------------------------------------


def imported_names(code: str) -> list[tuple[str, str | None]]:
    """(module, name) for each `from module import name`, (module, None) for `import module`."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
    return found


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(DOCS)))
def test_python_blocks_compile_and_import_what_exists(page):
    for code in blocks(page, "python"):
        compile(code, str(page), "exec")
        for module, name in imported_names(code):
            if not module.startswith(("boardgames", "connect_four")):
                continue  # other libraries (an optional extra) are the user's to install
            try:
                imported = importlib.import_module(module)
                found = name is None or hasattr(imported, name)  # may import lazily
            except ModuleNotFoundError as error:  # an optional extra not installed here
                assert error.name and not error.name.startswith("boardgames"), error
                continue
            assert found, f"{module} has no {name}"


@pytest.mark.parametrize("name", RUNS)
def test_python_blocks_run_in_order(name, capsys):
    codes = blocks(DOCS / name, "python")
    assert codes, f"{name} has no python block"
    namespace: dict = {}
    for code in codes:
        exec(compile(code, str(DOCS / name), "exec"), namespace)


# --- command lines ---------------------------------------------------------------------------


def command_lines(page: Path) -> list[str]:
    """Every `boardgames ...` line of the page's shell blocks, continuations joined."""
    found = []
    for lang, body in FENCE.findall(page.read_text()):
        if lang not in ("", "console", "bash", "sh", "shell"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            line = line.removeprefix("$ ").strip()
            if line.startswith("boardgames "):
                found.append(line)
    return found


def parse_command(line: str) -> None:
    """Parse a command line with the CLI's own parser, running nothing."""
    words = shlex.split(line, comments=True)[1:]
    context = click.Context(main, info_name="boardgames")
    command: click.Command = main
    while isinstance(command, click.Group):
        name, sub, words = command.resolve_command(context, words)
        assert sub is not None and name is not None, f"no command {words!r}"
        command, context = sub, sub.make_context(name, words, parent=context)


def test_the_command_check_catches_bad_commands():
    parse_command("boardgames solve hadron --rows 3 --cols 4 --all")
    bad_lines = (
        "boardgames solv hadron",
        "boardgames solve hadron --bogus",
        "boardgames match x --games lots",
    )
    for bad in bad_lines:
        with pytest.raises((AssertionError, click.ClickException)):
            parse_command(bad)


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(DOCS)))
def test_command_lines_parse(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    for line in command_lines(page):
        try:
            parse_command(line)
        except click.ClickException as error:  # but a file the reader makes first
            assert "does not exist" in error.format_message(), f"{line}: {error}"


def test_the_guides_have_commands_to_check():
    assert sum(len(command_lines(page)) for page in GUIDES) >= 60


# --- pictures --------------------------------------------------------------------------------


def picture_fields(body: str) -> dict[str, str]:
    """The `key: value` fields of a boardgames-svg block, read as the site's
    hook reads them (YAML; `|` opens a multi-line value)."""
    yaml = pytest.importorskip("yaml")
    fields = yaml.safe_load(body)
    assert isinstance(fields, dict), f"not a mapping of keys: {body!r}"
    return {str(key): "" if value is None else str(value) for key, value in fields.items()}


def pictures() -> list[tuple[str, str]]:
    return [(page.name, body) for page in GUIDES for body in blocks(page, "boardgames-svg")]


def test_every_game_guide_has_pictures():
    pages = {page for page, _ in pictures()}
    assert {"andantino.md", "hadron.md", "hexifence.md", "squatter.md"} <= pages


@pytest.mark.parametrize("page, body", pictures())
def test_pictures_show_legal_positions(page, body):
    from boardgames.registry import get_game

    fields = picture_fields(body)
    assert set(fields) <= {"game", "options", "moves", "position", "caption"}, fields
    assert ("moves" in fields) != ("position" in fields), "moves or position, not both"
    options = {}
    for item in filter(None, fields.get("options", "").split(",")):
        key, _, value = item.partition("=")
        options[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    game = get_game(fields["game"], **options)
    if "moves" in fields:
        state = game.new_state()
        for move in fields["moves"].split():
            state.play(move)  # NotationError or IllegalMoveError on a bad move
    else:
        state = game.parse_position(fields["position"])
    assert game.render_svg(state).lstrip().startswith("<svg")
