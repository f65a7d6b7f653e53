"""Build one NESVM image set's feature matrix from its published archive(s) into the
data cache (repro.datasets.image_features: download, verify, draw, extract), with its
progress in the log, and record what was built. Everything but the log is imported
inside the log (see record.py)."""
from repro._io import log_to

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    import json

    from repro._io import write_text_atomic
    from repro.datasets.image_features import build_summary
    from repro.experiments.config import boolean

    # read strictly, as the workflow reads it: bool() would take "false" for true
    summary = build_summary(snakemake.wildcards.dataset,  # noqa: F821
                            download=boolean("download", snakemake.params.download))  # noqa: F821
    write_text_atomic(snakemake.output[0], json.dumps(summary, indent=1))  # noqa: F821
