"""The Snakemake workflow parses, plans and lints cleanly."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def snakemake(*args):
    """Run snakemake in the repository (the data_env fixture has set the mirror
    and a temporary cache in the environment the subprocess inherits)."""
    exe = shutil.which("snakemake")
    cmd = [exe] if exe else [sys.executable, "-m", "snakemake"]
    return subprocess.run(
        [*cmd, "--nolock", "--cores", "1", *args],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("profile", ["full", "quick"])
def test_dry_run_plans_every_target(data_env, profile):
    r = snakemake("-n", "--config", f"profile={profile}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fetch_dataset" in r.stdout or "Nothing to be done" in r.stdout


def test_lint_is_clean(data_env):
    r = snakemake("--lint")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Lints for" not in out, out


def test_unknown_profile_is_refused(data_env):
    r = snakemake("-n", "--config", "profile=fast")
    assert r.returncode != 0
    assert "profile must be one of" in r.stdout + r.stderr
