"""Sho's action ids and observation tensors: known ids, the numbering's bounds, and the seats' views.

The shared check (``tests/test_actions.py``) plays random games of every preset; here are hand positions
with known ids, the extreme settings where the most moves of one state must still fit, the states beyond
the numbering (more pa ra in a turn than it counts), and the symmetry of the observations between seats.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import shogames
from shogames.core.errors import IllegalMoveError
from shogames.games.sho import NUMBERED_PARAS, NUMBERED_VALUES, THROWS, ShoGame, ShoState


def sho(**settings: Any) -> ShoGame:
    game = shogames.make("sho", **settings)
    assert isinstance(game, ShoGame)
    return game


def ids(state: ShoState) -> dict[str, int]:
    """Each legal move's text with its action id, checking that the id reads back as the move."""
    found = {}
    for move in state.legal_moves():
        action = state.move_to_action(move)
        assert 0 <= action < state.game.num_distinct_actions
        assert state.action_to_move(action) == move
        found[state.move_to_text(move)] = action
    assert sorted(found.values()) == state.legal_actions()
    return found


def test_action_space_sizes_follow_from_the_settings() -> None:
    assert NUMBERED_VALUES == NUMBERED_PARAS + 1 == 8
    assert sho().num_distinct_actions == 64 * 255 + 3 == 16_323
    assert sho(para_mode="ios").num_distinct_actions == 64 + 3
    assert sho(para_mode="pool").num_distinct_actions == 64 * 11 + 3
    assert sho(para_subsets="single_or_total").num_distinct_actions == 64 * 12 + 3
    assert sho(flexible_para="on").num_distinct_actions == 64 * 26 + 3
    assert sho(shells=200, goal="shells+1").num_distinct_actions == 201 * 255 + 3
    for game in (sho(), sho(players=4), sho(first_player="random")):
        assert game.max_chance_outcomes == 21


def test_max_game_length_counts_the_steps_a_turn_can_have() -> None:
    # Three players: 9 coins of its own and 18 killable; a turn has 2 x 27 + 7 plies at most.
    assert sho().steps_per_turn == 27
    assert sho().max_game_length == 2000 * (2 * 27 + 7)
    assert sho(players=4).steps_per_turn == 18  # teams sharing coins: one enemy side
    assert sho(players=4, team_coins="separate").steps_per_turn == 27  # a partner's stacks are not killable
    assert sho(players=2, shells=13, coins=20).steps_per_turn == 20 + 12  # the track holds 12 stacks
    assert sho(para_mode="ios", max_turns=10).max_game_length == 10 * (2 * 27 + 2 * 7)
    assert sho(finishing_overflow="on", max_turns=10).max_game_length == 10 * (3 * 27 + 7)
    assert sho(first_player="random", max_turns=10).max_game_length == 1 + 10 * (2 * 27 + 7)


def test_throws_and_the_first_seat_have_their_index() -> None:
    state = sho().new_initial_state()
    assert state.legal_actions() == list(range(21))
    assert [state.action_to_move(action) for action in range(21)] == [move for move, _ in THROWS]
    assert state.move_to_action(state.parse_move("4-3")) == 12
    draw = sho(players=4, first_player="random").new_initial_state()
    assert draw.legal_actions() == [0, 1, 2, 3]
    assert draw.move_to_text(draw.action_to_move(2)) == "first:3"


def test_known_ids_of_moves_entries_and_specials() -> None:
    game = sho()
    # The seed's example: values 2 and 11, spent as the sorted values' places {2}=1, {11}=2, {2,11}=3.
    state = game.state_from_text("5a1,10a2,12b2,16a1 5/7/9 0/0/0 1 move 2,11 1 1-1 3 11 entered=ab")
    found = ids(state)
    assert found["10:2"] == 10 * 255 + 0
    assert found["5:11"] == 5 * 255 + 1
    assert found["16:2+11"] == 16 * 255 + 2
    assert found["h1:2"] == 0
    # Values 2, 2, 8: equal values take their first places, so 2+2 is {0,1} and 2+8 is {0,2}.
    state = game.state_from_text("- 9/9/9 0/0/0 1 move 2,2,8 2 1-1 0 3")
    assert ids(state) == {"h3:2": 0, "h3:2+2": 2, "h3:8": 3, "h3:2+8": 4, "h3:2+2+8": 6}
    with pytest.raises(IllegalMoveError):
        state.action_to_move(1)  # {1}: the second 2 alone is spelt {0}
    # para_mode=ios: one value, one code; pass and rethrow are the last ids but one.
    ios = sho(para_mode="ios", allow_pass="on")
    state = ios.state_from_text("10a2 7/9/9 0/0/0 1 move 2 1 1-1 2 5 entered=a")
    assert ids(state) == {"h1:2": 0, "10:2": 10, "rethrow": 65, "pass": 64}
    # The six-three entry of all nine, besides the ordinary opening entry: the last id.
    lhasa = shogames.make("sho", "lhasa")
    state = lhasa.state_from_text("- 9/9/9 0/0/0 1 move 9 0 3-6 5 20 entered=a")
    assert ids(state) == {"h2:9": 0, "h9:9": lhasa.num_distinct_actions - 1}
    # pool: the code is the value less 2; single_or_total: that, or 11 for all of them.
    state = sho(para_mode="pool").state_from_text("- 9/9/9 0/0/0 1 move 2,7 1 1-1 0 2")
    assert ids(state) == {"h3:2": 0, "h3:7": 5}
    state = sho(para_subsets="single_or_total").state_from_text("- 9/9/9 0/0/0 1 move 2,2,8 2 1-1 0 3")
    assert ids(state) == {"h3:2": 0, "h3:8": 6, "h3:2+2+8": 11}
    # flexible_para: the first part of a split is its size less 1.
    state = sho(flexible_para="on").state_from_text("10a2 7/9/9 0/0/0 1 move 7 1 1-1 2 5 entered=a")
    found = ids(state)
    assert found["10:3"] == 10 * 26 + 2 and found["h1:7"] == 6


def test_the_most_moves_of_a_state_fit_under_extreme_settings() -> None:
    # Eight distinct values (seven pa ra in the turn) and the widest track: 255 ways from each source.
    game = sho(players=2, shells=200, goal="shells+1", coins=20)
    state = game.state_from_text("200a1 19/20 0/0 1 move 2,3,4,5,6,7,8,9 7 1-1 0 9 entered=a")
    found = ids(state)
    assert len(found) == 2 * 255
    assert max(found.values()) == 200 * 255 + 254 == game.num_distinct_actions - 4
    # A flexible pa ra after seven pa ra and a (6,6): every part from 1 to 26, from the hand or the stack.
    game = sho(players=2, shells=200, flexible_para="on")
    state = game.state_from_text("199a1 8/9 0/0 1 move 26 7 1-1 0 9 entered=a")
    found = ids(state)
    assert len(found) == 2 * 26 and max(found.values()) == 199 * 26 + 25
    # A pool holds every value 2 .. 12 at most: 11 codes whatever the pa ra.
    game = sho(para_mode="pool")
    state = game.state_from_text("60a1 8/9/9 0/0/0 1 move 2,2,2,3,4,5,6,7,8,9,10,11,12 3 1-1 0 9 entered=a")
    assert sorted(ids(state).values()) == [*range(11), *range(60 * 11, 60 * 11 + 11)]


def test_states_beyond_the_numbering_say_so() -> None:
    # Nine values need eight pa ra in one turn: beyond the numbering, with a clear error.
    game = sho(players=2)
    state = game.state_from_text("40a1 8/9 0/0 1 move 2,2,2,2,2,2,2,2,5 8 1-1 0 9 entered=a")
    with pytest.raises(ValueError, match="beyond the action numbering"):
        state.move_to_action(state.parse_move("40:2"))
    with pytest.raises(ValueError, match="beyond the action numbering"):
        state.legal_actions()
    flexible = sho(flexible_para="on")
    state = flexible.state_from_text("10a2,20a1 6/9/9 0/0/0 1 move 30 8 1-1 2 5 entered=a")
    assert ids(state.play_text("10:3")) == {"20:27": 20 * 26}  # the second part: its one value, code 0
    with pytest.raises(ValueError, match="beyond the action numbering"):
        state.move_to_action(state.parse_move("10:27"))


@pytest.mark.parametrize("action", [-1, 16_323, 10**9, "0", 0.0, True, None])
def test_bad_action_ids_are_refused(action: Any) -> None:
    state = sho().state_from_text("- 9/9/9 0/0/0 1 move 7 0 3-4 0 1")
    assert state.legal_actions() == [0]
    with pytest.raises(IllegalMoveError, match="not legal here"):
        state.action_to_move(action)


def test_an_index_like_int_is_an_action() -> None:
    class Index:
        def __index__(self) -> int:
            return 0

    state = sho().state_from_text("- 9/9/9 0/0/0 1 move 7 0 3-4 0 1")
    assert state.move_to_text(state.action_to_move(Index())) == "h2:7"  # type: ignore[arg-type]


def planes(state: ShoState, seat: int) -> dict[str, list[float]]:
    game = state.game
    tensor = state.observation_tensor(seat)
    width = game.observation_shape[1]
    assert len(tensor) == math.prod(game.observation_shape)
    return {
        name: tensor[index * width : (index + 1) * width]
        for index, name in enumerate(game.observation_planes)
    }


def test_observation_planes_hold_the_position() -> None:
    game = sho()
    state = game.state_from_text("5a1,10c2,12b2,16a1 5/7/7 2/0/0 1 move 2,11 1 1-1 30 80 entered=abc")
    seen = planes(state, 0)
    own = seen["coins: own side"]
    assert own[0] == 5 / 9 and own[5] == own[16] == 1 / 9 and own[64] == 2 / 9 and sum(own) == 1.0
    assert seen["coins: side +1"][12] == 2 / 9 and seen["coins: side +2"][10] == 2 / 9
    assert seen["values by distance"][2] == seen["values by distance"][11] == 1.0
    assert set(seen["turn: seat +0"]) == {1.0} and set(seen["phase: move"]) == {1.0}
    assert set(seen["pa ra this step"]) == {1 / 3} and set(seen["first throw 1-1"]) == {1.0}
    assert set(seen["turn cap progress"]) == {30 / 2000}
    # Player 3 sees its own side (c) first, then a (who plays after it), then b.
    third = planes(state, 2)
    assert third["coins: own side"][10] == 2 / 9 and third["coins: side +1"] == own
    assert set(third["turn: seat +1"]) == {1.0} and set(third["turn: seat +0"]) == {0.0}


def test_each_seat_sees_the_game_as_its_own() -> None:
    # Two players: the position with the sides swapped, seen by the other seat, is the same picture.
    game = sho(players=2)
    state = game.state_from_text("5a1,13b2,25a2 6/7 0/0 1 move 5 0 1-4 8 20 entered=ab")
    swapped = game.state_from_text("5b1,13a2,25b2 7/6 0/0 2 move 5 0 1-4 8 20 entered=ab")
    assert state.observation_tensor(0) == swapped.observation_tensor(1)
    assert state.observation_tensor(1) == swapped.observation_tensor(0)
    assert state.observation_tensor(0) != state.observation_tensor(1)
    assert state.legal_actions() == swapped.legal_actions()  # one track, the same way for every side
    # Three players: turning the sides round (a->b->c->a) and the seats with them.
    game = sho()
    state = game.state_from_text("5a1,10c2,12b2 8/7/7 0/0/0 2 throw - 0 - 4 11 entered=abc")
    turned = game.state_from_text("5b1,10a2,12c2 7/8/7 0/0/0 3 throw - 0 - 4 11 entered=abc")
    for seat in range(3):
        assert state.observation_tensor(seat) == turned.observation_tensor((seat + 1) % 3)
    # Teams sharing coins: partners see the same sides, the turn from their own seats.
    teams = sho(players=4)
    state = teams.state_from_text("5a1,12b2 8/7 0/0 2 throw - 0 - 4 11 entered=ab")
    first, partner = planes(state, 0), planes(state, 2)
    assert teams.observation_shape[0] == len(teams.observation_planes) == 3 * 2 + 4 + 14
    assert first["coins: own side"] == partner["coins: own side"]
    assert set(first["turn: seat +1"]) == {1.0} and set(partner["turn: seat +3"]) == {1.0}
    assert planes(state, 1)["coins: own side"][12] == 2 / 9


def test_a_finished_game_has_no_actions() -> None:
    game = sho(players=2, shells=13, coins=1)
    state = game.state_from_text("12a1 0/1 0/0 1 move 5 0 2-3 3 9 entered=ab").play_text("12:5")
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.action_to_move(0)
    with pytest.raises(ValueError, match="game is over"):
        state.move_to_action(THROWS[0][0])
