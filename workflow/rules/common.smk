# Shared set-up for every rules file: configuration checks, the dataset
# environment, and the list of datasets the workflow can obtain on this machine.
import os
import re
import sys

# config scale: the papers' protocols (full) or CI-sized runs of the same code
# (quick), an enum of the schema. Not "profile": that is Snakemake's own --profile
# (cluster settings).
if "profile" in config:
    raise ValueError(
        "config key 'profile' is now 'scale' (it collided with Snakemake's own "
        f"--profile): use --config scale={config['profile']}"
    )
# Every key and the kind of its value (workflow/schemas/config.schema.yaml); after
# the check above, so that the old key gets its own message.
from snakemake.utils import validate

validate(config, os.path.join(workflow.basedir, "schemas", "config.schema.yaml"))
# The values the schema leaves loose (booleans given as words, download's auto,
# folders), read strictly in one place: --config download=false arrives as the
# string "false", which a plain bool() reads as true. A mirror given that does not
# exist is refused too (its sets would turn "unavailable" and the plan shrink
# without a word), by the process that plans: a cluster job is not refused again
# for a folder its node may mount elsewhere. A WorkflowError, so that the message
# is printed without a traceback into the package.
from repro.experiments import config as config_values

try:
    SETTINGS = config_values.read(config)
    _MIRROR = (
        config_values.mirror(SETTINGS)
        if workflow.is_main_process
        else SETTINGS.data_mirror
    )
except config_values.ConfigError as exc:
    raise WorkflowError(str(exc)) from None

SCALE = config["scale"]
# Records of each scale go to their own folder; the full scale's tables go to
# paper_tables/ (committed), the quick scale's to results/quick/paper_tables/
# (never committed, never mixed with the papers' tables).
RESULTS = os.path.join(config["results_dir"], SCALE)
TABLES = "paper_tables" if SCALE == "full" else os.path.join(RESULTS, "paper_tables")
DATA_RECORDS = os.path.join(config["results_dir"], "data")
# Paper dataset names left out of this run (config skip_datasets); tables say so.
SKIP = list(config.get("skip_datasets") or [])
# Paper dataset names whose table is built from the folds run so far (config
# partial_datasets): a run longer than one machine session; see README "Resuming".
PARTIAL = list(config.get("partial_datasets") or [])
# Tables whose committed records are not laid back and whose jobs run again
# (config recompute: table ids, or "all"); see restore.smk.
RECOMPUTE = SETTINGS.recompute
# config reuse_records (restore_committed): --config reuse_records=false lays nothing back
REUSE = SETTINGS.reuse_records

# Every table this workflow builds: table id -> (TableSpec, protocol), filled
# by table_inputs as the rules files are read; restore.smk and plan.smk walk it.
TABLE_SPECS = {}


def cluster_executor():
    """The executor plugin this run submits its jobs through (``slurm``, ...) when
    it is not a local one, dry runs included; None for a local run, and in a job's
    own process. Snakemake reads this file before it sets its executor, and a dry
    run (-n) runs through its "dryrun" pseudo-executor whatever the profile says,
    so the executor asked for is read where Snakemake holds it: the argument of
    the API call that runs the workflow (snakemake.api's execute_workflow, when
    planning) or the parsed command line (snakemake.cli's args_to_api, while this
    file is read). Neither found (Snakemake called otherwise): None."""
    if not workflow.is_main_process:
        return None
    plugin = workflow.executor_plugin
    if plugin is not None and not plugin.common_settings.local_exec:
        return plugin.name
    name, frame = None, sys._getframe()
    while frame is not None and name is None:
        found = frame.f_locals
        if frame.f_code.co_name == "execute_workflow":
            name = found.get("executor")
        elif frame.f_code.co_name == "args_to_api":
            name = getattr(found.get("args"), "executor", None)
        frame = frame.f_back
    if not isinstance(name, str):
        return None
    from snakemake_interface_executor_plugins.registry import ExecutorPluginRegistry

    try:
        local = ExecutorPluginRegistry().get_plugin(name).common_settings.local_exec
    except Exception:  # not an executor this process can load: say local
        return None
    return None if local else name


def every_core(wildcards):
    """The threads of a timing job: every core, so that no other job runs beside
    it. A function, read when the job is scheduled, so that `snakemake --unlock`
    needs no --cores; plan.smk counts such jobs as running alone. On a cluster
    (a non-local executor, cluster_executor) there is no total to take: the job
    asks for config cluster_timing_threads cores of its node (the profile's
    cpus_per_task is the job's threads; a dry run caps threads at its --cores),
    and its solvers stay pinned to the threads its records state."""
    if workflow.non_local_exec or cluster_executor():
        return int(config["cluster_timing_threads"])
    return workflow.cores


def skipped_note(skipped):
    """The line a table prints when this run left some datasets out."""
    if not skipped:
        return ""
    return (
        f"Not run in this workflow run (config skip_datasets): {', '.join(skipped)}; "
        "their cells read 'not run (skipped by config)'."
    )


def partial_note(partial):
    """The line a table prints when some of its datasets are built from the
    splits run so far (config partial_datasets)."""
    partial = [n for n in partial if n not in SKIP]
    if not partial:
        return ""
    return (
        f"Built from the splits run so far (config partial_datasets): "
        f"{', '.join(partial)}; a set with fewer splits than the protocol's is shown "
        "apart and not compared."
    )


def table_params(spec):
    """What the generic table script (scripts/table.py) needs to know about this
    run, for the table of a repro.experiments.TableSpec."""
    return dict(
        table=spec.id,
        scale=SCALE,
        skipped=SKIP,
        note=" ".join(filter(None, [skipped_note(SKIP), partial_note(PARTIAL)])),
    )


# Lines saying what restore_committed laid back, printed with the plan.
RESTORED = []


def restore_committed(spec, protocol):
    """Full scale, config reuse_records (the default): the table's committed
    records (paper_tables/<table id>_records.csv) laid back as its job files
    where they are missing, so that Snakemake runs only what is not committed.
    Not for a table in config recompute; never over a file this machine wrote."""
    from repro.experiments.resume import records_file, restore_jobs

    if SCALE != "full" or not REUSE or recomputed(spec.id):
        return
    if not workflow.is_main_process or not records_file(spec.id).exists():
        return
    if all(os.path.exists(p) for p in spec.job_paths(RESULTS, protocol)):
        return
    written = restore_jobs(spec, results=config["results_dir"])
    if written:
        RESTORED.append(
            f"{spec.id}: {len(written)} job files laid back from {records_file(spec.id)}"
        )


def table_inputs(spec, protocol):
    """The input of a table's step, to unpack: ``jobs``, the job files it waits for, config
    skip_datasets left out and config partial_datasets limited to the splits on
    disk (per-split tables). Registers the table in TABLE_SPECS and lays its
    committed records back (restore_committed) while the rules are read; the
    list itself is made when Snakemake plans (an input function: see at_plan).
    ``stamp``: the table's recompute stamp (stamp_input)."""
    TABLE_SPECS[spec.id] = (spec, protocol)
    restore_committed(spec, protocol)

    def job_files(wildcards):
        at_plan()
        jobs = spec.job_paths(RESULTS, protocol, exclude=SKIP, partial=PARTIAL)
        if not recomputed(spec.id):
            # a laid-back job file edited by hand is refused while planning, before Snakemake
            # removes the table's committed records to run its step (the step checks again)
            from repro.experiments.records import check_laid_back

            check_laid_back(jobs, spec.id)
        return {"jobs": jobs, "stamp": stamp_input(spec.id)}

    return job_files


def recomputed(table_id):
    """Whether config recompute asks for this table's jobs to run again."""
    return "all" in RECOMPUTE or table_id in RECOMPUTE


def recompute_stamp(table_id):
    """A file every job of a table takes as input, so that config recompute can
    make them run again: its time is ignored (ancient) unless the table is
    recomputed; then at_plan writes it anew, newer than every job file."""
    return os.path.join(RESULTS, ".recompute", f"{table_id}.stamp")


def stamp_input(table_id):
    """The recompute stamp as an input of a table's jobs and of its page: its time
    ignored (ancient) unless config recompute names the table. The page takes it
    too, so that a page up to date with its job files missing is rebuilt, and
    its jobs run, when the table is recomputed."""
    stamp = recompute_stamp(table_id)
    if workflow.is_main_process and not os.path.exists(stamp):
        from repro._io import write_text_atomic

        write_text_atomic(stamp, "")
    return [stamp if recomputed(table_id) else ancient(stamp)]


# Set while plan.smk plans the whole run from scratch (whole_run_plan).
AS_IF_RECOMPUTED = [False]


def job_inputs(spec, svmlight=False):
    """The input of a table's experiment jobs: the table's recompute stamp and,
    for a job that runs SVM-Light (svmlight=True), the build's record
    (svmlight_build, baselines.smk). A job whose records exist (run here, or
    laid back from the committed ones) is not rerun for want of a build: while
    there is none it does not wait for one, and once there is one its time is
    ignored (ancient); so planning such jobs neither builds nor probes."""

    def needs(wildcards):
        at_plan()
        files = stamp_input(spec.id)
        if not svmlight:
            return files
        # the whole run's plan (plan.smk): every job from scratch
        if AS_IF_RECOMPUTED[0]:
            return files + [SVMLIGHT_BUILD]
        if os.path.exists(SVMLIGHT_BUILD):
            return files + [ancient(SVMLIGHT_BUILD)]
        if spec.job_files.path(
            spec.folder(RESULTS), **dict(wildcards)
        ).exists() and not recomputed(spec.id):
            return files
        return files + ([SVMLIGHT_BUILD] if SVMLIGHT_BUILDABLE() else [])

    return needs


_PLANNED = []


def plan_hook(wildcards):
    """The input of the rules with no other input function (data, builds): none,
    but Snakemake planning them calls at_plan, so that their targets print the plan too.
    """
    at_plan()
    return []


def at_plan():
    """Once, in the main process, when Snakemake starts to plan (the first input
    function it calls; the command line's targets and flags are known only then):
    write the stamps of the tables in config recompute anew, then print what the
    planned jobs cost (plan.smk)."""
    if _PLANNED or not workflow.is_main_process:
        return
    _PLANNED.append(True)
    import time

    from repro._io import write_text_atomic

    for table_id in TABLE_SPECS:
        if recomputed(table_id):
            write_text_atomic(
                recompute_stamp(table_id), f"recompute asked at {time.time()!r}\n"
            )
    for line in cost_lines():
        print(line, file=sys.stderr)


import repro.datasets as rd

# On a cluster (a non-local executor, dry runs included), the jobs on the compute
# nodes read the data cache and the mirror: one on this machine's own storage
# (/tmp, $TMPDIR, a tmpfs), or a cache that cannot be created, is refused in one
# line (repro.experiments.config.shared_storage), by the process that plans.
if cluster_executor():
    try:
        config_values.shared_storage(
            SETTINGS, _MIRROR or rd.sources.mirror_dir().path, cluster_executor()
        )
    except config_values.ConfigError as exc:
        raise WorkflowError(str(exc)) from None

# Data locations: the config wins, then the package's own rule (REPRO_DATA_MIRROR,
# else ../shared/datasets beside the checkout: repro.datasets.sources.mirror_dir) and
# REPRO_DATA_DIR. rd.configure exports them to every job, so a job whose repro is not
# imported from the checkout (--use-conda) still sees the same mirror (_MIRROR, checked
# above; None, no mirror given: the package's own rule, a folder beside the checkout
# or none).
rd.configure(mirror=_MIRROR or rd.sources.mirror_dir().path)
if SETTINGS.data_cache:
    rd.configure(cache=SETTINGS.data_cache)

# Downloads are attempted only when the canonical hosts answer (config download:
# auto), so an offline machine plans only what its cache and mirror can give.
if SETTINGS.download == "auto":
    DOWNLOAD = rd.sources.network_reachable("https://www.csie.ntu.edu.tw", timeout=3.0)[
        0
    ]
else:
    DOWNLOAD = SETTINGS.download
# Datasets this machine can obtain; the others are listed in paper_tables/datasets.md.
OBTAINABLE = [name for name in rd.names() if rd.obtainable(name, download=DOWNLOAD)]
ALL_DATASETS = rd.names()
# The NESVM image sets (format "image"): their feature matrix is built from the
# published archives by a step of its own (data.smk, image_features) into the data
# cache (repro.datasets.image_features); fetch_dataset and their jobs wait for it.
IMAGE_FEATURE_SETS = [n for n in ALL_DATASETS if rd.get_spec(n).format == "image"]


def image_features_record(dataset):
    """The record of the step that builds an image set's feature matrix."""
    return os.path.join(DATA_RECORDS, "features", f"{dataset}.json")


def fetch_inputs(wildcards):
    """fetch_dataset's input: an image set's features are built by their own step."""
    at_plan()
    if wildcards.dataset in IMAGE_FEATURE_SETS:
        return [image_features_record(wildcards.dataset)]
    return []


def image_features_input(spec, registry_of):
    """The input of a table's jobs on image sets: the features record of the job's
    set (``registry_of(wildcards)``: its registry name), none for a set that is not
    an image set (a stand-in). A job whose records exist (run here, or laid back
    from the committed ones) does not wait for it, as job_inputs treats the
    SVM-Light build."""

    def needs(wildcards):
        registry = registry_of(wildcards)
        if registry not in IMAGE_FEATURE_SETS:
            return []
        job = spec.job_files.path(spec.folder(RESULTS), **dict(wildcards))
        if job.exists() and not recomputed(spec.id):
            return []
        return [image_features_record(registry)]

    return needs


# The software environment of every job (used with --use-conda): the package itself.
REPRO_ENV = "../envs/repro.yaml"


def log_path(*parts):
    return os.path.join("logs", *parts)


# The Snakemake report (snakemake --report report.zip): every table's CSV and
# figure, captioned (workflow/report/<table id>.rst) and grouped by paper.
from repro.papers import NAMES as PAPER_NAMES
from repro.papers.catalog import SUMMARIES as PAPER_SUMMARIES, table_spec as _table_spec


def in_report(path, table_id):
    """``path``, an output of a table's rule, marked for the report under its
    paper (category) and the table's title (subcategory)."""
    paper = _table_spec(table_id).paper
    return report(
        path,
        caption=f"../report/{table_id}.rst",
        category=PAPER_NAMES[paper],
        subcategory=PAPER_SUMMARIES[paper].titles[table_id],
    )


import logging


class _RestoredJobFilesFilter(logging.Filter):
    """`snakemake --report` warns once per output that has no Snakemake
    metadata: here every job file laid back from the committed records
    (restore_committed), some 1,600 lines. They are expected, so one line says
    so instead."""

    said = False

    def filter(self, record):
        if not record.getMessage().startswith("Missing metadata for file"):
            return True
        if not self.said:
            type(self).said = True
            print(
                "Job files laid back from the committed records have no Snakemake metadata "
                "(they were not run here); the report's warning for each is not shown.",
                file=sys.stderr,
            )
        return False


logging.getLogger("snakemake.logging").addFilter(_RestoredJobFilesFilter())


# What a cluster job asks for (resources runtime, mem_mb), per job, from what it
# measured in the committed records (repro.experiments.resources: 2x its seconds,
# 1.5x its peak memory); a job not measured there gets config unmeasured_resources.
# Read when Snakemake plans, so the requests follow the records as they change.


def measured_resources(spec):
    """The ``resources:`` of a table's experiment rule (to unpack)."""
    from repro.experiments import resources as R

    def job(wildcards):
        if SCALE != "full":  # the committed records measure the full scale's jobs only
            return None
        return R.measured(spec).get(spec.job_files.path("", **dict(wildcards.items())))

    def runtime(wildcards):
        done = job(wildcards)
        return (
            R.runtime_minutes(done.seconds)
            if done
            else int(config["unmeasured_resources"]["runtime"])
        )

    def mem_mb(wildcards):
        done = job(wildcards)
        if done is None or done.peak_mb is None:
            return int(config["unmeasured_resources"]["mem_mb"])
        return R.mem_mb(done.peak_mb)

    return {"runtime": runtime, "mem_mb": mem_mb}
