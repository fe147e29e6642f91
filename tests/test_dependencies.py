"""The declared dependencies match the imports: nothing imported is undeclared, nothing declared unused."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# Test-extra entries that are run as tools or plugins, never imported by name.
TOOLS = {"pytest-xdist", "mypy", "ruff", "build"}

# Modules named unlike their distribution, for when that distribution is not installed.
MODULE_DISTRIBUTIONS = {"pyspiel": "open_spiel"}


def _name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match is not None, requirement
    return match[0].lower().replace("_", "-")


def _imported_distributions(folder: Path) -> set[str]:
    """The distributions that the files under ``folder`` import (outside the standard library)."""
    owners = packages_distributions()
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.partition(".")[0]
                if top in sys.stdlib_module_names or top == "shogames":
                    continue
                found.update(_name(dist) for dist in owners.get(top, [MODULE_DISTRIBUTIONS.get(top, top)]))
    return found


def test_every_import_of_the_package_is_a_declared_dependency() -> None:
    declared = {_name(requirement) for requirement in PROJECT["dependencies"]}
    for extra, requirements in PROJECT["optional-dependencies"].items():
        if extra != "test":
            declared |= {_name(r) for r in requirements}
    missing = _imported_distributions(ROOT / "src" / "shogames") - declared
    assert not missing, f"imported by src/shogames but not declared in pyproject.toml: {sorted(missing)}"


def test_a_plain_install_brings_numpy_and_numba_only() -> None:
    """Everything else is an extra (tests/test_light_install.py runs the CLI with only these)."""
    assert {_name(requirement) for requirement in PROJECT["dependencies"]} == {"numpy", "numba", "llvmlite"}


def test_the_web_app_and_the_plot_import_what_their_extras_install() -> None:
    extras = PROJECT["optional-dependencies"]
    web = {_name(r) for r in extras["web"]} | {_name(r) for r in extras["postgres"]}
    core = {_name(requirement) for requirement in PROJECT["dependencies"]}
    assert _imported_distributions(ROOT / "src" / "shogames" / "server") - core <= web
    assert {_name(r) for r in extras["plot"]} == {"matplotlib"}


def test_the_test_extra_installs_the_extras_the_tests_use() -> None:
    (itself,) = [r for r in PROJECT["optional-dependencies"]["test"] if _name(r) == "shogames"]
    assert set(itself.partition("[")[2].rstrip("]").split(",")) == {"web", "postgres", "plot"}


def test_every_test_dependency_is_used() -> None:
    used = set()
    for folder in ("tests", "benchmarks", "src"):
        if (ROOT / folder).is_dir():
            used |= _imported_distributions(ROOT / folder)
    unused = {_name(r) for r in PROJECT["optional-dependencies"]["test"]} - used - TOOLS - {"shogames"}
    assert not unused, f"the test extra installs {sorted(unused)}, which nothing imports"
