"""Sho (ཤོ): the Tibetan dice race game for 2, 3 or 4 players, alone or in two teams.

Rules source: the Wikipedia article (``shared/seeds/003_aeeef26e48ae5f8b.txt``) as completed and settled by
our rulings (``shared/rules/sho.md``, rules R1–R17); ``docs/games/sho.md`` tells the rules in our words.

Sides, seats and the track
--------------------------
A *side* owns the coins (9 by default): one player, or with four players (default) a team of two partners
sharing nine coins. Seats take turns in order; with teams they alternate (seats 1 and 3 are team A, seats 2
and 4 team B). Track positions are numbered from 0 (the hand, before the first shell) to ``goal``: positions
1 .. goal - 1 are the spaces after the shells, and a move reaching ``goal`` or beyond bears the stack off.
The board is two tuples indexed by position: the owning side (-1 for empty) and the stack's size.

A turn is a chain of *steps*: throw the two dice (a chance outcome over the 21 unordered pairs), then one
move; a stack or a kill earns another step. Under the default pa ra (R11) a throw of (1,1) adds the value 2
and throws again; the step's values ``V`` may be spent as any sub-multiset on one move, and after a stack or
kill the unused values carry over to the next step.

Moves
-----
A :class:`ShoMove` is a throw (``3-5``), a move of the stack on a position by a sub-multiset of the values
(``23:12``, ``23:2+11``), an entry from the hand with its number of coins (``h2:7``: two coins enter with the
value 7), ``rethrow`` (``para_mode=ios``), ``pass`` (``allow_pass=on``), or the random choice of the first
seat (``first:2``, ``first_player=random``).

Actions and observations (``docs/games/sho.md``)
-------------------------------------------------
A throw's action id is its place in :data:`THROWS` (21 chance outcomes); the first seat's draw, the seat.
A seat's move is ``source * spend_codes + code``: source 0 for an entry from the hand, else the stack's
position; the code says which values in hand are spent (by default the places of the sorted values spent,
as bits, less 1; the value less 2 under ``pool`` or ``single_or_total``; a split's first part less 1 under
``flexible_para``; 0 under ``ios`` and in the follow phase). ``pass``, ``rethrow`` and the six-three entry
of all the coins are the last three ids. Chains of pa ra have no end, so the numbering counts at most
:data:`NUMBERED_PARAS` pa ra in a turn (16,323 ids for ``classic``). The observation is planes over the
places 0 (hand) .. goal (borne off): each side's coins from the observer's side on, then whose turn, the
phase, the values, the pa ra and the turn cap's progress (:attr:`ShoGame.observation_planes`).
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import ClassVar, Final, NamedTuple

from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.notation import is_number, read_number, shown
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.settings import Setting, SettingValue


# Move kinds.
class ShoMoveKind(IntEnum):
    """What a Sho move does (``ShoMove.kind``); also module constants (:data:`THROW`, ...)."""

    THROW = 0
    """A throw of the two dice (chance): ``low`` and ``high`` are the faces."""
    MOVE = 1
    """A stack on the track moves forward by the sum of ``values``."""
    ENTER = 2
    """``coins`` coins enter from the hand at the position given by the sum of ``values``."""
    PASS = 3
    """A voluntary pass (``allow_pass=on``): the turn ends."""
    RETHROW = 4
    """Under ``para_mode=ios``, after (1,1): throw again to move 2 + the new throw instead of 2."""
    FIRST = 5
    """The random choice of the first seat (chance, ``first_player=random``): ``coins`` is the seat."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


THROW: Final = ShoMoveKind.THROW
MOVE: Final = ShoMoveKind.MOVE
ENTER: Final = ShoMoveKind.ENTER
PASS: Final = ShoMoveKind.PASS
RETHROW: Final = ShoMoveKind.RETHROW
FIRST: Final = ShoMoveKind.FIRST

SIDE_LETTERS: Final = "abcd"
"""The sides' letters in position text: a side is a player, or a team with four players in teams."""

_THROW_PHASE, _MOVE_PHASE, _FIRST_PHASE, _FOLLOW_PHASE = 0, 1, 2, 3
# A follow-up move inside one step: the second part of a flexible pa ra, or a finishing overflow.
_PLACE, _STACK, _KILL, _OFF = 0, 1, 2, 3


class ShoMove(NamedTuple):
    """One Sho move; see the module docstring.

    Attributes:
        kind: :data:`THROW`, :data:`MOVE`, :data:`ENTER`, :data:`PASS`, :data:`RETHROW` or :data:`FIRST`.
        source: the position of the moving stack (MOVE), else 0.
        values: the values spent, in increasing order (MOVE, ENTER).
        coins: how many coins enter (ENTER); the first seat (FIRST).
        low: the lower face of a THROW.
        high: the higher face of a THROW.
    """

    kind: ShoMoveKind
    source: int = 0
    values: tuple[int, ...] = ()
    coins: int = 0
    low: int = 0
    high: int = 0


THROWS: Final = tuple(
    (ShoMove(THROW, low=low, high=high), Fraction(1 if low == high else 2, 36))
    for low in range(1, 7)
    for high in range(low, 7)
)
"""The 21 unordered throws of two dice with their exact probabilities."""
PASS_MOVE: Final = ShoMove(PASS)
"""The voluntary pass."""
RETHROW_MOVE: Final = ShoMove(RETHROW)
"""Throw again after a pa ra (``para_mode=ios``)."""


def _reach_table(chained: int = 3) -> tuple[float, ...]:
    """For each distance d, the probability that one step's values can move a stack exactly d.

    The step's values are the throw's sum, after up to ``chained`` pa ra (each adds a 2 and throws again);
    any sub-multiset may be spent (the default rules). Index 0 is unused.
    """
    reach: dict[int, Fraction] = {}

    def throw(values: tuple[int, ...], probability: Fraction, paras: int) -> None:
        for move, chance in THROWS:
            if (move.low, move.high) == (1, 1) and paras < chained:
                throw((*values, 2), probability * chance, paras + 1)
                continue
            spent = (*values, move.low + move.high)
            sums = {
                sum(subset)
                for count in range(1, len(spent) + 1)
                for subset in itertools.combinations(spent, count)
            }
            for total in sums:
                reach[total] = reach.get(total, Fraction(0)) + probability * chance

    throw((), Fraction(1), 0)
    return tuple(float(reach.get(distance, 0)) for distance in range(max(reach) + 1))


REACH: Final = _reach_table()
"""The evaluation's chance that one step can move a stack exactly d positions, by d (index 0 unused)."""
REACH_SPAN: Final = 12
"""How far behind a stack the evaluation looks for stacks that could land on it (a throw's most)."""
STEP: Final = 7.0
"""The mean throw: positions a stack moves per step."""
OVERSHOOT: Final = 0.56
"""Steps a stack needs beyond distance / 7 to get past the goal: E[X^2] / (2 E[X]^2) for a throw X."""
HAND_EXTRA: Final = 1.3
"""Steps a coin in hand costs beyond a lone coin at position 0: it must enter before it can move."""
DANGER: Final = 0.5
"""The share of a stack's loss when killed that a threat against it costs (not every threat is taken)."""
DANGER_LATER: Final = 0.5
"""The weight of threats by enemies who act only after the threatened side has moved again."""
MERGE: Final = 2.0
"""How many of a stack's steps the chance that one of its side's stacks behind lands on it saves."""
THROW_AHEAD: Final = 1.0
"""The steps the side to move saves when it is about to throw (the throw to come)."""
TEMPERATURE: Final = 0.25
"""Win chances are a softmax of -0.25 times each side's steps to finish."""
CONFIDENCE: Final = 0.95
"""The evaluation's expected returns are scaled by this, so that only the end of a game is worth +-1."""

PHASES: Final = ("throw", "move", "draw", "follow")
"""The step's phases as :attr:`ShoPosition.phase` names them (see :attr:`ShoState.phase`)."""

NUMBERED_PARAS: Final = 7
"""The most pa ra (1,1) in one turn that the action numbering and ``max_game_length`` count on.

A chain of pa ra has no end in the rules, so neither has the number of legal moves of a state: no finite
action space numbers them all (``docs/games/sho.md``, "Actions and observations"). Eight pa ra in one
turn have a chance of the order of 36**-8 (3.5e-13) per turn."""
NUMBERED_VALUES: Final = NUMBERED_PARAS + 1
"""The most values in hand the action numbering covers under ``para_subsets=all``: one more than the pa ra
thrown in the turn (every step adds one throw's value and spends at least one)."""
SPECIAL_ACTIONS: Final = ("pass", "rethrow", "six-three entry")
"""The last three action ids, in this order (see :attr:`ShoGame.num_distinct_actions`)."""


@dataclass(frozen=True, slots=True)
class ShoPosition:
    """Every field of a Sho position, as plain values (:attr:`ShoState.position`).

    What :meth:`ShoState.to_text` writes, the reader reads, and the kernel's arrays hold;
    :meth:`ShoGame.state_from_position` makes the state again. Sides are numbered from 0 (``a``); track
    positions run from 0 (the hand, never a stack) to ``goal - 1``.

    Attributes:
        owner: per track position, the side owning the stack there, or -1 (``goal`` entries).
        size: per track position, the coins in its stack (0 where there is none).
        hand: per side, the coins in hand.
        off: per side, the coins borne off.
        entered: per side, whether it has ever entered a coin.
        seat: the seat whose turn it is (also while the dice are thrown for it).
        phase: one of :data:`PHASES`: ``"throw"`` (the dice are to be thrown), ``"move"`` (the seat
            spends ``values``), ``"follow"`` (the second part of a flexible pa ra, or a finishing
            overflow: one value, another stack) or ``"draw"`` (the draw of the first seat).
        values: the values the seat may spend in this step, increasing (carried over into a throw).
        paras: the pa ra (1,1) thrown in this step so far.
        first: the step's first throw as (low, high) faces, or ``None``.
        turns: seat turns completed (what ``max_turns`` counts).
        ply: plies so far, throws included.
        winner: the side that has won, or ``None``. The game is over once there is a winner or
            ``turns`` reaches ``max_turns`` (a draw).
        moved: in the follow phase, the position of the stack that may not move again, or -1.
        bonus: in the follow phase, whether the step's first part already earned another throw.
        banked: under ``para_mode=pool``, the bonus throws earned in this step and still to take.
        shomo: under ``opening_kill=topup3_on_shomo``, the positions of the opening stacks (Sho-mo).
        placed: under ``play_to_placings``, the sides that have finished, first finisher first.
    """

    owner: tuple[int, ...]
    size: tuple[int, ...]
    hand: tuple[int, ...]
    off: tuple[int, ...]
    entered: tuple[bool, ...]
    seat: int
    phase: str
    values: tuple[int, ...] = ()
    paras: int = 0
    first: tuple[int, int] | None = None
    turns: int = 0
    ply: int = 0
    winner: int | None = None
    moved: int = -1
    bonus: bool = False
    banked: int = 0
    shomo: frozenset[int] = frozenset()
    placed: tuple[int, ...] = ()


_ON_OFF: Final = ("off", "on")

_SETTINGS: Final = (
    Setting("players", 3, "how many players: 2, 3 (the usual number) or 4", minimum=2, maximum=4),
    Setting(
        "four_player_mode",
        "teams",
        "with 4 players: two teams of two seated alternately, or everyone for themselves",
        ("teams", "free_for_all"),
    ),
    Setting(
        "team_coins",
        "shared",
        "teams share 9 coins, or each partner has its own 9 (a partner's stack then blocks)",
        ("shared", "separate"),
    ),
    Setting(
        "team_win",
        "both",
        "with separate team coins, the team wins when both or the first finish",
        ("both", "first"),
    ),
    Setting("shells", 64, "shells in the line (R1)", minimum=13, maximum=200),
    Setting("coins", 9, "coins per side (R1)", minimum=1, maximum=20),
    Setting(
        "goal",
        "shells",
        "the goal: just past the last shell, or one space later (R2)",
        ("shells", "shells+1"),
    ),
    Setting(
        "first_player",
        "seat0",
        "who throws first: the first seat, a seat drawn at random, or the previous game's winner (R3)",
        ("seat0", "random", "previous_winner"),
    ),
    Setting(
        "previous_winner",
        0,
        "in a series, the seat (1-4) that made the winning move of the last game; 0 for the first game",
        minimum=0,
        maximum=4,
    ),
    Setting(
        "play_to_placings",
        "off",
        "with each player alone, play on after the first finishes until every placing is settled (R14)",
        _ON_OFF,
    ),
    Setting("opening_size", 2, "coins in an opening entry (R5)", minimum=2, maximum=3),
    Setting(
        "opening_12_bonus", "on", "a first throw of (1,2) makes the opening entry 3 coins (R5)", ("on", "off")
    ),
    Setting(
        "opening_para_size",
        3,
        "coins in an opening entry whose first throw was (1,1) (R5)",
        minimum=2,
        maximum=3,
    ),
    Setting(
        "opening_kill",
        "n_plus_1",
        "an opening entry onto n enemy coins: n+1 enter and kill; or it kills only if big enough (plain), "
        "and a killer of an opening stack (Sho-mo) is topped up to 3 from the hand (topup3_on_shomo) (R6)",
        ("n_plus_1", "plain", "topup3_on_shomo"),
    ),
    Setting("six_three", "off", "a re-opening throw of (6,3) may bring all nine to position 9 (R7)", _ON_OFF),
    Setting(
        "reopen_when",
        "all9_in_hand",
        "the opening rules apply again when all coins are in hand, or whenever none are on the track (R7)",
        ("all9_in_hand", "board_empty"),
    ),
    Setting(
        "last_kill_ends_turn",
        "off",
        "a kill that clears the victim's last stack ends the turn (R10)",
        _ON_OFF,
    ),
    Setting(
        "para_mode",
        "wikipedia",
        "pa ra (1,1): values 2, X, 2+X with carry-over; or 2 now / rethrow for 2+X; or a pool of values "
        "spent one per move with banked bonus throws (R11)",
        ("wikipedia", "ios", "pool"),
    ),
    Setting(
        "para_subsets",
        "all",
        "which values one move may spend: any combination, or one value or all of them (R11)",
        ("all", "single_or_total"),
    ),
    Setting("triple_para_win", "off", "three pa ra in one step win at once (R11)", _ON_OFF),
    Setting("exact_bear_off", "off", "bearing off needs the exact value (R12)", _ON_OFF),
    Setting("allow_pass", "off", "a player may pass instead of making a legal move (R13)", _ON_OFF),
    Setting(
        "flexible_para",
        "off",
        "after a pa ra, 2 + the next throw may be split between two different stacks (R17)",
        _ON_OFF,
    ),
    Setting(
        "flexible_bonus",
        "either",
        "with flexible_para, a stack or kill by either part, or only by the second, earns a throw (R17)",
        ("either", "second_only"),
    ),
    Setting(
        "finishing_overflow",
        "off",
        "the excess of a move that bears off may move a second stack (R12, R17)",
        _ON_OFF,
    ),
    Setting("no_niner", "off", "no stack of all nine coins may be built (R17)", _ON_OFF),
    Setting("max_turns", 2000, "seat turns before the game is cut and drawn (length cap)", minimum=1),
)


class ShoGame(Game["ShoState"]):
    """Sho under fixed settings; see ``docs/games/sho.md`` for each setting's effect."""

    id = "sho"
    name = "Sho"
    version = 1
    blurb = "the Tibetan dice race for 2–4 players, with stacking, kills and pa ra"
    display_order = 3
    agent_levels: ClassVar[Mapping[str, str]] = {
        "easy": "kernel-alphabeta:depth=1,noise=0.25",
        "medium": "kernel-alphabeta:depth=1,noise=0.1",
        "hard": "kernel-alphabeta:depth=1",
        "expert": "kernel-rollout:playouts=1000",
        "master": "kernel-rollout:playouts=4000",
    }
    reference_levels: ClassVar[Mapping[str, str]] = {
        "hard": "alphabeta:depth=2",
        "expert": "alphabeta:depth=2",
        "master": "alphabeta:depth=2",
    }
    move_theme_names: ClassVar[Mapping[str, str]] = {
        "kill": "the stack lands on an enemy stack and sends its coins back to the hand",
        "stack": "the stack lands on one of its own side's stacks",
        "bear-off": "the stack reaches the goal and leaves the track",
        "pa-ra": "the step's throws held a pa ra (1-1), whose value 2 the move may spend",
    }
    view_module = "shogames.games.sho.view"
    render_module = "shogames.games.sho.render"
    setting_specs = _SETTINGS
    presets: ClassVar[Mapping[str, Mapping[str, SettingValue]]] = {
        "classic": {},
        "lhasa": {"six_three": "on", "triple_para_win": "on"},
        "two-players": {"players": 2},
        "four-players": {"players": 4, "four_player_mode": "free_for_all"},
        "four-teams": {"players": 4, "four_player_mode": "teams"},
    }
    kernel_module = "shogames.games.sho.kernel"

    def __init__(self, preset: str | None = None, **settings: object) -> None:
        super().__init__(preset, **settings)
        s = self.settings
        self.players = int(s["players"])
        self.teams = self.players == 4 and s["four_player_mode"] == "teams"
        self.shared = self.teams and s["team_coins"] == "shared"
        self.num_sides = 2 if self.shared else self.players
        self.coins = int(s["coins"])
        self.goal = int(s["shells"]) + (1 if s["goal"] == "shells+1" else 0)
        self.no_niner = s["no_niner"] == "on"
        self.cap = self.coins - 1 if self.no_niner else self.coins  # the biggest stack allowed
        self.six_three = s["six_three"] == "on" and not self.no_niner and self.goal > 9
        self.ios = s["para_mode"] == "ios"
        self.pool = s["para_mode"] == "pool"
        self.topup = s["opening_kill"] == "topup3_on_shomo"
        self.flexible = s["flexible_para"] == "on"
        self.overflow = s["finishing_overflow"] == "on"
        self.placings = s["play_to_placings"] == "on"
        if self.placings and self.teams:
            raise SettingsError(
                "play_to_placings is for players alone; four players in teams have no placings"
            )
        if int(s["previous_winner"]) > self.players:
            raise SettingsError(f"previous_winner is a seat from 1 to {self.players}, or 0")
        if self.flexible and (self.ios or self.pool):
            raise SettingsError("flexible_para=on is a pa ra of its own; it needs para_mode=wikipedia")
        self.any_subset = s["para_subsets"] == "all"
        if self.cap < 1:
            raise SettingsError("no_niner with a single coin leaves no legal stack")

    @property
    def player_names(self) -> tuple[str, ...]:
        """``Player 1`` .. ``Player N`` in turn order; with teams, players 1 and 3 are team A."""
        return tuple(f"Player {seat + 1}" for seat in range(self.players))

    @property
    def steps_per_turn(self) -> int:
        """The most steps (throws then a move) one seat turn can have under these settings.

        Every step but the last of a turn follows a stack or a kill. A stack lowers the mover's coins in
        hand plus its stacks on the track by at least one, and a kill lowers the enemy stacks on the track
        by one; neither count ever grows during the turn (places, entries and kills by an entry keep or
        lower the first, and enemies do not move). The first starts at ``coins`` at most and stays at one
        or more after a stack, and the enemy stacks are at most the enemies' killable coins (a partner's
        stack under separate coins cannot be killed) and at most the positions the mover does not hold:
        so ``min(coins + killable coins, coins + goal - 1)`` steps at most.
        """
        if self.shared:
            killable = self.coins
        elif self.teams:
            killable = 2 * self.coins  # the two sides of the other team; a partner's stack blocks
        else:
            killable = (self.num_sides - 1) * self.coins
        return min(self.coins + killable, self.coins + self.goal - 1)

    @property
    def max_game_length(self) -> int:
        """The most plies of a game, from the turn cap: ``max_turns`` turns of at most this many plies each.

        A turn of ``S`` steps (at most :attr:`steps_per_turn`) has ``S`` throws that end a step, one more
        throw per pa ra, and one move per step (a step with no legal move ends inside its throw). A flexible
        pa ra's second part or a finishing overflow adds at most one move per step; under ``para_mode=ios``
        each pa ra may add a ``rethrow``; under ``para_mode=pool`` every move spends one value, and a turn
        gets one value per step and one per pa ra. So a turn has at most ``2 S + P`` plies (``3 S + P`` with
        ``flexible_para`` or ``finishing_overflow``, ``2 S + 2 P`` under ``ios`` or ``pool``), where ``P``
        is the pa ra of the turn, counted as :data:`NUMBERED_PARAS` (the rules put no end to a chain of
        pa ra; a game outlasts the bound only if its pa ra outnumber ``P`` per turn by more than the steps
        its turns leave unused). The draw of the first seat (``first_player=random``) adds one ply.
        """
        steps, paras = self.steps_per_turn, NUMBERED_PARAS
        if self.ios or self.pool:
            per_turn = 2 * steps + 2 * paras
        elif self.flexible or self.overflow:
            per_turn = 3 * steps + paras
        else:
            per_turn = 2 * steps + paras
        draw = 1 if self.settings["first_player"] == "random" else 0
        return draw + int(self.settings["max_turns"]) * per_turn

    @property
    def spend_codes(self) -> int:
        """How many ways to spend the values the action numbering tells apart for one source.

        ``para_mode=ios``: 1 (one value, spent whole). ``flexible_para``: the first part of a split, 1 to
        2 + 2 x (pa ra) + 12, so ``2 * NUMBERED_PARAS + 12``. ``pool``: the value spent, 2 to 12 (11).
        ``para_subsets=single_or_total``: one value, 2 to 12, or all of them (12). Otherwise any
        sub-multiset of at most :data:`NUMBERED_VALUES` values: a non-empty set of their places in the
        sorted values, ``2 ** NUMBERED_VALUES - 1``.
        """
        if self.ios:
            return 1
        if self.flexible:
            return 2 * NUMBERED_PARAS + 12
        if self.pool:
            return 11
        if not self.any_subset:
            return 12
        return (1 << NUMBERED_VALUES) - 1

    @property
    def num_distinct_actions(self) -> int:
        """``goal`` sources (the hand, then positions 1 .. goal - 1) times :attr:`spend_codes`, then 3.

        A move's id is ``source * spend_codes + code`` (source 0 is an entry from the hand), and the last
        three ids are :data:`SPECIAL_ACTIONS`: ``pass``, ``rethrow`` and the six-three entry of all the
        coins. The default (goal 64, any sub-multiset): 64 x 255 + 3 = 16,323.
        """
        return self.goal * self.spend_codes + len(SPECIAL_ACTIONS)

    @property
    def max_chance_outcomes(self) -> int:
        """21: the unordered throws of two dice (the draw of the first seat uses ids 0 .. players - 1)."""
        return len(THROWS)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """(planes, goal + 1): places 0 (the hand) .. goal (borne off); :attr:`observation_planes`."""
        return (len(self.observation_planes), self.goal + 1)

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """One name per plane; sides and seats counted from the observer's, in turn order.

        Per side (the observer's first): its coins at each place (hand at 0, stacks, borne off at
        ``goal``), whether it has entered, its placing; then whose turn (per seat offset), the phase, the
        values to spend (by distance), the step's pa ra, the step's first throw when it is (1,1), (1,2) or
        (3,6), the follow phase's moved stack and earned throw, the banked throws, the Sho-mo stacks and the
        turn cap's progress.
        """
        sides = [f"side +{offset}" if offset else "own side" for offset in range(self.num_sides)]
        return (
            *(f"coins: {side}" for side in sides),
            *(f"entered: {side}" for side in sides),
            *(f"placed: {side}" for side in sides),
            *(f"turn: seat +{offset}" for offset in range(self.players)),
            *(f"phase: {name}" for name in PHASES),
            "values by distance",
            "pa ra this step",
            "first throw 1-1",
            "first throw 1-2",
            "first throw 3-6",
            "follow: moved stack",
            "follow: throw earned",
            "banked throws",
            "sho-mo",
            "turn cap progress",
        )

    @property
    def min_utility(self) -> float:
        """What a losing seat gets: -1 with two players, in teams or in last place, else -1/(players - 1)."""
        return -1.0 if self.teams or self.placings else -1.0 / (self.players - 1)

    @property
    def has_chance(self) -> bool:
        """The dice are chance outcomes."""
        return True

    def side_of(self, seat: int) -> int:
        """The side whose coins ``seat`` moves."""
        return seat % 2 if self.shared else seat

    def partners(self, side: int) -> frozenset[int]:
        """The sides on ``side``'s team, itself included (teams with separate coins pair 0-2 and 1-3)."""
        if self.teams and not self.shared:
            return frozenset((side, (side + 2) % 4))
        return frozenset((side,))

    def win_returns(self, side: int) -> tuple[float, ...]:
        """Every seat's return when ``side`` wins, without placings.

        The winning seats (the side, or both partners) get +1 and the others share the loss.
        """
        winners = self.partners(side)  # the side itself, or both partners' sides
        won = [seat for seat in range(self.players) if self.side_of(seat) in winners]
        lost = self.players - len(won)
        return tuple(1.0 if seat in won else -len(won) / lost for seat in range(self.players))

    def new_initial_state(self) -> ShoState:
        """All coins in hand, the first seat (or the draw for it) to throw."""
        phase = _FIRST_PHASE if self.settings["first_player"] == "random" else _THROW_PHASE
        first_seat = 0
        if self.settings["first_player"] == "previous_winner" and int(self.settings["previous_winner"]):
            first_seat = int(self.settings["previous_winner"]) - 1
        empty = (-1,) * self.goal
        return ShoState(
            self,
            owner=empty,
            size=(0,) * self.goal,
            hand=(self.coins,) * self.num_sides,
            off=(0,) * self.num_sides,
            entered=(False,) * self.num_sides,
            seat=first_seat,
            phase=phase,
        )

    def state_from_text(self, text: str) -> ShoState:
        """Read a position written by :meth:`ShoState.to_text` (format in ``docs/games/sho.md``).

        Raises:
            NotationError: the text is not a Sho position of this game; the message names the field.
        """
        return _read_position(self, text)

    def state_from_position(self, position: ShoPosition, *, history: Sequence[object] = ()) -> ShoState:
        """The state of a position value (:attr:`ShoState.position`), trusted as it is.

        Nothing is checked beyond what every state does: a side with all its coins borne off (and its
        partner's, with ``team_win=both``) or all but one side placed gives the winner, and a finished
        game keeps nothing to spend.

        Args:
            position: the position, of a game with these settings.
            history: earlier positions; Sho has no repetition rule, so there are none.

        Raises:
            ValueError: a history was given, or the phase is not one of :data:`PHASES`.
        """
        if history:
            raise ValueError("Sho has no repetition rule: a position has no history")
        if position.phase not in PHASES:
            raise ValueError(f"a Sho phase is one of {', '.join(PHASES)}, got {position.phase!r}")
        return ShoState(
            self,
            owner=position.owner,
            size=position.size,
            hand=position.hand,
            off=position.off,
            entered=position.entered,
            seat=position.seat,
            phase=PHASES.index(position.phase),
            values=position.values,
            paras=position.paras,
            first=position.first,
            turns=position.turns,
            ply=position.ply,
            winner=position.winner,
            follow=(position.moved, int(position.bonus)),
            banked=position.banked,
            shomo=position.shomo,
            placed=position.placed,
        )


class ShoState(State[ShoMove]):
    """A Sho position, between plies: whose turn, the dice phase, the values in hand and the track."""

    __slots__ = (
        "_banked",
        "_end",
        "_entered",
        "_first",
        "_follow",
        "_game",
        "_hand",
        "_legal",
        "_legal_set",
        "_off",
        "_owner",
        "_paras",
        "_phase",
        "_placed",
        "_ply",
        "_seat",
        "_shomo",
        "_size",
        "_turns",
        "_values",
        "_winner",
    )

    def __init__(
        self,
        game: ShoGame,
        *,
        owner: tuple[int, ...],
        size: tuple[int, ...],
        hand: tuple[int, ...],
        off: tuple[int, ...],
        entered: tuple[bool, ...],
        seat: int,
        phase: int,
        values: tuple[int, ...] = (),
        paras: int = 0,
        first: tuple[int, int] | None = None,
        turns: int = 0,
        ply: int = 0,
        winner: int | None = None,
        follow: tuple[int, int] = (-1, 0),
        banked: int = 0,
        shomo: frozenset[int] = frozenset(),
        placed: tuple[int, ...] = (),
    ) -> None:
        self._game = game
        self._owner = owner
        self._size = size
        self._hand = hand
        self._off = off
        self._entered = entered
        self._seat = seat
        self._phase = phase
        self._values = values
        self._paras = paras
        self._first = first
        self._turns = turns
        self._ply = ply
        self._winner = winner
        # In the follow phase: the position of the stack that may not move again (-1: none), and whether
        # the step has already earned another throw (1) from a first part that stacked or killed.
        self._follow = follow
        self._banked = banked  # para_mode=pool: bonus throws earned by stacks and kills, still to take
        self._shomo = shomo  # opening_kill=topup3_on_shomo: positions of opening stacks (Sho-mo)
        self._placed = placed  # play_to_placings: the sides that have finished, in order
        self._legal: tuple[ShoMove, ...] | None = None
        self._legal_set: frozenset[ShoMove] | None = None
        self._end: str | None = None
        if game.placings:
            if len(placed) >= game.num_sides - 1:
                self._winner = placed[0]
        elif winner is None:
            for side in range(game.num_sides):
                if off[side] == game.coins and self._team_done(side):
                    self._winner = side
                    break
        if self._winner is not None:
            self._end = "win"
        elif turns >= int(game.settings["max_turns"]):
            self._end = "cap"
        if self._end is not None:
            # Nothing is left to spend in a finished game: one position, one text.
            self._phase, self._values, self._paras, self._first = _THROW_PHASE, (), 0, None
            self._follow, self._banked = (-1, 0), 0

    def _team_done(self, side: int) -> bool:
        if self._game.settings["team_win"] == "first":
            return True
        return all(self._off[partner] == self._game.coins for partner in self._game.partners(side))

    # --- Facts -----------------------------------------------------------------------------------------

    @property
    def game(self) -> ShoGame:
        """The game and its settings."""
        return self._game

    @property
    def position(self) -> ShoPosition:
        """Every field of the position as one value (:meth:`ShoGame.state_from_position` reads it)."""
        return ShoPosition(
            owner=self._owner,
            size=self._size,
            hand=self._hand,
            off=self._off,
            entered=self._entered,
            seat=self._seat,
            phase=PHASES[self._phase],
            values=self._values,
            paras=self._paras,
            first=self._first,
            turns=self._turns,
            ply=self._ply,
            winner=self._winner,
            moved=self._follow[0],
            bonus=bool(self._follow[1]),
            banked=self._banked,
            shomo=self._shomo,
            placed=self._placed,
        )

    @property
    def history(self) -> tuple[()]:
        """The earlier positions a repetition rule looks at: none, Sho has no such rule."""
        return ()

    @property
    def ply(self) -> int:
        """Plies so far: throws and moves."""
        return self._ply

    @property
    def seat(self) -> int:
        """The seat whose turn it is (also while the dice are thrown for it)."""
        return self._seat

    @property
    def side(self) -> int:
        """The side whose coins the seat to move moves."""
        return self._game.side_of(self._seat)

    @property
    def values(self) -> tuple[int, ...]:
        """The values the seat may still spend this step, in increasing order."""
        return self._values

    @property
    def turns(self) -> int:
        """Seat turns completed: what ``max_turns`` counts."""
        return self._turns

    @property
    def phase(self) -> str:
        """The step's phase: ``"throw"``, ``"move"``, ``"follow"`` or ``"draw"``.

        ``throw``: the dice are to be thrown; ``follow``: the second part of a flexible pa ra, or a
        finishing overflow; ``draw``: the draw of the first seat.
        """
        return PHASES[self._phase]

    @property
    def paras(self) -> int:
        """How many pa ra (1,1) were thrown in this step so far."""
        return self._paras

    @property
    def first_throw(self) -> tuple[int, int] | None:
        """The step's first throw as (low, high) faces, or ``None``; with no pa ra it is the last throw."""
        return self._first

    @property
    def moved_stack(self) -> int | None:
        """In the follow phase, the position of the stack that may not move again, else ``None``."""
        return self._follow[0] if self._follow[0] >= 0 else None

    @property
    def has_bonus_throw(self) -> bool:
        """In the follow phase, whether the step's first part already earned another throw."""
        return bool(self._follow[1])

    @property
    def banked_throws(self) -> int:
        """Under ``para_mode=pool``: bonus throws earned in this step and still to take."""
        return self._banked

    @property
    def shomo(self) -> frozenset[int]:
        """Under ``opening_kill=topup3_on_shomo``: the positions of the opening stacks (Sho-mo)."""
        return self._shomo

    @property
    def entered(self) -> tuple[bool, ...]:
        """Per side, whether it has ever entered a coin."""
        return self._entered

    @property
    def placings(self) -> tuple[int, ...]:
        """Under ``play_to_placings``: the sides that have finished, first finisher first."""
        return self._placed

    def stack_at(self, position: int) -> tuple[int, int] | None:
        """The (side, size) of the stack on ``position`` (1 .. goal - 1), or ``None``."""
        side = self._owner[position]
        return None if side < 0 else (side, self._size[position])

    @property
    def hand(self) -> tuple[int, ...]:
        """Coins in hand per side."""
        return self._hand

    @property
    def borne_off(self) -> tuple[int, ...]:
        """Coins borne off per side."""
        return self._off

    @property
    def to_move(self) -> int | None:
        """The seat to move, CHANCE while the dice are thrown, ``None`` once the game is over."""
        if self._end is not None:
            return None
        if self._phase in (_MOVE_PHASE, _FOLLOW_PHASE):
            return self._seat
        return CHANCE

    def is_terminal(self) -> bool:
        """Over when a side (or team) has borne off all its coins, or at the turn cap."""
        return self._end is not None

    def is_truncated(self) -> bool:
        """Whether the game reached ``max_turns`` without a winner."""
        return self._end == "cap"

    def termination(self) -> str | None:
        """``normal`` (a win), ``length cap``, or ``None`` while going on."""
        if self._end is None:
            return None
        return "normal" if self._end == "win" else "length cap"

    @property
    def finishing_seat(self) -> int | None:
        """The seat whose move won the game (it starts the next game of a series), or ``None``.

        Not "the winner": with teams its partner wins too (:attr:`winner_side`, :attr:`winner_seats`).
        """
        return self._seat if self._winner is not None else None

    @property
    def winner_side(self) -> int | None:
        """The side that won (a player, or a team of partners), or ``None``."""
        return self._winner

    @property
    def winner_seats(self) -> tuple[int, ...]:
        """The seats that won: the winning side's player or both partners; empty while going on or drawn."""
        if self._winner is None:
            return ()
        partners = self._game.partners(self._winner)
        return tuple(seat for seat in range(self._game.players) if self._game.side_of(seat) in partners)

    def returns(self) -> tuple[float, ...]:
        """The winning seats (a player, or both partners) get +1; the others share -1 per winning seat.

        Under ``play_to_placings`` each place has its value, from +1 for the first to -1 for the last; a
        triple pa ra that ends the game gives its side the next place, and the sides still playing share
        the places left.
        """
        game = self._game
        if self._winner is None:
            return (0.0,) * game.players
        if game.placings:
            placed = list(self._placed)
            if self._winner not in placed:
                placed.append(self._winner)  # a triple pa ra ends the game at once: the next place is its
            last = game.num_sides - 1
            free = range(len(placed), last + 1)  # the places left, shared by the sides still playing
            shared = sum(1.0 - 2.0 * rank / last for rank in free) / len(free) if free else 0.0
            return tuple(
                1.0 - 2.0 * placed.index(side) / last if side in placed else shared
                for side in (game.side_of(seat) for seat in range(game.players))
            )
        return game.win_returns(self._winner)

    def forfeit_returns(self, loser: int) -> tuple[float, ...]:
        """Every seat's return when seat ``loser`` gives up (resigns, loses on time, abandons).

        With teams the loser's team loses and the other team wins, exactly as if it had borne off: the
        partners share the outcome (``0-1-0-1`` when Player 1 gives up). Under ``play_to_placings`` the
        sides already placed keep their places, the loser takes the last, and the sides still playing
        share the places between. Otherwise the loser gets the least and the others share its loss.

        Raises:
            ValueError: ``loser`` is not a seat.
        """
        game = self._game
        if not 0 <= loser < game.players:
            raise ValueError(f"the seat that gives up must be from 0 to {game.players - 1}, got {loser}")
        if game.teams:
            losers = game.partners(game.side_of(loser))
            winner = next(side for side in range(game.num_sides) if side not in losers)
            return game.win_returns(winner)
        if game.placings:
            last = game.num_sides - 1
            values = dict.fromkeys(range(game.num_sides), 0.0)
            for rank, side in enumerate(self._placed):
                values[side] = 1.0 - 2.0 * rank / last
            playing = [side for side in range(game.num_sides) if side not in self._placed and side != loser]
            free = list(range(len(self._placed), last + (loser in self._placed)))
            if loser not in self._placed:
                values[loser] = -1.0
            for side in playing:
                values[side] = sum(1.0 - 2.0 * rank / last for rank in free) / len(free)
            return tuple(values[game.side_of(seat)] for seat in range(game.players))
        return super().forfeit_returns(loser)

    def evaluate(self) -> tuple[float, ...]:
        """Each side's chance to win from the steps it still needs (docs/games/sho.md, "Evaluation").

        A side's steps to finish: for each of its stacks the distance to the goal over 7 (a throw's mean)
        plus 0.56 (the overshoot), and for each coin in hand a lone coin's whole way plus 1.3. A stack
        that an enemy stack behind it (at least as big) or an enemy entry could land on next costs half
        of what its death would add, times the chance of the throw (threats by enemies who act only after
        the side has moved again count half); a stack that a stack of its own side behind it could land
        on saves twice the chance of that throw times its steps, at most all of them. The side to move
        saves a step when it is about to throw, and the values it holds over 7. The chances to win are a
        softmax of -0.25 times the steps, and each seat gets its expected return over who wins, times
        0.95: zero-sum, within the game's utility range. Terminal states give their returns.
        """
        if self._end is not None:
            return self.returns()
        game = self._game
        goal, sides = game.goal, game.num_sides
        owner, size, hand = self._owner, self._size, self._hand
        lone = goal / STEP + OVERSHOOT  # the steps of a lone coin from position 0
        in_hand = lone + HAND_EXTRA
        steps = [in_hand * hand[side] for side in range(sides)]
        entry = [self._entry_threat(side) for side in range(sides)]  # the biggest stack an entry kills
        order = self._side_order()
        for position in range(1, goal):
            side = owner[position]
            if side < 0:
                continue
            coins = size[position]
            cost = (goal - position) / STEP + OVERSHOOT
            partners = game.partners(side)
            rank = order[side]
            safe_before = safe_after = alone = 1.0  # no threat before / after the side moves; no merge
            for behind in range(max(1, position - REACH_SPAN), position):
                other = owner[behind]
                if other < 0:
                    continue
                chance = REACH[position - behind]
                if other == side:
                    alone *= 1.0 - chance
                elif size[behind] >= coins and other not in partners:
                    if order[other] < rank:
                        safe_before *= 1.0 - chance
                    else:
                        safe_after *= 1.0 - chance
            if position < len(REACH):
                chance = REACH[position]
                for other in range(sides):
                    if other == side:
                        if hand[side]:
                            alone *= 1.0 - chance
                    elif entry[other] >= coins and other not in partners:
                        if order[other] < rank:
                            safe_before *= 1.0 - chance
                        else:
                            safe_after *= 1.0 - chance
            threat = (1.0 - safe_before) + DANGER_LATER * (1.0 - safe_after)
            steps[side] += (
                cost + DANGER * threat * (coins * in_hand - cost) - min(1.0, MERGE * (1.0 - alone)) * cost
            )
        if self._phase == _THROW_PHASE:  # the throw to come
            steps[self.side] -= THROW_AHEAD + sum(self._values) / STEP
        elif self._phase != _FIRST_PHASE:
            steps[self.side] -= sum(self._values) / STEP
        fewest = min(steps)
        weights = [math.exp(-TEMPERATURE * (amount - fewest)) for amount in steps]
        total = sum(weights)
        values = [0.0] * game.players
        for side, weight in enumerate(weights):
            share = CONFIDENCE * weight / total
            for seat, value in enumerate(game.win_returns(side)):
                values[seat] += share * value
        return tuple(values)

    def _entry_threat(self, side: int) -> int:
        """The biggest stack an entry of ``side`` from the hand could kill (0: no coins in hand)."""
        game = self._game
        hand = self._hand[side]
        if not hand:
            return 0
        if not self._opening(side):
            return 1
        if game.settings["opening_kill"] == "n_plus_1":
            return min(hand, game.cap)
        return min(int(game.settings["opening_size"]), hand, game.cap)

    def _side_order(self) -> dict[int, int]:
        """Each side's rank in the order in which the sides act from now: 0 for the side to move."""
        game = self._game
        order: dict[int, int] = {}
        for step in range(game.players):
            order.setdefault(game.side_of((self._seat + step) % game.players), len(order))
        return order

    def key(self) -> Hashable:
        """Everything that decides what follows; not the ply count."""
        return (
            self._owner,
            self._size,
            self._hand,
            self._off,
            self._entered,
            self._seat,
            self._phase,
            self._values,
            self._paras,
            self._first,
            self._turns,
            self._winner,
            self._follow,
            self._banked,
            self._shomo,
            self._placed,
        )

    def _opening(self, side: int) -> bool:
        """Whether ``side`` enters under the opening rules (R5–R7)."""
        if not self._hand[side]:
            return False
        if self._game.settings["reopen_when"] == "board_empty":
            return side not in self._owner
        return self._hand[side] == self._game.coins

    # --- Chance ------------------------------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[ShoMove, Fraction], ...]:
        """The 21 throws with their exact probabilities, or the draw of the first seat.

        Raises:
            ValueError: the state is not a chance node.
        """
        if self.to_move != CHANCE:
            raise ValueError("chance_outcomes() asked of a Sho state where a seat is to move")
        if self._phase == _FIRST_PHASE:
            share = Fraction(1, self._game.players)
            return tuple((ShoMove(FIRST, coins=seat), share) for seat in range(self._game.players))
        return THROWS

    # --- Legal moves ------------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[ShoMove, ...]:
        """Throws at chance nodes; else every (source, values) move: entries first, then by position."""
        if self._legal is None:
            if self._end is not None:
                self._legal = ()
            elif self._phase in (_THROW_PHASE, _FIRST_PHASE):
                self._legal = tuple(move for move, _ in self.chance_outcomes())
            else:
                moves = self._follow_moves() if self._phase == _FOLLOW_PHASE else self._moves()
                if self._game.ios and self._paras and self._values == (2 * self._paras,):
                    moves.append(RETHROW_MOVE)
                if moves and PASS_MOVE not in moves and self._game.settings["allow_pass"] == "on":
                    moves.append(PASS_MOVE)
                self._legal = tuple(moves)
        return self._legal

    def _subsets(self) -> list[tuple[int, ...]]:
        values = self._values
        if len(values) == 1:
            return [values]
        if self._game.pool:
            return sorted({(value,) for value in values})
        if not self._game.any_subset:
            return sorted({(value,) for value in values} | {values})
        found: set[tuple[int, ...]] = set()
        for count in range(1, len(values) + 1):
            found.update(itertools.combinations(values, count))
        return sorted(found, key=lambda subset: (len(subset), subset))

    def _landing(self, side: int, coins: int, target: int) -> int | None:
        """What happens when ``coins`` coins of ``side`` arrive on ``target``; ``None`` if not allowed."""
        game = self._game
        if target >= game.goal:
            if game.settings["exact_bear_off"] == "on" and target != game.goal:
                return None
            return _OFF
        owner = self._owner[target]
        if owner < 0:
            return _PLACE
        if owner == side:
            return _STACK if coins + self._size[target] <= game.cap else None
        if owner in game.partners(side):
            return None  # a partner's stack (separate team coins) can be neither joined nor killed
        return _KILL if self._size[target] <= coins else None

    def _entry_size(self, side: int, target: int) -> int | None:
        """How many coins an entry of ``side`` onto ``target`` brings, or ``None`` if it cannot enter."""
        game = self._game
        hand = self._hand[side]
        if not self._opening(side):
            return 1
        size = game.settings["opening_size"]
        first = self._first
        if first == (1, 1):
            size = game.settings["opening_para_size"]
        elif first == (1, 2) and game.settings["opening_12_bonus"] == "on":
            size = 3
        size = min(int(size), hand, game.cap)
        if target < game.goal:
            owner = self._owner[target]
            if (
                owner >= 0
                and owner not in game.partners(side)
                and game.settings["opening_kill"] == "n_plus_1"
            ):
                size = min(max(size, self._size[target] + 1), hand, game.cap)
        return size

    def _splitting(self) -> bool:
        """Whether this step's single value comes from a flexible pa ra and may be split (R17)."""
        return self._game.flexible and self._paras > 0 and self._phase == _MOVE_PHASE

    def _follow_moves(self) -> list[ShoMove]:
        """The second part of a flexible pa ra, or a finishing overflow: another stack on the track."""
        side = self.side
        (value,) = self._values
        moves = [
            ShoMove(MOVE, source, self._values)
            for source in range(1, self._game.goal)
            if self._owner[source] == side
            and source != self._follow[0]
            and self._landing(side, self._size[source], source + value) is not None
        ]
        if self._game.overflow and self._follow[0] < 0 and not self._paras and moves:
            moves.append(PASS_MOVE)  # the overflow may be left unused
        return moves

    def _moves(self) -> list[ShoMove]:
        game = self._game
        side = self.side
        moves: list[ShoMove] = []
        sources = [position for position in range(1, game.goal) if self._owner[position] == side]
        subsets = self._subsets()
        if self._splitting():
            subsets = [(part,) for part in range(1, self._values[0] + 1)]
        for subset in subsets:
            value = sum(subset)
            if self._hand[side]:
                coins = self._entry_size(side, value)
                if coins is not None and self._landing(side, coins, value) is not None:
                    moves.append(ShoMove(ENTER, values=subset, coins=coins))
                if (
                    game.six_three
                    and subset == (9,)
                    and self._first == (3, 6)
                    and self._entered[side]
                    and self._hand[side] == game.coins
                    and self._owner[9] < 0
                    and coins != game.coins
                ):
                    moves.append(ShoMove(ENTER, values=subset, coins=game.coins))
            moves.extend(
                ShoMove(MOVE, source, subset)
                for source in sources
                if self._landing(side, self._size[source], source + value) is not None
            )
        return moves

    # --- Actions and observations -------------------------------------------------------------------------

    def _spend_code(self, spent: tuple[int, ...]) -> int:
        """The code of spending ``spent`` here (see :attr:`ShoGame.spend_codes`).

        Raises:
            ValueError: ``spent`` is not a way to spend this state's values, or lies beyond the numbering.
        """
        game = self._game
        held = self._values
        if not spent:
            raise ValueError("a move spends at least one value")
        if game.ios or self._phase == _FOLLOW_PHASE:
            code = 0 if spent == held else -1
        elif game.flexible:
            if self._splitting():
                code = spent[0] - 1 if len(spent) == 1 and 1 <= spent[0] <= held[0] else -1
            else:
                code = 0 if spent == held else -1
        elif game.pool or not game.any_subset:
            if len(spent) == 1 and spent[0] in held:
                code = spent[0] - 2
            elif not game.pool and spent == held:
                code = 11
            else:
                code = -1
        elif len(held) > NUMBERED_VALUES:
            raise ValueError(self._beyond(spent))
        else:
            code = _subset_mask(held, spent) - 1
        if code < 0:
            raise ValueError(f"the values {spent} are not a way to spend {self._values_text()} here")
        if code >= game.spend_codes:
            raise ValueError(self._beyond(spent))
        return code

    def _beyond(self, spent: tuple[int, ...]) -> str:
        return (
            f"spending {spent} of {self._values_text()} lies beyond the action numbering, which counts at "
            f"most {NUMBERED_PARAS} pa ra in a turn (docs/games/sho.md, 'Actions and observations')"
        )

    def _spent_values(self, code: int) -> tuple[int, ...] | None:
        """The values that spend code ``code`` spends here, or ``None`` where no move has that code."""
        game = self._game
        held = self._values
        if game.ios or self._phase == _FOLLOW_PHASE or (game.flexible and not self._splitting()):
            return held if code == 0 else None
        if game.flexible:
            return (code + 1,) if code < held[0] else None
        if game.pool or not game.any_subset:
            if code == 11:
                return held if len(held) > 1 and not game.pool else None
            return (code + 2,) if code + 2 in held else None
        mask = code + 1
        if mask >> len(held) or len(held) > NUMBERED_VALUES:
            return None
        spent = tuple(value for place, value in enumerate(held) if mask >> place & 1)
        return spent if _subset_mask(held, spent) == mask else None  # equal values: the first places

    def move_to_action(self, move: ShoMove) -> int:
        """The action id of ``move``: a throw's index in :data:`THROWS`, the first seat, or a seat's move.

        A seat's move is ``source * spend_codes + code``: source 0 for an entry from the hand, else the
        stack's position, and the code of the values spent (:attr:`ShoGame.spend_codes`); ``pass``,
        ``rethrow`` and the six-three entry of all the coins are the last three ids
        (:data:`SPECIAL_ACTIONS`).

        Raises:
            ValueError: the game is over, ``move`` is not of the kind played here, or it lies beyond the
                numbering (more than :data:`NUMBERED_PARAS` pa ra in this turn).
        """
        game = self._game
        if self._end is not None:
            raise ValueError(f"the game is over ({self.termination()}): no move has an action id")
        kind = move.kind
        if self.to_move == CHANCE:
            if kind == FIRST and self._phase == _FIRST_PHASE and 0 <= move.coins < game.players:
                return move.coins
            if kind == THROW and self._phase == _THROW_PHASE and 1 <= move.low <= move.high <= 6:
                low, high = move.low, move.high
                return (low - 1) * (14 - low) // 2 + high - low  # the place of (low, high) in THROWS
            raise ValueError(f"{move!r} is not a chance outcome here: the dice are to be thrown")
        specials = game.goal * game.spend_codes
        if kind == PASS:
            return specials
        if kind == RETHROW:
            return specials + 1
        if kind == ENTER:
            if self._hand[self.side] and move.coins != self._entry_size(self.side, sum(move.values)):
                return specials + 2  # six-three: all the coins, besides the ordinary entry
            source = 0
        elif kind == MOVE and 0 < move.source < game.goal:
            source = move.source
        else:
            raise ValueError(f"{move!r} is not a move of Player {self._seat + 1} here")
        return source * game.spend_codes + self._spend_code(move.values)

    def action_to_move(self, action: int) -> ShoMove:
        """The legal move with id ``action``, decoded from the id and checked against the legal moves.

        Raises:
            IllegalMoveError: no legal move here has this id (out of range or not an int included).
        """
        game = self._game
        try:
            number = -1 if isinstance(action, bool) else operator.index(action)
        except TypeError:
            number = -1
        if self._end is not None or number < 0:
            raise self._illegal_action(action)
        action = number
        move: ShoMove | None = None
        if self._phase == _FIRST_PHASE:
            move = ShoMove(FIRST, coins=action) if action < game.players else None
        elif self._phase == _THROW_PHASE:
            move = THROWS[action][0] if action < len(THROWS) else None
        else:
            codes = game.spend_codes
            source, code = divmod(action, codes)
            side = self.side
            if source >= game.goal:
                special = action - game.goal * codes
                if special == 0:
                    move = PASS_MOVE
                elif special == 1:
                    move = RETHROW_MOVE
                elif special == 2 and self._entry_size(side, 9) != game.coins:
                    move = ShoMove(ENTER, values=(9,), coins=game.coins)
            else:
                spent = self._spent_values(code)
                if spent is not None and source == 0:
                    move = ShoMove(ENTER, values=spent, coins=self._entry_size(side, sum(spent)) or 0)
                elif spent is not None:
                    move = ShoMove(MOVE, source, spent)
        if move is None or move not in self._legal_moves_set():
            raise self._illegal_action(action)
        return move

    def _legal_moves_set(self) -> frozenset[ShoMove]:
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_moves())
        return self._legal_set

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` sees: :attr:`ShoGame.observation_planes` over places 0 (hand) .. goal (borne off).

        Sides are taken from ``seat``'s: its own side first, then the other sides in the order they play
        after it (with teams, the own team and the other). Coins are counted over the side's coins; the
        values to spend are counted at their distance (a value past the goal at ``goal``); the pa ra of the
        step over 3; the turn cap's progress is turns played over ``max_turns``.

        Raises:
            ValueError: ``seat`` is not a seat of the game.
        """
        self._check_seat(seat)
        game = self._game
        goal, coins, width = game.goal, game.coins, game.goal + 1
        order: list[int] = []
        for offset in range(game.players):
            side = game.side_of((seat + offset) % game.players)
            if side not in order:
                order.append(side)
        planes: list[list[float]] = []

        def constant(value: float) -> None:
            planes.append([float(value)] * width)

        for side in order:
            plane = [0.0] * width
            plane[0] = self._hand[side] / coins
            plane[goal] = self._off[side] / coins
            for position in range(1, goal):
                if self._owner[position] == side:
                    plane[position] = self._size[position] / coins
            planes.append(plane)
        for side in order:
            constant(self._entered[side])
        for side in order:
            constant((1 + self._placed.index(side)) / game.num_sides if side in self._placed else 0.0)
        playing = self._end is None
        for offset in range(game.players):
            constant(playing and (seat + offset) % game.players == self._seat)
        for phase in range(len(PHASES)):
            constant(playing and self._phase == phase)
        plane = [0.0] * width
        for value in self._values:
            plane[min(value, goal)] += 1.0
        planes.append(plane)
        constant(self._paras / 3)
        for faces in ((1, 1), (1, 2), (3, 6)):
            constant(self._first == faces)
        plane = [0.0] * width
        if self._follow[0] >= 0:
            plane[self._follow[0]] = 1.0
        planes.append(plane)
        constant(self._follow[1])
        constant(self._banked)
        plane = [0.0] * width
        for position in self._shomo:
            plane[position] = 1.0
        planes.append(plane)
        constant(self._turns / int(game.settings["max_turns"]))
        return [value for plane in planes for value in plane]

    # --- Playing -------------------------------------------------------------------------------------------

    def _next(self, **changes: object) -> ShoState:
        fields: dict[str, object] = {
            "owner": self._owner,
            "size": self._size,
            "hand": self._hand,
            "off": self._off,
            "entered": self._entered,
            "seat": self._seat,
            "phase": self._phase,
            "values": self._values,
            "paras": self._paras,
            "first": self._first,
            "turns": self._turns,
            "ply": self._ply + 1,
            "follow": self._follow,
            "banked": self._banked,
            "shomo": self._shomo,
            "placed": self._placed,
        }
        fields.update(changes)
        return ShoState(self._game, **fields)  # type: ignore[arg-type]

    def _new_step(self, values: tuple[int, ...] = (), **changes: object) -> ShoState:
        """The same seat throws again for a new step, carrying ``values`` over.

        It also leaves a won game with no values to spend.
        """
        fields: dict[str, object] = {
            "phase": _THROW_PHASE,
            "values": values,
            "paras": 0,
            "first": None,
            "follow": (-1, 0),
        }
        fields.update(changes)
        return self._next(**fields)

    def _end_turn(self, **changes: object) -> ShoState:
        """Pass the dice to the next seat (skipping finished players); unused values are lost."""
        game = self._game
        placed = changes.get("placed", self._placed)
        seat = (self._seat + 1) % game.players
        while game.side_of(seat) in placed:  # type: ignore[operator]
            seat = (seat + 1) % game.players
        return self._next(
            seat=seat,
            phase=_THROW_PHASE,
            values=(),
            paras=0,
            first=None,
            turns=self._turns + 1,
            **{"follow": (-1, 0), "banked": 0, **changes},
        )

    def play_unchecked(self, move: ShoMove) -> ShoState:
        """The state after ``move`` (taken from :meth:`legal_moves`)."""
        kind = move.kind
        if kind == FIRST:
            return self._next(seat=move.coins, phase=_THROW_PHASE)
        if kind == THROW:
            return self._play_throw(move.low, move.high)
        if kind == PASS:
            if self._phase == _FOLLOW_PHASE and self._follow[1]:
                return self._new_step()
            return self._end_turn()
        if kind == RETHROW:
            return self._next(phase=_THROW_PHASE)
        return self._play_move(move)

    def _play_throw(self, low: int, high: int) -> ShoState:
        game = self._game
        first = self._first if self._first is not None else (low, high)
        if (low, high) == (1, 1):
            paras = self._paras + 1
            if game.settings["triple_para_win"] == "on" and paras == 3:
                return self._next(values=(), first=first, paras=paras, winner=self.side)
            if game.ios:
                # iOS pa ra: 2 (more with chained pa ra) now, or throw again for 2 + the new throw.
                return self._settle(
                    self._next(values=(2 * paras,), paras=paras, first=first, phase=_MOVE_PHASE)
                )
            return self._next(values=_insert(self._values, 2), paras=paras, first=first)
        if (game.ios or game.flexible) and self._paras:
            values: tuple[int, ...] = (2 * self._paras + low + high,)
        else:
            values = _insert(self._values, low + high)
        return self._settle(self._next(values=values, first=first, phase=_MOVE_PHASE))

    def _settle(self, state: ShoState) -> ShoState:
        """A state where the seat has no legal move ends the turn at once (R13).

        In a follow-up whose first part already earned a throw, that throw comes next instead.
        """
        if state._end is None and not state.legal_moves():
            if state._banked:  # para_mode=pool: the pool is blocked, so a banked throw comes next
                return state._new_step(ply=state._ply, banked=state._banked - 1)
            if state._phase == _FOLLOW_PHASE and state._follow[1]:
                return state._new_step(ply=state._ply)
            return state._end_turn(ply=state._ply)
        return state

    def _play_move(self, move: ShoMove) -> ShoState:
        game = self._game
        side = self.side
        owner = list(self._owner)
        size = list(self._size)
        hand = list(self._hand)
        off = list(self._off)
        entered = list(self._entered)
        value = sum(move.values)
        if move.kind == ENTER:
            coins = move.coins
            hand[side] -= coins
            entered[side] = True
            target = value
        else:
            coins = size[move.source]
            owner[move.source] = -1
            size[move.source] = 0
            target = move.source + value
        result = self._landing(side, coins, target)
        victim = -1
        shomo = self._shomo
        was_shomo = move.kind == MOVE and move.source in shomo
        victim_shomo = target in shomo and result == _KILL
        if game.topup:
            shomo = shomo - {move.source, target}
        placed = self._placed
        if result == _OFF:
            off[side] += coins
            if game.placings and off[side] == game.coins:
                placed = (*placed, side)
        elif result == _PLACE:
            owner[target], size[target] = side, coins
        elif result == _STACK:
            size[target] += coins
        else:  # a kill: the victims go back to their owner's hand
            victim = owner[target]
            hand[victim] += size[target]
            owner[target], size[target] = side, coins
        if game.topup and result in (_PLACE, _KILL):
            if victim_shomo and coins < 3 and hand[side]:
                # LL's "killer bonus": whoever kills a Sho-mo is topped up to 3 coins from the hand.
                extra = min(3 - coins, hand[side], game.cap - coins)
                hand[side] -= extra
                size[target] += extra
            elif was_shomo or (move.kind == ENTER and self._opening(side)):
                shomo = shomo | {target}  # an opening stack, or one that moved unchanged, is a Sho-mo
        if game.topup:
            changes_shomo: dict[str, object] = {"shomo": frozenset(shomo)}
        else:
            changes_shomo = {}
        changes: dict[str, object] = {
            "owner": tuple(owner),
            "size": tuple(size),
            "hand": tuple(hand),
            "off": tuple(off),
            "entered": tuple(entered),
            "placed": placed,
            **changes_shomo,
        }
        earned = result in (_STACK, _KILL) and not (
            result == _KILL and game.settings["last_kill_ends_turn"] == "on" and victim not in owner
        )
        cut = result == _KILL and not earned  # last_kill_ends_turn
        if game.pool and not cut:
            # The pool is spent one value per move; each stack or kill banks a throw for afterwards.
            banked = self._banked + int(earned)
            left = _remove(self._values, move.values)
            state = self._next(values=left, banked=banked, **changes)
            if state._end is not None:
                return state._new_step(ply=state._ply)  # the game is won: unused values are lost
            if not left and banked:
                return state._new_step(ply=state._ply, banked=banked - 1)
            return self._settle(state) if left else state._end_turn(ply=state._ply)
        following = self._phase == _FOLLOW_PHASE
        if following:
            if self._follow[1]:
                earned = True  # the first part of the split stacked or killed (flexible_bonus=either)
            changes["follow"] = (-1, 0)
        elif self._splitting() and value < self._values[0]:
            # The first part of a split pa ra: the rest must move a different stack.
            bonus = int(earned and game.settings["flexible_bonus"] == "either")
            moved = target if target < game.goal else -1
            rest = (self._values[0] - value,)
            state = self._next(values=rest, phase=_FOLLOW_PHASE, follow=(moved, bonus), **changes)
            return state if state._end is not None else self._settle(state)
        if result == _OFF and game.overflow and target > game.goal and not following:
            excess = (target - game.goal,)
            state = self._next(values=excess, phase=_FOLLOW_PHASE, paras=0, follow=(-1, 0), **changes)
            return state if state._end is not None else self._settle(state)
        if earned:
            left = () if game.ios or game.flexible or following else _remove(self._values, move.values)
            return self._new_step(left, **changes)
        state = self._next(**changes)
        if state._end is not None:
            return state._new_step(ply=state._ply)  # the game is won: unused values are lost
        return state._end_turn(ply=state._ply)

    # --- Text ----------------------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text (format in ``docs/games/sho.md``), written from :attr:`position`.

        Track, hands, borne off, seat, phase, values, pa ra count, first throw, turns and ply, then the
        optional ``entered=``, ``winner=``, ``moved=``, ``bonus=``, ``banked=``, ``shomo=`` and ``placed=``.
        """
        return _position_text(self._game, self.position)

    def move_to_text(self, move: ShoMove) -> str:
        """``3-5`` a throw, ``23:2+11`` a move, ``h2:7`` an entry, ``rethrow``, ``pass``, ``first:2``."""
        kind = move.kind
        if kind == THROW:
            return f"{move.low}-{move.high}"
        if kind == FIRST:
            return f"first:{move.coins + 1}"
        if kind == PASS:
            return "pass"
        if kind == RETHROW:
            return "rethrow"
        values = "+".join(map(str, move.values))
        if kind == ENTER:
            return f"h{move.coins}:{values}"
        return f"{move.source}:{values}"

    def parse_move(self, text: str) -> ShoMove:
        """Read a move; ``h:7`` may leave out the coins when only one entry has those values.

        Raises:
            NotationError: the text is not a Sho move.
            IllegalMoveError: the move is not legal here; the message says why.
        """
        match = _MOVE_RE.match(text)
        if match is None:
            raise NotationError(
                f"{text!r} is not a Sho move; expected a throw such as 3-5, a move such as 23:12 or 23:2+11 "
                "(stack position, then the values spent), an entry such as h2:7 (coins from the hand, then "
                "values), or rethrow, pass, first:N"
            )
        word = (match.group("word") or "").lower()
        if word:
            move = {"pass": PASS_MOVE, "rethrow": RETHROW_MOVE}[word]
        elif match.group("low"):
            low, high = sorted((int(match.group("low")), int(match.group("high"))))
            if not 1 <= low <= high <= 6:
                raise NotationError(f"{text!r}: dice faces run from 1 to 6")
            move = ShoMove(THROW, low=low, high=high)
        elif match.group("first"):
            move = ShoMove(FIRST, coins=int(match.group("first")) - 1)
        else:
            values = tuple(
                sorted(
                    read_number(v, f"a value in {shown(text)}")
                    for v in re.split(r"\s*\+\s*", match.group("values").strip())
                )
            )
            if 0 in values:
                raise NotationError(f"{text!r}: values are 1 or more")
            if match.group("hand") is not None:
                coins = match.group("coins")
                if coins:
                    move = ShoMove(ENTER, values=values, coins=read_number(coins, "the coins entering"))
                else:
                    entries = [m for m in self.legal_moves() if m.kind == ENTER and m.values == values]
                    if len(entries) > 1:
                        raise IllegalMoveError(
                            f"{text!r}: several entries use those values; say how many coins: "
                            + ", ".join(self.move_to_text(m) for m in entries)
                        )
                    move = entries[0] if entries else ShoMove(ENTER, values=values, coins=1)
            else:
                move = ShoMove(MOVE, read_number(match.group("source"), "the stack's position"), values)
        if move in self.legal_moves():
            return move
        raise IllegalMoveError(f"{text.strip()!r}: {self._why_illegal(move)}")

    def _why_illegal(self, move: ShoMove) -> str:
        game = self._game
        if self._end is not None:
            return f"the game is over ({self.termination()})"
        if self.to_move == CHANCE:
            return "the dice are to be thrown: a throw such as 3-5 comes next"
        if move.kind in (THROW, FIRST):
            return f"Player {self._seat + 1} is to move with the values {self._values_text()}"
        if move.kind == RETHROW:
            return "rethrow is only for para_mode=ios, right after a pa ra"
        if move.kind == PASS:
            return "passing is allowed only with allow_pass=on"
        if self._splitting() and (len(move.values) != 1 or not 1 <= move.values[0] <= self._values[0]):
            return f"after a flexible pa ra, the first part is one number from 1 to {self._values[0]}"
        if self._phase == _FOLLOW_PHASE and (
            move.kind == ENTER or move.values != self._values or move.source == self._follow[0]
        ):
            return f"this follow-up moves another stack on the track by {self._values[0]}"
        left = [] if self._splitting() else list(self._values)
        for value in () if self._splitting() else move.values:
            if value not in left:
                spent = "+".join(map(str, move.values))
                return f"the values to spend are {self._values_text()}; {spent} is not among them"
            left.remove(value)
        if not game.any_subset and move.values not in self._subsets():
            return "para_subsets=single_or_total: spend one value or all of them"
        side = self.side
        value = sum(move.values)
        if move.kind == ENTER:
            if not self._hand[side]:
                return "no coins are left in hand"
            size = self._entry_size(side, value)
            if size != move.coins:
                return f"an entry here brings {size} coin(s), not {move.coins}"
            coins, target = move.coins, value
        else:
            if not 0 < move.source < game.goal or self._owner[move.source] != side:
                return f"there is no stack of yours on position {move.source}"
            coins, target = self._size[move.source], move.source + value
        if target >= game.goal:
            return "bearing off needs the exact value (exact_bear_off=on)"
        owner = self._owner[target]
        if owner == side:
            return f"a stack of {coins + self._size[target]} would pass the limit of {game.cap} (no_niner)"
        if owner in game.partners(side):
            return f"position {target} holds your partner's stack, which blocks"
        return f"position {target} holds a bigger stack ({self._size[target]}) than yours ({coins})"

    def _values_text(self) -> str:
        return ", ".join(map(str, self._values)) or "none"

    def move_themes(self, move: ShoMove) -> tuple[str, ...]:
        """``pa-ra`` in a step with a pa ra, and where the move lands: ``kill``, ``stack`` or ``bear-off``."""
        themes = ["pa-ra"] if self._paras else []
        if move.kind == MOVE:
            landing = self._landing(self.side, self._size[move.source], move.source + sum(move.values))
        elif move.kind == ENTER:
            landing = self._landing(self.side, move.coins, sum(move.values))
        else:
            landing = None
        named = {_KILL: "kill", _STACK: "stack", _OFF: "bear-off"}
        if landing in named:
            themes.append(named[landing])
        return tuple(themes)

    def diagram(self) -> str:
        """The track as four lines of 16 positions, then each side's hand and borne-off coins."""
        game = self._game
        lines = []
        for start in range(1, game.goal, 16):
            cells = []
            for position in range(start, min(start + 16, game.goal)):
                owner = self._owner[position]
                cells.append(f"{SIDE_LETTERS[owner]}{self._size[position]}" if owner >= 0 else " .")
            lines.append(f"  {start:>3}-{min(start + 15, game.goal - 1):<3} " + " ".join(cells))
        lines.append(f"  goal: {game.goal} (a move reaching it bears the stack off)")
        for side in range(game.num_sides):
            seats = [seat + 1 for seat in range(game.players) if game.side_of(seat) == side]
            who = (
                "team of players " + " and ".join(map(str, seats)) if len(seats) > 1 else f"player {seats[0]}"
            )
            lines.append(
                f"  {SIDE_LETTERS[side]} ({who}): {self._hand[side]} in hand, {self._off[side]} borne off"
            )
        if self._end is not None:
            if self._winner is not None:
                lines.append(f"  Side {SIDE_LETTERS[self._winner]} has won.")
            else:
                lines.append("  Drawn: the turn cap was reached.")
        elif self._phase in (_MOVE_PHASE, _FOLLOW_PHASE):
            lines.append(
                f"  Player {self._seat + 1} ({SIDE_LETTERS[self.side]}) moves; values: {self._values_text()}"
            )
        else:
            carried = f"; carried: {self._values_text()}" if self._values else ""
            lines.append(f"  Player {self._seat + 1} ({SIDE_LETTERS[self.side]}) throws{carried}")
        return "\n".join(lines)


_MOVE_RE: Final = re.compile(
    r"""^\s*(?:
        (?P<word>pass|rethrow)
      | (?P<low>[0-9])\s*-\s*(?P<high>[0-9])
      | first\s*:\s*(?P<first>[1-4])
      | (?:(?P<hand>h)\s*(?P<coins>[0-9]*)|(?P<source>[0-9]+))\s*:\s*(?P<values>[0-9]+(?:\s*\+\s*[0-9]+)*)
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def _subset_mask(held: tuple[int, ...], spent: tuple[int, ...]) -> int:
    """The places in ``held`` (increasing) that ``spent`` (increasing) takes, as bits.

    Equal values take their first places; 0 when ``spent`` is not a sub-multiset of ``held``.
    """
    mask = 0
    place = 0
    for value in spent:
        while place < len(held) and held[place] < value:
            place += 1
        if place == len(held) or held[place] != value:
            return 0
        mask |= 1 << place
        place += 1
    return mask


def _insert(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    return tuple(sorted((*values, value)))


def _remove(values: tuple[int, ...], spent: tuple[int, ...]) -> tuple[int, ...]:
    left = list(values)
    for value in spent:
        left.remove(value)
    return tuple(left)


def _read_counts(text: str, what: str, sides: int) -> tuple[int, ...]:
    parts = text.split("/")
    if len(parts) != sides or not all(is_number(part) for part in parts):
        raise NotationError(f"{what} must be {sides} whole numbers separated by '/', got {shown(text)}")
    return tuple(read_number(part, what) for part in parts)


def _position_text(game: ShoGame, position: ShoPosition) -> str:
    """The text of a position value; see :meth:`ShoState.to_text`."""
    p = position
    stacks = [
        f"{place}{SIDE_LETTERS[p.owner[place]]}{p.size[place]}"
        for place in range(1, game.goal)
        if p.owner[place] >= 0
    ]
    fields = [
        ",".join(stacks) or "-",
        "/".join(map(str, p.hand)),
        "/".join(map(str, p.off)),
        str(p.seat + 1),
        p.phase,
        ",".join(map(str, p.values)) or "-",
        str(p.paras),
        f"{p.first[0]}-{p.first[1]}" if p.first else "-",
        str(p.turns),
        str(p.ply),
    ]
    if any(p.entered):
        fields.append("entered=" + "".join(SIDE_LETTERS[s] for s in range(game.num_sides) if p.entered[s]))
    if p.winner is not None and p.off[p.winner] != game.coins:
        fields.append(f"winner={SIDE_LETTERS[p.winner]}")
    if p.moved >= 0:
        fields.append(f"moved={p.moved}")
    if p.bonus:
        fields.append("bonus=1")
    if p.banked:
        fields.append(f"banked={p.banked}")
    if p.shomo:
        fields.append("shomo=" + ",".join(map(str, sorted(p.shomo))))
    if p.placed:
        fields.append("placed=" + "".join(SIDE_LETTERS[side] for side in p.placed))
    return " ".join(fields)


def _read_position(game: ShoGame, text: str) -> ShoState:
    """Read position text; see :meth:`ShoGame.state_from_text`."""
    fields = text.split()
    if len(fields) < 10:
        raise NotationError(
            "a Sho position has 10 fields 'track hands off seat phase values paras first turns ply' "
            f"(then optional entered= and winner=), got {len(fields)} in {text!r}"
        )
    sides = game.num_sides
    owner = [-1] * game.goal
    size = [0] * game.goal
    if fields[0] != "-":
        for entry in fields[0].split(","):
            match = re.fullmatch(r"([0-9]+)([a-d])([0-9]+)", entry)
            if match is None:
                raise NotationError(
                    f"track entry {shown(entry)} is not position, side letter, size (such as 12b2)"
                )
            position, side, count = (
                read_number(match.group(1), "a track position"),
                SIDE_LETTERS.index(match.group(2)),
                read_number(match.group(3), "a stack's size"),
            )
            if not 0 < position < game.goal or side >= sides or count < 1 or owner[position] >= 0:
                raise NotationError(
                    f"track entry {entry!r}: positions run 1..{game.goal - 1}, sides "
                    f"a..{SIDE_LETTERS[sides - 1]}, sizes from 1, one stack per position"
                )
            owner[position], size[position] = side, count
    hand = _read_counts(fields[1], "hands", sides)
    off = _read_counts(fields[2], "borne-off counts", sides)
    for side in range(sides):
        total = hand[side] + off[side] + sum(size[p] for p in range(game.goal) if owner[p] == side)
        if total != game.coins:
            raise NotationError(
                f"side {SIDE_LETTERS[side]} has {total} coins in all; this game gives {game.coins}"
            )
    if not is_number(fields[3]) or not 1 <= read_number(fields[3], "the seat") <= game.players:
        raise NotationError(f"the seat to move must be 1..{game.players}, got {shown(fields[3])}")
    seat = int(fields[3]) - 1
    if fields[4] not in PHASES:
        raise NotationError(f"the phase must be throw, move, follow or draw, got {fields[4]!r}")
    values: tuple[int, ...] = ()
    if fields[5] != "-":
        if not re.fullmatch(r"[0-9]+(,[0-9]+)*", fields[5]):
            raise NotationError(f"values must be numbers separated by commas, or -, got {shown(fields[5])}")
        values = tuple(sorted(read_number(v, "a value") for v in fields[5].split(",")))
    paras, turns, ply = (
        read_number(field, name)
        for name, field in (("paras", fields[6]), ("turns", fields[8]), ("ply", fields[9]))
    )
    first = None
    if fields[7] != "-":
        match = re.fullmatch(r"([1-6])-([1-6])", fields[7])
        if match is None:
            raise NotationError(f"the first throw must be like 1-2, or -, got {fields[7]!r}")
        first = (min(int(match.group(1)), int(match.group(2))), max(int(match.group(1)), int(match.group(2))))
    entered = [False] * sides
    winner = None
    moved, bonus, banked = -1, 0, 0
    placed: tuple[int, ...] = ()
    shomo: set[int] = set()
    for pair in fields[10:]:
        name, _, value = pair.partition("=")
        if name == "moved" and is_number(value) and 0 < read_number(value, "moved") < game.goal:
            moved = int(value)
        elif name == "bonus" and value == "1":
            bonus = 1
        elif name == "placed" and set(value) <= set(SIDE_LETTERS[:sides]) and len(set(value)) == len(value):
            placed = tuple(SIDE_LETTERS.index(letter) for letter in value)
            if any(off[side] != game.coins for side in placed):
                raise NotationError(f"placed={value}: every placed side has borne off all its coins")
        elif name == "banked" and is_number(value):
            banked = read_number(value, "banked")
        elif name == "shomo" and re.fullmatch(r"[0-9]+(,[0-9]+)*", value):
            shomo = {read_number(part, "a Sho-mo position") for part in value.split(",")}
            if (
                any(owner[position] < 0 for position in shomo if position < game.goal)
                or max(shomo) >= game.goal
            ):
                raise NotationError(f"shomo={value}: every Sho-mo position must hold a stack")
        elif name == "entered" and set(value) <= set(SIDE_LETTERS[:sides]):
            for letter in value:
                entered[SIDE_LETTERS.index(letter)] = True
        elif name == "winner" and len(value) == 1 and value in SIDE_LETTERS[:sides]:
            winner = SIDE_LETTERS.index(value)
        else:
            raise NotationError(
                f"unknown position field {pair!r}; optional fields are entered=SIDES, winner=SIDE, "
                "moved=POSITION and bonus=1"
            )
    for side in range(sides):  # a side with coins on the track or borne off has entered
        entered[side] = entered[side] or off[side] > 0 or side in owner
    if fields[4] in ("move", "follow") and not values:
        raise NotationError("a seat to move needs values to spend")
    if fields[4] == "follow" and len(values) != 1:
        raise NotationError("a follow-up move (second part or overflow) has exactly one value")
    parsed = ShoPosition(
        owner=tuple(owner),
        size=tuple(size),
        hand=hand,
        off=off,
        entered=tuple(entered),
        seat=seat,
        phase=fields[4],
        values=values,
        paras=paras,
        first=first,
        turns=turns,
        ply=ply,
        winner=winner,
        moved=moved,
        bonus=bool(bonus),
        banked=banked,
        shomo=frozenset(shomo),
        placed=placed,
    )
    state = game.state_from_position(parsed)
    if state.is_terminal() and (
        fields[4] != "throw" or values or paras or first or moved >= 0 or bonus or banked
    ):
        winner = state.winner_side
        how = "the turn cap" if winner is None else f"side {SIDE_LETTERS[winner]} has won"
        raise NotationError(
            f"the game is over ({how}): "
            "nothing is left to spend, so the phase is throw, values -, paras 0, first - and there is no "
            "moved=, bonus= or banked="
        )
    return state
