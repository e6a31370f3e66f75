"""The docs stand alone: no page, docstring, comment or test message sends the
reader to a document the repository does not hold (the rules, the protocol
and the reference sources are restated in docs/, references.md cites them)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Paths and names of documents kept outside the repository.
OUTSIDE = re.compile(r"shared/|/work/|RULES\.md|DESIGN\.md|ENGINE_PROTOCOL\.md|oracles/|seeds/\d")


def texts() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "tools" / "README.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    for folder in ("src", "tests", "examples", "benchmarks", "tools"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [path for path in files if path != Path(__file__).resolve()]


def test_nothing_cites_a_document_outside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in texts()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_the_references_page_is_in_the_index():
    index = (ROOT / "docs" / "index.md").read_text()
    assert "(references.md)" in index
    for game in ("andantino", "squatter", "hadron", "hexifence"):
        assert "references.md" in (ROOT / "docs" / f"{game}.md").read_text(), game
