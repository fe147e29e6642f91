"""The game review: a record's moves analysed in pieces on the engine's study workers, drawn as they come.

The browser asks for the review piece by piece (``POST /api/review`` with ``piece`` 0, 1, ...): a small
first piece (:data:`FIRST_PIECE` positions), then pieces of :data:`PIECE`, each one study job that waits
for its turn (:class:`~shogames.server.engine.Engine`), so that other clients' hints and replays run
between them. The positions come in the order that shows the whole game soonest (:func:`review_order`):
the last move, then the middle move, then the middles of each half, and so on, so that the first piece
already draws the game's shape and each further piece fills it in.

Each position is analysed (:func:`shogames.analysis.review_moves`) by the strongest level's searcher
where it plays by alpha-beta, else by the default strongest alpha-beta
(:func:`~shogames.agents.levels.analysis_spec`):
the game's compiled alpha-beta where it has one (:func:`~shogames.analysis.kernel_analyser`), else the
pure-Python reference alpha-beta (slower, so shallower in the same time; the answer says which), with the
that spec's node budget and at most :data:`REVIEW_SECONDS` a position: a 40-ply Shobu game is
reviewed in about 16 s of search on a 2-core machine (``benchmarks/review.py``).

The values a review draws (``value``) are on one fixed seat's scale in a game of two seats whose returns
add up to zero (seat 0's: +1 is a win for seat 0, -1 a win for seat 1), so that a won game rises rather
than flipping sign with the mover; in a game of more seats each move's value is its mover's own (the
graph draws one line a seat). ``played_value`` and ``best_value`` stay the mover's, as in ``shogames
analyse``. A move that loses :data:`~shogames.analysis.MISTAKE` or more against the best move is a
mistake, :data:`~shogames.analysis.BLUNDER` or more a blunder; its better move comes with the board
targets that show it (``best_targets``, :func:`~shogames.server.views.last_move_targets`).

*Learn from your mistakes*: ``POST /api/review/position`` gives the position before a move with the clicks
of every legal move, and ``POST /api/review/try`` values the learner's move there at the review's depth
(:func:`~shogames.analysis.value_move`): it is *right* where it loses less than a mistake's worth against
the review's better move.

``POST /api/analysis`` is the whole review in one answer (every piece in turn), for scripts.

Record texts, replays and searches are handled in the worker processes (a worker keeps its last few
replays, :func:`replayed`); the server keeps the answers it gave (by the record text's SHA-256), so a
review asked for again, or a learner's try at a reviewed move, does not search again. Nothing here names
a game.
"""

from __future__ import annotations

import collections
import functools
import hashlib
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from shogames.agents.base import parse_agent_spec
from shogames.agents.levels import STRONGEST, analysis_spec, level_spec
from shogames.analysis import BLUNDER, MISTAKE, ReviewedMove, kernel_analyser, review_moves, value_move
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.records import Replay, parse_record, replay
from shogames.server.engine import Engine
from shogames.server.errors import ServiceError
from shogames.server.limits import client_of
from shogames.server.record_view import MAX_RECORD_BYTES, RecordError
from shogames.server.views import last_move_targets, legal_move_views, move_note, views_for
from shogames.server.workers import WorkerTimeoutError

REVIEW_SECONDS: Final = 0.4
"""The most seconds the search of one position may take (valuing the best move and the move played to
the depth it reached comes on top, a few hundredths of a second): a 40-ply Shobu game is reviewed within
30 s on a 2-core machine (``docs/benchmarks.md``)."""
FIRST_PIECE: Final = 4
"""Positions in the first piece of a review: its first points show within about two seconds."""
PIECE: Final = 8
"""Positions in each later piece (about 3.5 s of a study worker each)."""
REVIEW_MAX_PLIES: Final = 1000
"""The longest record reviewed, in plies (dice throws count): a review of it takes a few minutes."""
PIECE_SECONDS: Final = 60.0
"""How long one piece (or a learner's try) may run on its worker before it is stopped (a 503)."""
REVIEW_WAIT: Final = 120.0
"""How long one piece may wait for its turn on the study workers before it is given up (a 503)."""
KEPT_ANSWERS: Final = 256
"""Pieces kept by the server, to answer again without searching (the oldest go first)."""
T = TypeVar("T")

KEPT_REPLAYS: Final = 4
"""Replayed records a worker keeps (the pieces of one review replay the record once)."""


# --- In the worker processes ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=KEPT_REPLAYS)
def replayed(text: str) -> Replay:
    """The record ``text`` parsed and played through under its rules (kept for the next piece).

    Raises:
        RecordError: the record does not replay (400), or is longer than :data:`REVIEW_MAX_PLIES`.
    """
    try:
        record = parse_record(text)
        if len(record.moves) > REVIEW_MAX_PLIES:
            raise RecordError(
                400, f"the record has {len(record.moves)} plies; a review takes at most {REVIEW_MAX_PLIES}"
            )
        return replay(record)
    except ShogamesError as error:
        raise RecordError(400, f"record refused: {error}") from None
    except (ValueError, ArithmeticError, RecursionError) as error:  # a reader's last line of defence
        raise RecordError(400, f"record refused: {error}") from None


def seat_plies(played: Replay) -> list[int]:
    """The numbers (from 1) of the record's moves that a seat made: the ones reviewed (not chance's)."""
    return [
        index + 1
        for index, state in enumerate(played.states[:-1])
        if state.to_move is not None and state.to_move != CHANCE
    ]


def review_order(count: int) -> list[int]:
    """The indices ``0 .. count - 1`` in the order a review analyses them, coarse to fine.

    The last first (the move that decided the game, if any), then the middle of the others, then the
    middles of each half, breadth first: any first few spread over the whole game.
    """
    if count <= 0:
        return []
    order = [count - 1]
    spans = collections.deque([(0, count - 2)])
    while spans:
        low, high = spans.popleft()
        if low > high:
            continue
        middle = (low + high) // 2
        order.append(middle)
        spans.append((low, middle - 1))
        spans.append((middle + 1, high))
    return order


def review_pieces(count: int) -> list[list[int]]:
    """The pieces of the review of ``count`` seat moves: indices, each piece in increasing order.

    :data:`FIRST_PIECE` of :func:`review_order` first, then :data:`PIECE` at a time. There is always a
    first piece (empty where there is nothing to review).
    """
    order = review_order(count)
    pieces = [sorted(order[:FIRST_PIECE])]
    pieces += [sorted(order[start : start + PIECE]) for start in range(FIRST_PIECE, count, PIECE)]
    return pieces


def review_budget(game: Game[Any], seconds: float) -> dict[str, Any]:
    """The searcher a review of ``game`` uses and its budget a position.

    ``kernel``: whether it is the game's compiled alpha-beta (else the reference one); ``searcher``: the
    agent spec it takes its node budget (and depth, where the spec sets one) from
    (:func:`~shogames.agents.levels.analysis_spec`); ``level``: the level that plays that spec (the
    strongest), or ``None`` where the strongest level plays otherwise; ``nodes``, ``depth`` and
    ``seconds``: the budget a position.
    """
    kernel = kernel_analyser(game, 1) is not None
    spec = analysis_spec(game.id, kernel=kernel)
    _, params = parse_agent_spec(spec)
    return {
        "kernel": kernel,
        "searcher": spec,
        "level": STRONGEST if spec == level_spec(STRONGEST, game.id, kernel=kernel) else None,
        "nodes": int(params.get("nodes", 0)),
        "depth": int(params.get("depth", 64 if kernel else 4)),
        "seconds": seconds,
    }


def scale_of(game: Game[Any]) -> dict[str, Any]:
    """Whose scale the drawn values are on: seat 0's in a two-seat zero-sum game, else each mover's own.

    ``seat`` (0 or ``None``) and ``name`` (the seat's name, or ``None``).
    """
    if game.num_players == 2 and game.is_zero_sum:
        return {"seat": 0, "name": game.player_names[0]}
    return {"seat": None, "name": None}


def move_entry(state: State[Any], move: ReviewedMove) -> dict[str, Any]:
    """What the browser is sent about one reviewed move (played at ``state``)."""
    fixed = scale_of(state.game)["seat"] is not None
    value = -move.value if fixed and move.seat != 0 else move.value
    differs = move.best != move.played
    return {
        "ply": move.ply,
        "seat": move.seat,
        "played": move.played,
        "played_value": round(move.played_value, 4),
        "best": move.best,
        "best_value": round(move.best_value, 4),
        "loss": round(move.loss, 4),
        "verdict": move.verdict(),
        "value": round(value, 4),
        "depth": move.depth,
        "kernel": move.kernel,
        "best_targets": last_move_targets(state, move.best_move) if differs else [],
    }


def review_piece(text: str, piece: int, seconds: float) -> dict[str, Any]:
    """Piece ``piece`` of the review of the record ``text`` (in a worker process).

    Raises:
        RecordError: the record does not replay, or has no such piece (400).
    """
    played = replayed(text)
    game = played.game
    plies = seat_plies(played)
    pieces = review_pieces(len(plies))
    if not 0 <= piece < len(pieces):
        raise RecordError(400, f"the review of this record has {len(pieces)} pieces (0 to {len(pieces) - 1})")
    budget = review_budget(game, seconds)
    chosen = [plies[index] for index in pieces[piece]]
    reviewed = review_moves(
        [(played.states[ply - 1], played.moves[ply - 1]) for ply in chosen],
        depth=budget["depth"],
        nodes=budget["nodes"],
        seconds=seconds,
        kernel=budget["kernel"],
        plies=chosen,
    )
    return {
        "piece": piece,
        "pieces": len(pieces),
        "positions": len(plies),
        "budget": budget,
        "scale": scale_of(game),
        "mistake": MISTAKE,
        "blunder": BLUNDER,
        "moves": [move_entry(played.states[move.ply - 1], move) for move in reviewed],
    }


def _seat_position(played: Replay, ply: int) -> State[Any]:
    if not 1 <= ply <= len(played.moves):
        raise RecordError(400, f"'ply' must be a move of the record, 1 to {len(played.moves)}; got {ply}")
    state = played.states[ply - 1]
    if state.to_move is None or state.to_move == CHANCE:
        raise RecordError(400, f"move {ply} is a chance outcome, not a seat's move")
    return state


def review_position(text: str, ply: int) -> dict[str, Any]:
    """The position before move ``ply`` of the record ``text``, to find a better move in (in a worker).

    ``view`` (the renderer's), ``to_move``, ``names``, ``legal`` (every legal move's text and clicks) and
    ``played`` (the move made there).

    Raises:
        RecordError: the record does not replay, or ``ply`` is not a seat's move of it (400).
    """
    played = replayed(text)
    state = _seat_position(played, ply)
    return {
        "ply": ply,
        "to_move": state.to_move,
        "names": list(state.game.player_names),
        "view": views_for(state.game.id).position_view(state),
        "legal": legal_move_views(state),
        "played": state.move_to_text(played.moves[ply - 1]),
    }


def try_better_move(
    text: str, ply: int, move_text: str, known: dict[str, Any] | None, seconds: float
) -> dict[str, Any]:
    """A learner's move at the position before move ``ply``, valued against the review's (in a worker).

    ``known`` is the review's entry for that move (:func:`move_entry`) where the server has it; else the
    position is reviewed first. The move is valued at the review's depth (:func:`value_move`); it is
    ``right`` where it loses less than :data:`~shogames.analysis.MISTAKE` against the better move.

    Raises:
        RecordError: the record does not replay, or ``ply`` is not a seat's move of it (400).
    """
    played = replayed(text)
    state = _seat_position(played, ply)
    try:
        move = state.parse_move(move_text)
    except (ShogamesError, ValueError) as error:
        return {"legal": False, "right": False, "message": f"The rules do not allow that: {error}"}
    if known is None:
        budget = review_budget(state.game, seconds)
        (reviewed,) = review_moves(
            [(state, played.moves[ply - 1])],
            depth=budget["depth"],
            nodes=budget["nodes"],
            seconds=seconds,
            kernel=budget["kernel"],
            plies=[ply],
        )
        known = move_entry(state, reviewed)
    tried = state.move_to_text(move)
    best_value = float(known["best_value"])
    if tried == known["best"]:
        value = best_value
    elif tried == known["played"]:
        value = float(known["played_value"])
    else:
        value = value_move(state, move, depth=int(known["depth"]), kernel=bool(known["kernel"]))
    loss = max(0.0, best_value - value)
    right = loss < MISTAKE
    if tried == known["best"]:
        message = f"{tried} is the better move the review found ({value:+.2f} for you)."
    elif right:
        message = (
            f"{tried} is as good as the review's better move ({value:+.2f} for you, against "
            f"{best_value:+.2f})."
        )
    elif tried == known["played"]:
        message = f"{tried} is the move played in the game: it gives away {loss:.2f}. Find a better one."
    else:
        message = (
            f"{tried} is not better: {value:+.2f} for you, against {best_value:+.2f} for the better move."
        )
    after = state.play(move)
    return {
        "legal": True,
        "right": right,
        "move": tried,
        "value": round(value, 4),
        "loss": round(loss, 4),
        "best": known["best"],
        "best_value": round(best_value, 4),
        "message": message,
        "note": move_note(state, move, after),
        "view": views_for(state.game.id).position_view(after),
        "last": last_move_targets(state, move),
    }


# --- Routes -----------------------------------------------------------------------------------------------


class ReviewBody(BaseModel):
    """A piece of a record's review to make."""

    record: str = Field(max_length=4 * MAX_RECORD_BYTES)
    piece: int = Field(default=0, ge=0, le=10_000)


class RecordOnly(BaseModel):
    """A record to review whole."""

    record: str = Field(max_length=4 * MAX_RECORD_BYTES)


class PositionBody(BaseModel):
    """A move of a record whose position a learner looks for a better move in."""

    record: str = Field(max_length=4 * MAX_RECORD_BYTES)
    ply: int = Field(ge=1, le=REVIEW_MAX_PLIES)


class TryBody(PositionBody):
    """A learner's move at the position before a move of a record."""

    move: str = Field(min_length=1, max_length=200)


def _key(text: str) -> str:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise ServiceError(413, f"a record may have at most {MAX_RECORD_BYTES} bytes, this one has {size}")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def review_router() -> APIRouter:
    """The review's routes (the lessons' router includes them): see the module's docstring."""
    router = APIRouter()
    answers: collections.OrderedDict[tuple[str, int, float], dict[str, Any]] = collections.OrderedDict()
    entries: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()

    def keep(key: str, answer: dict[str, Any]) -> None:
        answers[(key, answer["piece"], answer["budget"]["seconds"])] = answer
        for entry in answer["moves"]:
            entries[(key, entry["ply"])] = entry
            entries.move_to_end((key, entry["ply"]))
        while len(answers) > KEPT_ANSWERS:
            answers.popitem(last=False)
        while len(entries) > KEPT_ANSWERS * PIECE:
            entries.popitem(last=False)

    async def piece_of(engine: Engine, client: str, text: str, key: str, piece: int) -> dict[str, Any]:
        seconds = REVIEW_SECONDS
        kept = answers.get((key, piece, seconds))
        if kept is not None:
            return kept
        answer: dict[str, Any] = await engine.study_call(
            client, review_piece, text, piece, seconds, timeout=PIECE_SECONDS, wait=REVIEW_WAIT
        )
        keep(key, answer)
        return answer

    async def study(request: Request, work: Callable[[Engine, str], Awaitable[T]]) -> T:
        engine: Engine = request.app.state.engine
        client = client_of(request)
        async with engine.job(client):
            try:
                return await work(engine, client)
            except RecordError as refusal:
                raise ServiceError(refusal.status, refusal.message) from None
            except WorkerTimeoutError:
                raise ServiceError(
                    503,
                    f"the review's engine work waited over {REVIEW_WAIT:g} s for its turn or ran over "
                    f"{PIECE_SECONDS:g} s; it was stopped, try again later",
                ) from None
            except BrokenProcessPool:
                raise ServiceError(503, "the worker reviewing this record stopped; try again") from None

    @router.post("/api/review")
    async def post_review(request: Request, body: ReviewBody) -> dict[str, Any]:
        key = _key(body.record)

        async def work(engine: Engine, client: str) -> dict[str, Any]:
            return await piece_of(engine, client, body.record, key, body.piece)

        answer: dict[str, Any] = await study(request, work)
        return answer

    @router.post("/api/analysis")
    async def post_analysis(request: Request, body: RecordOnly) -> dict[str, Any]:
        key = _key(body.record)

        async def work(engine: Engine, client: str) -> dict[str, Any]:
            first = await piece_of(engine, client, body.record, key, 0)
            moves = list(first["moves"])
            for piece in range(1, first["pieces"]):  # each piece waits for its turn
                moves += (await piece_of(engine, client, body.record, key, piece))["moves"]
            moves.sort(key=lambda entry: entry["ply"])
            whole = {name: first[name] for name in ("budget", "scale", "mistake", "blunder")}
            return {**whole, "moves": moves}

        answer: dict[str, Any] = await study(request, work)
        return answer

    @router.post("/api/review/position")
    async def post_position(request: Request, body: PositionBody) -> dict[str, Any]:
        _key(body.record)

        async def work(engine: Engine, client: str) -> dict[str, Any]:
            result: dict[str, Any] = await engine.study_call(
                client, review_position, body.record, body.ply, timeout=PIECE_SECONDS, wait=REVIEW_WAIT
            )
            return result

        answer: dict[str, Any] = await study(request, work)
        return answer

    @router.post("/api/review/try")
    async def post_try(request: Request, body: TryBody) -> dict[str, Any]:
        key = _key(body.record)
        known = entries.get((key, body.ply))

        async def work(engine: Engine, client: str) -> dict[str, Any]:
            result: dict[str, Any] = await engine.study_call(
                client,
                try_better_move,
                body.record,
                body.ply,
                body.move.strip(),
                known,
                REVIEW_SECONDS,
                timeout=PIECE_SECONDS,
                wait=REVIEW_WAIT,
            )
            return result

        answer: dict[str, Any] = await study(request, work)
        return answer

    return router


__all__ = [
    "REVIEW_SECONDS",
    "review_budget",
    "review_order",
    "review_piece",
    "review_pieces",
    "review_position",
    "review_router",
    "scale_of",
    "seat_plies",
    "try_better_move",
]
