"""A deliberately naive Shobu move generator, written straight from shared/rules/shobu.md §2.

It shares no code with shogames.games.shobu: squares are (board, file, rank) tuples in a dict, and each
rule is checked square by square. Tests compare its turns and resulting positions with the engine's.
"""

from __future__ import annotations

BOARDS = ("WD", "WL", "BD", "BL")
HOME = {"b": ("BD", "BL"), "w": ("WD", "WL")}
COLOUR = {"WD": "dark", "BD": "dark", "WL": "light", "BL": "light"}
VECTORS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]

Position = tuple[dict[tuple[str, int, int], str], str]


def parse(text: str) -> Position:
    fields = text.split()
    stones: dict[tuple[str, int, int], str] = {}
    for board, board_text in zip(BOARDS, fields[:4], strict=True):
        for row_index, row in enumerate(board_text.split("/")):
            rank = 4 - row_index
            file = 1
            for char in row:
                if char.isdigit():
                    file += int(char)
                else:
                    stones[(board, file, rank)] = char
                    file += 1
    return stones, fields[4]


def write(position: Position) -> str:
    stones, side = position
    boards = []
    for board in BOARDS:
        rows = []
        for rank in range(4, 0, -1):
            row, run = "", 0
            for file in range(1, 5):
                stone = stones.get((board, file, rank))
                if stone is None:
                    run += 1
                else:
                    row += (str(run) if run else "") + stone
                    run = 0
            rows.append(row + (str(run) if run else ""))
        boards.append("/".join(rows))
    return " ".join(boards) + " " + side


def _on(file: int, rank: int) -> bool:
    return 1 <= file <= 4 and 1 <= rank <= 4


def _name(file: int, rank: int) -> str:
    return "abcd"[file - 1] + str(rank)


def turns(text: str) -> dict[str, str]:
    """Every legal turn as engine notation mapped to the resulting position text."""
    stones, side = parse(text)
    other = "w" if side == "b" else "b"
    result: dict[str, str] = {}
    for passive_board in HOME[side]:
        for (board, file, rank), stone in list(stones.items()):
            if board != passive_board or stone != side:
                continue
            for df, dr in VECTORS:
                for distance in (1, 2):
                    path = [(file + df * k, rank + dr * k) for k in range(1, distance + 1)]
                    if not all(_on(f, r) and (board, f, r) not in stones for f, r in path):
                        continue
                    for aggressive_board in BOARDS:
                        if COLOUR[aggressive_board] == COLOUR[passive_board]:
                            continue
                        for (aboard, afile, arank), astone in list(stones.items()):
                            if aboard != aggressive_board or astone != side:
                                continue
                            apath = [(afile + df * k, arank + dr * k) for k in range(1, distance + 1)]
                            if not all(_on(f, r) for f, r in apath):
                                continue
                            contents = [stones.get((aboard, f, r)) for f, r in apath]
                            if side in contents or contents.count(other) > 1:
                                continue
                            beyond = (afile + df * (distance + 1), arank + dr * (distance + 1))
                            pushing = other in contents
                            if pushing and _on(*beyond) and (aboard, *beyond) in stones:
                                continue
                            new = dict(stones)
                            del new[(board, file, rank)]
                            new[(board, *path[-1])] = side
                            if pushing:
                                pushed = apath[contents.index(other)]
                                del new[(aboard, *pushed)]
                                if _on(*beyond):
                                    new[(aboard, *beyond)] = other
                            del new[(aboard, afile, arank)]
                            new[(aboard, *apath[-1])] = side
                            notation = (
                                f"{passive_board}{_name(file, rank)}-{_name(*path[-1])} "
                                f"{aggressive_board}{_name(afile, arank)}-{_name(*apath[-1])}"
                            )
                            result[notation] = write((new, other))
    return result


def has_won(text: str) -> bool:
    """Whether the side that just moved (not the side to move) has cleared a board of its opponent."""
    stones, side = parse(text)
    return any(not any(s == side for (b, _, _), s in stones.items() if b == board) for board in BOARDS)


def perft(text: str, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for after in turns(text).values():
        if depth == 1:
            total += 1
        elif not has_won(after):
            total += perft(after, depth - 1)
    return total
