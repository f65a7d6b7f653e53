"""repro.experiments.memory: a job's process reuses the memory it frees.

Read, not timed: the resident size after a 128 MiB array is freed. Kept,
it stays resident for the next array (no fresh pages to fault in and zero);
given back (glibc's default for a block that size), it leaves the process."""
import subprocess
import sys

import pytest

MIB = 1 << 20

_CHILD = """
import os, sys
import numpy as np
from repro.experiments.memory import keep_freed_memory

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

applied = keep_freed_memory() if sys.argv[1] == "on" else None
before = rss()
a = np.ones(128 << 17)   # 128 MiB, every page touched
held = rss()
del a
print(applied, held - before, rss() - before)
"""


def _resident(mode):
    """(applied, resident growth holding the array, after freeing it)."""
    out = subprocess.run([sys.executable, "-c", _CHILD, mode], capture_output=True, text=True,
                         check=True, timeout=120).stdout.split()
    return out[0], int(out[1]), int(out[2])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_a_freed_array_stays_for_the_next_one():
    applied, held, freed = _resident("on")
    assert applied == "True"
    assert held > 120 * MIB and freed > 120 * MIB, (held, freed)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_without_it_a_freed_array_leaves_the_process():
    """The control: the reading above tells the two apart."""
    applied, held, freed = _resident("off")
    assert applied == "None"
    assert held > 120 * MIB and freed < 8 * MIB, (held, freed)


def test_the_workflows_job_step_asks_for_it(monkeypatch, tmp_path):
    """write_job applies it before the job runs."""
    import repro.experiments as E
    from repro.experiments import memory

    calls = []
    monkeypatch.setattr(memory, "keep_freed_memory", lambda: calls.append("kept") or True)

    def run_job(spec, scale, fields):
        calls.append("ran")
        raise RuntimeError("stop here")

    monkeypatch.setattr(E, "run_job", run_job)
    with pytest.raises(RuntimeError, match="stop here"):
        E.write_job(None, "tiny", {}, tmp_path / "out.csv")
    assert calls == ["kept", "ran"]
