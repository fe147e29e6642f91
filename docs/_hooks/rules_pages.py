"""MkDocs hook: each shipped game's rules page (``games/<id>/rules.md`` in its package) as ``rules/<id>.md``.

The rules pages live in the game packages, where the web app serves them; the site shows the same text. A
``diagram`` block of a rules page (a position the web app draws as a board) becomes the position's text and
its caption here.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from mkdocs.structure.files import File, Files

from shogames.core.registry import game_class
from shogames.games import BUILTIN_GAMES

_DIAGRAM = re.compile(r"```diagram\n(.*?)```", re.DOTALL)


def _diagram(match: re.Match[str]) -> str:
    """A diagram block as the position text in a code block, with its caption below."""
    fields = dict(line.split(": ", 1) for line in match[1].strip().splitlines() if ": " in line)
    caption = fields.pop("caption", "")
    shown = "\n".join(f"{key}: {value}" for key, value in fields.items())
    return f"```text\n{shown}\n```\n\n*{caption}*\n" if caption else f"```text\n{shown}\n```\n"


def rules_page(game_id: str) -> str:
    """The rules page of one game, as the site shows it."""
    cls = game_class(game_id)
    text = resources.files(f"shogames.games.{game_id}").joinpath("rules.md").read_text(encoding="utf-8")
    return f"# {cls.name}: the rules\n\n{_DIAGRAM.sub(_diagram, text)}"


def on_files(files: Files, config: Any) -> Files:
    """Add a generated page ``rules/<id>.md`` per shipped game."""
    for game_id in BUILTIN_GAMES:
        files.append(File.generated(config, f"rules/{game_id}.md", content=rules_page(game_id)))
    return files
