"""Warming the kernels: ``shogames warm``, the server's warm-up before it says where it runs."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import shogames
from shogames.core.kernel import compiled_so_far, kernels_enabled
from shogames.kernels.warm import WarmUp, warm_kernels
from shogames.server.app import warm_kernels_in_a_child
from shogames.ui.cli import main

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

READY = re.compile(r"^(?P<game>.+): (loaded from the cache in [\d.]+ s|compiled in [\d.]+ s \(\d+ functions)")


def kernel_game_names() -> list[str]:
    return [cls().name for cls in shogames.available_games() if cls.kernel_module]


def test_warm_command_readies_every_kernel_of_the_registry() -> None:
    result = CliRunner().invoke(main, ["warm"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    matches = [READY.match(line) for line in lines]
    assert all(matches), lines
    assert [m.group("game") for m in matches if m] == kernel_game_names()


def test_a_warm_kernel_loads_without_compiling() -> None:
    warm_kernels()  # compiled (first run) or loaded
    before = compiled_so_far()
    again = warm_kernels()
    assert compiled_so_far() == before
    assert all(result.compiled == 0 and not result.missing for result in again)
    assert all("loaded from the cache" in result.line() for result in again)


def test_a_game_without_a_kernel_says_why() -> None:
    line = WarmUp("Dice race", 0.0, 0, "Dice race has no compiled kernel").line()
    assert line == "Dice race: no compiled kernel (Dice race has no compiled kernel)"


def test_the_server_warms_the_kernels_in_a_child_and_says_so(
    capsys: pytest.CaptureFixture[str], toy_games_path: str
) -> None:
    warm_kernels_in_a_child()  # the child finds the installed toy games too, and warms their kernels
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("shogames: preparing the games' compiled kernels")
    games = [READY.match(line.strip()) for line in lines[1:]]
    assert all(games), lines
    assert [m.group("game") for m in games if m] == kernel_game_names()
