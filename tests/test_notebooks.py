"""The example notebooks of ``docs/notebooks`` run from top to bottom, as CI runs them.

Each notebook is executed with nbclient in a fresh kernel of this interpreter (ipykernel's ``python3``
kernel spec, written for ``sys.executable`` into a temporary ``JUPYTER_PATH`` so that no other installation's
kernel is picked), in a temporary working folder, with matplotlib's ``Agg`` backend (``MPLBACKEND``; the
notebooks draw inline with ``%matplotlib inline``) and one BLAS thread, and with a time limit on each cell.
The training notebook needs Gymnasium (the ``notebooks`` or ``gymnasium`` extra; ``./test.sh`` installs it)
and is skipped without it. The checks:

* no cell raises;
* ``train_an_agent.ipynb`` draws its learning curve (an ``image/png`` output);
* in ``explore_a_variant.ipynb``, every cell tagged ``board-<game>`` shows that game's board as SVG
  (``State._repr_svg_``), and each of the four games has such cells;
* the notebooks are kept without outputs and name the ``python3`` kernel, as they are committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "docs" / "notebooks"
TRAINING = NOTEBOOKS / "train_an_agent.ipynb"
VARIANT = NOTEBOOKS / "explore_a_variant.ipynb"
KERNEL = "python3"
CELL_TIMEOUT_S = 180
"""The most one cell may take; the slowest (the training loop) takes well under a minute on one core."""
GAMES = ("shobu", "shoo", "sho", "shogammon")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder for a notebook, with a ``python3`` kernel spec of this interpreter on the path."""
    jupyter = tmp_path / "jupyter"
    write_kernel_spec(str(jupyter / "kernels" / KERNEL))
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(threads, "1")
    work = tmp_path / "work"
    work.mkdir()
    return work


def execute(path: Path, workdir: Path) -> Any:
    """The notebook at ``path`` after running every cell in a fresh kernel, in ``workdir``."""
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # nbformat has no types
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=CELL_TIMEOUT_S,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()
    return notebook


def code_cells(notebook: Any) -> list[Any]:
    """The notebook's code cells, in order."""
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def errors(notebook: Any) -> list[str]:
    """Every error output of the notebook, as ``cell id: name: value``."""
    return [
        f"{cell.get('id')}: {output.ename}: {output.evalue}"
        for cell in code_cells(notebook)
        for output in cell.outputs
        if output.output_type == "error"
    ]


def rich_data(cell: Any, mime: str) -> list[str]:
    """The ``mime`` data of the cell's displayed and returned outputs."""
    return [
        str(output.data[mime])
        for output in cell.outputs
        if output.output_type in ("display_data", "execute_result") and mime in output.data
    ]


@pytest.mark.parametrize("path", [TRAINING, VARIANT], ids=lambda path: path.stem)
def test_notebooks_are_kept_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # nbformat has no types
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == KERNEL
    for cell in code_cells(notebook):
        assert cell.outputs == [], f"{path.name}, cell {cell.get('id')}: clear the outputs before committing"
        assert cell.execution_count is None, f"{path.name}, cell {cell.get('id')}: clear the outputs"


def test_the_training_notebook_runs_and_plots_its_learning_curve(workdir: Path) -> None:
    pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install -e '.[notebooks]'")
    notebook = execute(TRAINING, workdir)
    assert errors(notebook) == []
    images = [image for cell in code_cells(notebook) for image in rich_data(cell, "image/png")]
    assert images, "the training notebook drew no figure (image/png)"


def test_the_variant_notebook_runs_and_draws_every_games_board(workdir: Path) -> None:
    notebook = execute(VARIANT, workdir)
    assert errors(notebook) == []
    tagged = {
        game: [cell for cell in code_cells(notebook) if f"board-{game}" in cell.metadata.get("tags", [])]
        for game in GAMES
    }
    missing = [game for game, cells in tagged.items() if not cells]
    assert missing == [], f"games with no cell tagged board-<game>: {missing}"
    for game, cells in tagged.items():
        for cell in cells:
            svgs = rich_data(cell, "image/svg+xml")
            assert svgs, f"cell {cell.get('id')} shows no SVG board of {game}: {cell.source!r}"
            for svg in svgs:
                assert svg.startswith("<svg"), f"cell {cell.get('id')}: {svg[:80]!r}"
    assert any(rich_data(cell, "image/png") for cell in code_cells(notebook)), "the study drew no figure"
