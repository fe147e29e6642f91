"""A plain ``pip install shogames`` (numpy and numba only) runs the CLI, the reference and the kernels.

Each check runs in a child Python whose imports are limited to the standard library, shogames and the packages
named (a ``sys.meta_path`` finder refuses every other top-level module, as a fresh venv would), so the web
stack, click, matplotlib and the test tools that this venv holds cannot be used by accident.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from shogames.core.kernel import kernels_enabled

PLAIN = ("numpy", "numba", "llvmlite")
"""What ``pip install shogames`` brings."""

HIDE = """
import importlib.abc
import sys

ALLOWED = set(sys.stdlib_module_names) | {"shogames", "__mp_main__"} | set(sys.argv[1].split(",")) - {""}
PRELOADED = {name.partition(".")[0] for name in sys.modules}
REFUSED = set()


class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in ALLOWED or top in PRELOADED:
            return None
        REFUSED.add(top)
        raise ModuleNotFoundError(f"No module named {name!r} (hidden by the test)", name=name)


sys.meta_path.insert(0, Hide())
"""
"""Installs the finder; the child's first argument names the packages it may import, comma-separated."""

RUN_CLI = """
import contextlib, io, json
from shogames.ui.cli import main

argv = json.loads(sys.argv[2])
stdin = sys.argv[3] if len(sys.argv) > 3 else ""
sys.stdin = io.StringIO(stdin)
code = main(argv)
loaded = {name.partition(".")[0] for name in sys.modules} - ALLOWED - PRELOADED
loaded = {name for name in loaded if "cython" not in name}  # numpy's compiled modules' runtime
print(json.dumps({"code": code, "loaded": sorted(loaded), "refused": sorted(REFUSED)}), file=sys.stderr)
"""


def run_hidden(
    allowed: tuple[str, ...], argv: list[str], stdin: str = "", cwd: Path | None = None
) -> tuple[int, str, dict[str, Any]]:
    """Run ``shogames ARGV`` in a child that may import only ``allowed`` (and the standard library).

    Returns the exit status, standard output and the child's report: the status ``main`` returned, the
    modules loaded beyond the allowed ones (there should be none) and the imports refused.
    """
    script = HIDE + RUN_CLI
    done = subprocess.run(
        [sys.executable, "-c", script, ",".join(allowed), json.dumps(argv), stdin],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )
    assert done.stderr.strip(), f"the child said nothing: status {done.returncode}"
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return done.returncode, done.stdout, report


@pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")
def test_perft_depth_4_with_numpy_and_numba_only() -> None:
    code, out, report = run_hidden(PLAIN, ["perft", "shobu", "--depth", "4"])
    assert (code, report["code"]) == (0, 0), report
    assert out.splitlines()[-1] == "1410935460"
    assert report["loaded"] == []


@pytest.mark.parametrize("allowed", [PLAIN, ()], ids=["numpy-numba", "standard-library-only"])
def test_play_with_numpy_and_numba_only_and_with_neither(allowed: tuple[str, ...], tmp_path: Path) -> None:
    """A person plays a move against the default (easy) level and quits; with no numba, on the reference."""
    record = tmp_path / "game.sgr"
    typed = "moves\nBDa1-a2 WLa1-a2\nquit\n"
    code, out, report = run_hidden(allowed, ["play", "shobu", "--seed", "3", "--record", str(record)], typed)
    assert (code, report["code"]) == (0, 0), (out[-2000:], report)
    assert "232 legal moves:" in out
    assert "White (easy" in out and ") plays" in out
    assert f"Record saved to {record}" in out
    assert "1. BDa1-a2 WLa1-a2" in record.read_text(encoding="utf-8")
    assert report["loaded"] == []


def test_the_reference_runs_where_numpy_and_numba_are_missing() -> None:
    code, out, report = run_hidden((), ["perft", "shobu", "--depth", "2"])
    assert (code, report["code"]) == (0, 0), report
    assert out == "50508\n"
    assert report["loaded"] == []
    assert "numpy" in report["refused"]  # the kernel was asked for, and the reference answered


@pytest.mark.parametrize("allowed", [PLAIN, ()], ids=["numpy-numba", "standard-library-only"])
def test_the_package_and_its_reference_modules_import_nothing_else(allowed: tuple[str, ...]) -> None:
    script = HIDE + textwrap.dedent(
        """
        import shogames, shogames.agents, shogames.arena, shogames.analysis, shogames.bench, shogames.match
        import shogames.records, shogames.conformance, shogames.explore, shogames.ui.cli, shogames.ui.terminal
        for cls in shogames.available_games():
            cls().new_initial_state().legal_moves()
        loaded = {name.partition(".")[0] for name in sys.modules} - ALLOWED - PRELOADED
        print(sorted(name for name in loaded if "cython" not in name))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, ",".join(allowed)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"


def test_serve_without_the_web_extra_says_what_to_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HIDE + RUN_CLI, ",".join(PLAIN), json.dumps(["serve", "--no-warm"])],
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("Error: `shogames serve` needs the web extra"), lines
    assert "pip install 'shogames[web]'" in lines[0]
    assert len(lines) == 2 and "Traceback" not in done.stderr  # the message, then the child's report


def test_the_arena_runs_without_matplotlib_and_says_there_is_no_plot(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    argv = ["arena", "shobu", "--agents", "random", "greedy", "--games", "2", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", HIDE + RUN_CLI, ",".join(PLAIN), json.dumps(argv)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr[-3000:]
    assert "| random | greedy | 2 |" in done.stdout or "| greedy | random | 2 |" in done.stdout
    assert f"Records and tables: {out}/" in done.stdout
    assert "No plot of the ratings: matplotlib is not installed (pip install 'shogames[plot]')" in done.stderr
    assert sorted(path.name for path in out.iterdir()) == [
        "games.txt",
        "played.jsonl",
        "results.json",
        "results.md",
    ]
    assert report["loaded"] == []
