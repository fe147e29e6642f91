"""A game lives in one place: the registry finds it (shipped, or through an entry point), and the web app
offers it, serves its renderer and shows it with its view, with no list of games anywhere else."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from enum import IntEnum
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import shogames
from shogames.agents.levels import LEVELS, STRONGEST, analysis_spec, level_spec
from shogames.core import CHANCE, registry, sample_chance
from shogames.core.registry import ENTRY_POINT_GROUP, GameLoadError, available_games, game_class
from shogames.games import BUILTIN_GAMES
from shogames.games.shoo import ShooGame
from shogames.server.app import create_app
from toy_games import TOY_ENTRY_POINTS, DiceRaceGame, write_distribution

TESTS = Path(__file__).parent


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as in a new process: nothing loaded yet (restored after the test)."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", False)
    yield


OUTSIDE_GAME = """
    from toy_games import DiceRaceGame

    class OutsideRace(DiceRaceGame):
        '''The dice race as a game of another package.'''

        id = "outside_race"
        name = "Outside race"
"""


def test_an_outside_package_adds_a_game_through_an_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    write_distribution(tmp_path, {"outside_race": "outside_race:OutsideRace"}, {"outside_race": OUTSIDE_GAME})
    monkeypatch.syspath_prepend(str(tmp_path))
    ids = [cls.id for cls in available_games()]
    assert ids == sorted([*BUILTIN_GAMES, *TOY_ENTRY_POINTS, "outside_race"])  # the toys: conftest.py
    state = shogames.make("outside_race", "sprint").new_initial_state()
    assert state.game.name == "Outside race" and len(state.legal_moves()) == 3


@pytest.mark.parametrize(
    ("entry", "modules", "message"),
    [
        ("outside_race:OutsideRace", {"outside_race": OUTSIDE_GAME}, "registered as 'wrong_name'"),
        ("outside_race:Missing", {"outside_race": OUTSIDE_GAME}, "has no attribute 'Missing'"),
        ("no_such_module:Game", {}, "No module named 'no_such_module'"),
        ("not_a_game:Thing", {"not_a_game": "class Thing: ..."}, "is not a game class"),
    ],
)
def test_a_bad_entry_point_is_named(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fresh_registry: None,
    entry: str,
    modules: dict[str, str],
    message: str,
) -> None:
    write_distribution(tmp_path, {"wrong_name": entry}, modules)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameLoadError, match=message):
        available_games()
    with pytest.raises(GameLoadError, match=message):  # not a registry quietly missing the game next time
        shogames.make("shobu")


def test_the_shipped_games_are_found_without_a_list_elsewhere(fresh_registry: None) -> None:
    installed = [entry.name for entry in entry_points(group=ENTRY_POINT_GROUP)]
    assert sorted(installed) == sorted(TOY_ENTRY_POINTS)  # the toy games, installed by conftest.py
    assert [cls.id for cls in available_games()] == sorted([*BUILTIN_GAMES, *installed])
    for game_id, reference in BUILTIN_GAMES.items():
        module, _, name = reference.partition(":")
        assert game_class(game_id).__module__ == module and game_class(game_id).__name__ == name


def test_the_registry_has_no_import_cycle() -> None:
    """Each game imports on its own, and importing shogames loads no game until one is asked for."""
    code = (
        "import sys\n"
        "import shogames\n"
        "assert not [m for m in sys.modules if m.startswith('shogames.games.')], sys.modules\n"
        "from shogames.games.shoo import ShooGame\n"
        "import shogames.games.sho.view, shogames.games.shobu, shogames.games.shogammon.view\n"
        "assert shogames.make('shoo').id == 'shoo'\n"
        "assert 'shogames.server' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- The web app ---------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as test_client:
        yield test_client


def test_the_catalog_comes_from_the_registry(client: TestClient) -> None:
    games = client.get("/api/catalog").json()["games"]
    ids = [game["id"] for game in games]
    assert sorted(ids) == sorted(cls.id for cls in available_games())
    assert ids[:4] == ["shoo", "shobu", "sho", "shogammon"]  # their display order; the toy game after
    by_id: dict[str, dict[str, Any]] = {game["id"]: game for game in games}
    assert by_id["shoo"]["clock"] == {"kind": "per_move", "seconds": 60, "minutes": 0, "increment": 0}
    assert by_id["shobu"]["clock"] is None
    for cls in available_games():
        assert by_id[cls.id]["blurb"] == cls.blurb and cls.blurb


def test_the_catalog_says_what_each_level_is(client: TestClient) -> None:
    """Every game offers every level, weakest first, each with a line on what it is: the kernel's search
    where the game has a kernel, the pure-Python agent (and why) where it has none."""
    by_id = {game["id"]: game for game in client.get("/api/catalog").json()["games"]}
    for cls in available_games():
        levels = by_id[cls.id]["levels"]
        assert [level["name"] for level in levels] == list(LEVELS)
        assert all(level["line"] for level in levels)
    shobu = {level["name"]: level["line"] for level in by_id["shobu"]["levels"]}
    assert shobu["master"].startswith("searches 10,000,000 positions a move")
    toy = {level["name"]: level["line"] for level in by_id[DiceRaceGame.id]["levels"]}
    assert "pure-Python" in toy["hard"] and "no compiled kernel" in toy["hard"]


def test_each_game_renderer_is_served_from_its_package(client: TestClient) -> None:
    for cls in available_games():
        for name, kind in (("renderer.js", "javascript"), ("renderer.css", "text/css")):
            response = client.get(f"/static/games/{cls.id}/{name}")
            assert response.status_code == 200, (cls.id, name)
            assert kind in response.headers["content-type"]
    toy = client.get(f"/static/games/{DiceRaceGame.id}/renderer.js").text
    assert toy == (TESTS / "toy_games" / "static" / "renderer.js").read_text()
    assert client.get("/static/app.css").status_code == 200  # the shared files are still there
    for path in ("chess/renderer.js", "shoo/missing.js", "shoo/..", "shoo/%2e%2e%2fview.py", "shoo/view.py"):
        assert client.get(f"/static/games/{path}").status_code == 404, path


def test_the_toy_game_is_played_through_the_api(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": DiceRaceGame.id, "preset": "sprint", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    tokens = [seat["link"].split("#token=")[1] for seat in created["seats"]]
    assert client.get(f"/game/{created['id']}").status_code == 200
    snap = client.get(f"/api/games/{created['id']}").json()
    while snap["status"] == "active":
        assert snap["position"]["places"] == snap["position"]["places"][:2]
        move = snap["legal"][-1]
        assert move["clicks"][0].startswith(f"cell:{snap['to_move']}:")
        answer = client.post(
            f"/api/games/{created['id']}/moves", json={"move": move["text"], "token": tokens[snap["to_move"]]}
        )
        assert answer.status_code == 200, answer.text
        snap = answer.json()
    assert snap["position"]["terminal"] and snap["result"] in ("1-0", "0-1", "1/2-1/2")


@pytest.mark.parametrize("game_id", [cls.id for cls in available_games()])
def test_move_kinds_are_named(game_id: str) -> None:
    """A move's kind is an IntEnum member, in played, listed and parsed moves, so its repr reads."""
    game = shogames.make(game_id)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        for move in state.legal_moves():
            kind = getattr(move, "kind", None)
            if kind is None:  # Shobu's moves have no kinds: every move is a passive and an aggressive move
                continue
            assert isinstance(kind, IntEnum), move
            assert f"{type(kind).__name__}.{kind.name}" in repr(move)
            if state.to_move != CHANCE:
                parsed = state.parse_move(state.move_to_text(move))
                assert isinstance(getattr(parsed, "kind", None), IntEnum), parsed
        state = state.play(
            sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(state.legal_moves())
        )


def test_agents_levels_come_from_the_game() -> None:
    assert (
        level_spec("hard", "shoo", kernel=False) == ShooGame.reference_levels["hard"] == "alphabeta:depth=2"
    )
    assert level_spec("master", "shoo", kernel=True) == ShooGame.agent_levels["master"]
    assert level_spec("hard", "shobu", kernel=True) == LEVELS["hard"].kernel  # Shobu keeps the default
    assert level_spec("hard", "shobu", kernel=False) == LEVELS["hard"].reference
    assert level_spec("medium", DiceRaceGame.id) == LEVELS["medium"].reference  # no kernel: the reference
    assert level_spec("easy", "no_such_game") == LEVELS["easy"].reference


def test_the_analysis_searches_by_alpha_beta_whatever_the_strongest_level_plays() -> None:
    """The review and the analysis board value every move at one depth: the strongest level's alpha-beta,
    or, where that level plays otherwise (Sho's master plays by rollouts), the default strongest one."""
    assert analysis_spec("shobu", kernel=True) == level_spec(STRONGEST, "shobu", kernel=True)
    assert level_spec(STRONGEST, "sho", kernel=True).startswith("kernel-rollout:")
    assert analysis_spec("sho", kernel=True) == LEVELS[STRONGEST].kernel
    assert analysis_spec("sho", kernel=False) == level_spec(STRONGEST, "sho", kernel=False)


def test_pages_and_agents_name_no_game() -> None:
    """The browser's shared scripts and the agents learn the games from the registry, not from lists."""
    package = Path(shogames.__file__).parent
    files = [*(package / "server" / "static").glob("*.js"), *(package / "agents").glob("*.py")]
    pages = [package / "server" / "templates" / name for name in ("home.html", "game.html", "base.html")]
    assert len(files) > 8
    for path in [*files, *pages]:
        text = path.read_text().lower()
        for game_id in BUILTIN_GAMES:
            quoted = f'"{game_id}"' in text or f"'{game_id}'" in text
            assert not quoted, f"{path.name} names {game_id}"
