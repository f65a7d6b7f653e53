"""The commands over every paper's tables, by table id.

    python -m repro.papers rebuild gs_svm_table1 gs_svm_table2   [--tables paper_tables]
    python -m repro.papers resume ldm_table4                      [into] [--results results]
    python -m repro.papers resources                              [--tables paper_tables]

``rebuild`` rewrites a table's page from its committed records
(:mod:`repro.experiments.rebuild`); ``resume`` lays a table's committed records
back as the workflow's job files (:mod:`repro.experiments.resume`); ``resources``
prints what a cluster job of each table asks for, from its committed records
(:mod:`repro.experiments.resources`).
"""
import argparse
import sys

from ..experiments.rebuild import rebuild
from ..experiments.resume import restore_jobs, table_id_of
from .catalog import table_spec


def _rebuild(args):
    for table_id in args.table:
        for path in rebuild(table_spec(table_id), args.tables):
            print(f"wrote {path}")


def _resume(args):
    spec = table_spec(table_id_of(args.table))
    source = args.table if args.table.endswith(".csv") else None
    written = restore_jobs(spec, args.into, source=source, results=args.results)
    print(f"wrote {len(written)} job file(s) of {spec.id} (existing files kept)")
    for path in written:
        print(f"  {path}")


def _resources(args):
    from ..experiments.resources import table
    from ..tables import to_markdown
    from .catalog import TABLES

    print(to_markdown(table(TABLES.values(), args.tables)), end="")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m repro.papers", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p_rebuild = commands.add_parser("rebuild", help="rewrite tables' pages from their committed records")
    p_rebuild.add_argument("table", nargs="+", help="table ids, e.g. gs_svm_table2")
    p_rebuild.add_argument("--tables", default="paper_tables", help="folder of the records and tables")
    p_rebuild.set_defaults(run=_rebuild)
    p_resume = commands.add_parser("resume", help="lay a table's committed records back as job files")
    p_resume.add_argument("table", help="a table id (ldm_table4) or its records file "
                                        "(paper_tables/ldm_table4_records.csv)")
    p_resume.add_argument("into", nargs="?", help="the table's job folder (default: "
                                                  "<results>/full/<paper>/<table>)")
    p_resume.add_argument("--results", default="results", help="the workflow's results folder (config results_dir)")
    p_resume.set_defaults(run=_resume)
    p_resources = commands.add_parser("resources", help="what a cluster job of each table asks for")
    p_resources.add_argument("--tables", default="paper_tables", help="folder of the committed records")
    p_resources.set_defaults(run=_resources)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (ValueError, OSError) as exc:
        # a refused or missing records file, an unknown table: one line, no traceback, as the
        # message names the file and what to do (a traceback would bury it)
        sys.exit(f"{args.command}: {exc}")


if __name__ == "__main__":
    main()
