"""Modules imported at their first use, so that a command imports only what it uses: ``referee
--help`` or ``referee resolve`` does not load the game, the comparison, the sweeps or the reports."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module ``name``, imported at the first use of one of its names
    (:class:`importlib.util.LazyLoader`); the module itself if it is already imported."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)  # as an import does
    spec.loader.exec_module(module)
    return module
