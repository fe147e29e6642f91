"""The release files: ``python -m build`` makes an sdist and a wheel; the wheel installs into a clean venv.

The build runs on a copy of the checkout's files (those git knows, as a fresh clone has them): the sdist
first, then the wheel from the unpacked sdist, so a file the sdist leaves out fails the wheel too. The wheel
then goes into a fresh venv without its dependencies (offline): the command line must run there on the
pure-Python reference, the kernels being unavailable without numba. About 45 s on two busy cores, most of it
the build's own isolated environments and the new venv.
"""

from __future__ import annotations

import email.parser
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
VERSION = PROJECT["version"]

PACKAGE_DATA = [
    "shogames/py.typed",
    "shogames/games/shobu/rules.md",
    "shogames/games/shoo/lessons.toml",
    "shogames/games/shobu/value.npz",
    "shogames/server/templates/game.html",
    "shogames/server/migrations/env.py",
]
"""Files besides the modules that the package needs (rules pages, lessons, templates, migrations)."""


def _copy_checkout(into: Path) -> Path:
    """Copy the files of the checkout that git knows (tracked, or new and not ignored): a fresh clone's."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel, built as ``python -m build`` builds them."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know which files are the project's")
    base = tmp_path_factory.mktemp("release")
    checkout = _copy_checkout(base / "checkout")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(checkout)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return (
        base / "dist" / f"shogames-{VERSION}.tar.gz",
        base / "dist" / f"shogames-{VERSION}-py3-none-any.whl",
    )


def test_the_sdist_holds_the_sources_and_the_package_data(built: tuple[Path, Path]) -> None:
    sdist, _ = built
    assert sdist.name == f"shogames-{VERSION}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    assert {"pyproject.toml", "README.md", "src/shogames/__init__.py", "src/shogames/ui/cli.py"} <= names
    assert {f"src/{name}" for name in PACKAGE_DATA} <= names


def test_the_wheel_holds_the_package_and_asks_for_numpy_and_numba_only(built: tuple[Path, Path]) -> None:
    _, wheel = built
    assert wheel.name == f"shogames-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = email.parser.Parser().parsestr(
            archive.read(f"shogames-{VERSION}.dist-info/METADATA").decode()
        )
        entry_points = archive.read(f"shogames-{VERSION}.dist-info/entry_points.txt").decode()
    assert set(PACKAGE_DATA) <= names
    assert not any(name.startswith("tests/") for name in names)
    requires = metadata.get_all("Requires-Dist") or []
    plain = {
        requirement.split(">")[0].split(";")[0].strip()
        for requirement in requires
        if "extra ==" not in requirement
    }
    assert plain == {"numpy", "numba", "llvmlite"}
    assert {"web", "plot", "postgres", "test"} <= set(metadata.get_all("Provides-Extra") or [])
    assert "shogames = shogames.ui.cli:main" in entry_points


def test_the_wheel_installs_into_a_clean_venv_and_its_command_runs(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    clean = {name: value for name, value in os.environ.items() if not name.startswith("PYTHON")}
    python, command = venv / "bin" / "python", venv / "bin" / "shogames"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input"]
    install = subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        env=clean,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    listed = subprocess.run(
        [*pip, "list", "--format=freeze"], capture_output=True, text=True, check=True, env=clean
    )
    assert {line.partition("==")[0] for line in listed.stdout.split()} - {"pip", "setuptools"} == {"shogames"}

    def shogames(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(command), *args], capture_output=True, text=True, timeout=300, cwd=tmp_path, env={"PATH": ""}
        )

    assert shogames("--version").stdout == f"shogames, version {VERSION}\n"
    perft = shogames("perft", "shobu", "--depth", "2")  # no numba here: the reference counts
    assert (perft.returncode, perft.stdout) == (0, "50508\n"), perft.stderr[-3000:]
    legal = shogames("legal", "shoo")
    assert legal.returncode == 0 and len(legal.stdout.splitlines()) == 22, legal.stderr[-3000:]
    serve = shogames("serve")
    assert serve.returncode == 1 and "pip install 'shogames[web]'" in serve.stderr, serve.stderr[-3000:]
