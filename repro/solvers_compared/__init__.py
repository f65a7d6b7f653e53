"""Every solver of the package on common sets: the table none of the five papers could print.

Not a paper's table (``repro.papers``), and not part of the paper-free
experiment layer (``repro.experiments``, whose timing it uses): a
cross-paper comparison with its own small modules:

=========  ================================================================
roster     who is compared, at which one setting, on which problem
data       the sets and their train/test parts (``SIZES``: 'full', 'tiny')
run        one set's rows: each fit forked, capped and timed, then graded
models     fitted models read into arrays; accuracy and objectives
           (``repro.objectives``) by one code for every solver
page       the merged CSV and the Markdown page with its computed reading
=========  ================================================================

>>> from repro.solvers_compared import compare
>>> table = compare("tiny", "results/quick/paper_tables")   # doctest: +SKIP

The workflow runs one job per set (``workflow/rules/compare.smk``); from the
command line: ``python -m repro.solvers_compared --help``.
"""
from __future__ import annotations

import os

from .data import SIZES, datasets_of
from .page import merge, page
from .run import CAP_SECONDS, run_dataset

__all__ = ["SIZES", "compare", "merge", "page", "run_dataset", "write_page"]


def write_page(frames, out_dir):
    """Merge the sets' rows and write ``solvers_compared.csv`` and ``.md`` into
    ``out_dir``; returns the merged table."""
    from repro._io import write_text_atomic

    table = merge(frames)
    os.makedirs(out_dir, exist_ok=True)
    csv = os.path.join(out_dir, "solvers_compared.csv")
    write_text_atomic(csv, table.to_csv(index=False))
    write_text_atomic(os.path.join(out_dir, "solvers_compared.md"), page(table, last_commit(csv)))
    return table


def last_commit(path) -> str:
    """The commit that last changed ``path`` in git, as "commit <hash> (<date>)",
    where the file is tracked and unchanged since (the page of rows made before
    the provenance stamp names it); empty otherwise."""
    import subprocess

    folder = os.path.dirname(os.path.abspath(path))
    try:
        changed = subprocess.run(["git", "-C", folder, "status", "--porcelain", "--", os.path.abspath(path)],
                                 capture_output=True, text=True, timeout=30, check=True).stdout.strip()
        found = subprocess.run(["git", "-C", folder, "log", "-1", "--format=%h %ad", "--date=short", "--",
                                os.path.abspath(path)],
                               capture_output=True, text=True, timeout=30, check=True).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f"commit {found[0]} ({found[1]})" if found and not changed else ""


def compare(size="full", out_dir=None, cap_seconds=CAP_SECONDS):
    """Run every set of ``size`` in sequence (each after the smaller one, for
    the too-slow rule) and return the merged table; write the page and CSV
    into ``out_dir`` when given."""
    frames, previous = [], None
    for name in datasets_of(size):
        previous = run_dataset(name, previous=previous, cap_seconds=cap_seconds)
        frames.append(previous)
    return write_page(frames, out_dir) if out_dir else merge(frames)
