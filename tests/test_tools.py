"""The research tools (tools/) give the answers they claim."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_squatter_replies_scores_the_replies_for_the_side_that_moved():
    """The position after a Black line of the opening book is a proven win for
    Black (book.py), so every White reply is a win for Black, the side whose
    move is tested."""
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
