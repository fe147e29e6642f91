"""``shogames train GAME``: learn an evaluation by self-play (``docs/training.md``).

The command is registered in :data:`shogames.ui.cli.COMMANDS`; the training itself is
:mod:`shogames.learning.td`.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the training needs NumPy, imported when the command runs (the CLI imports without it)
    from shogames.learning.td import CurvePoint


class _Bar:
    """A progress bar over the self-play games (redrawn in place at a terminal, else a line each 10%)."""

    _WIDTH = 30

    def __init__(self, total: int, done: int) -> None:
        self.total = max(1, total)
        self.live = sys.stdout.isatty()
        self.last_tenth = done * 10 // self.total

    def update(self, done: int, loss: float, seconds: float) -> None:
        """Show ``done`` games of the budget, the last game's loss and the games per second so far."""
        rate = done / seconds if seconds > 0 else 0.0
        if self.live:
            filled = self._WIDTH * done // self.total
            bar = "#" * filled + "-" * (self._WIDTH - filled)
            sys.stdout.write(f"\r[{bar}] {done}/{self.total} games  loss {loss:.4f}  {rate:.1f} games/s ")
            sys.stdout.flush()
        else:
            tenth = done * 10 // self.total
            if tenth > self.last_tenth:
                self.last_tenth = tenth
                print(f"{done}/{self.total} games  loss {loss:.4f}  {rate:.1f} games/s", flush=True)

    def end_line(self) -> None:
        """Finish the bar's line before other output (at a terminal)."""
        if self.live:
            sys.stdout.write("\n")
            sys.stdout.flush()


def train_command(
    game_id: str,
    settings_texts: Sequence[str],
    preset: str | None,
    games: int,
    seed: int,
    hidden: int,
    prior: bool,
    trace: float,
    learning_rate: float,
    epsilon: float,
    opening: int | None,
    eval_every: int,
    eval_games: int,
    out: Path,
    resume: bool,
    round_size: int = 1,
    jobs: int = 1,
    ray: str | None = None,
    teacher: int = 0,
    children: int = 6,
    epochs: int = 10,
    labels: str = "values",
) -> None:
    """Learn an evaluation of GAME by self-play with TD(lambda); write weights, a checkpoint and a curve.

    Each self-play game teaches a value network (a seat's observation in, that seat's expected return
    out) the lambda-returns of its positions. Every EVAL_EVERY games it plays EVAL_GAMES games of one-turn
    greedy with the network against one-turn greedy with the hand-written evaluation, and draws the scores
    in OUT/curve.svg. OUT/checkpoint.npz is written every 100 games and at the end: run the same command
    with --resume to go on from it (to a larger --games). OUT/value.npz holds the weights alone; copy it to
    src/shogames/games/GAME/value.npz to ship it (its header keeps this command, the budget and the seed).

    With --round R the games go in rounds of R played with the same weights, which --jobs N plays in N
    processes at once, or --ray on a Ray cluster: the same seed and round give the same weights whatever
    the processes or the cluster.

    With --teacher N the network is fitted instead to positions labelled by the game kernel's alpha-beta,
    searched N positions deep (docs/training.md, "Training on positions labelled by search"): in each
    game greedy with the round's network plays hand-written greedy, CHILDREN moves of each decision have
    their positions labelled, and at each round's end a network is fitted afresh to all the labels, in
    EPOCHS passes. With --labels choices it is fitted instead to the search's choices: at each turn's
    start the search plays the turn, and the network learns to rank the position it ends in above
    CHILDREN other ends of the turn (docs/training.md, "Training on the search's choices"); with
    --labels ties (and --prior) only where the hand-written evaluation's best ends of the turn tie, and
    the network is scaled to decide only such ties.
    """
    from shogames.ui.cli import ShogamesUsageError, _require_ray, load_game  # the CLI's own helpers

    try:
        from shogames.core.kernel import KernelUnavailableError
        from shogames.learning.network import WeightsError
        from shogames.learning.plot import write_curve_svg
        from shogames.learning.td import Training, TrainingOptions, curve_json, new_training
    except ImportError as error:
        raise ShogamesUsageError(
            f"training needs NumPy and numba, which `pip install shogames` installs ({error})"
        ) from None

    _require_ray("train --ray", ray)

    game = load_game(game_id, settings_texts, preset)
    try:
        game.observation_shape  # noqa: B018 -- asks whether the game has an observation tensor
    except NotImplementedError:
        raise ShogamesUsageError(f"{game.name} has no observation tensor for a network to read") from None
    words = ["shogames", "train", game_id, *(["--preset", preset] if preset else [])]
    for text in settings_texts:
        words += ["--settings", text]
    words += ["--games", str(games), "--seed", str(seed), "--hidden", str(hidden)]
    words += [*(["--prior"] if prior else []), *([] if teacher else ["--lambda", str(trace)])]
    words += ["--learning-rate", str(learning_rate)]
    words += ["--epsilon", str(epsilon), *(["--opening", str(opening)] if opening is not None else [])]
    words += ["--round", str(round_size)] if round_size != 1 else []
    if teacher:
        words += ["--teacher", str(teacher), "--children", str(children), "--epochs", str(epochs)]
        words += ["--labels", labels] if labels != "values" else []
    command = shlex.join(words)
    checkpoint = out / "checkpoint.npz"
    if resume:
        if not checkpoint.is_file():
            raise ShogamesUsageError(f"--resume: there is no checkpoint at {checkpoint}")
        try:
            training = Training.resume(game, checkpoint, games=games)
        except (WeightsError, ValueError) as error:
            raise ShogamesUsageError(f"--resume: {error}") from None
        training.command = _with_games(training.command, games)
        print(f"Resuming {game.name} at game {training.games_done:,} of {games:,} from {checkpoint}")
        kept = training.options
        given = {
            "--seed": (seed, kept.seed), "--hidden": (hidden, kept.hidden), "--prior": (prior, kept.prior),
            "--lambda": (trace, kept.trace), "--learning-rate": (learning_rate, kept.learning_rate),
            "--epsilon": (epsilon, kept.epsilon), "--opening": (opening, kept.opening),
            "--eval-every": (eval_every, kept.eval_every), "--eval-games": (eval_games, kept.eval_games),
            "--round": (round_size, kept.round), "--teacher": (teacher, kept.teacher),
            "--children": (children, kept.children), "--epochs": (epochs, kept.epochs),
            "--labels": (labels, kept.labels),
        }  # fmt: skip
        ignored = [
            f"{flag} {mine} (the checkpoint's: {theirs})"
            for flag, (mine, theirs) in given.items()
            if mine != theirs and not (flag == "--opening" and mine is None)
        ]
        if ignored:
            print("--resume goes on with the checkpoint's options; not used: " + ", ".join(ignored))
    else:
        default_opening = 0 if game.has_chance else 4
        options = TrainingOptions(
            games=games,
            hidden=hidden,
            prior=prior,
            trace=trace,
            learning_rate=learning_rate,
            epsilon=epsilon,
            opening=default_opening if opening is None else opening,
            eval_every=eval_every,
            eval_games=eval_games,
            seed=seed,
            round=round_size,
            teacher=teacher,
            children=children,
            epochs=epochs,
            labels=labels,
        )
        try:
            options.check()
        except ValueError as error:
            raise ShogamesUsageError(str(error)) from None
        if checkpoint.exists():
            raise ShogamesUsageError(
                f"{checkpoint} exists: pass --resume to go on from it, or choose another --out"
            )
        try:
            training = new_training(game, options, command=command)
        except KernelUnavailableError as error:
            raise ShogamesUsageError(f"--teacher labels positions with the game's kernel: {error}") from None
        described = game.settings_text() or "default settings"
        method = f", labelled by searches of {teacher:,} positions" if teacher else ""
        method += " (their choices)" if teacher and labels == "choices" else ""
        method += " (their choices among ties)" if teacher and labels == "ties" else ""
        print(f"Training {game.name} ({described}): {games:,} games{method}, seed {seed}")
    code = code_identity()
    training.note_code(code)
    if code["clean"] is False:
        print(
            f"The package's tree has uncommitted changes (at {code['commit'][:12]}): the weights' header "
            "says so, and no commit will make these weights again"
        )
    bar = _Bar(training.options.games, training.games_done)
    curve: list[CurvePoint] = training.curve

    def measured(point: CurvePoint) -> None:
        bar.end_line()
        print(point.line(), flush=True)
        write_curve_svg(curve, out / "curve.svg", title=f"{game.name}: greedy with the learned evaluation")
        (out / "curve.jsonl").write_text(curve_json(curve))

    if jobs > 1 and training.options.round < jobs:
        raise ShogamesUsageError(
            f"--jobs {jobs} plays the games of a round at once: give --round {jobs} or more "
            f"(this run's round is {training.options.round})"
        )
    out.mkdir(parents=True, exist_ok=True)
    try:
        training.run(
            jobs=jobs,
            ray=ray,
            checkpoint=checkpoint,
            on_game=lambda done, loss: bar.update(done, loss, training.seconds),
            on_measure=measured,
        )
    except KeyboardInterrupt:
        bar.end_line()
        training.save(checkpoint)
        print(f"Stopped at game {training.games_done:,}: the checkpoint is saved; go on with --resume")
        raise
    bar.end_line()
    training.save_weights(out / "value.npz")
    minutes = training.seconds / 60
    print(f"Wrote {out / 'value.npz'} ({training.games_done:,} games, {minutes:.1f} min of self-play)")


def code_identity() -> dict[str, Any]:
    """Which code is training: the package's version, and its git commit and whether the tree is clean.

    The commit and the state of the tree are known where the package runs from a git checkout (an
    editable install); elsewhere they are ``None``. Weights made on a tree with uncommitted changes are
    not reproduced by any commit, and their header says so.
    """
    import subprocess

    from shogames import __version__

    here = Path(__file__).resolve().parent

    def git(*words: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(here), *words], capture_output=True, text=True, timeout=20, check=True
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no", "--", str(here.parent)) if commit else None
    return {
        "version": __version__,
        "commit": commit.strip() if commit else None,
        "clean": None if status is None else status.strip() == "",
    }


def _with_games(command: str, games: int) -> str:
    """The training command that made a checkpoint, with its budget raised to ``games`` by a resume."""
    words = shlex.split(command)
    if "--games" in words[:-1]:
        words[words.index("--games") + 1] = str(games)
    return shlex.join(words)


def build_train(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``shogames train``."""
    from shogames.ui.cli import (  # the CLI's own helpers
        _add_game_argument,
        _add_game_options,
        _add_ray_option,
        _int_range,
        _positive_real,
        _real_range,
    )

    probability = _real_range(0.0, 1.0)

    def even(text: str) -> int:
        value = _int_range(2)(text)
        if value % 2:
            raise argparse.ArgumentTypeError(f"{value} is odd: each opening is played with both seats")
        return value

    _add_game_argument(parser)
    _add_game_options(parser)
    parser.add_argument(
        "--games",
        type=_int_range(1),
        default=2000,
        help="The budget: self-play games to learn from [default: 2000].",
    )
    parser.add_argument(
        "--seed", type=_int_range(0), default=0, help="The seed of everything random [default: 0]."
    )
    parser.add_argument("--hidden", type=_int_range(1, 4096), default=64, help="Hidden units [default: 64].")
    parser.add_argument(
        "--prior",
        action="store_true",
        help="Give the network the hand-written evaluation as an input (it starts as a copy of it).",
    )
    parser.add_argument(
        "--lambda", dest="trace", type=probability, default=0.7, help="TD(lambda)'s lambda [default: 0.7]."
    )
    parser.add_argument(
        "--learning-rate", type=_positive_real, default=1e-3, help="Adam's step size [default: 0.001]."
    )
    parser.add_argument(
        "--epsilon", type=probability, default=0.05, help="Share of random self-play moves [default: 0.05]."
    )
    parser.add_argument(
        "--opening",
        type=_int_range(0),
        default=None,
        help="Random plies at the start of each game [default: 4, or 0 in a game with dice].",
    )
    parser.add_argument(
        "--eval-every",
        type=_int_range(0),
        default=250,
        help="Games between measures of strength; 0: none [default: 250].",
    )
    parser.add_argument("--eval-games", type=even, default=100, help="Games in each measure [default: 100].")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("training"),
        help="The folder of the checkpoint, weights and curve [default: ./training].",
    )
    parser.add_argument(
        "--round",
        dest="round_size",
        type=_int_range(1),
        default=1,
        help="Self-play games played with the same weights before learning from them [default: 1].",
    )
    parser.add_argument(
        "--jobs",
        type=_int_range(1, 1024),
        default=1,
        help="Processes that play a round's games at once (at most --round) [default: 1].",
    )
    parser.add_argument(
        "--teacher",
        type=_int_range(1),
        default=0,
        metavar="NODES",
        help="Fit the network to positions labelled by the kernel's alpha-beta searched NODES positions "
        "deep, instead of TD(lambda) [default: TD].",
    )
    parser.add_argument(
        "--children",
        type=_int_range(1),
        default=6,
        help="With --teacher: moves of each decision whose positions are labelled [default: 6].",
    )
    parser.add_argument(
        "--epochs",
        type=_int_range(1),
        default=10,
        help="With --teacher: passes over the labelled positions at each round's end [default: 10].",
    )
    parser.add_argument(
        "--labels",
        choices=("values", "choices", "ties"),
        default="values",
        help=(
            "With --teacher: fit the network to the searched values of positions, to the search's "
            "choices (the turn it plays ranked above CHILDREN other ends of the turn), or (with --prior) "
            "to its choices among the ends the hand-written evaluation values alike, the network then "
            "deciding only such ties [default: values]."
        ),
    )
    _add_ray_option(parser)
    parser.add_argument(
        "--resume", action="store_true", help="Go on from OUT/checkpoint.npz (to --games games in all)."
    )
