"""The game pages in docs/games say what the program does."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from shogames.ui.cli import main

PAGES = sorted((Path(__file__).resolve().parent.parent / "docs" / "games").glob("*.md"))


def _default_opponent() -> str:
    command = main.commands["play"]
    option = next(p for p in command.params if isinstance(p, click.Option) and "--vs" in p.opts)
    return str(option.default)


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_play_examples_name_the_default_opponent(page: Path) -> None:
    default = _default_opponent()
    assert default == "easy"
    for line in page.read_text().splitlines():
        command, _, comment = line.partition("#")
        if not command.strip().startswith("shogames play") or "--vs" in command or "--seat none" in command:
            continue
        assert "random" not in comment, (
            f"{page.name}: {line.strip()!r}: `shogames play` plays the {default} level"
        )
