# What the run Snakemake is about to plan will cost, printed whenever it plans,
# dry runs included (a dry run never reaches `onstart`). Snakemake builds its
# own plan only after this file is read, so this walks the same rules the same
# way for the targets asked for: a job runs when it is forced (--forceall,
# --forcerun, -f, config recompute), an output is missing, an input is made by a
# job that runs, or an input is newer than its oldest output. What Snakemake
# reads from its own metadata (changed code or params of a job run here) is not
# seen: after editing the code, its own list of jobs is the one to trust.
# The costs come from repro.experiments.cost (measured seconds in the committed
# records; the quick scale's whole run from workflow/config/measured.yaml).
import yaml
from snakemake.io import apply_wildcards, is_flagged
from snakemake.iocontainers import Wildcards

from repro.experiments import cost as COST

with open(os.path.join(workflow.basedir, "config", "measured.yaml"), encoding="utf-8") as _f:
    MEASURED = yaml.safe_load(_f)


class Plan:
    """The jobs Snakemake will run for ``targets``: step name -> list of
    (wildcards, first output) of the jobs that run."""

    def __init__(self, targets, forced_rules=(), force_all=False, force_targets=False):
        self.forced_rules, self.force_all = set(forced_rules), force_all
        self.seen = {}
        self.runs = {}
        self.producers = [r for r in workflow.rules if r.output]
        for target in targets:
            if workflow.is_rule(target):
                step = workflow.get_rule(target)
                if not step.has_wildcards():
                    self.job(step, {}, force=force_targets)
            else:
                self.file(target, force=force_targets)

    def file(self, path, force=False) -> bool:
        """Whether ``path`` is (re)made by a job that runs."""
        step = next((r for r in self.producers if r.is_producer(path)), None)
        if step is None:
            return False
        return self.job(step, step.get_wildcards(path), force)

    def inputs(self, step, wildcards):
        files = []
        for item in step.input:
            if callable(item):  # Snakemake calls it too, with the same wildcards
                item = item(Wildcards(fromdict=wildcards))
            for f in [item] if isinstance(item, str) else item:
                files.append(f if is_flagged(f, "ancient") else apply_wildcards(f, wildcards))
        return files

    def job(self, step, wildcards, force=False) -> bool:
        key = (step.name, tuple(sorted(wildcards.items())))
        if key in self.seen:
            return self.seen[key]
        self.seen[key] = False
        outputs = [apply_wildcards(o, wildcards) for o in step.output]
        exist = all(os.path.exists(o) for o in outputs)
        inputs = self.inputs(step, wildcards)
        made = [self.file(f) for f in inputs]
        runs = force or self.force_all or step.name in self.forced_rules or not exist or any(made)
        if not runs and outputs:
            oldest = min(os.path.getmtime(o) for o in outputs)
            runs = any(not is_flagged(f, "ancient") and os.path.exists(f) and os.path.getmtime(f) > oldest
                       for f in inputs)
        if runs or not outputs:  # a step without outputs (all, gs_svm, ...) is a job each time
            self.runs.setdefault(step.name, []).append(outputs[0] if outputs else step.name)
        self.seen[key] = runs and bool(outputs)
        return self.seen[key]


def record_table(path):
    """The table whose job writes ``path`` and the job file within its folder, or (None, None)."""
    for table_id, (spec, _) in TABLE_SPECS.items():
        folder = spec.folder(RESULTS) + "/"
        if path.startswith(folder):
            return table_id, path[len(folder):]
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
                    measured[table] = {str(k): v for k, v in COST.measured_seconds(TABLE_SPECS[table][0]).items()}
                seconds = measured[table].get(rel)
            jobs.append(COST.Job(seconds, every, table))
    return COST.Cost(jobs)


def cost_lines():
    """The lines printed when Snakemake plans: the jobs to run and what they cost,
    and what the whole run costs from scratch."""
    targets = sorted(workflow.dag_settings.targets) or [workflow.default_target]
    forced = set(workflow.dag_settings.forcerun)
    plan = Plan(targets, forced, workflow.dag_settings.forceall, workflow.dag_settings.forcetargets)
    cost = plan_cost(plan)
    try:
        cores = workflow.cores
    except WorkflowError:  # no --cores (a cluster run gives --jobs instead)
        cores = 1
    here = os.cpu_count() or 1
    start = MEASURED["job_start_seconds"]
    experiment = [j for j in cost.jobs if j.table is not None]
    lines = [f"Plan ({SCALE} scale, target {' '.join(targets)}): {len(cost.jobs)} jobs to run: "
             f"{len(experiment)} experiment jobs, {len(cost.jobs) - len(experiment)} table, data and build steps"]
    lines += [f"  {line}" for line in RESTORED]
    per_table = {}
    for j in experiment:
        per_table.setdefault(j.table, []).append(j)
    for table, jobs in per_table.items():
        spec, protocol = TABLE_SPECS[table]
        total = len(spec.job_paths(RESULTS, protocol, exclude=SKIP, partial=PARTIAL))
        measured = COST.Cost(jobs)
        known = len(jobs) - measured.unmeasured
        said = (f"{COST.hours(measured.measured)} of one core as measured" if known == len(jobs) else
                f"{COST.hours(measured.measured)} of one core as measured for {known} of them" if known else
                "not measured (no committed records of them)")
        lines.append(f"  {table}: {len(jobs)} of {total} jobs to run" + (f", {said}" if SCALE == "full" else ""))
    if SCALE == "full":
        lines.append(f"  cost: about {COST.hours(cost.cpu_seconds(start))} of one core: the experiment jobs' "
                     f"measured {COST.hours(cost.measured)}"
                     + (f" ({cost.unmeasured} of them not measured)" if cost.unmeasured else "")
                     + f", and about {start:g} s to start each job")
        cap = f" (this machine has {here})" if cores > here else ""
        lines.append(f"  expected wall time at --cores {cores}{cap}: about "
                     f"{COST.hours(cost.wall_seconds(min(cores, here), start))}")
        whole = plan_cost(Plan([workflow.default_target], force_all=True))
        at = "" if cores == 8 else f", {COST.hours(whole.wall_seconds(cores, start))} at --cores {cores}"
        lines.append(f"The whole full run, every job from scratch: {COST.hours(whole.cpu_seconds(start))} of "
                     f"one core ({len(whole.jobs)} jobs), about {COST.hours(whole.wall_seconds(8, start))} "
                     f"wall at --cores 8 on 8 free cores{at}")
    else:
        q = MEASURED["quick"]
        share = COST.hours(q["cpu_seconds"] * len(cost.jobs) / q["jobs"]) if q["jobs"] else "not measured"
        lines.append(f"  cost: about {share} of one core; the whole quick run measured "
                     f"{COST.hours(q['cpu_seconds'])} of one core for its {q['jobs']} jobs and "
                     f"{COST.hours(q['wall_seconds'])} wall at --cores {q['cores']} ({q['when']})")
    return lines
