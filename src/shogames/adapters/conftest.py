"""pytest's doctest collection of the adapters: an adapter whose library is not installed is left out.

``pytest`` imports every module of ``src/`` for its doctests; each adapter imports its research library,
an optional extra, so it is collected only where that library is installed. (Only pytest reads this file.)
"""

from __future__ import annotations

from importlib.util import find_spec

_ADAPTER_LIBRARIES = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo", "gymnasium.py": "gymnasium"}
"""Each adapter module's file and the library it needs."""

collect_ignore = [module for module, library in _ADAPTER_LIBRARIES.items() if find_spec(library) is None]
