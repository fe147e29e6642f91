"""The documentation site (MkDocs with mkdocstrings) builds with every warning an error.

It is built from the docs pages, each game's rules page and the docstrings (``mkdocs.yml``); a broken link,
a page left out of the navigation or a docstring the reference cannot read fails the build. Needs the
``docs`` extra (``pip install -e '.[docs]'``, which ``./test.sh`` installs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_the_documentation_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra is not installed: pip install -e '.[docs]'")
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    core = (site / "api" / "core" / "index.html").read_text()
    assert "num_distinct_actions" in core and "observation_tensor" in core  # the docstrings are in
    for game_id in ("shoo", "shobu", "sho", "shogammon"):
        assert (site / "rules" / game_id / "index.html").is_file()
