"""The Python API's argument space, seeded (argument_fuzz.py): thousands of
calls with hostile arguments, each run in a child interpreter so that a
death (a signal, an abort) or a hang is counted as a failure naming the
call, not the end of this test run. A call may return or raise
tilescope.Error, TypeError or ValueError, nothing else.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SEEDS = [1, 20261205, 7]
CALLS = 1500


@pytest.mark.parametrize("seed", SEEDS)
def test_no_call_kills_hangs_or_surprises_the_interpreter(seed, tmp_path):
    try:
        run = subprocess.run([sys.executable, str(HERE / "argument_fuzz.py"), str(seed),
                              str(CALLS), str(tmp_path)],
                             capture_output=True, text=True, timeout=240,
                             env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    except subprocess.TimeoutExpired as hung:
        out = hung.stdout.decode() if isinstance(hung.stdout, bytes) else (hung.stdout or "")
        last = [line for line in out.splitlines() if line.startswith("call ")][-1:]
        raise AssertionError(f"seed {seed}: hung after 240 s in {last}")
    lines = run.stdout.splitlines()
    calls = [line for line in lines if line.startswith("call ")]
    unexpected = [previous + " -> " + line.strip() for previous, line in zip(lines, lines[1:])
                  if "UNEXPECTED" in line]
    where = calls[-1] if calls else "before the first call"
    assert run.returncode >= 0, (f"seed {seed}: killed by signal {-run.returncode} in "
                                 f"{where}\n{run.stderr[-2000:]}")
    assert not unexpected, f"seed {seed}: {unexpected[:5]}"
    assert run.returncode == 0 and lines[-1:] == ["done"], (
        f"seed {seed}: exit {run.returncode} in {where}\n{run.stderr[-2000:]}")
    assert len(calls) == CALLS
