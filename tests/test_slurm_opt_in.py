"""A plain pytest leaves the machine alone (issue 47): tests/test_slurm.py, which as
root apt-get installs slurm-wlm and munge and starts their daemons, runs only when
asked (REPRO_TEST_SLURM=1, set by .ci/run) and says how to ask when it skips.

Checked with ``pytest --setup-plan``, which decides the skips but runs no fixture:
on a commit without the opt-in this test fails without installing or starting
anything.
"""
import os
import subprocess
import sys

import pytest
from slurm_cluster import OPT_IN
from test_workflow import REPO


def plan_slurm_tests(**env):
    """What pytest would do with tests/test_slurm.py, in this environment less
    OPT_IN plus ``env``: its output (-rs lists the skips with their reasons).
    With --slow, as .ci/run asks: the SLURM tests are in the slow tier too."""
    environment = {k: v for k, v in os.environ.items() if k != OPT_IN}
    r = subprocess.run([sys.executable, "-m", "pytest", "--setup-plan", "-rs", "-p", "no:cacheprovider",
                        "--slow", "tests/test_slurm.py"], cwd=REPO, env={**environment, **env},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@pytest.mark.slow
def test_the_slurm_tests_skip_unless_asked_saying_how_to_ask():
    out = plan_slurm_tests()
    assert "2 skipped" in out, out
    assert f"set {OPT_IN}=1 to run them" in out and "apt-get install slurm-wlm and munge" in out, out
    assert "SETUP" not in out  # the cluster fixture is never set up


@pytest.mark.slow
def test_asked_they_set_up_the_cluster():
    out = plan_slurm_tests(**{OPT_IN: "1"})
    assert "SETUP    M cluster" in out and "skipped" not in out, out


def test_ci_asks_for_them():
    assert f"export {OPT_IN}=1" in (REPO / ".ci" / "run").read_text()
