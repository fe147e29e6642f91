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
TOOLS = {"pytest-xdist", "mypy", "ruff"}

# The extras whose libraries the package imports: the database driver and the research adapters.
PACKAGE_EXTRAS = ("postgres", "openspiel", "pettingzoo", "gymnasium")

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
    extras = PROJECT["optional-dependencies"]
    declared |= {_name(r) for extra in PACKAGE_EXTRAS for r in extras.get(extra, [])}
    missing = _imported_distributions(ROOT / "src" / "shogames") - declared
    assert not missing, f"imported by src/shogames but not declared in pyproject.toml: {sorted(missing)}"


def test_every_test_dependency_is_used() -> None:
    used = set()
    for folder in ("tests", "benchmarks", "src"):
        if (ROOT / folder).is_dir():
            used |= _imported_distributions(ROOT / folder)
    unused = {_name(r) for r in PROJECT["optional-dependencies"]["test"]} - used - TOOLS
    assert not unused, f"the test extra installs {sorted(unused)}, which nothing imports"
