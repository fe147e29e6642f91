"""Run the ``shogames`` command line in this process, as a test does: typed input in, output and status out.

>>> result = run_cli(["perft", "shobu", "--depth", "1", "--reference"])
>>> result.exit_code, result.stdout
(0, '232\\n')
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from shogames.ui.cli import main


@dataclass(frozen=True)
class CliResult:
    """What one run of the command line did.

    Attributes:
        exit_code: the exit status ``main`` returned (or exited with).
        stdout: everything written to standard output, prompts included.
        stderr: everything written to standard error.
        output: both, interleaved in the order they were written.
    """

    exit_code: int
    stdout: str
    stderr: str
    output: str


class _Tee(io.StringIO):
    """A captured stream that also copies what it is written to a shared log of both streams."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def write(self, text: str) -> int:
        self.log.append(text)
        return super().write(text)


def run_cli(argv: Sequence[str], input: str | None = None) -> CliResult:
    """Run ``shogames ARGV...`` through :func:`shogames.ui.cli.main` with ``input`` as its standard input.

    Standard input, output and error are replaced for the run (an empty input when ``input`` is ``None``,
    so a prompt reads the end of input), and put back afterwards.
    """
    log: list[str] = []
    out, err = _Tee(log), _Tee(log)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(input or ""), out, err
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return CliResult(code, out.getvalue(), err.getvalue(), "".join(log))


def cli(*args: str, input: str | None = None) -> CliResult:
    """:func:`run_cli` with the arguments given one by one: ``cli("legal", "shobu")``."""
    return run_cli(args, input=input)
