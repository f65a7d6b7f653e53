# Shared set-up for every rules file: configuration checks, the dataset
# environment, and the list of datasets the workflow can obtain on this machine.
import os
import re

PROFILES = ("full", "quick")
if config["profile"] not in PROFILES:
    raise ValueError(f"config profile must be one of {PROFILES}, got {config['profile']!r}")

PROFILE = config["profile"]
# Records of each profile go to their own folder; the full profile's tables go to
# paper_tables/, the quick profile's to paper_tables/quick/ so they never mix.
RESULTS = os.path.join(config["results_dir"], PROFILE)
TABLES = "paper_tables" if PROFILE == "full" else os.path.join("paper_tables", "quick")
DATA_RECORDS = os.path.join(config["results_dir"], "data")
# Paper dataset names left out of this run (config skip_datasets); tables say so.
SKIP = list(config.get("skip_datasets") or [])
# Paper dataset names whose table is built from the folds run so far (config
# partial_datasets): a run longer than one machine session; see README "Resuming".
PARTIAL = list(config.get("partial_datasets") or [])


def skipped_note(skipped):
    """The line a table prints when this run left some datasets out."""
    if not skipped:
        return ""
    return (f"Not run in this workflow run (config skip_datasets): {', '.join(skipped)}; "
            "their cells read 'not run (skipped by config)'.")


def partial_note(partial):
    """The line a table prints when some of its datasets are built from the
    splits run so far (config partial_datasets)."""
    partial = [n for n in partial if n not in SKIP]
    if not partial:
        return ""
    return (f"Built from the splits run so far (config partial_datasets): "
            f"{', '.join(partial)}; a set with fewer splits than the protocol's is shown "
            "apart and not compared.")


def table_params(spec):
    """What the generic table script (scripts/table.py) needs to know about this
    run, for the table of a repro.experiments.TableSpec."""
    return dict(table=spec.id, profile=PROFILE, skipped=SKIP,
                note=" ".join(filter(None, [skipped_note(SKIP), partial_note(PARTIAL)])))


def table_inputs(spec, protocol):
    """The job files a table waits for, config skip_datasets left out and
    config partial_datasets limited to the splits on disk (per-split tables)."""
    return spec.job_paths(RESULTS, protocol, exclude=SKIP, partial=PARTIAL)


def cost_lines(specs_and_protocols):
    """What each table's jobs still to run cost, from the committed records'
    measured times (printed when the workflow starts)."""
    from repro.experiments import estimate_cost

    return [estimate_cost(spec.id, PROFILE, RESULTS, table_inputs(spec, protocol))
            for spec, protocol in specs_and_protocols]


import repro.datasets as rd

# Data locations: the config wins, then the package's own rule (REPRO_DATA_MIRROR,
# else ../shared/datasets beside the checkout: repro.datasets.sources.mirror_dir) and
# REPRO_DATA_DIR. rd.configure exports them to every job, so a job whose repro is not
# imported from the checkout (--use-conda) still sees the same mirror.
if config.get("data_mirror"):
    rd.configure(mirror=config["data_mirror"])
else:
    rd.configure(mirror=rd.sources.mirror_dir().path)  # None (no mirror): left as it is
if config.get("data_cache"):
    rd.configure(cache=config["data_cache"])

# Downloads are attempted only when the canonical hosts answer (config download:
# auto), so an offline machine plans only what its cache and mirror can give.
if config["download"] == "auto":
    DOWNLOAD = rd.sources.network_reachable("https://www.csie.ntu.edu.tw", timeout=3.0)[0]
else:
    DOWNLOAD = bool(config["download"])
# Datasets this machine can obtain; the others are listed in paper_tables/datasets.md.
OBTAINABLE = [name for name in rd.names() if rd.obtainable(name, download=DOWNLOAD)]
ALL_DATASETS = rd.names()


# The software environment of every job (used with --use-conda): the package itself.
REPRO_ENV = "../envs/repro.yaml"


def log_path(*parts):
    return os.path.join("logs", *parts)
