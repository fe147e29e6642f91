"""Each game's guide: where it is, and its rules written in a small part of Markdown, made into HTML.

Each game keeps its guide beside its rules module, found through the registry (the folder of the game
class's module), so a game installed from another package brings its own:

``rules.md``
    The rules for players, in a small part of Markdown (:func:`render_guide`): ``#``/``##``/``###``
    headings, paragraphs, ``-`` and ``1.`` lists, ``|`` tables, ``**bold**``, ``*italic*``, ```code```,
    and board diagrams as fenced blocks::

        ```diagram
        position: <the game's position text>
        settings: players=2
        caption: what the diagram shows
        highlight: sq:BD:a1 sq:BD:a3
        ```

    A diagram is the game's own position view (``position_view``), drawn in the page by the same renderer
    as the game page; ``highlight`` names board targets to mark, as the last move is marked.

``lessons.toml``
    The lessons (:mod:`shogames.server.lessons`).
"""

from __future__ import annotations

import html
import importlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shogames.core.errors import ShogamesError
from shogames.core.protocol import Game
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.server.views import views_for


def guide_folder(game_id: str) -> Path | None:
    """The folder of a registered game's rules module, where its ``rules.md`` and ``lessons.toml`` live."""
    try:
        module = importlib.import_module(game_class(game_id).__module__)
    except (ShogamesError, ImportError):
        return None
    if module.__file__ is None:
        return None
    return Path(module.__file__).parent


def guide_file(game_id: str, name: str) -> Path | None:
    """The file ``name`` of a game's guide (``rules.md``, ``lessons.toml``), if the game has it."""
    folder = guide_folder(game_id)
    if folder is None or not (folder / name).is_file():
        return None
    return folder / name


def has_rules(game_id: str) -> bool:
    """Whether a game has a rules page."""
    return guide_file(game_id, "rules.md") is not None


def games_in_order() -> list[type[Game[Any]]]:
    """The registered games in their display order."""
    return sorted(available_games(), key=lambda cls: (cls.display_order, cls.id))


def make_game(game_id: str, settings: str) -> Game[Any]:
    """A game under settings given as ``name=value`` text.

    Raises:
        ShogamesError: an unknown game or a bad setting.
    """
    cls = game_class(game_id)
    values = parse_settings_text(cls.setting_specs, settings) if settings.strip() else {}
    return make(game_id, None, **values)


# --- The Markdown of guides --------------------------------------------------------------------------------


def _html(markup: str) -> str:
    """HTML built here from escaped text (templates show it with ``| safe``)."""
    return markup


_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`")


def _inline(text: str) -> str:
    """Escape a line of text, then turn ``**bold**``, ``*italic*`` and ```code``` into HTML."""

    def replace(match: re.Match[str]) -> str:
        bold, italic, code = match.groups()
        if bold is not None:
            return f"<strong>{html.escape(bold)}</strong>"
        if italic is not None:
            return f"<em>{html.escape(italic)}</em>"
        return f"<code>{html.escape(code)}</code>"

    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(html.escape(text[last : match.start()]))
        out.append(replace(match))
        last = match.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


@dataclass
class Diagram:
    """A board in a guide: a position of the game, drawn by its renderer."""

    game: str
    position: str
    settings: str = ""
    caption: str = ""
    highlight: list[str] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        """What the page draws: the position view, the seat names, the marked targets and the caption.

        Raises:
            ShogamesError: a bad setting or position text (a guide's mistake, found by the tests).
        """
        game = make_game(self.game, self.settings)
        state = game.state_from_text(self.position)
        return {
            "game": self.game,
            "view": views_for(self.game).position_view(state),
            "names": list(game.player_names),
            "highlight": self.highlight,
        }


def _diagram(game_id: str, lines: list[str]) -> Diagram:
    fields: dict[str, str] = {}
    for line in lines:
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return Diagram(
        game_id,
        fields.get("position", ""),
        fields.get("settings", ""),
        fields.get("caption", ""),
        fields.get("highlight", "").split(),
    )


def _table(rows: list[str]) -> str:
    """A Markdown table: the first row is the header; ``|---|`` rows are left out."""
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    cells = [row for row in cells if not all(set(cell) <= set("-: ") for cell in row)]
    head = "".join(f"<th>{_inline(cell)}</th>" for cell in cells[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{_inline(cell)}</td>" for cell in row) + "</tr>" for row in cells[1:]
    )
    return _html(
        f'<div class="table-scroll"><table class="guide-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def render_guide(game_id: str, text: str) -> list[str | Diagram]:
    """A guide's Markdown as blocks: HTML (its text escaped, so safe to put in a page) and diagrams."""
    blocks: list[str | Diagram] = []
    lines = text.splitlines()
    index = 0
    paragraph: list[str] = []
    items: list[str] = []
    ordered = False

    def flush() -> None:
        nonlocal paragraph, items
        if paragraph:
            blocks.append(_html(f"<p>{_inline(' '.join(paragraph))}</p>"))
            paragraph = []
        if items:
            tag = "ol" if ordered else "ul"
            inner = "".join(f"<li>{_inline(item)}</li>" for item in items)
            blocks.append(_html(f"<{tag}>{inner}</{tag}>"))
            items = []

    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        index += 1
        if stripped.startswith("```"):
            flush()
            kind = stripped[3:].strip()
            body: list[str] = []
            while index < len(lines) and not lines[index].strip().startswith("```"):
                body.append(lines[index])
                index += 1
            index += 1
            if kind == "diagram":
                blocks.append(_diagram(game_id, body))
            else:
                blocks.append(_html(f"<pre>{html.escape(chr(10).join(body))}</pre>"))
        elif stripped.startswith("|"):
            flush()
            rows = [stripped]
            while index < len(lines) and lines[index].strip().startswith("|"):
                rows.append(lines[index].strip())
                index += 1
            blocks.append(_table(rows))
        elif not stripped:
            flush()
        elif heading := re.match(r"(#{1,3}) (.*)", stripped):
            flush()
            level = max(2, len(heading.group(1)))  # the page's own title is the only h1
            blocks.append(_html(f"<h{level}>{_inline(heading.group(2))}</h{level}>"))
        elif item := re.match(r"(-|\d+\.) (.*)", stripped):
            if paragraph:
                flush()
            if items and ordered != (item.group(1) != "-"):
                flush()
            ordered = item.group(1) != "-"
            items.append(item.group(2))
        elif items and line.startswith("  "):
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            paragraph.append(stripped)
    flush()
    return blocks


def guide_html(game_id: str, text: str) -> list[dict[str, Any]]:
    """A guide's blocks for a template: ``{"html": escaped HTML}`` or ``{"diagram": view as JSON text}``."""
    out: list[dict[str, Any]] = []
    for block in render_guide(game_id, text):
        if isinstance(block, Diagram):
            out.append({"diagram": json.dumps(block.view()), "caption": block.caption})
        else:
            out.append({"html": block})
    return out
