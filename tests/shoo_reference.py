"""A deliberately naive Shoo move generator, written straight from shared/rules/shoo.md §1–§5 and §7.

It covers the designers' ruleset under the default settings only (stable_drop=adjacent, hush=optional,
capture_in_home=place-inside, mount_escape=on, leave_home=no). It shares no code with
shogames.games.shoo: the position is copied through the public API into a plain dict of (file, rank)
cells, and each rule is checked square by square. Tests compare its set of move texts with the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shogames.games.shoo import ShooState

SOUTH, NORTH = 0, 1
FILES = "abcdefghi"
KING_STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

Cell = tuple[int, int]  # (file 0..8, rank 0..8)


@dataclass(frozen=True)
class Piece:
    """What stands on a cell: a traveller of ``side`` (mounted or not), or a free horse (side -1)."""

    side: int
    mounted: bool = False

    @property
    def horse(self) -> bool:
        return self.side < 0


HORSE = Piece(-1)


@dataclass
class Position:
    board: dict[Cell, Piece] = field(default_factory=dict)
    side: int = SOUTH
    held: Cell | None = None  # held by the opponent of the side to move
    pending: Cell | None = None
    stable_horses: tuple[int, int] = (0, 0)
    stable_travellers: tuple[int, int] = (0, 0)


def name(cell: Cell) -> str:
    return FILES[cell[0]] + str(cell[1] + 1)


def on_field(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 9


def all_cells() -> list[Cell]:
    return [(file, rank) for rank in range(9) for file in range(9)]


def neighbours(cell: Cell) -> list[Cell]:
    out = []
    for df, dr in KING_STEPS:
        if on_field(cell[0] + df, cell[1] + dr):
            out.append((cell[0] + df, cell[1] + dr))
    return out


def touching(a: Cell, b: Cell) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def in_home(cell: Cell, side: int) -> bool:
    """Home area = destination: South's is a7–c9, North's is g1–i3."""
    file, rank = cell
    if side == SOUTH:
        return file <= 2 and rank >= 6
    return file >= 6 and rank <= 2


def first_row(side: int) -> int:
    return 0 if side == SOUTH else 8


def read(state: ShooState) -> Position:
    """Copy the engine's position into the plain representation, using the public API only."""
    pos = Position(side=state.side)
    for file, rank in all_cells():
        letter = state.piece_at(file + 9 * rank)
        if letter == "s":
            pos.board[(file, rank)] = Piece(SOUTH)
        elif letter == "S":
            pos.board[(file, rank)] = Piece(SOUTH, mounted=True)
        elif letter == "n":
            pos.board[(file, rank)] = Piece(NORTH)
        elif letter == "N":
            pos.board[(file, rank)] = Piece(NORTH, mounted=True)
        elif letter in "hH":
            pos.board[(file, rank)] = HORSE
        else:
            assert letter == ".", letter
    if state.held >= 0:
        pos.held = (state.held % 9, state.held // 9)
        assert state.piece_at(state.held) == "H"
    if state.pending_shoo >= 0:
        pos.pending = (state.pending_shoo % 9, state.pending_shoo // 9)
    pos.stable_horses = state.stable_horses
    pos.stable_travellers = state.stable_travellers
    return pos


def slide_targets(board: dict[Cell, Piece], start: Cell) -> list[Cell]:
    """Queen slide from ``start``: at least one square, through empty squares only."""
    out = []
    for df, dr in KING_STEPS:
        file, rank = start[0] + df, start[1] + dr
        while on_field(file, rank) and (file, rank) not in board:
            out.append((file, rank))
            file, rank = file + df, rank + dr
    return out


def touchers(board: dict[Cell, Piece], cell: Cell, side: int) -> int:
    """How many of ``side``'s travellers (on foot or mounted) stand next to ``cell``."""
    count = 0
    for other in neighbours(cell):
        piece = board.get(other)
        if piece is not None and piece.side == side:
            count += 1
    return count


def shoo_targets(
    after: dict[Cell, Piece], mover: int, start: Cell | None, end: Cell, placed: Cell | None = None
) -> list[Cell]:
    """Enemy foot travellers this move may shoo (rulings §4 item 13 and A11).

    ``start`` is where the moving traveller began (None for a return from the stable), ``end`` where it
    finished, ``placed`` the square a capture put the displaced rider on.
    """
    enemy = 1 - mover
    out = []
    for cell, piece in after.items():
        if piece.side != enemy or piece.mounted or in_home(cell, enemy):
            continue
        if touchers(after, cell, mover) < 2:
            continue
        new_toucher = touching(end, cell) and (start is None or not touching(start, cell))
        if new_toucher or cell == placed:
            out.append(cell)
    return out


def with_shoos(
    base: str,
    after: dict[Cell, Piece],
    mover: int,
    start: Cell | None,
    end: Cell,
    placed: Cell | None = None,
) -> list[str]:
    targets = shoo_targets(after, mover, start, end, placed)
    return [base] + [f"{base} shoo {name(target)}" for target in targets]


def moved(board: dict[Cell, Piece], changes: dict[Cell, Piece | None]) -> dict[Cell, Piece]:
    after = dict(board)
    for cell, piece in changes.items():
        if piece is None:
            after.pop(cell, None)
        else:
            after[cell] = piece
    return after


def safe(side: int, start: Cell, end: Cell) -> bool:
    """Safety rule (A18): a traveller that starts in its home area must end the move inside it."""
    return not in_home(start, side) or in_home(end, side)


def usable_horse(pos: Position, cell: Cell) -> bool:
    """A free horse on the field that the opponent does not hold."""
    piece = pos.board.get(cell)
    return piece is not None and piece.horse and cell != pos.held


def mounts(pos: Position, origin: Cell, *, safety: bool = True) -> list[str]:
    """Mount an adjacent free unheld horse, stop there or ride on (actions 4 and 11b)."""
    me = pos.side
    out: list[str] = []
    for horse in neighbours(origin):
        if not usable_horse(pos, horse):
            continue
        # During the ride the square just left counts as empty.
        during = moved(pos.board, {origin: None, horse: None})
        for end in [horse, *slide_targets(during, horse)]:
            if safety and not safe(me, origin, end):
                continue
            after = moved(during, {end: Piece(me, mounted=True)})
            base = f"{name(origin)}>{name(horse)}" + ("" if end == horse else f"-{name(end)}")
            out += with_shoos(base, after, me, origin, end)
    return out


def shoo_answers(pos: Position, target: Cell) -> list[str]:
    """Actions 11 and 12: only the shooed traveller may act."""
    me = pos.side
    out: list[str] = []
    for to in neighbours(target):
        if to in pos.board:
            continue
        after = moved(pos.board, {target: None, to: Piece(me)})
        if not in_home(to, me) and touchers(after, to, 1 - me) >= 2:
            continue  # still shooable there
        out += with_shoos(f"{name(target)}-{name(to)}", after, me, target, to)
    out += mounts(pos, target)
    return out or [f"~{name(target)}"]


def actions(pos: Position) -> list[str]:
    """Actions 1–10 with their shoo declarations."""
    me, enemy = pos.side, 1 - pos.side
    board = pos.board
    out: list[str] = []
    mine = [cell for cell, piece in board.items() if piece.side == me]
    for origin in mine:
        piece = board[origin]
        if not piece.mounted:
            # 1. Foot step.
            for to in neighbours(origin):
                if to not in board and safe(me, origin, to):
                    after = moved(board, {origin: None, to: Piece(me)})
                    out += with_shoos(f"{name(origin)}-{name(to)}", after, me, origin, to)
            # 4. Mount & ride.
            out += mounts(pos, origin)
        else:
            # 5. Ride.
            for to in slide_targets(board, origin):
                if safe(me, origin, to):
                    after = moved(board, {origin: None, to: Piece(me, mounted=True)})
                    out += with_shoos(f"{name(origin)}-{name(to)}", after, me, origin, to)
            # 6. Dismount.
            for to in neighbours(origin):
                if to not in board and safe(me, origin, to):
                    after = moved(board, {origin: HORSE, to: Piece(me)})
                    out += with_shoos(f"{name(origin)}/{name(to)}", after, me, origin, to)
        # 10. Capture an adjacent enemy rider.
        for rider in neighbours(origin):
            victim = board.get(rider)
            if victim is None or victim.side != enemy or not victim.mounted:
                continue
            for place in neighbours(rider):
                if place in board:
                    continue
                if in_home(rider, enemy) and not in_home(place, enemy):
                    continue
                left_behind: Piece | None = HORSE if piece.mounted else None
                during = moved(board, {place: Piece(enemy), origin: left_behind, rider: None})
                for end in [rider, *slide_targets(during, rider)]:
                    if not safe(me, origin, end):
                        continue
                    after = moved(during, {end: Piece(me, mounted=True)})
                    base = f"{name(origin)}x{name(rider)}@{name(place)}"
                    if end != rider:
                        base += f"-{name(end)}"
                    out += with_shoos(base, after, me, origin, end, placed=place)
    # 2. Call up from the stable: next to one of my travellers.
    if pos.stable_horses[me] >= 1:
        for cell in all_cells():
            if cell not in board and touchers(board, cell, me) >= 1:
                out.append(f"H*{name(cell)}")
    # 3. Slide a free horse the opponent does not hold; 7. hold; 8. retire.
    for cell in all_cells():
        if not usable_horse(pos, cell):
            continue
        for to in slide_targets(board, cell):
            out.append(f"H{name(cell)}-{name(to)}")
        if touchers(board, cell, me) >= 1:
            out.append(f"!{name(cell)}")
            out.append(f"x{name(cell)}")
    # 9. Return from the stable, on foot, to an empty square of my first row.
    if pos.stable_travellers[me] >= 1:
        for file in range(9):
            cell = (file, first_row(me))
            if cell not in board:
                after = moved(board, {cell: Piece(me)})
                out += with_shoos(f"T*{name(cell)}", after, me, None, cell)
    return out


def strip_shoo(text: str) -> str:
    return text.split(" shoo ")[0]


def reference_moves(state: ShooState) -> set[str]:
    """Every legal move text for the side to move (designers' ruleset, default settings)."""
    pos = read(state)
    hush = state.hushable_move
    # While a HUSH is open, barred_moves belong to the side that just moved, not to the side to move.
    barred = set() if hush is not None else {state.move_to_text(move) for move in state.barred_moves}
    # With a shoo pending only actions 11 and 12 are legal (§5 item 2).
    moves = shoo_answers(pos, pos.pending) if pos.pending is not None else actions(pos)
    assert len(set(moves)) == len(moves), "a move was generated twice"
    result = {text for text in moves if strip_shoo(text) not in barred}
    if not result:
        # HUSH is an option before the turn proper (§5 items 1 and 3); declining it leaves a pass.
        result.add("pass")
    if hush is not None:
        result.add("HUSH")
    return result
