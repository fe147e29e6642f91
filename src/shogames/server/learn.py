"""Learning in the browser: each game's rules page, its lessons, and a hint during play.

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
    The lessons, in order: ``[[lesson]]`` tables with ``id``, ``title``, ``text`` (the same Markdown),
    ``position`` and ``settings`` (a real position the learner moves in), ``task`` (what to do),
    ``goal`` (``"win"``: any move that wins at once; ``"moves"``: one of ``moves``; ``"starts"``: a move
    whose text starts with one of ``moves``), ``success`` (said
    after a right move), ``wrong`` (said after a legal move that misses the point) and optionally
    ``[lesson.tries]``, explanations of particular wrong moves by their text; ``topics`` names the rules
    the lesson teaches. A ``[topics]`` table (topic id = the rule in a line) lists every rule of the
    game's default ruleset; together the lessons cover it (``tests/test_learn.py`` checks).

Routes (an :class:`fastapi.APIRouter` the app includes):

* ``GET /rules``, ``GET /rules/{game}``: the rules pages.
* ``GET /learn``, ``GET /learn/{game}``: the lessons pages.
* ``GET /api/guides``: which games have rules and how many lessons.
* ``GET /api/lessons/{game}``: the lessons with their boards (position view and legal moves' clicks).
* ``POST /api/lessons/{game}/{lesson}/try``: ``{"move": text}``; the engine checks it (``parse_move``):
  an illegal move gets the engine's own reason, a legal one the lesson's verdict and the position after it.
* ``POST /api/games/{id}/hint``: ``{"token"}``: the strongest level's move for the seat to move, in games
  against the computer or on one screen (never online, where it would help one player against another).
* ``POST /api/analysis``: ``{"record": text}``: every seat move of a record analysed as ``shogames
  analyse`` does (:func:`shogames.analysis.analyse_record`), with a smaller budget (:data:`ANALYSIS`), in a
  worker process, one analysis at a time; the record viewer draws it as a graph and flags the mistakes.

The browser knows no rules here either: every verdict comes from the server, which asks the engine.
"""

from __future__ import annotations

import functools
import hashlib
import html
import importlib
import json
import random
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from shogames.agents.base import level_names
from shogames.analysis import BLUNDER, MISTAKE, MoveAnalysis, analyse_moves, kernel_analyser
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.records import Record, parse_record, replay
from shogames.server.engine import Engine
from shogames.server.limits import client_of
from shogames.server.service import GameService, ServiceError, choose_move
from shogames.server.views import last_move_targets, legal_move_views, move_note, views_for
from shogames.server.workers import WorkerTimeoutError

HERE = Path(__file__).parent
HINT_SECONDS = 3.0
"""The most time a hint may think (the strongest level, with this budget where it takes one)."""
HINT_GRACE = 5.0
"""How long past that a hint may run before it is given up (the page is told there is none)."""
HINT_WAIT = 30.0
"""How long a hint may wait for its turn on the engine's study workers (others' work runs first)."""
ANALYSIS: dict[str, Any] = {"depth": 2, "nodes": 5_000, "seconds": 0.1}
"""The analysing search's budget per position in the browser (``shogames analyse`` takes more)."""
ANALYSIS_WITH_KERNEL: dict[str, Any] = {"depth": 8, "nodes": 100_000, "seconds": 0.1}
"""The budget where the game's compiled kernel searches (:func:`shogames.analysis.kernel_analyser`): the
same time, spent on a search some hundred times faster, so it goes deeper."""
ANALYSIS_MAX_PLIES = 400
"""The longest record analysed in the browser (``shogames analyse`` takes any)."""
ANALYSIS_SECONDS = 120.0
"""How long one piece of an analysis may wait for its turn, and then run, before the analysis is stopped
(a 503 that says so)."""
ANALYSIS_PIECE = 16
"""Positions analysed in one engine job: a long record is analysed in pieces, each waiting for its turn
on the study workers, so that other clients' hints and replays run between them (a piece takes about
1.6 s at the browser's 0.1 s a position)."""


# --- Finding a game's guide ------------------------------------------------------------------------------


def guide_folder(game_id: str) -> Path | None:
    """The folder of a registered game's rules module, where its ``rules.md`` and ``lessons.toml`` live."""
    try:
        module = importlib.import_module(game_class(game_id).__module__)
    except (ShogamesError, ImportError):
        return None
    if module.__file__ is None:
        return None
    return Path(module.__file__).parent


def _guide_file(game_id: str, name: str) -> Path | None:
    folder = guide_folder(game_id)
    if folder is None or not (folder / name).is_file():
        return None
    return folder / name


def has_rules(game_id: str) -> bool:
    """Whether a game has a rules page."""
    return _guide_file(game_id, "rules.md") is not None


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


# --- Lessons -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lesson:
    """One lesson: an idea explained, then a move asked for on a real position."""

    id: str
    title: str
    text: str
    position: str
    task: str
    goal: str
    success: str
    wrong: str
    settings: str = ""
    moves: tuple[str, ...] = ()
    tries: dict[str, str] = field(default_factory=dict)
    topics: tuple[str, ...] = ()
    """The rules it teaches: ids of the game's rule topics (:func:`rule_topics`)."""

    def start(self, game_id: str) -> State[Any]:
        """The lesson's position.

        Raises:
            ShogamesError: a bad setting or position text.
        """
        state: State[Any] = make_game(game_id, self.settings).state_from_text(self.position)
        return state

    def is_right(self, before: State[Any], move: Any) -> bool:
        """Whether a legal move does what the lesson asks."""
        if self.goal == "win":
            after = before.play(move)
            mover = before.to_move
            return after.is_terminal() and mover is not None and after.returns()[mover] > 0
        text = before.move_to_text(move)
        if self.goal == "starts":
            return text.startswith(self.moves)
        return text in self.moves


@functools.cache
def _lessons_of(path: Path, mtime: float) -> tuple[Lesson, ...]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Lesson(
            id=entry["id"],
            title=entry["title"],
            text=entry["text"],
            position=entry["position"],
            task=entry["task"],
            goal=entry.get("goal", "moves"),
            success=entry["success"],
            wrong=entry["wrong"],
            settings=entry.get("settings", ""),
            moves=tuple(entry.get("moves", ())),
            tries=dict(entry.get("tries", {})),
            topics=tuple(entry.get("topics", ())),
        )
        for entry in data.get("lesson", [])
    )


@functools.cache
def _topics_of(path: Path, mtime: float) -> dict[str, str]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {str(key): str(value) for key, value in data.get("topics", {}).items()}


def rule_topics(game_id: str) -> dict[str, str]:
    """Every rule of a game's default ruleset: topic id -> the rule in a line.

    They are the ``[topics]`` table of its ``lessons.toml``; empty if the game has no lessons.
    """
    path = _guide_file(game_id, "lessons.toml")
    if path is None:
        return {}
    return _topics_of(path, path.stat().st_mtime)


def lessons_of(game_id: str) -> tuple[Lesson, ...]:
    """A game's lessons in order (none if it has no ``lessons.toml``)."""
    path = _guide_file(game_id, "lessons.toml")
    if path is None:
        return ()
    return _lessons_of(path, path.stat().st_mtime)


def lesson_view(game_id: str, lesson: Lesson) -> dict[str, Any]:
    """A lesson for the page: its text, task, board and the clicks of every legal move."""
    state = lesson.start(game_id)
    game = state.game
    return {
        "id": lesson.id,
        "title": lesson.title,
        "blocks": [
            {"html": block["html"]} if "html" in block else block
            for block in guide_html(game_id, lesson.text)
        ],
        "task": lesson.task,
        "topics": [rule_topics(game_id).get(topic, topic) for topic in lesson.topics],
        "view": views_for(game_id).position_view(state),
        "names": list(game.player_names),
        "to_move": state.to_move,
        "legal": legal_move_views(state),
    }


def try_move(game_id: str, lesson: Lesson, text: str) -> dict[str, Any]:
    """Check a learner's move with the engine: illegal (its reason), legal but not it, or right."""
    state = lesson.start(game_id)
    try:
        move = state.parse_move(text)
    except (ShogamesError, ValueError) as error:
        return {"legal": False, "right": False, "message": f"The rules do not allow that: {plain(error)}"}
    after = state.play(move)
    right = lesson.is_right(state, move)
    played = state.move_to_text(move)
    message = lesson.success if right else lesson.tries.get(played, lesson.wrong)
    return {
        "legal": True,
        "right": right,
        "move": played,
        "message": message,
        "note": move_note(state, move, after),
        "view": views_for(game_id).position_view(after),
        "last": last_move_targets(state, move),
    }


def plain(error: Exception) -> str:
    """The engine's reason, as a sentence: the move's quoted text dropped where it opens the message."""
    text = str(error).strip()
    text = re.sub(r"^'[^']*' (is not legal|is illegal)?:?\s*", "", text)
    text = text[:1].upper() + text[1:] if text else "that move is not allowed here"
    return text if text.endswith((".", "!", "?")) else text + "."


# --- Routes -----------------------------------------------------------------------------------------------


class TryBody(BaseModel):
    """A learner's move in a lesson."""

    move: str = Field(max_length=200)


class RecordBody(BaseModel):
    """A game record to analyse."""

    record: str = Field(max_length=1_000_000)


class HintBody(BaseModel):
    """A request for a hint, with the secret token of the seat to move."""

    token: str | None = Field(default=None, max_length=64)


def guides_catalog() -> dict[str, Any]:
    """Each game with a guide: its name, whether it has a rules page, and its lessons' ids."""
    games = []
    for cls in games_in_order():
        lessons = lessons_of(cls.id)
        if has_rules(cls.id) or lessons:
            games.append(
                {
                    "id": cls.id,
                    "name": cls.name,
                    "blurb": cls.blurb,
                    "rules": has_rules(cls.id),
                    "lessons": [lesson.id for lesson in lessons],
                }
            )
    return {"games": games}


def _settings_rows(game_id: str) -> list[dict[str, Any]]:
    cls = game_class(game_id)
    return [
        {
            "name": spec.name,
            "default": spec.default,
            "description": spec.description,
            "allowed": spec.describe_values(),  # not "values": a template's s.values is the dict's method
        }
        for spec in cls.setting_specs
    ]


def _presets(game_id: str) -> list[dict[str, str]]:
    cls = game_class(game_id)
    return [
        {"name": name, "settings": " ".join(f"{key}={value}" for key, value in values.items()) or "defaults"}
        for name, values in sorted(cls.presets.items())
    ]


def _missing(templates: Jinja2Templates, request: Request, message: str) -> Response:
    return templates.TemplateResponse(
        request, "missing.html", {"status": 404, "message": message}, status_code=404
    )


def learn_router() -> APIRouter:
    """The rules pages, the lessons and hints (the app includes this router)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    router = APIRouter()
    analysed: dict[str, dict[str, Any]] = {}  # the latest analyses, by the record text's SHA-256

    @router.get("/rules", response_class=HTMLResponse)
    async def rules_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "guides.html", {**guides_catalog(), "kind": "rules"})

    @router.get("/rules/{game_id}", response_class=HTMLResponse)
    async def rules_page(request: Request, game_id: str) -> Response:
        path = _guide_file(game_id, "rules.md")
        if path is None:
            return _missing(templates, request, f"no rules page for a game called {game_id!r}")
        cls = game_class(game_id)
        context = {
            "game": game_id,
            "name": cls.name,
            "blocks": guide_html(game_id, path.read_text(encoding="utf-8")),
            "settings": _settings_rows(game_id),
            "presets": _presets(game_id),
            "lessons": len(lessons_of(game_id)),
        }
        return templates.TemplateResponse(request, "rules.html", context)

    @router.get("/learn", response_class=HTMLResponse)
    async def learn_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "guides.html", {**guides_catalog(), "kind": "lessons"})

    @router.get("/learn/{game_id}", response_class=HTMLResponse)
    async def learn_page(request: Request, game_id: str) -> Response:
        if not lessons_of(game_id):
            return _missing(templates, request, f"no lessons for a game called {game_id!r}")
        cls = game_class(game_id)
        context = {"game": game_id, "name": cls.name, "rules": has_rules(game_id)}
        return templates.TemplateResponse(request, "learn.html", context)

    @router.get("/api/guides")
    async def get_guides() -> dict[str, Any]:
        return guides_catalog()

    @router.get("/api/lessons/{game_id}")
    async def get_lessons(game_id: str) -> dict[str, Any]:
        lessons = lessons_of(game_id)
        if not lessons:
            raise ServiceError(404, f"no lessons for a game called {game_id!r}")
        cls = game_class(game_id)
        return {
            "game": {"id": game_id, "name": cls.name},
            "lessons": [lesson_view(game_id, lesson) for lesson in lessons],
        }

    @router.post("/api/lessons/{game_id}/{lesson_id}/try")
    async def post_try(game_id: str, lesson_id: str, body: TryBody) -> dict[str, Any]:
        lesson = next((lesson for lesson in lessons_of(game_id) if lesson.id == lesson_id), None)
        if lesson is None:
            raise ServiceError(404, f"no lesson {lesson_id!r} for a game called {game_id!r}")
        if not body.move.strip():
            raise ServiceError(400, "a try needs 'move': the move in the game's notation")
        return try_move(game_id, lesson, body.move.strip())

    @router.post("/api/games/{game_id}/hint")
    async def post_hint(request: Request, game_id: str, body: HintBody) -> dict[str, Any]:
        service: GameService = request.app.state.service
        live = await service.get(game_id)
        seat = live.seat_of_token(body.token)
        if seat is None:
            raise ServiceError(403, "a hint needs the secret token of a seat of this game")
        if live.mode == "online":
            raise ServiceError(409, "no hints in online games: they would help one player against another")
        state = live.state
        if not live.is_active or state.to_move != seat.seat:
            raise ServiceError(409, f"it is not {seat.name}'s turn: no hint to give")
        level = level_names()[-1]
        budget = {"seconds": f"{HINT_SECONDS:g}"}
        seed = random.SystemRandom().randrange(2**31)
        engine: Engine = request.app.state.engine
        client = client_of(request)
        async with engine.job(client):
            try:
                text = await engine.study_call(
                    client,
                    choose_move,
                    level,
                    seed,
                    live.game.id,
                    state,
                    budget,
                    timeout=HINT_SECONDS + HINT_GRACE,
                    wait=HINT_WAIT,
                )
            except WorkerTimeoutError:
                raise ServiceError(503, "the computer took too long to find a hint; try again") from None
        move = state.parse_move(text)
        clicks = views_for(live.game.id).move_clicks(state, move) if state.to_move != CHANCE else ()
        return {"move": text, "level": level, "clicks": list(clicks), "version": live.version}

    @router.post("/api/analysis")
    async def post_analysis(request: Request, body: RecordBody) -> dict[str, Any]:
        key = hashlib.sha256(body.record.encode("utf-8", "surrogatepass")).hexdigest()
        if key in analysed:
            return analysed[key]
        try:
            record = parse_record(body.record)
        except ShogamesError as error:
            raise ServiceError(400, f"record refused: {error}") from None
        if len(record.moves) > ANALYSIS_MAX_PLIES:
            raise ServiceError(
                400,
                f"the record has {len(record.moves)} plies; the browser analyses at most "
                f"{ANALYSIS_MAX_PLIES} (shogames analyse takes any)",
            )
        engine: Engine = request.app.state.engine
        client = client_of(request)
        async with engine.job(client):
            try:
                names, budget, pairs = await engine.study_call(
                    client, _replay_for_analysis, record, timeout=ANALYSIS_SECONDS, wait=ANALYSIS_SECONDS
                )
                moves: list[MoveAnalysis] = []
                for first in range(0, len(pairs), ANALYSIS_PIECE):  # each piece waits for its turn
                    piece = pairs[first : first + ANALYSIS_PIECE]
                    moves += await engine.study_call(
                        client, _analyse_piece, piece, budget, timeout=ANALYSIS_SECONDS, wait=ANALYSIS_SECONDS
                    )
            except ShogamesError as error:
                raise ServiceError(400, f"record refused: {error}") from None
            except WorkerTimeoutError:
                raise ServiceError(
                    503,
                    f"a piece of the analysis took more than {ANALYSIS_SECONDS:g} seconds; it was stopped",
                ) from None
        answer = {
            "budget": budget,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
            "moves": [
                {
                    "ply": move.ply,
                    "seat": names.index(move.mover),
                    "played": move.played,
                    "played_value": round(move.played_value, 4),
                    "best": move.best,
                    "best_value": round(move.best_value, 4),
                    "loss": round(move.loss, 4),
                    "verdict": move.verdict(),
                }
                for move in moves
            ],
        }
        if len(analysed) >= 32:
            analysed.pop(next(iter(analysed)))
        analysed[key] = answer
        return answer

    return router


def _replay_for_analysis(
    record: Record,
) -> tuple[list[str], dict[str, Any], list[tuple[State[Any], Any]]]:
    """The seats' names, the analysis budget and each position with the move played there (in a worker).

    The game's compiled kernel searches where it has an alpha-beta searcher, with the deeper budget.

    Raises:
        ShogamesError: the record does not replay.
    """
    game_replay = replay(record)
    game = game_replay.game
    budget = ANALYSIS_WITH_KERNEL if kernel_analyser(game, 1) is not None else ANALYSIS
    pairs = list(zip(game_replay.states, game_replay.moves, strict=False))
    return list(game.player_names), {**budget, "kernel": budget is ANALYSIS_WITH_KERNEL}, pairs


def _analyse_piece(pairs: list[tuple[State[Any], Any]], budget: dict[str, Any]) -> list[MoveAnalysis]:
    """The seat moves of one piece of a record analysed with ``budget`` (in a worker process)."""
    return analyse_moves(
        pairs,
        depth=budget["depth"],
        nodes=budget["nodes"],
        seconds=budget["seconds"],
        kernel=budget["kernel"],
    )


__all__ = ["Diagram", "Lesson", "guides_catalog", "learn_router", "lessons_of", "render_guide", "try_move"]
