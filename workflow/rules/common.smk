# Shared set-up for every rules file: configuration checks, the dataset
# environment, and the list of datasets the workflow can obtain on this machine.
import os
import re
from pathlib import Path

PROFILES = ("full", "quick")
if config["profile"] not in PROFILES:
    raise ValueError(f"config profile must be one of {PROFILES}, got {config['profile']!r}")

RESULTS = config["results_dir"]

# The data locations are read by repro.datasets from the environment; set them
# before it is imported so that availability below reflects this run.
_default_mirror = Path(workflow.basedir).parent.parent / "shared" / "datasets"
if config.get("data_mirror"):
    os.environ["REPRO_DATA_MIRROR"] = str(Path(config["data_mirror"]).resolve())
elif "REPRO_DATA_MIRROR" not in os.environ and _default_mirror.is_dir():
    os.environ["REPRO_DATA_MIRROR"] = str(_default_mirror)
if config.get("data_cache"):
    os.environ["REPRO_DATA_DIR"] = str(Path(config["data_cache"]).resolve())

import repro.datasets as rd

# Datasets this machine can obtain (cache, mirror, download or stand-in);
# unavailable ones are listed in paper_tables/datasets.md with the reason.
OBTAINABLE = [name for name in rd.names() if rd.availability(name) != "unavailable"]
ALL_DATASETS = rd.names()


def log_path(*parts):
    return os.path.join("logs", *parts)
