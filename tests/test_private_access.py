"""No module reaches into a game's private parts: what a game shares, it shares by public names.

Two rules, checked with :mod:`ast` over every module of ``src``, ``tests`` and ``benchmarks``:

1. **Imports.** No module outside a game's package imports a name starting with ``_`` from it, or one of its
   private modules: ``from shogames.games.shoo import _History``, ``from shogames.games.shoo import _jit``,
   ``import shogames.games.shoo._jit`` and ``from shogames.games.shoo._jit import x`` are refused outside
   ``src/shogames/games/shoo/``.
2. **Private attributes.** No module reads a private attribute (``x._name``, or ``getattr(x, "_name")``) that
   a game's classes define, unless it is a module that defines an attribute of that name (the type of
   ``x`` is not known here) or a private module of the same package (``_movegen.py``, part of the rules):
   a game's kernel and view read its states through the position value and public properties.
   ``self._name``, ``cls._name`` and ``super()._name`` are a class's own business and never count, nor
   do named tuples' ``_replace``, ``_asdict``, ``_fields`` and ``_make``. A module-level private name of a
   game read through its module (``shoo._History``) counts outside the game's package, like its import.

A game's package is ``shogames.games.<id>`` for a shipped game, else the package of its class's module
(the toy games of ``tests/toy_games``). The private attributes of a game are those its classes set on
``self`` or declare in their bodies (fields, ``__slots__``, methods), found in the package's source.
"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

import shogames

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("src", "tests", "benchmarks")


NAMED_TUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_field_defaults", "_make"})
"""Named tuples' public methods, named with an underscore so as not to clash with fields."""


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path) -> str:
    """The dotted name a file is imported by: ``src/`` and ``tests/`` are on ``sys.path``."""
    relative = path.relative_to(ROOT)
    parts = list(relative.with_suffix("").parts)
    if parts[0] in ("src", "tests"):
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def source_files() -> list[Path]:
    """Every Python file of ``src``, ``tests`` and ``benchmarks`` (migrations aside: generated)."""
    return sorted(
        path
        for folder in SCANNED
        for path in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in path.parts and "migrations" not in path.parts
    )


def game_packages() -> list[str]:
    """The package of every registered game: ``shogames.games.<id>`` or its class's module's package."""
    packages = set()
    for cls in shogames.available_games():
        module = cls.__module__
        if module.startswith("shogames.games."):
            packages.add(".".join(module.split(".")[:3]))
            continue
        loaded = importlib.import_module(module)
        is_package = loaded.__file__ is not None and Path(loaded.__file__).name == "__init__.py"
        packages.add(module if is_package else module.rpartition(".")[0])
    return sorted(packages)


def inside(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` or one of its modules."""
    return module == package or module.startswith(f"{package}.")


@dataclass(frozen=True)
class Finding:
    """One private access: where, and what was reached."""

    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


@dataclass
class GamePrivates:
    """What a game package keeps private."""

    package: str
    attributes: dict[str, set[str]]
    """A private attribute name its classes define, to the modules that define it."""
    module_names: set[str]
    """The private names its modules define at module level (functions, classes, constants, modules)."""


def _class_privates(tree: ast.Module) -> set[str]:
    """The private attribute names the classes of a module define: on ``self``, in the body, in slots."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _is_private(item.name):
                names.add(item.name)
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(item, ast.Assign):
                targets, value = list(item.targets), item.value
            elif isinstance(item, ast.AnnAssign):
                targets, value = [item.target], item.value
            for target in targets:
                if isinstance(target, ast.Name):
                    if _is_private(target.id):
                        names.add(target.id)
                    if target.id == "__slots__" and isinstance(value, ast.Tuple | ast.List):
                        names.update(
                            element.value
                            for element in value.elts
                            if isinstance(element, ast.Constant)
                            and isinstance(element.value, str)
                            and _is_private(element.value)
                        )
        for inner in ast.walk(node):
            targets = []
            if isinstance(inner, ast.Assign):
                targets = list(inner.targets)
            elif isinstance(inner, ast.AnnAssign | ast.AugAssign):
                targets = [inner.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and _is_private(target.attr)
                ):
                    names.add(target.attr)
    return names


def _module_privates(tree: ast.Module) -> set[str]:
    """The private names a module defines at its top level."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if _is_private(name)}


def game_privates(files: dict[str, ast.Module]) -> list[GamePrivates]:
    """What each registered game's package keeps private, from the parsed ``files`` (module name to tree)."""
    found = []
    for package in game_packages():
        attributes: dict[str, set[str]] = defaultdict(set)
        module_names: set[str] = set()
        for module, tree in files.items():
            if not inside(module, package):
                continue
            for name in _class_privates(tree):
                attributes[name].add(module)
            module_names |= _module_privates(tree)
            last = module.rpartition(".")[2]
            if module != package and _is_private(last):
                module_names.add(last)  # a private module is reached as an attribute of its package
        found.append(GamePrivates(package, dict(attributes), module_names))
    return found


def _receiver_is_own(node: ast.expr) -> bool:
    """``self``, ``cls`` or ``super()``: the class's own attributes."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _may_read(module: str, definers: set[str], package: str) -> bool:
    """Whether ``module`` may read a private attribute that ``definers`` (modules of ``package``) define."""
    return module in definers or (inside(module, package) and _is_private(module.rpartition(".")[2]))


def _module_aliases(tree: ast.Module, modules: set[str]) -> dict[str, str]:
    """The names a module binds to modules of ``modules`` by importing them: name to module."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    aliases[alias.asname] = alias.name
                else:
                    aliases[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _attribute_read(node: ast.AST) -> tuple[str, ast.expr, int] | None:
    """(name, object, line) of a private attribute read: ``x._name``, ``getattr(x, "_name")``, or
    ``setattr``/``hasattr``/``delattr`` of it (``monkeypatch.setattr(x, "_name", ...)`` too)."""
    if isinstance(node, ast.Attribute) and _is_private(node.attr):
        return node.attr, node.value, node.lineno
    if not isinstance(node, ast.Call) or len(node.args) < 2:
        return None
    function = node.func
    named = isinstance(function, ast.Name) and function.id in ("getattr", "hasattr", "setattr", "delattr")
    method = isinstance(function, ast.Attribute) and function.attr in ("setattr", "delattr")
    name = node.args[1]
    text = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""
    return (text, node.args[0], node.lineno) if (named or method) and _is_private(text) else None


def check_module(
    module: str, path: str, tree: ast.Module, games: list[GamePrivates], modules: set[str]
) -> list[Finding]:
    """The private accesses of one module (see the module docstring for the rules).

    Args:
        module: the module's dotted name.
        path: its file, for the findings.
        tree: its source, parsed.
        games: what each game keeps private.
        modules: the dotted names of every module scanned (to know which imported names are modules).
    """
    findings: list[Finding] = []
    outside = [game for game in games if not inside(module, game.package)]
    aliases = _module_aliases(tree, modules)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for game in outside:
                if not inside(node.module, game.package):
                    continue
                tail = node.module[len(game.package) :].split(".")
                if any(_is_private(part) for part in tail if part):
                    findings.append(Finding(path, node.lineno, f"imports from {node.module}"))
                findings.extend(
                    Finding(path, node.lineno, f"imports {alias.name} from {node.module}")
                    for alias in node.names
                    if _is_private(alias.name)
                )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                for game in outside:
                    if inside(alias.name, game.package):
                        tail = alias.name[len(game.package) :].split(".")
                        if any(_is_private(part) for part in tail if part):
                            findings.append(Finding(path, node.lineno, f"imports {alias.name}"))
        read = _attribute_read(node)
        if read is None:
            continue
        name, receiver, line = read
        if _receiver_is_own(receiver) or name in NAMED_TUPLE_API:
            continue
        through = aliases.get(receiver.id) if isinstance(receiver, ast.Name) else None
        if through is not None:  # a module's private name, read through the module
            reached = [
                game.package
                for game in outside
                if inside(through, game.package) and name in game.module_names
            ]
        else:  # which object it is is not known: a module defining an attribute of this name may read it
            defining = [game for game in games if name in game.attributes]
            if any(_may_read(module, game.attributes[name], game.package) for game in defining):
                continue
            own = [game.package for game in defining if inside(module, game.package)]
            reached = own or [game.package for game in defining]
        if reached:
            what = f"reads {name} of {' or '.join(sorted(set(reached)))} ({ast.unparse(receiver)})"
            findings.append(Finding(path, line, what))
    return findings


def scan(files: list[Path]) -> list[Finding]:
    """Every private access in ``files``."""
    trees = {}
    paths = {}
    for path in files:
        module = module_name(path)
        trees[module] = ast.parse(path.read_text(), filename=str(path))
        paths[module] = path.relative_to(ROOT).as_posix()
    games = game_privates(trees)
    return sorted(
        {  # a set: a line that reads one attribute twice is one finding
            finding
            for module, tree in trees.items()
            for finding in check_module(module, paths[module], tree, games, set(trees))
        },
        key=lambda finding: (finding.path, finding.line, finding.what),
    )


def test_no_module_reaches_into_a_games_private_parts() -> None:
    findings = scan(source_files())
    assert not findings, f"{len(findings)} private accesses:\n" + "\n".join(map(str, findings))


# --- The scanner itself: what it flags and what it leaves -----------------------------------------------

GAME = """
class FooState:
    __slots__ = ("_board", "_cache")

    def __init__(self):
        self._board = 1
        self._winner: int | None = None

    def _helper(self):
        return self._board

    def same(self, other):
        return other._board == self._board  # the defining module may read its own classes' fields


def _table():
    return 3
"""


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("from toy_foo import _table", ["imports _table from toy_foo"]),
        ("from toy_foo import _jit as jit", ["imports _jit from toy_foo"]),
        ("import toy_foo._jit", ["imports toy_foo._jit"]),
        ("from toy_foo._jit import play", ["imports from toy_foo._jit"]),
        ("def f(state):\n    return state._board", ["reads _board of toy_foo (state)"]),
        ("def f(state):\n    return getattr(state, '_winner')", ["reads _winner of toy_foo (state)"]),
        ("def f(s):\n    return s.position._cache", ["reads _cache of toy_foo (s.position)"]),
        ("import toy_foo\nx = toy_foo._table()", ["reads _table of toy_foo (toy_foo)"]),
        (
            "import toy_foo as foo\ndef f(mp):\n    mp.setattr(foo, '_table', None)",
            ["reads _table of toy_foo (foo)"],
        ),
        ("def f(table):\n    return table._table", []),  # not the module: a name it defines means nothing
        ("from toy_foo import FooState, square_name", []),
        ("class K:\n    def f(self):\n        return self._board + super()._helper()", []),
        ("def f(point):\n    return point._replace(x=1), point._asdict(), point.__class__", []),
        ("def f(thing):\n    return thing._unrelated", []),
    ],
)
def test_the_scanner_flags_private_reaches_and_nothing_else(source: str, flagged: list[str]) -> None:
    files = {
        "toy_foo": ast.parse(GAME),
        "toy_foo._jit": ast.parse("def play(): ..."),
        "elsewhere": ast.parse(source),
    }
    games = [
        GamePrivates(
            "toy_foo",
            {name: {"toy_foo"} for name in _class_privates(files["toy_foo"])},
            _module_privates(files["toy_foo"]) | {"_jit"},
        )
    ]
    modules = set(files)
    found = check_module("elsewhere", "elsewhere.py", files["elsewhere"], games, modules)
    assert [finding.what for finding in found] == flagged
    assert check_module("toy_foo", "toy_foo/__init__.py", files["toy_foo"], games, modules) == []
    reads_board = ast.parse("def f(s):\n    return s._board")
    kernel = check_module("toy_foo.kernel", "toy_foo/kernel.py", reads_board, games, modules)
    assert [finding.what for finding in kernel] == [
        "reads _board of toy_foo (s)"
    ]  # the kernel is not the rules
    movegen = check_module("toy_foo._movegen", "toy_foo/_movegen.py", reads_board, games, modules)
    assert movegen == []  # a private module of the rules may read them
