"""Shared fixtures: where the tests find the dataset mirror and cache."""
import os

import pytest

from repro.datasets import sources

# Found once by the package's own rule (REPRO_DATA_MIRROR, else ../shared/datasets
# beside the checkout), before any test changes the environment.
SESSION_MIRROR = sources.mirror_dir()


@pytest.fixture(autouse=True)
def _no_mirror_beside_the_checkout(monkeypatch):
    """In a test, an unset REPRO_DATA_MIRROR means no mirror: a test that removes it
    must not depend on whether a mirror happens to sit beside this checkout (tests
    of that rule put a fake checkout in its place)."""
    monkeypatch.setattr(sources, "_checkout", lambda: None)


@pytest.fixture(scope="session")
def data_env(tmp_path_factory):
    """Point repro.datasets at the offline mirror (found by
    ``repro.datasets.sources.mirror_dir``) and a fresh cache; skip when there is no
    mirror."""
    mirror, how = SESSION_MIRROR
    if mirror is None or not mirror.is_dir():
        pytest.skip(f"no dataset mirror ({how}): set REPRO_DATA_MIRROR or place "
                    "shared/datasets beside the checkout")
    mp = pytest.MonkeyPatch()
    mp.setenv("REPRO_DATA_MIRROR", str(mirror))
    if "REPRO_DATA_DIR" not in os.environ:
        mp.setenv("REPRO_DATA_DIR", str(tmp_path_factory.mktemp("repro-cache")))
    yield mirror
    mp.undo()
