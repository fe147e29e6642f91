"""What drawing a board costs where: the figures behind docs/drawing.md.

For random positions of each game (the defaults), in one run on one machine:
- the position view's JSON (what the server sends the browser today) and the SVG drawn from it, in bytes,
  plain and gzipped (what a page would download if the server sent the drawing instead);
- the time to draw one position in Python (``render.board_svg``) and in the browser (``renderer.js`` in
  headless Chromium, the same views), the mean over the positions (the browser's over five rounds, its
  clock being coarse).

Usage: PYTHONPATH=src:tests python benchmarks/drawing.py [--positions N]
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import shogames
from render_agreement import renderer_page
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE
from shogames.core.registry import game_class
from shogames.games import BUILTIN_GAMES
from shogames.server.views import views_for


def positions(game_id: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Views of ``count`` positions of seeded random games."""
    rng = random.Random(seed)
    game = shogames.make(game_id)
    state = game.new_initial_state()
    views: list[dict[str, Any]] = []
    view_module = views_for(game_id)
    while len(views) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        state = state.play(move)
        if state.to_move != CHANCE:
            views.append(json.loads(json.dumps(view_module.position_view(state))))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    print("| game | view JSON | view gzipped | SVG | SVG gzipped | Python draws | Chromium draws |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with renderer_page() as page:
        for game_id in BUILTIN_GAMES:
            views = positions(game_id, args.positions, seed=1)
            render = importlib.import_module(str(game_class(game_id).render_module))
            svgs = [render.board_svg(view) for view in views]  # warm
            started = time.perf_counter()
            for view in views:
                render.board_svg(view)
            python_ms = 1000 * (time.perf_counter() - started) / len(views)
            browser_ms = page.evaluate(
                """async ([gameId, views]) => {
                    const module = await import(`/static/games/${gameId}/renderer.js`);
                    for (const view of views) module.render(view, {});  // warm the JIT
                    const started = performance.now();
                    for (let round = 0; round < 5; round++) {
                        for (const view of views) module.render(view, {});
                    }
                    return (performance.now() - started) / (5 * views.length);
                }""",
                [game_id, views],
            )
            view_bytes = [len(json.dumps(view).encode()) for view in views]
            view_gz = [len(gzip.compress(json.dumps(view).encode())) for view in views]
            svg_bytes = [len(svg.encode()) for svg in svgs]
            svg_gz = [len(gzip.compress(svg.encode())) for svg in svgs]
            print(
                f"| {game_id} | {statistics.median(view_bytes):,.0f} B | {statistics.median(view_gz):,.0f} B "
                f"| {statistics.median(svg_bytes):,.0f} B | {statistics.median(svg_gz):,.0f} B "
                f"| {python_ms:.2f} ms | {browser_ms:.3f} ms |"
            )


if __name__ == "__main__":
    main()
