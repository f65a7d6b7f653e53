# The bench target: every solver of the package beside the tool a user would pick
# instead, timed side by side (repro.bench), into performance.md and .csv beside the
# paper tables. Not part of `all`: timings need a quiet machine, so it runs only
# when asked for (snakemake --cores 2 bench). The full scale measures the "full"
# size of every comparison (paper_tables/performance.md); the quick scale the
# "tiny" one, seconds each (results/quick/paper_tables/performance.md).
from repro.bench.registry import COMPARISONS as BENCH_COMPARISONS

BENCH_SIZE = "full" if SCALE == "full" else "tiny"
BENCH_RESULTS = os.path.join(config["results_dir"], "bench", BENCH_SIZE)


# One job per comparison, taking every core (threads: every_core, common.smk) so
# that no other job runs beside it: its two solvers are timed against each other
# within the job.
rule bench_comparison:
    input:
        plan_hook,
    output:
        f"{BENCH_RESULTS}/{{comparison}}.csv",
    log:
        log_path("bench", BENCH_SIZE, "{comparison}.log"),
    wildcard_constraints:
        comparison="|".join(BENCH_COMPARISONS),
    localrule: True
    conda:
        REPRO_ENV
    threads: every_core
    params:
        size=BENCH_SIZE,
    script:
        "../scripts/bench.py"


rule bench_page:
    input:
        expand(f"{BENCH_RESULTS}/{{comparison}}.csv", comparison=BENCH_COMPARISONS),
    output:
        md=f"{TABLES}/performance.md",
        csv=f"{TABLES}/performance.csv",
    log:
        log_path("bench", BENCH_SIZE, "page.log"),
    localrule: True
    conda:
        REPRO_ENV
    script:
        "../scripts/bench.py"


rule bench:
    input:
        rules.bench_page.output,
    localrule: True
