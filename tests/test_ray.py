"""The arena on a local Ray (``ray.init(num_cpus=2)``, its temporary folder the test's own): the same report
as a run in one process, for the same seeds.

Needs the ``ray`` extra (``pip install -e '.[ray]'``, which ``./test.sh`` installs); without it the test
says so and skips.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_runner import run_cli
from shogames.arena import ArenaReport, run_arena


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A Ray on this machine with 2 CPUs, its files in a short temporary folder (its sockets need one)."""
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install -e '.[ray]'")
    folder = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=str(folder))
    try:
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


def test_the_arena_on_ray_gives_the_same_report_as_one_process(local_ray: None, tmp_path: Path) -> None:
    agents = ["random", "easy", "medium"]
    on_ray = run_arena("shobu", agents, 4, seed=11, ray="local", out=tmp_path / "ray")
    alone = run_arena("shobu", agents, 4, seed=11, jobs=1, out=tmp_path / "alone")

    def results(report: ArenaReport) -> object:  # everything but the seconds a game took
        pairs = [(p.first, p.second, p.wins, p.draws, p.losses, p.mean_plies) for p in report.pairs]
        return pairs, report.ratings

    assert results(on_ray) == results(alone)
    assert (tmp_path / "ray" / "games.txt").read_text() == (tmp_path / "alone" / "games.txt").read_text()


def test_without_ray_the_error_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from shogames import ray_tasks

    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed: importing it fails
    with pytest.raises(RuntimeError, match=r"pip install 'shogames\[ray\]'"):
        ray_tasks.ray_module()


def test_the_arena_command_with_ray(local_ray: None, tmp_path: Path) -> None:
    command = ["arena", "shobu", "--agents", "random", "easy", "--games", "2", "--seed", "4"]
    on_ray = run_cli([*command, "--ray", "--out", str(tmp_path / "ray")])
    alone = run_cli([*command, "--out", str(tmp_path / "alone")])
    assert on_ray.exit_code == 0 and alone.exit_code == 0, on_ray.output + alone.output
    assert (tmp_path / "ray" / "games.txt").read_text() == (tmp_path / "alone" / "games.txt").read_text()


def test_the_ray_option_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None if name == "ray" else True)
    result = run_cli(["arena", "shobu", "--agents", "random", "easy", "--games", "1", "--ray"])
    assert result.exit_code == 1 and "pip install 'shogames[ray]'" in result.output


def test_self_play_rounds_on_ray_give_the_same_weights_as_in_one_process(local_ray: None) -> None:
    import numpy as np

    from shogames.core.registry import make
    from shogames.learning.network import PARAMETERS
    from shogames.learning.td import Training, TrainingOptions

    game = make("shobu")
    options = TrainingOptions(games=4, hidden=8, seed=6, eval_every=0, round=2)
    alone = Training.start(game, options)
    alone.run()
    on_ray = Training.start(game, options)
    on_ray.run(ray="local")
    for name in PARAMETERS:
        assert np.array_equal(on_ray.network.arrays[name], alone.network.arrays[name]), name
