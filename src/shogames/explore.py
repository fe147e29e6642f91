"""Variant studies: the same agents, seeds and budget played under each combination of settings.

A game's designers and players ask how a rule changes the game: does the first player gain, do games last
longer, end by the length cap or by repetition more often? :func:`explore` answers with an arena per
variant. For every combination of the values given for the varied settings (``{"horses": ["9", "7"],
"hush": ["lose-turn", "shoo-off"]}`` gives four variants), it plays the same number of games between the
same two agent specs, with the same seeds, taking the seats in turn as the arena does
(:mod:`shogames.arena`), and reports per variant:

* the first player's score (seat 0: 1 for a win alone, 1/2 for a draw or a shared first place, 0
  otherwise) with its 95% Wilson interval, beside the score a fair game would give (1 / players);
* the mean and median game length in plies;
* how the games ended (``normal``, ``length cap``, ``repetition``, ... as the game's
  :meth:`~shogames.core.protocol.State.termination` names them).

The games run in worker processes or on a Ray cluster, as the arena's do, and the results do not depend on
which.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from shogames.arena import GameResult, run_tasks, tasks_for, wilson_interval
from shogames.core.errors import SettingsError
from shogames.core.registry import game_class, make


@dataclass
class VariantResult:
    """What one variant's games gave.

    Attributes:
        settings: the varied settings' values in this variant (the others are the study's).
        games: the games played.
        first_score: seat 0's mean score.
        low: the 95% Wilson interval's lower end of ``first_score``.
        high: its upper end.
        fair: the score of seat 0 in a fair game (1 / players).
        mean_plies: the mean game length in plies.
        median_plies: the median game length in plies.
        endings: how many games ended each way, by the game's name for it.
    """

    settings: dict[str, str]
    games: int
    first_score: float
    low: float
    high: float
    fair: float
    mean_plies: float
    median_plies: float
    endings: dict[str, int] = field(default_factory=dict)


@dataclass
class VariantStudy:
    """A finished study: how it was run and one result per variant."""

    game: str
    preset: str | None
    settings: dict[str, str]
    agents: list[str]
    games_per_variant: int
    seed: int
    variants: list[VariantResult] = field(default_factory=list)

    def table(self) -> str:
        """The results as a Markdown table, one row per variant."""
        endings = sorted({name for variant in self.variants for name in variant.endings})
        varied = list(self.variants[0].settings) if self.variants else []
        header = [*varied, "games", "first player's score", "95% interval", "fair", "plies (mean)", "median"]
        lines = [
            "| " + " | ".join(header + endings) + " |",
            "|" + "---|" * len(varied) + "---:|" * (len(header) - len(varied) + len(endings)),
        ]
        for variant in self.variants:
            cells = [
                *(variant.settings[name] for name in varied),
                str(variant.games),
                f"{100 * variant.first_score:.1f}%",
                f"{100 * variant.low:.1f}–{100 * variant.high:.1f}%",
                f"{100 * variant.fair:.1f}%",
                f"{variant.mean_plies:.0f}",
                f"{variant.median_plies:.0f}",
                *(str(variant.endings.get(name, 0)) for name in endings),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_json(self) -> str:
        """The study as JSON."""
        return json.dumps(asdict(self), indent=2)


def variants_of(vary: Mapping[str, Sequence[str]]) -> list[dict[str, str]]:
    """Every combination of the varied settings' values, the first setting varying slowest.

    Raises:
        ValueError: a setting with no value.
    """
    for name, values in vary.items():
        if not values:
            raise ValueError(f"setting {name!r} is varied over no value; give at least one")
    names = list(vary)
    return [dict(zip(names, combination, strict=True)) for combination in itertools.product(*vary.values())]


def parse_vary(texts: Sequence[str]) -> dict[str, list[str]]:
    """Read ``--vary`` options: ``"setting=a,b,c"`` each.

    Raises:
        ValueError: a text that is not ``name=value[,value...]``, or a setting named twice.
    """
    vary: dict[str, list[str]] = {}
    for text in texts:
        name, sign, values = text.partition("=")
        name = name.strip()
        if not sign or not name or not values.strip():
            raise ValueError(f"--vary expects setting=value[,value...], got {text!r}")
        if name in vary:
            raise ValueError(f"setting {name!r} is varied twice; give its values in one --vary")
        vary[name] = [value.strip() for value in values.split(",") if value.strip()]
    return vary


def first_player_score(returns: Sequence[float]) -> float:
    """Seat 0's score from a game's returns: 1 alone on top, 1/2 sharing the top, else 0."""
    top = max(returns)
    if returns[0] < top - 1e-9:
        return 0.0
    sharing = sum(1 for value in returns if value > top - 1e-9)
    return 1.0 if sharing == 1 else 0.5


def _summary(variant: dict[str, str], results: list[GameResult], players: int) -> VariantResult:
    scores = [first_player_score(result.returns) for result in results]
    mean = sum(scores) / len(scores)
    low, high = wilson_interval(mean, len(scores))
    plies = [result.plies for result in results]
    return VariantResult(
        variant,
        len(results),
        mean,
        low,
        high,
        1.0 / players,
        sum(plies) / len(plies),
        statistics.median(plies),
        dict(sorted(Counter(result.termination for result in results).items())),
    )


def explore(
    game_id: str,
    vary: Mapping[str, Sequence[str]],
    agents: Sequence[str],
    games: int,
    *,
    preset: str | None = None,
    settings: Mapping[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    ray: str | None = None,
    out: Path | None = None,
) -> VariantStudy:
    """Play ``games`` games between ``agents`` under every variant and report them (see the module docs).

    Args:
        game_id: the game.
        vary: each varied setting with its values (as text, as the CLI takes them).
        agents: two agent specs (or one, playing every seat); they take the seats in turn.
        games: games per variant.
        preset: the preset every variant starts from.
        settings: settings every variant shares.
        seed: the seed of every variant's games (the same in each variant).
        jobs: worker processes on this machine.
        ray: a Ray address to spread the games over (:mod:`shogames.ray_tasks`).
        out: a folder for ``results.md``, ``results.json``, ``variants.png`` and every game's record.

    Raises:
        SettingsError: a varied value that the game does not allow (before any game is played).
        ValueError: no agent or more than two, or fewer than one game.
    """
    if not 1 <= len(agents) <= 2:
        raise ValueError(f"a variant study plays one or two agent specs, got {len(agents)}")
    pair = list(agents) if len(agents) == 2 else [agents[0], agents[0]]
    shared = dict(settings or {})
    variants = variants_of(vary)
    specs = {spec.name: spec for spec in game_class(game_id).setting_specs}
    unknown = sorted(set(vary) - set(specs))
    if unknown:
        raise SettingsError(f"{game_id} has no setting {unknown[0]!r}; its settings are {', '.join(specs)}")
    overlap = set(vary) & set(shared)
    if overlap:
        raise SettingsError(f"settings {sorted(overlap)} are both varied and fixed; give each once")
    games_of = []
    values_of = []
    for variant in variants:
        values = {name: specs[name].parse(text) for name, text in variant.items()}
        games_of.append(make(game_id, preset, **shared, **values))  # every value checked before any game
        values_of.append(values)
    study = VariantStudy(game_id, preset, {k: str(v) for k, v in shared.items()}, pair, games, seed)
    records: list[str] = []
    for variant, values, game in zip(variants, values_of, games_of, strict=True):
        tasks = tasks_for(game_id, pair, games, preset=preset, settings={**shared, **values}, seed=seed)
        results = sorted(run_tasks(tasks, jobs, ray), key=lambda result: result.number)
        study.variants.append(_summary(variant, results, game.num_players))
        records.extend(result.record for result in results)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.md").write_text(study.table() + "\n", encoding="utf-8")
        (out / "results.json").write_text(study.to_json() + "\n", encoding="utf-8")
        (out / "games.txt").write_text("\n".join(records), encoding="utf-8")
        plot_study(study, out / "variants.png")
    return study


def plot_study(study: VariantStudy, path: Path) -> bool:
    """Draw each variant's first-player score with its interval as a PNG; ``False`` without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [", ".join(f"{k}={v}" for k, v in variant.settings.items()) for variant in study.variants]
    figure, axes = plt.subplots(figsize=(7, 0.5 * len(labels) + 1.5))
    positions = range(len(labels))
    axes.errorbar(
        [100 * v.first_score for v in study.variants],
        list(positions),
        xerr=[
            [100 * (v.first_score - v.low) for v in study.variants],
            [100 * (v.high - v.first_score) for v in study.variants],
        ],
        fmt="o",
        color="#2a5d8f",
    )
    if study.variants:
        axes.axvline(100 * study.variants[0].fair, color="#999999", linestyle="--", label="fair")
    axes.set_yticks(list(positions), labels)
    axes.set_xlabel("first player's score (%), with 95% interval")
    axes.set_title(f"{study.game}: {study.games_per_variant} games per variant, {' vs '.join(study.agents)}")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


__all__ = [
    "VariantResult",
    "VariantStudy",
    "explore",
    "first_player_score",
    "parse_vary",
    "plot_study",
    "variants_of",
]
