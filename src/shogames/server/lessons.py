"""Each game's lessons: an idea explained, then a move asked for on a real position, checked by the engine.

``lessons.toml``, beside the game's ``rules.md`` (:mod:`shogames.server.guides`), holds the lessons in
order: ``[[lesson]]`` tables with ``id``, ``title``, ``text`` (the same Markdown), ``position`` and
``settings`` (a real position the learner moves in), ``task`` (what to do), ``goal`` (``"win"``: any move
that wins at once; ``"moves"``: one of ``moves``; ``"starts"``: a move whose text starts with one of
``moves``), ``success`` (said after a right move), ``wrong`` (said after a legal move that misses the
point) and optionally ``[lesson.tries]``, explanations of particular wrong moves by their text; ``topics``
names the rules the lesson teaches. A ``[topics]`` table (topic id = the rule in a line) lists every rule
of the game's default ruleset; together the lessons cover it (``tests/test_learn.py`` checks).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shogames.core.errors import ShogamesError
from shogames.core.protocol import State
from shogames.server.guides import guide_file, guide_html, make_game
from shogames.server.views import last_move_targets, legal_move_views, move_note, views_for


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
    path = guide_file(game_id, "lessons.toml")
    if path is None:
        return {}
    return _topics_of(path, path.stat().st_mtime)


def lessons_of(game_id: str) -> tuple[Lesson, ...]:
    """A game's lessons in order (none if it has no ``lessons.toml``)."""
    path = guide_file(game_id, "lessons.toml")
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
        "position_text": state.to_text(),  # with the settings, for the analysis board's link
        "settings": lesson.settings,
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
