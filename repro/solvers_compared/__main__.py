"""Command line of the comparison (the workflow's jobs call it).

    python -m repro.solvers_compared run a1a --out results/full/solvers_compared/a1a.csv \
        [--previous results/full/solvers_compared/heart_scale.csv] [--cap 120]
    python -m repro.solvers_compared page results/full/solvers_compared/*.csv --out-dir paper_tables
    python -m repro.solvers_compared sets full     # the sets of a size, in run order
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.solvers_compared")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="one set's rows (CSV)")
    run.add_argument("dataset")
    run.add_argument("--out", required=True)
    run.add_argument("--previous", help="the previous (smaller) set's rows, for the too-slow rule")
    run.add_argument("--cap", type=float, default=None, help="seconds one fit may take")
    pg = sub.add_parser("page", help="merge the sets' rows into the CSV and the page")
    pg.add_argument("rows", nargs="+")
    pg.add_argument("--out-dir", required=True)
    sets = sub.add_parser("sets", help="the sets of a size, in run order")
    sets.add_argument("size")
    args = parser.parse_args(argv)

    from repro._io import write_text_atomic
    from repro.solvers_compared import data, run_dataset, write_page
    from repro.solvers_compared.run import CAP_SECONDS

    if args.command == "sets":
        print(" ".join(data.datasets_of(args.size)))
        return 0
    if args.command == "run":
        previous = pd.read_csv(args.previous, keep_default_na=False, na_values=[""]) \
            if args.previous else None
        rows = run_dataset(args.dataset, previous=previous,
                           cap_seconds=CAP_SECONDS if args.cap is None else args.cap)
        write_text_atomic(args.out, rows.to_csv(index=False))
        return 0
    write_page([pd.read_csv(f, keep_default_na=False, na_values=[""]) for f in args.rows],
               args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
