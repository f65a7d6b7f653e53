# What the run Snakemake is about to plan will cost, printed whenever it plans,
# dry runs included (a dry run never reaches `onstart`). Snakemake builds its own
# plan after the command line's targets are known, so at_plan (common.smk) calls
# this from the first input function Snakemake evaluates, and this walks the same
# rules the same way for those targets (Plan says how). What Snakemake reads
# from its own metadata (changed code or params of a job run here) is not seen:
# after editing the code, its own list of jobs is the one to trust. The costs
# come from repro.experiments.cost (measured seconds in the committed records;
# the quick scale's whole run from workflow/resources/measured.yaml).
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


def plan_cost(plan):
    """The planned jobs as repro.experiments.cost Jobs: experiment jobs with the
    seconds measured in the committed records (full scale), the others unmeasured."""
    measured, jobs = {}, []
    for name, outputs in plan.runs.items():
        step = workflow.get_rule(name)
        if not step.output:
            continue
        every = step.resources.get("_cores") is every_core
        for out in outputs:
            table, rel = record_table(out)
            seconds = None
            if table is not None and SCALE == "full":
                if table not in measured:
                    measured[table] = {
                        str(k): v
                        for k, v in COST.measured_seconds(TABLE_SPECS[table][0]).items()
                    }
                seconds = measured[table].get(rel)
            jobs.append(COST.Job(seconds, every, table))
    return COST.Cost(jobs)


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
    if SCALE == "full":
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
        whole = plan_cost(Plan([workflow.default_target], force_all=True))
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
