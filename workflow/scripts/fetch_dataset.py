"""Fetch one dataset into the cache, verify it, and record what was obtained
(repro.datasets.report.fetch_summary: shapes, class counts, the sha256 of the files read)."""
import json

from repro.datasets.report import fetch_summary
from repro._io import log_to, write_text_atomic

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    summary = fetch_summary(snakemake.wildcards.dataset,  # noqa: F821
                            download=bool(snakemake.params.download))  # noqa: F821
    write_text_atomic(snakemake.output[0], json.dumps(summary, indent=1))  # noqa: F821
