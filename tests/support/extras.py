"""The optional extras in tests: a test module that needs one skips cleanly
where it is not installed, except in CI (the CI variable set), which installs
every extra and so fails loudly if one is missing."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """The module, imported; a skip where it is missing (an error in CI)."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module)
