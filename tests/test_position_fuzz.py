"""Fuzzed position texts, every game: whatever text a reader accepts, it writes back to an equivalent text
and loses no piece; whatever it refuses, it refuses with a NotationError.

Texts are real positions (the start and positions from seeded random play) with random edits: characters
inserted, deleted or replaced by characters of the game's notation, digits, and a few foreign ones.

Every registered game is fuzzed. The piece census (:data:`PIECES`) counts a game's pieces in the text itself,
by the test's own reading of the notation, so it is per-game data: a game not named there is fuzzed without
it (what it accepts must still write back to an equivalent text of the same position). It is kept here,
not taken from the game, because a census the game computed would share the reader's mistakes.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogames import make
from shogames.core.chance import sample_outcome
from shogames.core.errors import NotationError
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import available_games


def _shoo_pieces(text: str) -> Counter[str]:
    board = text.split()[0]
    return Counter(char for char in board if char.isalpha())


def _shobu_pieces(text: str) -> Counter[str]:
    boards = text.split()[:4]
    return Counter(f"{index}{char}" for index, board in enumerate(boards) for char in board if char in "bw")


def _sho_pieces(text: str) -> Counter[str]:
    fields = text.split()
    coins: Counter[str] = Counter()
    for _, side, size in re.findall(r"(\d+)([a-d])(\d+)", fields[0]):
        coins[f"track {side}"] += int(size)
    for name, field in (("hand", fields[1]), ("off", fields[2])):
        for side, count in zip("abcd", field.split("/"), strict=False):
            coins[f"{name} {side}"] += int(count)
    return +coins


def _shogammon_pieces(text: str) -> Counter[str]:
    fields = text.split()
    pieces = Counter(char for char in fields[0] if char.isalpha())
    if fields[2] != "-":
        for count, letter in re.findall(r"(\d*)([A-Za-z])", fields[2]):
            pieces[f"hand {letter}"] += int(count or 1)
    return pieces


PIECES: dict[str, Callable[[str], Counter[str]]] = {
    "shoo": _shoo_pieces,
    "shobu": _shobu_pieces,
    "sho": _sho_pieces,
    "shogammon": _shogammon_pieces,
}
"""Each game's piece census of a position text, where it has one (a game not named here is fuzzed without)."""

GAMES = sorted(cls.id for cls in available_games())


def _seed_texts(game_id: str) -> list[str]:
    """The start, and positions after 10, 40 and 100 plies of two seeded random games."""
    game = make(game_id)
    texts = [game.new_initial_state().to_text(), game.start_position().to_text()]
    for seed in (1, 2):
        rng = random.Random(seed)
        state: State[Any] = game.new_initial_state()
        for ply in range(1, 101):
            if state.is_terminal():
                break
            if state.to_move == CHANCE:
                move = sample_outcome(state.chance_outcomes(), rng)
            else:
                move = rng.choice(list(state.legal_moves()))
            state = state.play_unchecked(move)
            if ply in (10, 40, 100):
                texts.append(state.to_text())
    return sorted(set(texts))


SEEDS = {game_id: _seed_texts(game_id) for game_id in GAMES}


@st.composite
def _mutated(draw: st.DrawFn, game_id: str) -> str:
    text = draw(st.sampled_from(SEEDS[game_id]))
    alphabet = sorted(set("".join(SEEDS[game_id])) | set("0123456789/-,=+[]*: ") | {"x", "²", "\u0663"})
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(text)))
        operation = draw(st.sampled_from(("insert", "delete", "replace")))
        char = draw(st.sampled_from(alphabet))
        if operation == "insert":
            text = text[:index] + char + text[index:]
        elif operation == "delete":
            text = text[:index] + text[index + 1 :]
        else:
            text = text[:index] + char + text[index + 1 :]
    return text


def _check_text(game_id: str, text: str) -> None:
    game = make(game_id)
    try:
        state = game.state_from_text(text)
    except NotationError:
        return
    written = state.to_text()
    again = game.state_from_text(written)
    assert again.to_text() == written, (
        f"{text!r} was written {written!r}, which reads back as {again.to_text()!r}"
    )
    assert again.key() == state.key(), f"{text!r} and its written form {written!r} are different positions"
    census = PIECES.get(game_id)
    if census is not None:
        assert census(written) == census(text), (
            f"reading {text!r} lost or added pieces: it was written {written!r}"
        )


@pytest.mark.parametrize("game_id", GAMES)
def test_seed_texts_are_read_as_written(game_id: str) -> None:
    for text in SEEDS[game_id]:
        assert make(game_id).state_from_text(text).to_text() == text


@pytest.mark.parametrize("game_id", GAMES)
@given(data=st.data())
def test_an_accepted_text_writes_back_equivalent_and_loses_no_piece(
    game_id: str, data: st.DataObject
) -> None:
    _check_text(game_id, data.draw(_mutated(game_id)))


@pytest.mark.parametrize(
    ("game_id", "text"),
    [
        ("shoo", "nnn6sss/nnn6/nnn6/9/9/9/6sss/6sss/6sss s 4/5 0/0 0/0 0"),
        ("shoo", "nnn6/nnn6/nnn6/9/9/9/6sss/6sss/6sss9s s 4/5 0/0 0/0 0"),
        ("shobu", "wwwwb/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb b"),
        ("shogammon", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLP b - 1 - 0"),
    ],
)
def test_pieces_past_the_last_file_are_refused(game_id: str, text: str) -> None:
    with pytest.raises(NotationError):
        make(game_id).state_from_text(text)
