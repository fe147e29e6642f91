"""Fixes from a new user's tour of the web app that need no browser (issue 17, section 4).

The browser's side of the same fixes is in ``test_browser_play.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import shogames
from shogames.core.protocol import CHANCE
from shogames.games.shobu import BLACK, BOARD_NAMES, ShobuMove, ShobuState, square_name
from shogames.games.shogammon import view as shogammon_view
from shogames.server.app import create_app
from shogames.server.views import last_move_targets, move_note
from shogammon_positions import die_lost_position, roll


def shobu_target(bit: int) -> str:
    """The click target of a Shobu square given as its bit, as the view's docstring writes it."""
    return f"sq:{BOARD_NAMES[bit >> 4]}:{square_name(bit)}"


def _pushing_turns(count: int) -> list[tuple[ShobuState, ShobuMove]]:
    """Turns of random Shobu games that push a stone: off the board, and along it."""
    rng = random.Random(5)
    found: dict[bool, list[tuple[ShobuState, ShobuMove]]] = {True: [], False: []}
    while min(len(found[True]), len(found[False])) < count:
        state = shogames.make("shobu").new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, ShobuState)
            for move in state.legal_moves():
                after = state.play(move)
                assert isinstance(after, ShobuState)
                theirs, left = (
                    (state.white, after.white) if state.side == BLACK else (state.black, after.black)
                )
                if theirs != left:
                    found[theirs.bit_count() > left.bit_count()].append((state, move))
            state = state.play(rng.choice(state.legal_moves()))
    return found[True][:count] + found[False][:count]


def test_shobus_last_move_shows_where_the_aggressive_stone_landed_and_the_pushed_stone() -> None:
    for state, move in _pushing_turns(5):
        targets = last_move_targets(state, move)
        text = state.move_to_text(move)
        after = state.play(move)
        mine_before = state.black if state.side == BLACK else state.white
        mine_after = after.black if state.side == BLACK else after.white
        theirs_before = state.white if state.side == BLACK else state.black
        theirs_after = after.white if state.side == BLACK else after.black
        changed = (mine_before ^ mine_after) | (theirs_before ^ theirs_after)
        every = {shobu_target(bit) for bit in range(64) if changed >> bit & 1}
        assert every <= set(targets), f"{text}: {sorted(every - set(targets))} left out of {targets}"


def test_shogammons_turn_never_reads_past_the_cap() -> None:
    """ "Turn 5 of 4" after Shogammon's length cap."""
    game = shogames.make("shogammon", None, max_turns=4)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state = state.play(rng.choice(state.legal_moves()) if state.to_move != CHANCE else roll(state, rng))
    view = shogammon_view.position_view(state)
    assert view["max_turns"] == 4 and view["turns"] == 4, view["turns"]
    renderer = (Path(shogammon_view.__file__).parent / "static" / "renderer.js").read_text()
    assert "Math.min(view.turns + 1, view.max_turns)" in renderer, "the turn shown stops at the cap"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as test_client:
        yield test_client


def test_a_bad_game_address_shows_a_page_not_json(client: TestClient) -> None:
    answer = client.get("/game/nosuchgame")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "There is no game at this address" in answer.text and 'href="/"' in answer.text
    assert client.get("/api/games/nosuchgame").json()["error"], "the API still answers JSON"


def test_takeback_in_a_hot_seat_game(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": "shobu", "mode": "hotseat", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    black, white = (seat["link"].split("#token=")[1] for seat in created["seats"])
    game = f"/api/games/{created['id']}"
    client.post(f"{game}/moves", json={"move": "BDa1-a3 WLb1-b3", "token": black})
    client.post(f"{game}/moves", json={"move": "WLa4-a3 WDc4-c3", "token": white})
    answer = client.post(f"{game}/takeback", json={"token": white})
    assert answer.status_code == 200, answer.json()
    snap = answer.json()
    assert snap["ply"] == 1 and snap["to_move"] == 1
    online = client.post(
        "/api/games",
        json={"game": "shobu", "mode": "online", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    token = online["seats"][0]["link"].split("#token=")[1]
    client.post(f"/api/games/{online['id']}/moves", json={"move": "BDa1-a3 WLb1-b3", "token": token})
    refused = client.post(f"/api/games/{online['id']}/takeback", json={"token": token})
    assert refused.status_code == 409, "online, the other player has not agreed"


def test_a_lost_die_is_said_in_the_snapshot(client: TestClient) -> None:
    position, move = die_lost_position()
    created = client.post(
        "/api/games",
        json={
            "game": "shogammon",
            "position": position,
            "mode": "hotseat",
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    snap = client.get(f"/api/games/{created['id']}").json()
    token = created["seats"][snap["to_move"]]["link"].split("#token=")[1]
    after = client.post(f"/api/games/{created['id']}/moves", json={"move": move, "token": token}).json()
    played = after["moves"][-2] if after["moves"][-1]["seat"] == -1 else after["moves"][-1]
    assert played["text"] == move
    assert "has no play" in played.get("note", ""), played


def test_a_sho_throw_with_no_legal_move_is_said() -> None:
    game = shogames.make("sho", None, players=3)
    rng = random.Random(4)
    notes: list[tuple[Any, str, Any]] = []
    while not notes:
        state = game.new_initial_state()
        while not state.is_terminal():
            move = roll(state, rng) if state.to_move == CHANCE else rng.choice(state.legal_moves())
            after = state.play(move)
            note = move_note(state, move, after)
            if note is not None:
                notes.append((state, note, after))
            state = after
    before, note, after = notes[0]
    names = game.player_names
    assert note.startswith(names[before.seat])
    assert "no legal move" in note and names[after.seat] in note
