"""Command line: list the registry, fetch into the cache.

    python -m repro.datasets [list] [--paper gs_svm|nesvm|pegasos|lsvm|ldm]
    python -m repro.datasets info NAME
    python -m repro.datasets fetch NAME [NAME ...]
    python -m repro.datasets fetch --all-available [--download]

``--all-available`` fetches every dataset obtainable without the network (cached,
mirror, and the pools of stand-ins); with ``--download`` also those that need a
verified download. Exit status 1 if anything failed, with the error printed.
"""
from __future__ import annotations

import argparse
import sys

from ..papers import PAPERS
from . import sources
from .errors import ChecksumError, DatasetUnavailableError
from .loader import availability, fetch, info
from .registry import REGISTRY, get_spec


def _papers(spec):
    return "; ".join(f"{r.paper.upper()} {r.table} '{r.name}'" for r in spec.papers) or "-"


def cmd_list(paper=None, out=sys.stdout):
    mirror = sources.mirror_dir()
    print(f"cache:  {sources.data_dir()}", file=out)
    print(f"mirror: {mirror if mirror else 'REPRO_DATA_MIRROR not set'}", file=out)
    print(f"{'name':<24} {'availability':<12} papers", file=out)
    for name, spec in REGISTRY.items():
        if paper and not any(r.paper == paper for r in spec.papers):
            continue
        alias = f" (= {', '.join(spec.aliases)})" if spec.aliases else ""
        print(f"{name:<24} {availability(name):<12} {_papers(spec)}{alias}", file=out)
    return 0


def cmd_info(name, out=sys.stdout):
    spec = get_spec(name)
    inf = info(name)
    print(f"{inf.name}: {spec.title}", file=out)
    print(f"  availability: {availability(inf.name)}", file=out)
    for r in spec.papers:
        extra = f" x {r.test_rows} test" if r.test_rows else ""
        print(f"  paper: {r.label()}: {r.rows}{extra} rows, dim {r.dim}, split {r.split}"
              + (f" - {r.note}" if r.note else ""), file=out)
    for s in spec.split_names():
        e = spec.expect(s)
        if e:
            classes = f", classes {dict(e.classes)}" if e.classes else ""
            print(f"  ours {s}: {e.rows} x {e.features}{classes}", file=out)
    for s, files in spec.splits:
        for f in files:
            print(f"  file [{s}] {f.path} sha256={f.sha256} url={f.url} ({f.status})", file=out)
    for label, text in (("preprocessing", spec.preprocessing), ("source", spec.source_note),
                        ("note", spec.note)):
        if text:
            print(f"  {label}: {text}", file=out)
    return 0


def cmd_fetch(names, all_available=False, download=False, out=sys.stdout, err=sys.stderr):
    if all_available:
        ok_states = ("cached", "mirror", "stand-in") + (("download",) if download else ())
        names = [n for n in REGISTRY if availability(n) in ok_states]
    failed = 0
    for n in names:
        try:
            paths = fetch(n, download=download or not all_available)
            print(f"{n}: ok ({len(paths)} file(s))", file=out)
        except (DatasetUnavailableError, ChecksumError, KeyError, ValueError) as e:
            failed += 1
            print(f"{n}: FAILED: {e}", file=err)
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m repro.datasets", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    p_list = sub.add_parser("list", help="every dataset and its availability here")
    p_list.add_argument("--paper", choices=list(PAPERS))
    p_info = sub.add_parser("info", help="one dataset's registry entry")
    p_info.add_argument("name")
    p_fetch = sub.add_parser("fetch", help="fetch and verify into the cache")
    p_fetch.add_argument("names", nargs="*")
    p_fetch.add_argument("--all-available", action="store_true")
    p_fetch.add_argument("--download", action="store_true",
                         help="with --all-available: also datasets that need a download")
    a = ap.parse_args(argv)
    if a.cmd in (None, "list"):
        return cmd_list(getattr(a, "paper", None))
    if a.cmd == "info":
        try:
            return cmd_info(a.name)
        except KeyError as e:
            print(e.args[0], file=sys.stderr)
            return 1
    if not a.names and not a.all_available:
        ap.error("fetch needs dataset names or --all-available")
    return cmd_fetch(a.names, a.all_available, a.download)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `python -m repro.datasets | head`
        sys.stderr.close()
        sys.exit(0)
