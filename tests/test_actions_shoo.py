"""Shoo's action ids and observation planes (``docs/games/shoo.md``, "Actions and observations").

The shared check (``tests/test_actions.py``) plays random games of every preset; these tests pin the
layout down with hand positions, check that the ids are the same from either side of the table, and
reach the bounds the action space is sized by (a test fails if a legal move falls outside it).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from shogames.core.errors import IllegalMoveError
from shogames.core.protocol import CHANCE
from shogames.core.registry import make
from shogames.games import shoo
from shogames.games.shoo import (
    ARRIVAL_PAIRS,
    ARRIVAL_VARIANTS,
    CAPTURE,
    HUSH_ACTION,
    NUM_ACTIONS,
    OBSERVATION_PLANES,
    SHOO_CODES,
    SHOOED_OFF,
    HushContext,
    ShooGame,
    ShooMove,
    ShooPosition,
    ShooState,
)

CELLS = 81


def _parts(action: int) -> tuple[int, int, int, int]:
    """An arrival id as (view end square, view direction, variant, shoo code)."""
    rest, shoo_code = divmod(action, SHOO_CODES)
    pair, variant = divmod(rest, ARRIVAL_VARIANTS)
    end, direction = ARRIVAL_PAIRS[pair]
    return end, direction, variant, shoo_code


def _check_all(state: ShooState) -> list[int]:
    """Every legal move's id is in range, distinct, and reads back as the move; the ids, ascending."""
    ids: dict[int, ShooMove] = {}
    for move in state.legal_moves():
        action = state.move_to_action(move)
        assert 0 <= action < state.game.num_distinct_actions, state.move_to_text(move)
        assert action not in ids, (state.to_text(), state.move_to_text(move), ids.get(action))
        ids[action] = move
        assert state.action_to_move(action) == move
    assert state.legal_actions() == sorted(ids)
    return sorted(ids)


def test_the_space_has_the_size_the_rules_give_for_every_preset() -> None:
    arrivals = 544 * 12 * 9  # (end, direction) pairs with a square behind x variants x shoo codes
    blocks = 81 * 9 + 3 * 81 + 81 * 9 + 5  # returns, call-ups/holds/retirements, drops, singles
    assert len(ARRIVAL_PAIRS) == 544
    assert NUM_ACTIONS == arrivals + blocks == 60_458
    for preset in [None, *ShooGame.presets]:
        game = make("shoo", preset)
        assert game.num_distinct_actions == NUM_ACTIONS
        assert game.max_chance_outcomes == 2
        assert game.observation_shape == (26, 9, 9) and len(game.observation_planes) == 26
    assert make("shoo", first_player="white").max_chance_outcomes == 0


def test_max_game_length_follows_the_cap_and_the_hush_setting() -> None:
    assert make("shoo").max_game_length == 2 + 1000 * (1 + 2 * 73)
    assert make("shoo", "hush-lose-move").max_game_length == 2 + 1000 * 2
    assert make("shoo", "hush-shoo-off", max_turns=10).max_game_length == 2 + 10 * 2
    assert make("shoo", "towers").max_game_length == 2 + 1000
    assert make("shoo", hush="automatic", first_player="blue", max_turns=50).max_game_length == 50


def test_known_ids_in_the_start_position() -> None:
    state = make("shoo").start_position()
    assert state.move_to_action(state.parse_move("g3-f4")) == 23_436
    assert _parts(23_436) == (32, 7, 0, 0)  # f4, arrived from the lower right (view direction 7 = up-left)
    assert state.move_to_action(state.parse_move("g3-g4")) == 23_544
    assert state.move_to_action(state.parse_move("H*f4")) == shoo.CALL_BASE + 32 == 59_513
    assert len(_check_all(state)) == 22


def test_north_sees_its_moves_as_south_sees_the_mirrored_ones() -> None:
    game = make("shoo")
    north = game.state_from_text("9/9/9/4n1s2/9/3s1s3/9/9/9 n 0/0 0/0 0/0 0")
    step = north.parse_move("e6-e5")
    # North's e6-e5 is seen as e4-e5 (view squares 31 -> 40, direction 0 = up).
    assert north.move_to_action(step) == 28_944 and _parts(28_944) == (40, 0, 0, 0)
    south = game.state_from_text("9/9/9/3s1s3/9/2n1s4/9/9/9 s 0/0 0/0 0/0 0")
    assert south.move_to_action(south.parse_move("e4-e5")) == 28_944
    hushable = north.play(step)
    assert hushable.move_to_action(hushable.parse_move("HUSH")) == HUSH_ACTION
    plain = hushable.move_to_action(hushable.parse_move("g6-f5"))
    declared = hushable.move_to_action(hushable.parse_move("g6-f5 shoo e5"))
    assert declared - plain == 6  # shoo code 6: e5 is the 6th neighbour of f5 after skipping g6 behind it
    assert hushable.action_to_move(declared) == hushable.parse_move("g6-f5 shoo e5")


def test_a_capture_reaches_the_largest_variant() -> None:
    # Three capturers and four empty places around the rider on e5 (e6, ahead of the ride, is neither).
    state = make("shoo").state_from_text("9/9/9/9/4N4/3sss3/9/9/9 s 0/0 0/0 0/0 0")
    ids = _check_all(state)
    widest = state.move_to_action(state.parse_move("d4xe5@d6-e9"))
    assert widest in ids and _parts(widest)[2] == ARRIVAL_VARIANTS - 1
    assert _parts(state.move_to_action(state.parse_move("f4xe5@f6-e9")))[2] == 0
    capture_variants = {_parts(a)[2] for a in ids if state.action_to_move(a).kind == CAPTURE}
    assert capture_variants == set(range(ARRIVAL_VARIANTS))


def test_seven_travellers_can_mount_one_horse() -> None:
    state = make("shoo").state_from_text("9/9/9/3s1s3/3shs3/3sss3/9/9/9 s 0/0 0/0 0/0 0")
    _check_all(state)
    riders = {_parts(state.move_to_action(state.parse_move(f"{sq}>e5-e9")))[2] for sq in ("d6", "f6", "f4")}
    assert max(riders) == 7 and len(riders) == 3


def test_a_placed_rider_far_from_the_end_is_shooed_with_the_last_code() -> None:
    # South d4 takes the rider on e5, puts it on d5 (touched by c4 and d4... and c6) and rides to e9.
    game = make("shoo")
    state = game.state_from_text("9/9/9/2s6/4N4/2ss5/9/9/9 s 0/0 0/0 0/0 0")
    declared = [m for m in state.legal_moves() if m.kind == CAPTURE and m.shoo >= 0 and m.shoo == m.place]
    assert declared
    far = [m for m in declared if abs(m.to % 9 - m.place % 9) > 1 or abs(m.to // 9 - m.place // 9) > 1]
    assert far and all(_parts(state.move_to_action(m))[3] == SHOO_CODES - 1 for m in far)
    _check_all(state)


def test_towers_drops_name_the_traveller_by_its_place_among_the_movers_walkers() -> None:
    # North's e5 is touched by d4 and f4 and has no empty square to escape to: it is dropped.
    game = make("shoo", "towers")
    state = game.state_from_text("9/9/9/3nnn3/3nnn3/3sss3/9/9/9 n 0/0 0/0 0/0 0")
    drops = [m for m in state.legal_moves() if m.kind == SHOOED_OFF]
    assert drops
    ids = _check_all(state)
    assert all(shoo.DROP_BASE <= state.move_to_action(m) < shoo.SHOOED_OFF_ACTION for m in drops)
    assert len(ids) == len(state.legal_moves())


def test_ids_that_name_no_legal_move_are_refused() -> None:
    state = make("shoo").start_position()
    legal = set(state.legal_actions())
    for action in (-1, NUM_ACTIONS, 10**9, HUSH_ACTION, shoo.PASS_ACTION, 23_436 + 1, True, 2.0, "7", None):
        if action not in legal or isinstance(action, bool):
            with pytest.raises(IllegalMoveError):
                state.action_to_move(action)
    with pytest.raises(ValueError, match="no action id"):
        state.move_to_action(ShooMove(shoo.STEP, 0, to=11))  # a1 to c2: no line
    toss = make("shoo").new_initial_state()
    assert toss.to_move == CHANCE and toss.legal_actions() == [0, 1]
    assert toss.action_to_move(1) == ShooMove(shoo.TOSS, to=1)
    choice = toss.play_action(1)
    assert choice.legal_actions() == [shoo.FIRST_ACTION, shoo.FIRST_ACTION + 1]
    with pytest.raises(IllegalMoveError):
        choice.action_to_move(0)


def _mirror_mask(mask: int) -> int:
    return sum(1 << (80 - square) for square in range(81) if mask >> square & 1)


def _mirror_square(square: int) -> int:
    return 80 - square if square >= 0 else -1


def _mirror_move(move: ShooMove) -> ShooMove:
    return move._replace(
        origin=_mirror_square(move.origin),
        via=_mirror_square(move.via),
        place=_mirror_square(move.place),
        to=_mirror_square(move.to),
        shoo=_mirror_square(move.shoo),
    )


def _mirrored(state: ShooState) -> ShooState:
    """The position turned half a turn with the sides swapped, the same seat to move."""
    position = state.position
    hush = position.hush
    if hush is not None:
        hush = HushContext(
            _mirror_move(hush.move),
            _mirror_square(hush.held_before),
            hush.passes_before,
            frozenset(_mirror_move(m) for m in hush.barred),
        )
    mirrored = dataclasses.replace(
        position,
        travellers=(_mirror_mask(position.travellers[1]), _mirror_mask(position.travellers[0])),
        mounted=_mirror_mask(position.mounted),
        horses=_mirror_mask(position.horses),
        held=_mirror_square(position.held),
        stable_horses=position.stable_horses[::-1],
        stable_travellers=position.stable_travellers[::-1],
        pasture=position.pasture[::-1],
        side=position.side ^ 1,
        south=position.south ^ 1,
        shoo=_mirror_square(position.shoo),
        hush=hush,
        barred=frozenset(_mirror_move(m) for m in position.barred),
    )
    assert isinstance(mirrored, ShooPosition)
    return state.game.state_from_position(mirrored)


@pytest.mark.parametrize("preset", ["designers", "towers", "leave-home"])
def test_the_ids_and_the_observation_are_the_movers_view(preset: str) -> None:
    game = make("shoo", preset, max_turns=120)
    rng = random.Random(preset)
    compared = 0
    for _ in range(2):
        state = game.start_position()
        while not state.is_terminal():
            if state.ply % 7 == 0:
                mirror = _mirrored(state)
                assert mirror.to_move == state.to_move
                assert mirror.legal_actions() == state.legal_actions(), state.to_text()
                for seat in (0, 1):
                    mine, theirs = state.observation_tensor(seat), mirror.observation_tensor(seat)
                    south = OBSERVATION_PLANES.index("observer plays South")
                    repeats = OBSERVATION_PLANES.index("repetitions of this position / 2")
                    for plane in range(len(OBSERVATION_PLANES)):
                        if plane in (south, repeats):
                            continue
                        cut = slice(plane * CELLS, (plane + 1) * CELLS)
                        assert mine[cut] == theirs[cut], (OBSERVATION_PLANES[plane], state.to_text())
                compared += 1
            state = state.play_unchecked(rng.choice(state.legal_moves()))
    assert compared > 10


def _plane(tensor: list[float], name: str) -> list[float]:
    index = OBSERVATION_PLANES.index(name)
    return tensor[index * CELLS : (index + 1) * CELLS]


def test_the_observation_planes_in_the_start_position() -> None:
    state = make("shoo", first_player="white").start_position()  # White is South and moves first
    start = [square for square in range(81) if square % 9 >= 6 and square // 9 <= 2]  # g1-i3
    home = [square for square in range(81) if square % 9 <= 2 and square // 9 >= 6]  # a7-c9
    for seat in (0, 1):
        tensor = state.observation_tensor(seat)
        assert [s for s, v in enumerate(_plane(tensor, "own travellers on foot")) if v] == start
        assert [s for s, v in enumerate(_plane(tensor, "opponent travellers on foot")) if v] == home
        assert [s for s, v in enumerate(_plane(tensor, "own home area")) if v] == home
        assert set(_plane(tensor, "observer to move")) == {1.0 if seat == 1 else 0.0}
        assert set(_plane(tensor, "observer plays South")) == {1.0 if seat == 1 else 0.0}
        own_horses = 4 if seat == 1 else 5  # South's stable holds 4 horses after the opening, North's 5
        assert set(_plane(tensor, "own stable horses / 9")) == {own_horses / 9}
    with pytest.raises(ValueError):
        state.observation_tensor(2)


def test_the_observation_shows_holds_shoos_hushes_and_repetitions() -> None:
    game = make("shoo")
    state = game.state_from_text("9/9/9/4n4/9/3s1s3/9/9/9 s 1/0 0/0 0/0 0")
    held = state.play(state.parse_move("H*c5"))  # South holds the horse on c5 during North's turn
    c5 = 2 + 9 * 4
    assert _plane(held.observation_tensor(0), "horse held by the observer")[c5] == 1.0
    assert _plane(held.observation_tensor(1), "horse held by the opponent")[80 - c5] == 1.0
    hushable = held.play(held.parse_move("e6-e5"))
    south = hushable.observation_tensor(0)
    assert _plane(south, "hushable move: traveller")[4 + 9 * 4] == 1.0
    assert _plane(south, "hushable move: square left")[4 + 9 * 5] == 1.0
    hushed = hushable.play(hushable.parse_move("HUSH"))
    north = hushed.observation_tensor(1)
    assert _plane(north, "moves hushed this turn: destinations")[80 - (4 + 9 * 4)] == 1.0
    shooed = game.state_from_text("9/9/9/9/4ns3/3s1s3/9/9/9 n 0/0 0/0 0/0 2 shoo=e5")
    assert _plane(shooed.observation_tensor(1), "pending shoo")[80 - (4 + 9 * 4)] == 1.0
    # Back and forth: the position comes back once (the repetition plane shows 1 / 2).
    loop = game.state_from_text("9/9/9/4n4/9/3s1s3/9/9/9 s 0/0 0/0 0/0 0")
    for text in ("d4-d3", "e6-e7", "d3-d4", "e7-e6"):
        loop = loop.play(loop.parse_move(text))
    assert set(_plane(loop.observation_tensor(0), "repetitions of this position / 2")) == {0.5}
    assert set(_plane(loop.observation_tensor(0), "turns / max_turns")) == {4 / 1000}


EXTREME_SETTINGS = [
    {"leave_home": "yes", "capture_in_home": "anywhere", "stable_drop": "anywhere"},
    {"horses": 7, "hush": "shoo-off", "mount_escape": "off", "capture_in_home": "immune"},
    {"ruleset": "towers", "leave_home": "yes", "horses": 7},
    {"hush": "automatic", "first_player": "blue", "leave_home": "yes"},
]


@pytest.mark.parametrize(
    "settings", EXTREME_SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items())
)
def test_every_legal_move_has_its_own_id_under_extreme_settings(settings: dict[str, object]) -> None:
    """Random games that favour captures and shoo declarations, every legal move checked."""
    game = make("shoo", **settings, max_turns=150)  # type: ignore[arg-type]
    rng = random.Random(str(settings))
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            _check_all(state)
            rare = [m for m in moves if m.kind == CAPTURE or m.shoo >= 0 or m.kind == SHOOED_OFF]
            state = state.play_unchecked(rng.choice(rare if rare and rng.random() < 0.5 else moves))
