"""Doctest collection of the package: the adapters whose library is not installed are left out.

``pytest`` imports every module of ``src/`` for its doctests; an adapter (``shogames/adapters/``) imports
its research library, an optional extra, so it is collected only where that library is installed.
"""

from __future__ import annotations

from importlib.util import find_spec

_ADAPTER_LIBRARIES = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo", "gymnasium.py": "gymnasium"}
"""Each adapter module's file and the library it needs."""

collect_ignore = [
    f"shogames/adapters/{module}"
    for module, library in _ADAPTER_LIBRARIES.items()
    if find_spec(library) is None
]
