# What the run Snakemake is about to plan will cost, printed whenever it plans,
# dry runs included (a dry run never reaches `onstart`). Snakemake builds its own
# plan after the command line's targets are known, so at_plan (common.smk) calls
# this from the first input function Snakemake evaluates, and this walks the same
# rules the same way for those targets (Plan says how). What Snakemake reads
# from its own metadata (changed code or params of a job run here) is not seen:
# after editing the code, its own list of jobs is the one to trust. The costs
# come from repro.experiments.cost (measured seconds in the committed records;
# the quick scale's whole run from workflow/resources/measured.yaml). Under a
# cluster executor (common.smk, cluster_executor: the SLURM profile, dry runs
# included) no local wall time holds: cluster_lines prints the jobs submitted,
# their CPU-hours, the longest job and the largest memory request instead.
import yaml
from snakemake.io import apply_wildcards, is_flagged
from snakemake.iocontainers import Wildcards

from repro.experiments import cost as COST

with open(
    os.path.join(workflow.basedir, "resources", "measured.yaml"), encoding="utf-8"
) as _f:
    MEASURED = yaml.safe_load(_f)


class Plan:
    """The jobs Snakemake will run for ``targets`` (``runs``: step name -> the
    first output of each of its jobs that run), decided as Snakemake decides:
    a job has a reason of its own to run when it is forced, when it is a target
    with an output missing, or when its outputs exist and an input (not ancient)
    or its script is newer than the oldest; then a job that runs makes the
    producers of its missing inputs run, and the jobs that consume its outputs.
    A missing file that no job that runs needs is not made (a page whose job
    files are missing but which is up to date is not rebuilt)."""

    def __init__(self, targets, forced_rules=(), force_all=False, force_targets=False):
        self.producers = [r for r in workflow.rules if r.output]
        self.jobs = {}  # key -> (step, outputs, [(input file, producer key or None)])
        self.consumers = {}  # key -> {consumer key: [files]}
        wanted = []
        for target in targets:
            if workflow.is_rule(target):
                step = workflow.get_rule(target)
                if not step.has_wildcards():
                    wanted.append(self.add(step, {}))
            else:
                wanted.append(self.of_file(target))
        wanted = [k for k in wanted if k is not None]
        need = {
            key
            for key in self.jobs
            if self.reason(
                key,
                key in wanted,
                forced_rules,
                force_all,
                force_targets and key in wanted,
            )
        }
        queue = list(need)
        while queue:
            key = queue.pop()
            for f, producer in self.jobs[key][2]:
                if (
                    producer is not None
                    and producer not in need
                    and not os.path.exists(str(f))
                ):
                    need.add(producer)
                    queue.append(producer)
            for consumer, files in self.consumers.get(key, {}).items():
                if consumer not in need and not all(
                    is_flagged(f, "ancient") and os.path.exists(str(f)) for f in files
                ):
                    need.add(consumer)
                    queue.append(consumer)
        self.runs = {}
        for key in need:
            step, outputs, _ = self.jobs[key]
            self.runs.setdefault(step.name, []).append(
                outputs[0] if outputs else step.name
            )

    def of_file(self, path):
        """The key of the job that makes ``path`` (None: no rule makes it)."""
        step = next((r for r in self.producers if r.is_producer(path)), None)
        return None if step is None else self.add(step, step.get_wildcards(path))

    def add(self, step, wildcards):
        """Add a job and, recursively, the jobs making its inputs; returns its key."""
        key = (step.name, tuple(sorted(wildcards.items())))
        if key in self.jobs:
            return key
        outputs = [apply_wildcards(o, wildcards) for o in step.output]
        self.jobs[key] = (step, outputs, [])
        # Snakemake's own expansion of the rule's input (input functions, unpack, flags)
        for f in step.expand_input(Wildcards(fromdict=wildcards))[0]:
            producer = self.of_file(str(f))
            self.jobs[key][2].append((f, producer))
            if producer is not None:
                self.consumers.setdefault(producer, {}).setdefault(key, []).append(f)
        return key

    def reason(self, key, is_target, forced_rules, force_all, force) -> bool:
        """Whether a job has a reason of its own to run (see the class docstring)."""
        step, outputs, inputs = self.jobs[key]
        if force or force_all or step.name in forced_rules:
            return True
        if not outputs:
            return is_target  # all, gs_svm, ...: a job each time they are asked for
        if not all(os.path.exists(o) for o in outputs):
            return is_target
        oldest = min(os.path.getmtime(o) for o in outputs)
        script = step.script and os.path.join(
            os.path.dirname(step.snakefile), step.script
        )
        return any(
            not is_flagged(f, "ancient")
            and os.path.exists(str(f))
            and os.path.getmtime(str(f)) > oldest
            for f, _ in inputs
        ) or bool(script and os.path.getmtime(script) > oldest)


def record_table(path):
    """The table whose job writes ``path`` and the job file within its folder, or (None, None)."""
    for table_id, (spec, _) in TABLE_SPECS.items():
        folder = spec.folder(RESULTS) + "/"
        if path.startswith(folder):
            return table_id, path[len(folder) :]
    return None, None


def default_resource(name):
    """A default resource of this run (the profile's) when it is a plain number, else None."""
    found = (workflow.resource_settings.default_resources or {}).get(name)
    value = getattr(found, "value", found)
    return value if isinstance(value, int) else None


def plan_cost(plan):
    """The planned jobs as repro.experiments.cost Jobs: experiment jobs with the
    seconds measured in the committed records (full scale), the others unmeasured;
    and, for a cluster, whether each runs on the submitting host (localrule) and
    what a submitted one asks for (an experiment job: common.smk's
    measured_resources; a timing job config cluster_timing_threads cores)."""
    from repro.experiments import resources as R

    measured, jobs = {}, []
    unmeasured = config["unmeasured_resources"]
    for name, outputs in plan.runs.items():
        step = workflow.get_rule(name)
        if not step.output:
            continue
        every = step.resources.get("_cores") is every_core
        cores = int(config["cluster_timing_threads"]) if every else 1
        local = step.name in getattr(workflow, "_localrules", ())
        for out in outputs:
            table, rel = record_table(out)
            if table is None:
                # a step on the submitting host (localrule), or a job asking the defaults
                jobs.append(
                    COST.Job(
                        None,
                        every,
                        local=local,
                        cores=cores,
                        runtime_min=None if local else default_resource("runtime"),
                        mem_mb=None if local else default_resource("mem_mb"),
                        name=f"{name} {out}",
                    )
                )
                continue
            done = None
            if SCALE == "full":
                if table not in measured:
                    measured[table] = {
                        str(k): v for k, v in R.measured(TABLE_SPECS[table][0]).items()
                    }
                done = measured[table].get(rel)
            jobs.append(
                COST.Job(
                    done.seconds if done else None,
                    every,
                    table,
                    local=local,
                    cores=cores,
                    runtime_min=(
                        R.runtime_minutes(done.seconds)
                        if done
                        else int(unmeasured["runtime"])
                    ),
                    mem_mb=(
                        R.mem_mb(done.peak_mb)
                        if done and done.peak_mb is not None
                        else int(unmeasured["mem_mb"])
                    ),
                    name=f"{table} {rel}",
                )
            )
    return COST.Cost(jobs)


# The default resources workflow/profiles/slurm sets (runtime and mem_mb of the steps
# that run on the submitting host, and every job's cpus_per_task: its threads)
PROFILE_DEFAULTS = ("runtime", "mem_mb", "cpus_per_task")


def cluster_lines(cost, executor, start):
    """What a cluster user needs of the planned jobs (no local wall time holds
    there): the jobs submitted, their CPU-hours, the longest job, the largest
    memory request; and the whole run's CPU-hours."""
    c = COST.cluster_summary(cost, start)
    lines = [
        f"  on the cluster ({executor}): {c.submitted} jobs submitted; the {c.local} table, "
        "data and build steps run on this host"
    ]
    lost = [
        r
        for r in PROFILE_DEFAULTS
        if r not in (workflow.resource_settings.default_resources or {})
    ]
    if lost:
        lines.append(
            f"  warning: the default resources lack {', '.join(lost)}, which "
            "workflow/profiles/slurm sets: --default-resources on the command line replaces "
            "the profile's instead of adding to them; give account and partition as "
            "SBATCH_ACCOUNT and SBATCH_PARTITION (README, On a SLURM cluster)"
        )
    if SCALE == "full":
        lines.append(
            f"  cost: about {COST.cpu_hours(c.cpu_seconds)}: each job's measured seconds and "
            f"about {start:g} s to start it, times the cores it asks for"
            + (f" ({c.unmeasured} jobs not measured)" if c.unmeasured else "")
        )
    elif SCALE in MEASURED and MEASURED[SCALE]["jobs"]:
        q = MEASURED[SCALE]
        lines.append(
            f"  cost: about {COST.cpu_hours(q['cpu_seconds'] * len(cost.jobs) / q['jobs'])}, "
            f"the share of the whole {SCALE} run's measured {COST.cpu_hours(q['cpu_seconds'])} "
            f"for its {q['jobs']} jobs ({q['when']})"
        )
    else:
        lines.append(
            f"  cost: the {SCALE} scale's whole run is not measured yet (workflow/resources/measured.yaml)"
        )
    if c.longest is not None:
        lines.append(
            f"  longest job: {c.longest.name}, {COST.hours(c.longest.seconds)} measured, "
            f"{c.longest.runtime_min} min asked"
        )
    elif c.submitted:
        asked = [j.runtime_min for j in cost.jobs if not j.local and j.runtime_min]
        lines.append(
            f"  longest job: none measured at the {SCALE} scale"
            + (f"; the longest asks for {max(asked)} min" if asked else "")
        )
    if c.largest_memory is not None:
        lines.append(
            f"  largest memory request: {c.largest_memory.mem_mb} MB ({c.largest_memory.name})"
        )
    if SCALE == "full":
        whole = COST.cluster_summary(plan_cost(whole_run_plan()), start)
        lines.append(
            f"The whole full run, every job from scratch: {COST.cpu_hours(whole.cpu_seconds)} "
            f"on the cluster ({whole.submitted} jobs submitted"
            + (f", {whole.unmeasured} of them not measured" if whole.unmeasured else "")
            + ")"
        )
    return lines


def whole_run_plan():
    """The plan of every job from scratch. Planned as if every table were
    recomputed (job_inputs' as_if_recomputed), so that the SVM-Light build counts
    whatever this checkout holds: a fresh clone's main command, where the laid-back
    jobs need no build, had planned 959 jobs and `recompute=all` 960."""
    AS_IF_RECOMPUTED[0] = True
    try:
        return Plan([workflow.default_target], force_all=True)
    finally:
        AS_IF_RECOMPUTED[0] = False


def cost_lines():
    """The lines printed when Snakemake plans: the jobs to run and what they cost,
    and what the whole run costs from scratch."""
    targets = sorted(workflow.dag_settings.targets) or [workflow.default_target]
    forced = set(workflow.dag_settings.forcerun)
    plan = Plan(
        targets,
        forced,
        workflow.dag_settings.forceall,
        workflow.dag_settings.forcetargets,
    )
    cost = plan_cost(plan)
    try:
        cores = workflow.cores
    except WorkflowError:  # no --cores (a cluster run gives --jobs instead)
        cores = 1
    here = os.cpu_count() or 1
    start = MEASURED["job_start_seconds"]
    experiment = [j for j in cost.jobs if j.table is not None]
    lines = [
        f"Plan ({SCALE} scale, target {' '.join(targets)}): {len(cost.jobs)} jobs to run: "
        f"{len(experiment)} experiment jobs, {len(cost.jobs) - len(experiment)} table, data and build steps"
    ]
    lines += [f"  {line}" for line in RESTORED]
    per_table = {}
    for j in experiment:
        per_table.setdefault(j.table, []).append(j)
    for table, jobs in per_table.items():
        spec, protocol = TABLE_SPECS[table]
        total = len(spec.job_paths(RESULTS, protocol, exclude=SKIP, partial=PARTIAL))
        measured = COST.Cost(jobs)
        known = len(jobs) - measured.unmeasured
        said = (
            f"{COST.hours(measured.measured)} of one core as measured"
            if known == len(jobs)
            else (
                f"{COST.hours(measured.measured)} of one core as measured for {known} of them"
                if known
                else "not measured (no committed records of them)"
            )
        )
        lines.append(
            f"  {table}: {len(jobs)} of {total} jobs to run"
            + (f", {said}" if SCALE == "full" else "")
        )
    executor = cluster_executor()
    if executor:
        lines += cluster_lines(cost, executor, start)
    elif SCALE == "full":
        lines.append(
            f"  cost: about {COST.hours(cost.cpu_seconds(start))} of one core: the experiment jobs' "
            f"measured {COST.hours(cost.measured)}"
            + (f" ({cost.unmeasured} of them not measured)" if cost.unmeasured else "")
            + f", and about {start:g} s to start each job"
        )
        cap = f" (this machine has {here})" if cores > here else ""
        lines.append(
            f"  expected wall time at --cores {cores}{cap}: about "
            f"{COST.hours(cost.wall_seconds(min(cores, here), start))}"
        )
        whole = plan_cost(whole_run_plan())
        at = (
            ""
            if cores == 8
            else f", {COST.hours(whole.wall_seconds(cores, start))} at --cores {cores}"
        )
        lines.append(
            f"The whole full run, every job from scratch: {COST.hours(whole.cpu_seconds(start))} of "
            f"one core ({len(whole.jobs)} jobs), about {COST.hours(whole.wall_seconds(8, start))} "
            f"wall at --cores 8 on 8 free cores{at}"
        )
    elif SCALE in MEASURED:
        q = MEASURED[SCALE]
        share = (
            COST.hours(q["cpu_seconds"] * len(cost.jobs) / q["jobs"])
            if q["jobs"]
            else "not measured"
        )
        lines.append(
            f"  cost: about {share} of one core; the whole {SCALE} run measured "
            f"{COST.hours(q['cpu_seconds'])} of one core for its {q['jobs']} jobs and "
            f"{COST.hours(q['wall_seconds'])} wall at --cores {q['cores']} ({q['when']})"
        )
    else:
        lines.append(
            f"  cost: the {SCALE} scale's whole run is not measured yet (workflow/resources/measured.yaml)"
        )
    return lines
