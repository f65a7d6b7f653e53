# The cross-paper table (repro.solvers_compared): every solver of the package
# beside LIBSVM and LIBLINEAR on common sets, paper_tables/solvers_compared.md.
# Not part of the default target `all`: its full run took 16 minutes on 2
# shared cores (2026-11-27; fits capped at 120 s, three of them reached the cap),
# so it is its own target, and the committed page is never recomputed by a
# plain `snakemake`:
#   snakemake --cores 2 solvers_compared                    full: heart_scale .. w8a
#   snakemake --cores 2 solvers_compared --config scale=quick   tiny: heart_scale, a1a
# One job per set writes its rows under results/<scale>/solvers_compared/; each
# set's job waits for the previous (smaller) set's rows, both because a solver
# too slow there is not run again (the too-slow rule of repro.solvers_compared.run)
# and so that no two timing jobs run side by side. A merge step writes the page.
from repro.solvers_compared.data import datasets_of as _cmp_sets

CMP_SIZE = "full" if SCALE == "full" else "tiny"
CMP_SETS = list(_cmp_sets(CMP_SIZE))
CMP_DIR = os.path.join(RESULTS, "solvers_compared")


rule solvers_compared_set:
    input:
        # the previous set's rows (none for the first set)
        lambda w: [
            os.path.join(CMP_DIR, f"{p}.csv")
            for p in CMP_SETS[: CMP_SETS.index(w.cmp_set)][-1:]
        ],
    output:
        os.path.join(CMP_DIR, "{cmp_set}.csv"),
    log:
        log_path(SCALE, "solvers_compared", "{cmp_set}.log"),
    wildcard_constraints:
        cmp_set="|".join(map(re.escape, CMP_SETS)),
    conda:
        REPRO_ENV
    threads: every_core
    params:
        previous=lambda wildcards, input: f"--previous {input[0]}" if len(input) else "",
    shell:
        "python -m repro.solvers_compared run {wildcards.cmp_set} --out {output} "
        "{params.previous} > {log} 2>&1"


rule solvers_compared:
    input:
        [os.path.join(CMP_DIR, f"{name}.csv") for name in CMP_SETS],
    output:
        md=os.path.join(TABLES, "solvers_compared.md"),
        csv=os.path.join(TABLES, "solvers_compared.csv"),
    log:
        log_path(SCALE, "solvers_compared", "page.log"),
    conda:
        REPRO_ENV
    params:
        out_dir=lambda w, output: os.path.dirname(output.md),
    shell:
        "python -m repro.solvers_compared page {input} --out-dir {params.out_dir} > {log} 2>&1"
