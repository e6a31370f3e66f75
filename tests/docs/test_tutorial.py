"""examples/tutorial.ipynb runs from top to bottom without an error (the docs
extra brings nbclient and a kernel; without them the test is skipped)."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "tutorial.ipynb"


def test_the_tutorial_notebook_runs():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells), "commit it without outputs"
    client = nbclient.NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = {kind for o in outputs for kind in o.get("data", {})}
    assert {"image/svg+xml", "image/png"} <= kinds  # the board pictures and the plot
    text = "".join(o.get("text", "") for o in outputs)
    assert "12 of 12 games played" in text and "value:" in text
