"""The bench target's jobs (rules/bench.smk): one comparison's rows (rule
bench_comparison), or the page merged from them (rule bench_page)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    sm = snakemake  # noqa: F821
    if sm.rule == "bench_comparison":
        from repro._io import write_text_atomic
        from repro.bench.registry import run

        write_text_atomic(sm.output[0], run(sm.wildcards.comparison, sm.params.size).to_csv(index=False))
    else:
        from repro.bench.page import write_page

        write_page(list(sm.input), sm.output.md, sm.output.csv)
