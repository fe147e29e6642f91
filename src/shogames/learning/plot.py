"""The learning curve as an SVG chart: score against hand-written greedy, by self-play games.

Drawn by hand (a few lines of SVG), so a training run plots its curve without the ``plot`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shogames.learning.td import CurvePoint
from shogames.svg import esc

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 20, 36, 44


def curve_svg(curve: Sequence[CurvePoint], *, title: str) -> str:
    """The chart: each measure's score with its 95% interval, a line through them, and the 50% line."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max((point.games for point in curve), default=0) or 1

    def x(games: int) -> float:
        return LEFT + plot_w * games / last

    def y(score: float) -> float:
        return TOP + plot_h * (1.0 - score)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
        f'<text x="{WIDTH / 2:.1f}" y="20" text-anchor="middle" font-size="14">{esc(title)}</text>',
    ]
    for tick in range(0, 101, 25):
        ty = y(tick / 100)
        dash = ' stroke-dasharray="4 3"' if tick == 50 else ""
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#ccc"{dash}/>'
        )
        parts.append(f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{tick}%</text>')
    for i in range(5):
        games = round(last * i / 4)
        parts.append(
            f'<text x="{x(games):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{games:,}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">self-play games</text>'
    )
    parts.append(
        f'<text transform="translate(14 {TOP + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">'
        "score against greedy (hand-written)</text>"
    )
    for point in curve:
        px, low, high = x(point.games), y(point.low), y(point.high)
        parts.append(f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{low:.1f}" y2="{high:.1f}" stroke="#9bb7d4"/>')
    if curve:
        path = " ".join(f"{x(p.games):.1f},{y(p.score):.1f}" for p in curve)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#2a5d8f" stroke-width="2"/>')
        parts.extend(
            f'<circle cx="{x(point.games):.1f}" cy="{y(point.score):.1f}" r="3" fill="#2a5d8f"/>'
            for point in curve
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_curve_svg(curve: Sequence[CurvePoint], path: Path, *, title: str) -> None:
    """Write :func:`curve_svg` to ``path`` (its folder is made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(curve_svg(curve, title=title))
