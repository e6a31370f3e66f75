"""The code examples of docs/rl-and-openspiel.md run as written, in order."""

from __future__ import annotations

import re
from pathlib import Path

from support.extras import require

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl-and-openspiel.md"
ROOT = DOC.parent.parent


def test_rl_and_openspiel_docs_examples_run(capsys, monkeypatch):
    require("pettingzoo")
    require("gymnasium")
    require("pyspiel")
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 6
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    out = capsys.readouterr().out
    assert "('edges', 'my cells', 'their cells', 'edge places') (5, 5, 4)" in out
    assert "reward" in out and "2401" in out
    curve = namespace["curve"]
    assert curve[-1][1] > curve[0][1]
