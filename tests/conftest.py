"""Shared fixtures: where the tests find the dataset mirror and cache; the tiers.

Two tiers. ``pytest`` runs the fast one, what a user runs after a change: every
solver against its references, the parsers, the layer, the pages rebuilt from the
committed records, the doctests. ``pytest --slow`` adds the tests marked
``@pytest.mark.slow``: workflow runs (snakemake in a subprocess), the report
built from a fresh workflow, dataset shapes over the whole registry, long
convergence checks. ``.ci/run`` runs both, and the real-SLURM tests
(``REPRO_TEST_SLURM=1``).
"""
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


SLOW_OPTION = "--slow"


def pytest_addoption(parser):
    parser.addoption(SLOW_OPTION, action="store_true", default=False,
                     help="also run the slow tier (tests marked slow); .ci/run does")


def pytest_collection_modifyitems(config, items):
    if config.getoption(SLOW_OPTION):
        return
    skip = pytest.mark.skip(reason=f"slow tier: run with `pytest {SLOW_OPTION}` (.ci/run does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _cache_in_a_temporary_folder(tmp_path_factory):
    """A test run writes no dataset into the user's own cache (~/.cache/repro): with
    REPRO_DATA_DIR unset, every test's cache is one temporary folder of the session
    (the files come from the mirror, checked by their sha256 as always)."""
    if "REPRO_DATA_DIR" in os.environ:
        yield
        return
    mp = pytest.MonkeyPatch()
    mp.setenv("REPRO_DATA_DIR", str(tmp_path_factory.mktemp("repro-cache")))
    yield
    mp.undo()
