"""Shared test configuration: hypothesis profiles.

``dev`` (the default) explores more examples; ``ci`` (chosen when the ``CI`` environment variable is set)
keeps runs short and never fails a test for being slow on a busy machine. Tests marked ``slow`` run only
with ``--run-slow``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow (long sweeps)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked slow run only with --run-slow (or when chosen with -m slow): they are for benchmarks."""
    if config.getoption("--run-slow") or "slow" in (config.getoption("-m") or "").replace("not slow", ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
