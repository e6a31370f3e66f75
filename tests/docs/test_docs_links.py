"""Every relative link in README.md, tools/README.md and docs/*.md reaches a file,
and its #anchor a heading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "tools" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$", flags=re.M)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of path's headings; a repeated one gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text())):
        base = slug(heading)
        seen[base] = seen.get(base, -1) + 1
    found = set()
    for base, repeats in seen.items():
        found.add(base)
        found.update(f"{base}-{i}" for i in range(1, repeats + 1))
    return found


def links(path: Path) -> list[str]:
    """The relative links of path, outside code blocks."""
    text = FENCE.sub("", path.read_text())
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_slug_follows_github():
    assert slug("Named AIs (`boardgames.ai`)") == "named-ais-boardgamesai"
    assert slug("Playing a game: `play_game`") == "playing-a-game-play_game"
    assert slug("The [ladder](x.md) and N x N") == "the-ladder-and-n-x-n"


def test_repeated_headings_are_numbered(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("# Notes\n\n```\n# not a heading\n```\n## Notes\n## Notes\n")
    assert anchors(doc) == {"notes", "notes-1", "notes-2"}


def broken(doc: Path) -> list[str]:
    """The links of doc that reach no file, or no heading of the file."""
    found = []
    for target in links(doc):
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            found.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            found.append(f"{target}: no such heading")
    return found


def test_the_checker_finds_broken_links(tmp_path):
    (tmp_path / "b.md").write_text("## Part B\n")
    doc = tmp_path / "a.md"
    doc.write_text(
        "# Top\n\n[ok](#top) [bad](#nowhere) [gone](missing.md)\n"
        "[there](b.md#part-b) [not there](b.md#part-c) https://x.org/#y\n"
        "```\n[in code](nothing.md)\n```\n"
    )
    assert broken(doc) == [
        "#nowhere: no such heading",
        "missing.md: no such file",
        "b.md#part-c: no such heading",
    ]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_resolve(doc):
    assert broken(doc) == []


def test_the_docs_have_links_to_check():
    assert len([t for doc in DOCS for t in links(doc)]) >= 50
