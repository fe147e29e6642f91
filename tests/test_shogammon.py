"""Shogammon: the rule tests (a)-(h) of the rulings, the rulings table, the dice and the shogi start."""

from __future__ import annotations

import dataclasses
import warnings
from fractions import Fraction

import pytest

from cli_runner import run_cli
from shogames.conformance import check_game
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.protocol import CHANCE
from shogames.games.shogammon import BLACK, START_SFEN, WHITE, DieMapWarning, ShogammonGame, ShogammonState


def at(text: str, **settings: object) -> ShogammonState:
    return ShogammonGame(None, **settings).state_from_text(text)


def texts(state: ShogammonState) -> list[str]:
    return [state.move_to_text(move) for move in state.legal_moves()]


def start(roll: str, **settings: object) -> ShogammonState:
    return at(f"{START_SFEN} {roll} 1", **settings)


# --- The dice and the start ----------------------------------------------------------------------------


def test_the_roll_is_exactly_distributed() -> None:
    state = ShogammonGame().new_initial_state()
    assert state.to_move == CHANCE and state.side == BLACK  # ruling 2: Black rolls first
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    probability = {state.move_to_text(move): p for move, p in outcomes}
    assert probability["1-1"] == Fraction(1, 36) and probability["1-6"] == Fraction(1, 18)
    assert state.parse_move("6-1") == state.parse_move("1-6")


@pytest.mark.parametrize(("face", "count"), [(1, 9), (2, 8), (3, 6), (4, 10), (5, 13), (6, 5)])
def test_double_rolls_from_the_shogi_start(face: int, count: int) -> None:
    assert len(start(f"{face}-{face}").legal_moves()) == count


def test_shogi_start_has_30_ordinary_moves_and_21_onto_own_pieces() -> None:
    state = start("1-1")
    moves = {text for face in range(1, 7) for text in texts(at(f"{START_SFEN} {face}-{face} 1"))}
    assert len(moves) == 51
    onto_own = [text for text in moves if state.piece_at(_square(text[-2:]))[0] > 0]
    assert len(onto_own) == 21


def _square(name: str) -> int:
    return "abcdefghi".index(name[1]) * 9 + "987654321".index(name[0])


def test_cli_legal_lists_the_nine_pawn_moves_for_1_1() -> None:
    result = run_cli(["legal", "shogammon", "--position", f"{START_SFEN} 1-1 1"])
    assert result.exit_code == 0
    assert result.output.split() == [f"1:{f}g{f}f" for f in "987654321"]


# --- Rule tests (a)-(h) --------------------------------------------------------------------------------

SIX_ONE = "4k4/9/9/9/9/4K4/4P4/9/9 b - 1 1-6 1"


def test_a_the_six_one_trick() -> None:
    state = at(SIX_ONE)
    moves = texts(state)
    assert "1:5g5f" in moves and "6:5f5g" in moves and "6:5f4e" in moves
    pawn_first = state.play_text("1:5g5f")  # the king is now underneath: the 6 is lost
    assert pawn_first.to_move == CHANCE and pawn_first.side == WHITE
    king_onto_pawn = state.play_text("6:5f5g")  # the pawn is underneath: the 1 is lost
    assert king_onto_pawn.side == WHITE
    king_away = state.play_text("6:5f4e")
    assert king_away.side == BLACK and texts(king_away) == ["1:5g5f"]  # the 1 must still be played


def test_b_strict_dice_allows_only_two_move_turns() -> None:
    moves = texts(at(SIX_ONE, strict_dice="on"))
    assert "1:5g5f" not in moves and "6:5f5g" not in moves
    assert moves and all(move.startswith("6:5f") for move in moves)


POINT = "8k/9/9/9/4[pg]4/3S1G3/9/9/K8 b - 1 3-4 1"


def test_c_an_enemy_point_falls_to_two_pieces_with_both_dice() -> None:
    moves = texts(at(POINT))
    assert "4:4f5e&3:6f5e" in moves and "3:6f5e&4:4f5e" in moves
    assert "4:4f5e" not in moves and "3:6f5e" not in moves  # half a capture is no move
    after = at(POINT).play_text("4:4f5e&3:6f5e")
    assert after.piece_at(_square("5e")) == (5, 4)  # gold below, silver on top (the second mover)
    assert after.in_hand(BLACK, 1) == 1 and after.in_hand(BLACK, 5) == 1
    alone = at("8k/9/9/9/3P[pg]4/5G3/9/9/K8 b - 1 1-4 1")
    assert not [move for move in texts(alone) if "&" in move]  # one piece, and a pawn beside it cannot


def test_d_a_rook_behind_its_lance_captures_in_sequence() -> None:
    state = at("8k/9/4[pp]4/9/9/4L4/9/9/K3R4 b - 1 2-5 1")
    pairs = [move for move in texts(state) if "&" in move]
    assert "2:5f5c&5:5i5c" in pairs and "2:5f5c+&5:5i5c+" in pairs
    assert not [move for move in pairs if move.startswith("5:")]  # the rook cannot go first


def test_e_a_slider_stops_on_the_first_own_piece() -> None:
    moves = texts(start("5-5"))
    assert "5:2h2g" in moves and "5:2h2f" not in moves


def test_f_a_knight_onto_an_own_piece_on_rank_a_must_promote() -> None:
    state = at("7+R1/9/6N2/9/k8/9/9/9/K8 b - 1 2-6 1")
    moves = texts(state)
    assert "2:3c2a+" in moves and "2:3c2a" not in moves
    after = state.play_text("2:3c2a+")
    assert after.piece_at(_square("2a")) == (15, 11)


def test_g_nifu_counts_a_pawn_under_a_point() -> None:
    state = at("8k/9/9/9/9/9/4[PG]4/9/K8 b P 1 1-6 1")
    drops = [move for move in texts(state) if "P*" in move]
    assert drops and not [move for move in drops if move[4] == "5"]


@pytest.mark.parametrize(
    ("position", "file"),
    [
        ("8k/9/9/9/9/9/4[GP]4/9/K8 b P 1 1-6 1", "5"),  # Black's pawn on top of its point
        ("8k/9/9/9/9/9/1[GP]7/9/K8 b P 1 1-6 1", "8"),
        ("k8/9/4[gp]4/9/9/9/9/9/8K w p 1 1-6 1", "5"),  # White's
    ],
)
def test_ruling_24_nifu_counts_a_pawn_on_top_of_a_point(position: str, file: str) -> None:
    drops = [move for move in texts(at(position)) if "P*" in move or "p*" in move.lower()]
    assert len(drops) > 20 and not [move for move in drops if move[4] == file]


def test_h_taking_the_king_with_the_first_die_ends_the_game() -> None:
    state = at("9/9/4k4/4P4/9/9/9/9/K8 b - 1 1-2 1")
    after = state.play_text("1:5d5c")
    assert after.is_terminal() and after.returns() == (1.0, -1.0)
    assert after.termination() == "normal" and after.to_move is None


# --- The rulings table ---------------------------------------------------------------------------------


def test_doubles_give_two_moves_possibly_by_one_piece() -> None:
    state = at("8k/9/9/9/9/9/4P4/9/K8 b - 1 1-1 1").play_text("1:5g5f")
    assert state.side == BLACK and texts(state) == ["1:5f5e"]
    assert state.play_text("1:5f5e").side == WHITE


def test_a_piece_captured_with_one_die_may_be_dropped_with_the_other() -> None:
    state = at("8k/9/9/9/4p4/4P4/9/9/K8 b - 1 1-1 1").play_text("1:5f5e")
    assert state.in_hand(BLACK, 1) == 1 and "1:P*4c" in texts(state)
    assert "1:P*5c" not in texts(state)  # the pawn on 5e still makes file 5 a pawn file


def test_lower_piece_waits_until_the_top_leaves_in_the_same_turn() -> None:
    state = at("8k/9/9/9/9/9/4[PG]4/9/K8 b - 1 1-4 1")
    moves = texts(state)
    assert not [move for move in moves if move.startswith("1:5g")]  # the pawn underneath cannot move
    after = state.play_text("4:5g5f")
    assert after.side == BLACK and "1:5g5f" in texts(after)  # it moves with the other die, onto the gold


def test_no_third_piece_and_no_drop_onto_own_pieces() -> None:
    state = at("8k/9/9/9/9/4G4/4[PS]4/9/K8 b P 1 4-4 1")
    assert "4:5f5g" not in texts(state)
    drops = at("8k/9/9/9/9/4G4/9/9/K8 b P 1 1-1 1")
    assert "1:P*5f" not in texts(drops) and "1:P*5e" in texts(drops)


def test_a_king_underneath_cannot_move_and_a_point_with_the_king_wins_when_taken() -> None:
    buried = at("8k/9/9/9/9/9/4[KG]4/9/9 b - 1 6-6 1")
    assert texts(buried) == ["6:-"]  # the king underneath cannot move: the 6s are lost
    assert buried.play_text("6:-").side == WHITE
    taken = at("9/9/9/9/4[kg]4/3S1G3/9/9/K8 b - 1 3-4 1").play_text("4:4f5e&3:6f5e")
    assert taken.is_terminal() and taken.returns() == (1.0, -1.0)


def test_a_die_with_no_play_may_be_given_up_when_the_other_is_played_alone() -> None:
    state = at("8k/9/9/9/9/9/4P4/9/K8 b - 1 1-3 1")
    assert texts(state)[:1] == ["3:-"] or "3:-" in texts(state)
    after = state.play_text("3:-")
    assert after.side == BLACK and texts(after) == ["1:5g5f"]


def test_max_turns_caps_the_game() -> None:
    state = at("8k/9/9/9/9/9/4P4/9/K8 b - 6 - 1", max_turns=5)
    assert state.is_terminal() and state.is_truncated() and state.returns() == (0.0, 0.0)


# --- Die maps ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die_map", "face", "count"),
    [("generals", 3, 16), ("generals", 4, 4), ("minors-split", 2, 4), ("minors-split", 3, 4)],
)
def test_die_maps(die_map: str, face: int, count: int) -> None:
    assert len(start(f"{face}-{face}", die_map=die_map).legal_moves()) == count


def test_custom_die_map() -> None:
    game = ShogammonGame(die_map="custom", custom_map="1:PL,2:N,3:S,4:G,5:BR,6:K")
    assert game.face(2) == 1
    with pytest.raises(SettingsError):
        ShogammonGame(die_map="custom", custom_map="1:P,2:LN")


# --- Text and errors -----------------------------------------------------------------------------------


def test_position_text_round_trip_with_points_and_hands() -> None:
    text = "8k/9/9/9/4[pg]4/3S1G3/4[P+R]4/9/K8 w 2Pn 7 6 40"
    state = at(text)
    assert state.to_text() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9/9/9 b - 1 - 0", "9 ranks"),
        (f"{START_SFEN} x 0", "dice left"),
        ("8k/9/9/9/4[pG]4/9/9/9/K8 b - 1 - 0", "mixes colours"),
        ("4P3k/9/9/9/9/9/9/9/K8 b - 1 - 0", "could never move"),
        ("9/9/9/9/9/9/9/9/9 b - 1 - 0", "one king"),
        ("8kP/9/9/9/9/9/9/9/K8 b - 1 - 0", "more than 9 squares"),
        ("8k/9/9/9/9/9/9/9/K8 b 19P 1 - 0", "19 P"),
        ("8k/9/9/9/9/9/9/9/K8 b 0P 1 - 0", "1 or more"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        at(text)


def test_bad_and_illegal_moves() -> None:
    state = start("1-6")
    with pytest.raises(NotationError):
        state.parse_move("7g7f")
    with pytest.raises(IllegalMoveError, match="dice left"):
        state.parse_move("2:8i7g")
    with pytest.raises(IllegalMoveError, match="has one"):
        state.parse_move("6:-")


@pytest.mark.parametrize("preset", ["classic", "generals", "minors-split", "strict"])
def test_seeded_random_games_conform(preset: str) -> None:
    check_game(ShogammonGame(preset, max_turns=80), n_games=3, seed=1)


# --- More rulings of the table (numbers from rulings §4) ---------------------------------------------------


def test_ruling_4_a_drop_makes_a_die_usable_and_so_compulsory() -> None:
    state = at("8k/9/9/9/9/9/9/9/K8 b G 1 4-6 1")
    assert "4:-" not in texts(state)  # the gold in hand can be dropped, so the 4 cannot be given up
    after = state.play_text("6:9i8h")
    assert after.side == BLACK and all(move.startswith("4:G*") for move in texts(after))


def test_ruling_8_a_piece_may_move_off_and_back() -> None:
    state = at("8k/9/9/9/9/9/9/4G4/K8 b - 1 4-4 1").play_text("4:5h5g")
    assert "4:5g5h" in texts(state)
    assert state.play_text("4:5g5h").piece_at(_square("5h")) == (5, 0)


def test_ruling_12_a_knight_lands_on_own_and_enemy_singles() -> None:
    state = at("8k/9/9/9/9/3G1p3/9/4N4/K8 b - 1 2-2 1")
    assert {"2:5h6f", "2:5h4f"} <= set(texts(state))
    assert state.play_text("2:5h4f").in_hand(BLACK, 1) == 1  # the enemy pawn is taken
    assert state.play_text("2:5h6f").piece_at(_square("6f")) == (5, 3)  # the knight tops the gold


def test_ruling_9_the_king_stacks_onto_a_piece_and_a_piece_onto_the_king() -> None:
    king_moves = texts(at("8k/9/9/9/9/4G4/4K4/9/9 b - 1 6-6 1"))
    assert "6:5g5f" in king_moves  # the king onto its own gold
    after = at("8k/9/9/9/9/4G4/4K4/9/9 b - 1 6-6 1").play_text("6:5g5f")
    assert after.piece_at(_square("5f")) == (5, 8)  # gold below, king on top
    gold_moves = texts(at("8k/9/9/9/9/4G4/4K4/9/9 b - 1 4-4 1"))
    assert "4:5f5g" in gold_moves  # the gold onto its own king


def test_ruling_23_a_captured_point_goes_to_the_hand_unpromoted() -> None:
    after = at("8k/9/9/9/4[g+p]4/3S1G3/9/9/K8 b - 1 3-4 1").play_text("4:4f5e&3:6f5e")
    assert after.in_hand(BLACK, 1) == 1 and after.in_hand(BLACK, 5) == 1  # the tokin comes back a pawn
    assert after.piece_at(_square("5e")) == (5, 4)


def test_ruling_19_a_drop_cannot_complete_a_point_capture() -> None:
    with pytest.raises(NotationError, match="drop"):
        start("1-6").parse_move("1:P*5e&6:5i5e")


def test_ruling_21_promotion_when_leaving_a_point_in_the_zone() -> None:
    state = at("8k/9/4[PS]4/9/9/9/9/9/K8 b - 1 3-6 1")
    assert {"3:5c4b", "3:5c4b+"} <= set(texts(state))
    assert state.play_text("3:5c4b+").piece_at(_square("4b")) == (12, 0)


def test_ruling_26_no_check_rule() -> None:
    state = at("9/9/9/9/4k4/9/4K4/9/9 b - 1 6-6 1")
    assert "6:5g5f" in texts(state)  # the king may step next to the enemy king


def test_ruling_30_rolls_are_recorded_and_replay() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game
    from shogames.records import parse_record, replay, write_record

    game = ShogammonGame(max_turns=30)
    final, record = play_game(game, [make_agent("random", 1), make_agent("random", 2)], seed=3)
    text = write_record(record)
    assert "\n1. " in text and "-" in record.moves[0]  # the first line is a roll such as 2-5
    assert replay(parse_record(text)).final_state.key() == final.key()


# --- Options the rulings name (2, 17, 20, 27, and ruling 1's warning) -----------------------------------


def test_ruling_2_backgammon_opening_roll() -> None:
    game = ShogammonGame(opening_roll="backgammon")
    state = game.new_initial_state()
    outcomes = {state.move_to_text(move): p for move, p in state.chance_outcomes()}
    assert len(outcomes) == 30 and set(outcomes.values()) == {Fraction(1, 30)}  # equal dice roll again
    assert "B6-W1" in outcomes and "B1-W6" in outcomes and "B3-W3" not in outcomes
    black = state.play_text("B6-W1")  # Black's die is higher: Black starts, playing 1 and 6
    assert black.side == BLACK and black.dice == (1, 6) and black.to_move == BLACK
    white = state.play_text("b2 - w5")
    assert white.side == WHITE and white.dice == (2, 5) and "2:5c5d" not in texts(white)
    assert white.to_text() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 2-5 1"
    after = white.play_text("2:8a7c").play_text("5:2b3c")
    assert after.side == BLACK and after.to_text().split()[3] == "2"  # Black's first turn is turn 2
    assert {after.move_to_text(move) for move, _ in after.chance_outcomes()} >= {"1-1", "3-5"}
    with pytest.raises(IllegalMoveError, match="one die each"):
        state.parse_move("1-6")
    with pytest.raises(IllegalMoveError, match="first move"):
        after.parse_move("B6-W1")
    plain = ShogammonGame().new_initial_state()
    assert len(plain.chance_outcomes()) == 21  # ruling 2's default: Black rolls both dice
    with pytest.raises(IllegalMoveError, match="opening_roll=backgammon"):
        plain.parse_move("B6-W1")


def test_ruling_17_simultaneous_point_capture() -> None:
    behind = "8k/9/4[pp]4/9/9/4L4/9/9/K3R4 b - 1 2-5 1"  # the rook is behind its own lance
    assert "2:5f5c&5:5i5c" in texts(at(behind))
    assert not [move for move in texts(at(behind, point_capture="simultaneous")) if "&" in move]
    # Two capturers that reach the point in the position as it stands are unaffected.
    assert "4:4f5e&3:6f5e" in texts(at(POINT, point_capture="simultaneous"))
    # The piece under the first capturer moves second only when judged in sequence.
    under = "8k/9/9/9/4[pg]4/4[GS]4/9/9/K8 b - 1 3-4 1"
    assert "3:5f5e&4:5f5e" in texts(at(under))
    assert "3:5f5e&4:5f5e" not in texts(at(under, point_capture="simultaneous"))


def test_ruling_20_drop_stack() -> None:
    position = "8k/9/9/9/9/4G4/9/9/K8 b P 1 1-1 1"
    assert "1:P*5f" not in texts(at(position))
    stacking = at(position, drop_stack="on")
    assert "1:P*5f" in texts(stacking) and "1:P*9i" in texts(stacking)  # onto the gold, onto the king
    after = stacking.play_text("1:P*5f")
    assert after.piece_at(_square("5f")) == (5, 1) and after.in_hand(BLACK, 1) == 0  # gold below, pawn on top
    # The shogi drop rules still hold: no second pawn on a file, no dead drop, no third piece, no enemy.
    rules = at("8k/9/9/9/4p4/4G4/4P4/9/K3[GS]4 b P 1 1-1 1", drop_stack="on")
    drops = [move for move in texts(rules) if "P*" in move]
    assert drops and not [move for move in drops if move[4] == "5"]
    assert "1:P*9a" not in texts(at("G7k/9/9/9/9/9/9/9/K8 b P 1 1-1 1", drop_stack="on"))


def test_ruling_27_fourfold_repetition_draw() -> None:
    def shuffle(state: ShogammonState) -> ShogammonState:  # each king steps off and back with 6-6
        for text in ("6-6", "6:9i9h", "6:9h9i", "6-6", "6:1a1b", "6:1b1a"):
            state = state.play_text(text)
        return state

    start = "8k/9/9/9/9/9/9/9/K8 b - 1 - 0"
    state = at(start, repetition="fourfold")
    for _ in range(2):
        state = shuffle(state)
        assert not state.is_terminal()
    state = shuffle(state)  # the start position stands for the fourth time
    assert state.is_terminal() and state.termination() == "repetition" and state.returns() == (0.0, 0.0)
    assert not state.is_truncated() and state.to_move is None and not state.legal_moves()
    assert state.to_text().endswith(" end=repetition")
    assert at(state.to_text(), repetition="fourfold").is_terminal()
    plain = at(start)
    for _ in range(3):
        plain = shuffle(plain)
    assert not plain.is_terminal()  # by default there is no repetition rule
    with pytest.raises(NotationError, match="repetition"):
        at(state.to_text())


def test_ruling_1_warns_when_the_king_is_not_alone_on_six() -> None:
    with pytest.warns(DieMapWarning, match="king"):
        game = ShogammonGame(die_map="custom", custom_map="1:P,2:LN,3:S,4:G,5:B,6:RK")
    assert game.die_map_warning is not None and "6:RK" not in game.die_map_warning
    with pytest.warns(DieMapWarning, match="king"):
        ShogammonGame(die_map="custom", custom_map="1:P,2:LN,3:S,4:G,5:BK,6:R")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ShogammonGame(die_map="custom", custom_map="1:PL,2:NS,3:G,4:B,5:R,6:K").die_map_warning is None
        assert ShogammonGame().die_map_warning is None


def test_backgammon_preset() -> None:
    game = ShogammonGame("backgammon")
    assert game.settings["opening_roll"] == "backgammon" and game.settings["strict_dice"] == "on"
    assert len(game.new_initial_state().chance_outcomes()) == 30


# --- The position value and the history -----------------------------------------------------------------


@pytest.mark.parametrize(
    "settings", [{}, {"repetition": "fourfold", "max_turns": 40}, {"preset": "backgammon"}]
)
def test_a_position_value_and_history_make_the_same_state(settings: dict[str, object]) -> None:
    import pickle
    import random

    game = ShogammonGame(**settings)  # type: ignore[arg-type]
    rng = random.Random(5)
    state = game.new_initial_state()
    while True:
        position = state.position
        again = game.state_from_position(position, history=state.history)
        assert again == state and again.to_text() == state.to_text() and again.history == state.history
        assert again.is_terminal() == state.is_terminal() and again.position == position
        assert game.state_from_text(state.to_text()).position == position
        assert pickle.loads(pickle.dumps(state)).history == state.history
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    if game.fourfold:
        # Every turn's start, the last one's but where the game ended with a king taken in mid-turn.
        assert len(state.history) == state.turns + (state.winner is not None)
    else:
        assert state.history == ()


def test_the_history_holds_the_earlier_turn_starts_and_a_fourth_standing_draws() -> None:
    game = ShogammonGame(repetition="fourfold")
    state = game.state_from_text("8k/9/9/9/9/9/9/9/K8 b - 1 - 0")
    assert state.history == ()  # the position stands at its turn's start, but is not an earlier one
    start = state.position
    for text in ("6-6", "6:9i9h", "6:9h9i", "6-6", "6:1a1b", "6:1b1a") * 3:
        state = state.play_text(text)
    assert state.termination() == "repetition" and state.position.end == "repetition"
    assert [key.side for key in state.history] == [BLACK, WHITE] * 3
    assert state.history.count((start.lower, start.upper, start.hands, start.side)) == 3
    # The same position with a history of two earlier standings goes on; with three it is the fourth.
    fresh = dataclasses.replace(state.position, end=None)
    assert not game.state_from_position(fresh, history=state.history[:4]).is_terminal()
    assert game.state_from_position(fresh, history=state.history).termination() == "repetition"
    # The winner is the position's: a kernel's judgement is handed back as it is.
    assert game.state_from_position(dataclasses.replace(fresh, winner=WHITE)).winner == WHITE
