"""Command line of the bench: run one comparison, or merge comparisons into the page."""
import argparse
import sys

from .measure import SIZES


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.bench", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("run", help="run one comparison and write its rows as CSV")
    one.add_argument("comparison")
    one.add_argument("--size", default="full", choices=SIZES)
    one.add_argument("--out", required=True)
    page = sub.add_parser("page", help="merge comparison CSVs into performance.md and .csv")
    page.add_argument("csvs", nargs="+")
    page.add_argument("--md", required=True)
    page.add_argument("--csv", required=True)
    args = parser.parse_args(argv)
    if args.command == "run":
        from .._io import write_text_atomic
        from .registry import run

        write_text_atomic(args.out, run(args.comparison, args.size).to_csv(index=False))
    else:
        from .page import write_page

        write_page(args.csvs, args.md, args.csv)


if __name__ == "__main__":
    sys.exit(main())
