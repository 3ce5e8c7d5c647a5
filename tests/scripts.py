"""The project's scripts (benchmarks/, tools/) as modules, for the tests that check them: they
are run by path, not installed with the package."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (to the project's root, e.g. ``tools/log_fingerprint.py``)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
