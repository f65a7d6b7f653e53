"""Command line: list the registry, fetch into the cache.

    python -m repro.datasets [list] [--paper gs_svm|nesvm|pegasos|lsvm|ldm]
    python -m repro.datasets info NAME
    python -m repro.datasets fetch NAME [NAME ...]
    python -m repro.datasets fetch --all-available [--download]

``list`` says where it looked (the cache, the mirror and how it was found, whether the
network answers), each dataset's availability (per split where the splits differ) and
what each word means.

``--all-available`` fetches every dataset obtainable without the network (cached,
mirror, and the pools of stand-ins); with ``--download`` also those that need a
verified download. Exit status 1 if anything failed, with the error printed.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..papers import PAPERS
from . import sources
from .errors import ChecksumError, DatasetUnavailableError
from .loader import availability, fetch, info
from .registry import REGISTRY, get_spec


def _papers(spec):
    return "; ".join(f"{r.paper.upper()} {r.table} '{r.name}'" for r in spec.papers) or "-"


# Printed under the list: what each word promises (docs/data.rst, "Data: mirror, cache, downloads").
LEGEND = """\
cached       in the cache: loads with no copy and no network
mirror       in the mirror: copied into the cache, sha256-checked, on first load
download     in neither: fetched from its canonical URL (known sha256, or for the
             NESVM image archives one recorded at the first download) or by a
             checksumming scikit-learn fetcher on first load; needs the network
stand-in     the published files are in neither: load() draws a labelled, size-matched
             subset of another set (repro.datasets.standins)
unavailable  cannot be obtained here; `info NAME` says why
The word is the weakest over the splits the papers use (all splits of a set no
paper uses): what the workflow and `fetch --all-available` go by. '(test: mirror)'
names a split whose own word differs: load(NAME, split="test") gets it from there."""


def availability_text(name) -> str:
    """The dataset's word, then each split whose own word differs: 'cached (test: mirror)'."""
    word = availability(name)
    others = [(s, availability(name, s)) for s in get_spec(name).split_names()]
    others = [f"{s}: {w}" for s, w in others if w != word]
    return f"{word} ({', '.join(others)})" if others else word


# the host of most canonical URLs; the workflow's download: auto probes it too
PROBE_URL = "https://www.csie.ntu.edu.tw"


def _downloads_text():
    ok, why = sources.network_reachable(PROBE_URL)
    unverified = ("files without a recorded sha256 too (REPRO_ALLOW_UNVERIFIED=1)"
                  if sources.allow_unverified() else
                  "files without a recorded sha256 only with REPRO_ALLOW_UNVERIFIED=1")
    if ok:
        return f"possible ({PROBE_URL} answers); {unverified}"
    return f"not possible now, {why}; 'download' sets need the network"



def cmd_list(paper=None, out=sys.stdout):
    cache = "set by REPRO_DATA_DIR" if os.environ.get("REPRO_DATA_DIR") else "default; set REPRO_DATA_DIR to change"
    mirror, how = sources.mirror_dir()
    if mirror is not None and not mirror.is_dir():
        how += "; THE FOLDER DOES NOT EXIST"
    print(f"cache:     {sources.data_dir()} ({cache})", file=out)
    print(f"mirror:    {mirror if mirror is not None else 'none'} ({how})", file=out)
    print(f"downloads: {_downloads_text()}", file=out)
    rows = []
    for name, spec in REGISTRY.items():
        if paper and not any(r.paper == paper for r in spec.papers):
            continue
        alias = f" (= {', '.join(spec.aliases)})" if spec.aliases else ""
        rows.append((name, availability_text(name), _papers(spec) + alias))
    width = max([12] + [len(a) for _, a, _ in rows])
    print(f"\n{'name':<24} {'availability':<{width}} papers", file=out)
    for name, av, papers in rows:
        print(f"{name:<24} {av:<{width}} {papers}", file=out)
    print(f"\n{LEGEND}", file=out)
    return 0


def cmd_info(name, out=sys.stdout):
    spec = get_spec(name)
    inf = info(name)
    print(f"{inf.name}: {spec.title}", file=out)
    print(f"  availability: {availability_text(inf.name)}", file=out)
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
            sha = "(recorded at its first download)" if f.record_first_hash and f.sha256 is None else f.sha256
            print(f"  file [{s}] {f.path} sha256={sha} url={f.url} ({f.status})", file=out)
    for label, text in (("preprocessing", spec.preprocessing), ("source", spec.source_note),
                        ("note", spec.note)):
        if text:
            print(f"  {label}: {text}", file=out)
    return 0


def cmd_fetch(names, all_available=False, download=False, out=sys.stdout, err=sys.stderr):
    if all_available:
        ok_states = ("cached", "mirror", "package", "stand-in") + (("download",) if download else ())
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
    p_list = sub.add_parser("list", help="every dataset, its availability here and where "
                                        "the cache, the mirror and the network were looked for")
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
