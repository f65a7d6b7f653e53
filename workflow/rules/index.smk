# The reader's index, paper_tables/README.md: how much of each paper reproduced,
# counted from every table's CSV (repro.experiments.index; what each paper says
# of itself besides its counts: repro/papers/<id>/summary.py), with each paper's
# figure of ours against the published values. Read after every
# paper's rules, so that its inputs are all the tables and figures.
from repro.papers import PAPERS

INDEX_INPUTS = [
    rules.gs_svm.input,
    rules.lsvm.input,
    rules.pegasos.input,
    rules.nesvm.input,
    rules.ldm.input,
]


rule paper_index:
    input:
        INDEX_INPUTS,
    output:
        md=report(
            f"{TABLES}/README.md", caption="../report/index.rst", category="Index"
        ),
        agreement=report(
            expand(f"{TABLES}/{{paper}}_agreement.png", paper=PAPERS),
            caption="../report/agreement.rst",
            category="Index",
        ),
    log:
        log_path(SCALE, "paper_index.log"),
    localrule: True
    conda:
        REPRO_ENV
    script:
        "../scripts/index.py"
