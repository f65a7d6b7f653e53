"""Shared fixtures: where the tests find the dataset mirror and cache."""
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def data_env(tmp_path_factory):
    """Point repro.datasets at the offline mirror (REPRO_DATA_MIRROR, else
    ../shared/datasets beside the repository) and a fresh cache; skip when
    there is no mirror."""
    mirror = os.environ.get("REPRO_DATA_MIRROR") or (str(DEFAULT_MIRROR) if DEFAULT_MIRROR.is_dir() else None)
    if not mirror or not Path(mirror).is_dir():
        pytest.skip("no dataset mirror: set REPRO_DATA_MIRROR or place shared/datasets beside the repo")
    mp = pytest.MonkeyPatch()
    mp.setenv("REPRO_DATA_MIRROR", mirror)
    if "REPRO_DATA_DIR" not in os.environ:
        mp.setenv("REPRO_DATA_DIR", str(tmp_path_factory.mktemp("repro-cache")))
    yield Path(mirror)
    mp.undo()
