"""Speed beside the tools a user would pick instead (the workflow's ``bench``
target, ``paper_tables/performance.md``).

Each comparison (one module each, listed in registry.COMPARISONS) times our
solver and its baseline side by side in one process with
repro.experiments.timing's interleaved best-of-N harness, threads pinned, and
returns rows with both times, their ratio and the objective or accuracy both
reached (measure.COLUMNS). page.py merges the rows into the page.

    python -m repro.bench run kernel_svm --size tiny --out results/bench/kernel_svm.csv
    python -m repro.bench page results/bench/*.csv --md performance.md --csv performance.csv
"""
from .measure import COLUMNS, SIZES
from .registry import COMPARISONS, run

__all__ = ["COLUMNS", "COMPARISONS", "SIZES", "run"]
