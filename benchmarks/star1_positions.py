"""How many positions Star1 saves at the chance nodes, and how much depth that buys at a budget.

    python benchmarks/star1_positions.py

For Shogammon and Sho (two and three players) it plays games between two kernel searchers, keeps every
so many decisions' positions, and searches each with the plain alpha-beta and with ``star=1``
(``SearchOptions.star``): first to a fixed depth with no other budget (the positions each needs, and a
check that both find the same value), then at 30,000 positions (the mean depth each finishes). The
figures are in docs/strength.md, "Star1 at the chance nodes".
"""

from __future__ import annotations

import random
from typing import Any

import shogames
from shogames.agents import make_agent
from shogames.core.chance import sample_chance
from shogames.core.kernel import SearchOptions, require_kernel

BUDGET = 30_000


def positions(
    game: shogames.Game[Any], agent: str, seed: int, games: int, every: int, first: int, most: int
) -> list[Any]:
    """Every ``every``-th decision from the ``first`` of ``games`` games of ``agent`` (at most ``most``).

    The dice come from one generator seeded with ``seed``, and the same agents play every game.
    """
    rng = random.Random(seed)
    agents = [make_agent(agent, seed=seat) for seat in range(game.num_players)]
    kept: list[Any] = []
    for _ in range(games):
        state = game.new_initial_state()
        ply = 0
        while not state.is_terminal() and len(kept) < most:
            if state.to_move == shogames.CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
                continue
            if ply % every == first:
                kept.append(state)
            state = state.play_unchecked(agents[state.to_move].select_move(state))
            ply += 1
    return kept


def searched(state: Any, star: bool, *, depth: int = 64, work: int = 0, turns: bool = False) -> Any:
    """One search of ``state`` by its kernel's alpha-beta, with or without Star1."""
    options = SearchOptions(turns=turns, star=star)
    searcher = require_kernel(state.game).alphabeta(seed=1, depth=depth, options=options)
    assert searcher is not None
    return searcher.search(state, work=work or 10**10)


def main() -> None:
    """Print the two tables."""
    shogammon = shogames.make("shogammon")
    sho2 = shogames.make("sho", players=2)
    sho3 = shogames.make("sho", players=3)
    print("| game | depth | positions | plain | Star1 | share |")
    print("|---|---|---:|---:|---:|---:|")
    medium, easy = "kernel-alphabeta:nodes=3000", "kernel-alphabeta:nodes=300"
    shogammon_states = positions(shogammon, medium, 3, 1, 16, 8, 12)
    fixed = [  # the row's name, its depth as shown, the positions, the depth, turns, and how many rows
        ("Shogammon", "3 moves", shogammon_states, 3, False, (12, 6)),  # the first six again on their own
        ("Shogammon", "2 turns (`turns=1`)", shogammon_states[:6], 2, True, (6,)),
        ("Sho, two players", "4", positions(sho2, easy, 5, 1, 10, 5, 8), 4, False, (8,)),
        ("Sho, three players", "4", positions(sho3, easy, 5, 1, 10, 5, 8), 4, False, (8,)),
    ]
    for name, shown, states, depth, turns, counts in fixed:
        plain = [searched(state, False, depth=depth, turns=turns) for state in states]
        star1 = [searched(state, True, depth=depth, turns=turns) for state in states]
        assert all(abs(a.value - b.value) < 1e-12 for a, b in zip(plain, star1, strict=True))
        for count in counts:
            nodes = (
                sum(result.nodes for result in plain[:count]),
                sum(result.nodes for result in star1[:count]),
            )
            share = nodes[1] / nodes[0]
            print(f"| {name} | {shown} | {len(states[:count])} | {nodes[0]:,} | {nodes[1]:,} | {share:.0%} |")
    print()
    print(f"| game | positions | mean depth at {BUDGET:,}, plain | mean depth at {BUDGET:,}, Star1 |")
    print("|---|---:|---:|---:|")
    for name, game in (("Shogammon", shogammon), ("Sho, two players", sho2), ("Sho, three players", sho3)):
        states = positions(game, medium, 5, 4, 10, 5, 10**9)
        depths = [
            sum(searched(state, star, work=BUDGET).depth for state in states) / len(states)
            for star in (False, True)
        ]
        print(f"| {name} | {len(states)} | {depths[0]:.2f} | {depths[1]:.2f} |")


if __name__ == "__main__":
    main()
