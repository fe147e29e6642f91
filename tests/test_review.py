"""The game review (issue "Study in the browser", item 2): a record reviewed in pieces on the study workers,
values on one fixed seat's scale, each mistake's better move, and learning from one's mistakes.

The API tests run on a :class:`TestClient` with a shorter budget a position (``REVIEW_SECONDS``, passed
to the workers with each piece), so they run in seconds; the Chromium test runs the real server
(``test_browser``'s fixtures) at the real budget. Timing (the first piece and the whole review of a
40-ply Shobu game) is measured by ``benchmarks/review.py``, not here.
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

import shogames
from shogames.analysis import BLUNDER, MISTAKE, kernel_analyser, review_moves, value_move
from shogames.core.kernel import KERNELS_ENV
from shogames.core.protocol import CHANCE, Game
from shogames.records import Record, finish_record, start_position_text, start_record, write_record
from shogames.server import review
from shogames.server.app import create_app
from shogames.server.review import FIRST_PIECE, PIECE, review_order, review_pieces
from test_browser import browser, click_move, server  # noqa: F401 (fixtures)

BLACK_WINS = "1b1w/w1w1/3b/b3 1w1w/1b2/2w1/bbwb b1b1/4/bb2/3w wwbb/1b2/2b1/4 b 52"
"""Shobu, Black to move: a forced win in three plies (Black, White, Black), none in one."""
WHITE_WINS = "w3/1b2/1w1b/w3 4/4/w3/3b 4/b1w1/b3/4 w3/1b2/4/2b1 w 229"
"""Shobu, White to move: a forced win in three plies, none in one."""
MISSED_WIN = "wwww/4/4/bbbb wwww/4/4/bbbb wwww/4/4/bbbb 1w2/1b2/4/b1bb b"
"""Shobu, Black to move: BLb3-b4 pushes White's last stone off the fourth board (a win at once)."""
MISSED_WIN_MOVE = "BDa1-a2 WLa1-a2"
"""What Black plays instead in :data:`MISSED_WIN`: a blunder."""


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(review, "REVIEW_SECONDS", 0.05)  # the tests' budget a position (sent to the workers)
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as test_client:
        yield test_client


def forced_win_record(position: str) -> str:
    """The record of the forced win from ``position``: each side plays its best move to depth 3."""
    game = shogames.make("shobu")
    state = game.state_from_text(position)
    searcher = kernel_analyser(game, 3)
    assert searcher is not None
    made = start_record(game, ["a", "b"], position=start_position_text(state))
    while not state.is_terminal():
        move = searcher.search(state, work=0, seconds=0).move
        made.add_move(state.move_to_text(move))
        state = state.play(move)
    finish_record(made, state)
    return write_record(made)


def random_record(game: Game[Any], plies: int, seed: int) -> Record:
    """A record of ``plies`` random moves (dice thrown at random too), unfinished."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = start_record(game, [f"p{seat}" for seat in range(game.num_players)])
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(list(state.legal_moves()))
        made.add_move(state.move_to_text(move))
        state = state.play(move)
    return made


def missed_win_record() -> str:
    game = shogames.make("shobu")
    start = game.state_from_text(MISSED_WIN)
    made = start_record(game, ["a", "b"], position=start_position_text(start))
    made.add_move(MISSED_WIN_MOVE)
    return write_record(made)


def whole_review(client: TestClient, text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every piece of the review of ``text``, asked for in turn, and all their moves in ply order."""
    pieces = []
    first = client.post("/api/review", json={"record": text, "piece": 0})
    assert first.status_code == 200, first.json()
    pieces.append(first.json())
    for piece in range(1, first.json()["pieces"]):
        answer = client.post("/api/review", json={"record": text, "piece": piece})
        assert answer.status_code == 200, answer.json()
        pieces.append(answer.json())
    moves = sorted((move for piece in pieces for move in piece["moves"]), key=lambda move: move["ply"])
    return pieces, moves


# --- The order and the pieces ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5, 8, 13, 38, 40, 101])
def test_the_review_order_covers_every_move_once_and_spreads_the_first_piece(count: int) -> None:
    order = review_order(count)
    assert sorted(order) == list(range(count))
    if count:
        assert order[0] == count - 1, "the last move (the one that decided the game) comes first"
    pieces = review_pieces(count)
    assert len(pieces[0]) == min(count, FIRST_PIECE) and all(len(piece) <= PIECE for piece in pieces)
    assert sorted(index for piece in pieces for index in piece) == list(range(count))
    if count >= 16:  # the first piece spans the game: no stretch of it is left without a point
        first = sorted(pieces[0])
        gaps = [b - a for a, b in zip([-1, *first], [*first, count], strict=True)]
        assert max(gaps) <= count // 2 + 1


# --- Values on one seat's scale -----------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "winner"), [(BLACK_WINS, 0), (WHITE_WINS, 1)])
def test_a_forced_win_rises_to_a_win_for_its_winner_on_seat_0s_scale(
    client: TestClient, position: str, winner: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Values are seat 0's (Black's) whoever moved: Black's forced win climbs to +1, White's falls to -1,
    never flipping sign with the mover (the saw-tooth of the mover's view)."""
    # The search proves the win within some 20,000 positions and stops there; the budget is the time it may
    # take on a loaded machine (at the fixture's 0.05 s a position the proof was cut short under load).
    monkeypatch.setattr(review, "REVIEW_SECONDS", 5.0)
    text = forced_win_record(position)
    pieces, moves = whole_review(client, text)
    assert pieces[0]["scale"] == {"seat": 0, "name": "Black"}
    assert [move["ply"] for move in moves] == [1, 2, 3], "moves are numbered from the record's first"
    assert [move["seat"] for move in moves] == [winner, 1 - winner, winner]
    sign = 1 if winner == 0 else -1
    values = [sign * move["value"] for move in moves]
    assert all(value > 0.99 for value in values), values
    assert values == sorted(values) and values[-1] == pytest.approx(1.0, abs=2e-4), values
    for move in moves:  # the mover's own values are the fixed seat's flipped for seat 1
        mover_sign = 1 if move["seat"] == 0 else -1
        assert move["played_value"] == pytest.approx(mover_sign * move["value"], abs=1e-3)
        assert move["verdict"] == "" and move["loss"] < MISTAKE


def test_a_blunder_names_its_better_move_with_its_targets(client: TestClient) -> None:
    pieces, (move,) = whole_review(client, missed_win_record())
    assert len(pieces) == 1 and pieces[0]["positions"] == 1
    assert pieces[0]["budget"]["kernel"] is True and pieces[0]["budget"]["level"] == "master"
    assert pieces[0]["mistake"] == MISTAKE and pieces[0]["blunder"] == BLUNDER
    assert move["verdict"] == "blunder" and move["best"].endswith("BLb3-b4") and move["best_value"] > 0.99
    assert move["played"] == MISSED_WIN_MOVE and move["value"] == pytest.approx(move["played_value"], abs=0.2)
    targets = move["best_targets"]
    assert "sq:BL:b3" in targets and "sq:BL:b4" in targets, targets


def test_a_review_comes_in_pieces_that_cover_every_seat_move(client: TestClient) -> None:
    game = shogames.make("shogammon")
    made = random_record(game, 40, seed=3)
    text = write_record(made)
    pieces, moves = whole_review(client, text)
    replayed = review.replayed(text)
    seat_moves = [ply for ply in range(1, len(made.moves) + 1) if replayed.states[ply - 1].to_move != CHANCE]
    assert [move["ply"] for move in moves] == seat_moves, "every seat move once, no dice throw"
    assert pieces[0]["positions"] == len(seat_moves) and len(pieces) == pieces[0]["pieces"]
    assert len(pieces[0]["moves"]) == FIRST_PIECE and pieces[0]["moves"][-1]["ply"] == seat_moves[-1]
    for move in moves:
        mover_sign = 1 if move["seat"] == 0 else -1
        assert move["loss"] >= 0 and move["depth"] >= 1
        assert move["verdict"] == (
            "blunder" if move["loss"] >= BLUNDER else "mistake" if move["loss"] >= MISTAKE else ""
        )
        assert -1 <= move["value"] <= 1 and (move["best_targets"] == []) == (move["best"] == move["played"])
        if abs(move["played_value"]) > 0.99:
            assert move["value"] == pytest.approx(mover_sign * move["played_value"], abs=1e-3)
    whole = client.post("/api/analysis", json={"record": text})  # the whole review at once: the same
    assert whole.status_code == 200 and whole.json()["moves"] == moves


def test_a_game_of_three_draws_each_seats_own_values(client: TestClient) -> None:
    made = random_record(shogames.make("sho", players=3), 30, seed=1)
    pieces, moves = whole_review(client, write_record(made))
    assert pieces[0]["scale"] == {"seat": None, "name": None}
    assert {move["seat"] for move in moves} == {0, 1, 2}
    for move in moves:
        if abs(move["played_value"]) > 0.99:
            assert move["value"] == pytest.approx(move["played_value"], abs=1e-3)


def test_without_kernels_the_review_is_the_reference_searchs_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KERNELS_ENV, "0")  # the workers start with it: no game has a kernel
    monkeypatch.setattr(review, "REVIEW_SECONDS", 0.05)
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as client:
        answer = client.post("/api/review", json={"record": missed_win_record(), "piece": 0})
    assert answer.status_code == 200, answer.json()
    budget = answer.json()["budget"]
    assert budget["kernel"] is False and budget["searcher"].startswith("alphabeta")
    (move,) = answer.json()["moves"]
    assert move["verdict"] == "blunder" and move["best"].endswith("BLb3-b4") and move["kernel"] is False


def test_bad_review_requests_are_refused_clearly(client: TestClient) -> None:
    text = missed_win_record()
    refused = {
        "nonsense record": client.post("/api/review", json={"record": "nonsense"}),
        "no such piece": client.post("/api/review", json={"record": text, "piece": 1}),
        "negative piece": client.post("/api/review", json={"record": text, "piece": -1}),
        "too large": client.post("/api/review", json={"record": text + " " * 300_000}),
        "no such move": client.post("/api/review/position", json={"record": text, "ply": 2}),
        "no move at all": client.post("/api/review/try", json={"record": text, "ply": 1, "move": ""}),
    }
    for why, answer in refused.items():
        assert 400 <= answer.status_code < 500, (why, answer.status_code)
        assert answer.json().get("error") or answer.json().get("detail"), why
    assert refused["too large"].status_code == 413
    assert "1 pieces" in refused["no such piece"].json()["error"]
    made = random_record(shogames.make("shogammon"), 3, seed=0)  # its first ply is the dice
    chance = client.post("/api/review/position", json={"record": write_record(made), "ply": 1})
    assert chance.status_code == 400 and "chance" in chance.json()["error"]


# --- Learn from your mistakes ------------------------------------------------------------------------------


def test_learning_accepts_the_better_move_or_one_as_good_and_refuses_worse(client: TestClient) -> None:
    text = missed_win_record()
    position = client.post("/api/review/position", json={"record": text, "ply": 1})
    assert position.status_code == 200, position.json()
    shown = position.json()
    assert shown["played"] == MISSED_WIN_MOVE and shown["to_move"] == 0 and shown["view"]
    legal = {move["text"]: move["clicks"] for move in shown["legal"]}
    (_, (move,)) = whole_review(client, text)
    assert move["best"] in legal and MISSED_WIN_MOVE in legal

    def tried(text_of_move: str) -> dict[str, Any]:
        answer = client.post("/api/review/try", json={"record": text, "ply": 1, "move": text_of_move})
        assert answer.status_code == 200, answer.json()
        result: dict[str, Any] = answer.json()
        return result

    best = tried(move["best"])
    assert best["legal"] and best["right"] and "better move" in best["message"] and best["view"]
    played = tried(MISSED_WIN_MOVE)
    assert played["legal"] and not played["right"] and "move played" in played["message"]
    game = shogames.make("shobu")
    state = game.state_from_text(MISSED_WIN)
    winners = {
        t
        for t in legal
        if (after := state.play(state.parse_move(t))).is_terminal() and after.returns()[0] > 0
    }
    assert move["best"] in winners
    other_win = sorted(winners - {move["best"]})
    if other_win:  # another move that wins at once is as good: right
        assert tried(other_win[0])["right"]
    worse = next(t for t in sorted(legal) if t not in winners and t != MISSED_WIN_MOVE)
    refused = tried(worse)
    assert refused["legal"] and not refused["right"] and "not better" in refused["message"]
    assert refused["value"] == pytest.approx(
        value_move(state, state.parse_move(worse), depth=move["depth"]), abs=1e-3
    )
    illegal = tried("BDa1-a4 WLa1-a4")
    assert not illegal["legal"] and "rules do not allow" in illegal["message"]


def test_a_try_at_a_move_not_reviewed_yet_reviews_its_position_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review, "REVIEW_SECONDS", 0.05)
    text = missed_win_record()
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as client:
        answer = client.post("/api/review/try", json={"record": text, "ply": 1, "move": MISSED_WIN_MOVE})
    assert answer.status_code == 200 and answer.json()["right"] is False
    assert answer.json()["best"].endswith("BLb3-b4")


def test_review_moves_numbers_a_record_from_its_position() -> None:
    """A record from a Position starts at move 1 whatever the position's own ply count says."""
    game = shogames.make("shobu")
    state = game.state_from_text(BLACK_WINS)
    move = state.legal_moves()[0]
    (reviewed,) = review_moves([(state, move)], depth=2, plies=[1])
    assert reviewed.ply == 1 and reviewed.seat == 0 and reviewed.depth <= 2
    (default,) = review_moves([(state, move)], depth=2)
    assert default.ply == state.ply + 1
    with pytest.raises(ValueError, match="ply numbers"):
        review_moves([(state, move)], plies=[1, 2])


# --- In the browser -------------------------------------------------------------------------------------


def test_a_finished_games_review_and_learning_from_its_mistakes(server: str, browser: Browser) -> None:
    """From a finished game's page: the review draws its points, the blunder's better move is marked on
    the board and named in the move list, and learning accepts the better move after refusing the worse
    move that was played."""
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "shobu",
            "mode": "hotseat",
            "position": MISSED_WIN,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
        },
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    played = httpx.post(
        f"{server}/api/games/{created['id']}/moves", json={"move": MISSED_WIN_MOVE, "token": tokens[0]}
    )
    assert played.status_code == 200, played.json()
    httpx.post(f"{server}/api/games/{created['id']}/resign", json={"token": tokens[1]})
    text = httpx.get(f"{server}/api/games/{created['id']}/record").text
    position = httpx.post(f"{server}/api/review/position", json={"record": text, "ply": 1}).json()
    clicks = {move["text"]: move["clicks"] for move in position["legal"]}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/game/{created['id']}#token={','.join(tokens)}")
    expect(page.locator("#learn-link")).to_be_visible()
    page.locator("#learn-link").click()
    # The review draws its point, and learning starts at Black's blunder, move 1.
    expect(page.locator("#graph circle.point.blunder")).to_have_count(1, timeout=30_000)
    expect(page.locator("#graph")).to_contain_text("value for Black")
    expect(page.locator("#learn-task")).to_contain_text("Move 1", timeout=30_000)
    expect(page.locator("#status")).to_contain_text("before move 1")
    expect(page.locator("#board [data-target].selectable").first).to_be_visible()
    click_move(page, clicks[MISSED_WIN_MOVE])  # the move played: refused
    expect(page.locator("#learn-verdict")).to_have_class("verdict wrong", timeout=30_000)
    expect(page.locator("#learn-verdict")).to_contain_text("move played")
    best = httpx.post(f"{server}/api/analysis", json={"record": text}).json()["moves"][0]
    click_move(page, clicks[best["best"]])  # the better move: accepted
    expect(page.locator("#learn-verdict")).to_have_class("verdict right", timeout=30_000)
    expect(page.locator("#learn-verdict")).to_contain_text("better move")
    page.locator("#learn-next").click()
    expect(page.locator("#learn-task")).to_contain_text("last of Black's flagged moves")
    # Out of learning, the position before the blunder shows the better move on the board.
    page.locator("#learn-stop").click()
    expect(page.locator("#analysis-status")).to_contain_text("1 move analysed", timeout=30_000)
    page.locator('#mistakes button[data-ply="1"]').click()
    expect(page.locator("#status")).to_contain_text("After move 0 of 1")
    targets = set(best["best_targets"])
    expect(page.locator("#board [data-target].better")).to_have_count(len(targets))
    expect(page.locator("#board .better-overlay circle.ring")).to_have_count(len(targets))
    expect(page.locator("#better-caption")).to_contain_text(best["best"])
    expect(page.locator("#moves .better-note")).to_contain_text(f"better: {best['best']}")
    assert errors == []
    page.close()
