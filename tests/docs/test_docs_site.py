"""The documentation site's machinery (mkdocs.yml and docs/hooks/): every page
is in the navigation, every public module has its reference page, the board
pictures are drawn from their blocks, links to repository files are rewritten.
`mkdocs build --strict` itself runs in CI (.ci/run)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SRC = ROOT / "src"
MKDOCS = ROOT / "mkdocs.yml"


def load_hook(name: str) -> ModuleType:
    """A module of docs/hooks/, imported from its file."""
    spec = importlib.util.spec_from_file_location(
        f"docs_hook_{name}", DOCS / "hooks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def nav_pages(text: str) -> list[str]:
    """The pages mkdocs.yml's `nav:` names (the lines up to the next top-level key)."""
    nav = re.search(r"^nav:\n(.*?)^\S", text, flags=re.S | re.M)
    assert nav, "mkdocs.yml has no nav"
    return re.findall(r"([\w./-]+\.(?:md|ipynb))\s*$", nav[1], flags=re.M)


def test_nav_pages_reads_the_nav_only():
    text = (
        "site_name: x\nnav:\n  - Home: index.md\n"
        "  - Part:\n      - a/b.md\n      - N: t.ipynb\nx: c.md\n"
    )
    assert nav_pages(text) == ["index.md", "a/b.md", "t.ipynb"]


def test_every_docs_page_is_in_the_nav():
    pages = nav_pages(MKDOCS.read_text())
    written = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    written |= {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.ipynb")}
    missing = sorted(written - set(pages))
    assert not missing, f"docs pages missing from mkdocs.yml's nav: {missing}"


def test_every_nav_page_exists_or_is_generated():
    reference = load_hook("reference")
    for page in nav_pages(MKDOCS.read_text()):
        assert (DOCS / page).exists() or page == reference.OVERVIEW, page


def test_every_package_directory_is_a_package():
    """A folder of modules without __init__.py is a namespace package, which
    the reference's loader (griffe) cannot document."""
    for folder in (SRC / "boardgames").rglob("*"):
        if folder.is_dir() and any(folder.glob("*.py")):
            assert (folder / "__init__.py").is_file(), folder


def test_every_public_module_has_a_reference_page():
    reference = load_hook("reference")
    names = reference.public_modules()
    imported = set()
    for path in (SRC / "boardgames").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if not any(p.startswith("_") for p in parts):
            imported.add(".".join(parts))
    assert set(names) == imported
    assert {"boardgames", "boardgames.search.alphabeta", "boardgames.games.squatter"} <= imported
    assert "boardgames.__main__" not in names
    uris = [reference.page_uri(n) for n in names]
    assert len(set(uris)) == len(uris)
    assert reference.page_uri("boardgames.search") == "reference/boardgames/search/index.md"
    assert reference.page_uri("boardgames.clock") == "reference/boardgames/clock.md"
    assert (
        reference.module_page("boardgames.clock")
        == "# `boardgames.clock`\n\n::: boardgames.clock\n"
    )
    overview = reference.overview_page(names)
    for name, uri in zip(names, uris, strict=True):
        assert f"[`{name}`]({uri.removeprefix('reference/')})" in overview


def test_the_reference_navigation_nests_packages():
    reference = load_hook("reference")
    names = ["boardgames", "boardgames.clock", "boardgames.search", "boardgames.search.tt"]
    nav = reference.navigation(names)
    assert nav == [
        {
            "boardgames": [
                "reference/boardgames/index.md",
                {"clock": "reference/boardgames/clock.md"},
                {
                    "search": [
                        "reference/boardgames/search/index.md",
                        {"tt": "reference/boardgames/search/tt.md"},
                    ]
                },
            ]
        }
    ]
    config = [{"Home": "index.md"}, {"API reference": reference.OVERVIEW}]
    assert reference._expand(config, names)
    assert config[1] == {"API reference": [reference.OVERVIEW, *nav]}
    assert not reference._expand([{"Home": "index.md"}], names)


def pictures() -> ModuleType:
    pytest.importorskip("yaml")
    pytest.importorskip("mkdocs")
    return load_hook("pictures")


SAMPLE = """Before.

```boardgames-svg
game: squatter
options: size=5
moves: C3 B2 D4
caption: After three moves
```

After.
"""


def test_a_picture_block_becomes_the_librarys_svg():
    from boardgames import get_game

    hook = pictures()
    html = hook.replace_blocks(SAMPLE, "squatter.md")
    game = get_game("squatter", size=5)
    svg = game.render_svg(game.replay("C3 B2 D4"))
    assert "```" not in html and html.startswith("Before.") and html.rstrip().endswith("After.")
    assert '<figure class="boardgames-svg"' in html
    assert "<figcaption>After three moves</figcaption>" in html
    assert " ".join(line.strip() for line in svg.splitlines() if line.strip()) in html
    assert "\n\n" not in html.split("<figure")[1].split("</figure>")[0]


def test_a_picture_from_a_position_text():
    from boardgames import get_game

    hook = pictures()
    game = get_game("squatter", size=5)
    text = game.replay("C3 B2").to_text()
    assert text.count("\n") > 1
    block = "position: |\n" + "".join(f"  {line}\n" for line in text.splitlines())
    html = hook.render_block("game: squatter\n" + block)
    expected = game.render_svg(game.parse_position(text))
    assert " ".join(line.strip() for line in expected.splitlines() if line.strip()) in html
    assert "<figcaption>" not in html and 'aria-label="squatter: a position"' in html
    start = hook.render_block("game: squatter\noptions: size=5")
    assert 'aria-label="squatter: the start position"' in start


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("game: nosuchgame", "unknown game"),
        ("options: size=5", "no 'game:'"),
        ("game: squatter\nmoves: C3\nposition: x", "not both"),
        ("game: squatter\nmove: C3", "unknown key move"),
        ("game: squatter\noptions: size", "expected key=value"),
        ("game: squatter\noptions: colour=5", "colour"),
        ("game: squatter\nmoves: C3 C3", "C3"),
        ("just text", "key: value"),
        ("game: [squatter", "not YAML"),
    ],
)
def test_a_bad_block_fails_the_build_naming_the_page(body, reason):
    hook = pictures()  # skips without the docs extra
    from mkdocs.exceptions import PluginError

    page = f"# Title\n\ntext\n```boardgames-svg\n{body}\n```\n"
    with pytest.raises(PluginError) as caught:
        hook.replace_blocks(page, "games/squatter.md")
    message = str(caught.value)
    assert message.startswith("games/squatter.md, line 4: bad boardgames-svg block")
    assert reason in message


def test_blocks_inside_other_code_blocks_stay_as_written():
    hook = pictures()
    shown = "~~~markdown\n```boardgames-svg\ngame: nosuchgame\n```\n~~~\n"
    assert hook.replace_blocks(shown, "x.md") == shown
    unclosed = "```boardgames-svg\ngame: squatter\n"
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="never closed"):
        hook.replace_blocks(unclosed, "x.md")


def test_links_to_repository_files_leave_the_site():
    hook = load_hook("repo_links")
    page = (
        "See [the example](../examples/connect_four) and [a guide](search.md),\n"
        "[gone](../examples/nothing.py), [tools](../tools/README.md#top).\n"
        "```\n[in code](../examples/connect_four)\n```\n"
    )
    plain = hook.rewrite_links(page, "write-a-game.md", DOCS, None)
    assert plain.startswith(
        "See the example and [a guide](search.md),\n[gone](../examples/nothing.py), tools."
    )
    assert "[in code](../examples/connect_four)" in plain
    linked = hook.rewrite_links(page, "write-a-game.md", DOCS, "https://example.org/u/boardgames/")
    assert (
        "[the example](https://example.org/u/boardgames/tree/HEAD/examples/connect_four)" in linked
    )
    assert (
        hook.outside_target("a/b.md", "../../examples/connect_four", DOCS)
        == "examples/connect_four"
    )
    assert hook.outside_target("b.md", "index.md", DOCS) is None


def test_the_getting_started_scripts_run(capsys):
    text = (DOCS / "getting-started.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "getting-started.md", "exec"), {})
    out = capsys.readouterr().out
    assert "move:" in out and "nodes/s" in out
