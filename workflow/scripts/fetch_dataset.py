"""Fetch one dataset into the cache, verify it, and record what was obtained
(repro.datasets.report.fetch_summary: shapes, class counts, the sha256 of the files read).
Everything but the log is imported inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    import json

    from repro._io import write_text_atomic
    from repro.datasets.report import fetch_summary, kept_stamp
    from repro.experiments.config import boolean
    from repro.experiments.provenance import stamp

    # read strictly, as the workflow reads it: bool() would take "false" for true
    summary = fetch_summary(snakemake.wildcards.dataset,  # noqa: F821
                            download=boolean("download", snakemake.params.download))  # noqa: F821
    # what measured the shapes (commit, versions, CPU, date): the committed page's stamp
    # while this fetch measures exactly what the page shows, so that the page is rebuilt
    # byte-identical; a new stamp where anything measured differs (kept_stamp)
    summary["provenance"] = kept_stamp(summary, "paper_tables/datasets.csv") or stamp("data")
    write_text_atomic(snakemake.output[0], json.dumps(summary, indent=1))  # noqa: F821
