"""Every paper's tables by id: the one module that knows all the papers.

The workflow (``workflow/rules/*.smk``, ``workflow/scripts/*.py``), the commands
of :mod:`repro.papers.__main__` and the tests reach a table through
:func:`table_spec`; the experiment layer never imports this module (it is
handed a :class:`repro.experiments.TableSpec`), so no layer module depends on a
paper. Adding a paper adds its id to ``repro.papers.PAPERS`` and a function
here that imports its ``tables`` and ``summary``.

A paper's modules are imported when they are first asked for: a workflow job
runs one table, and :func:`table_spec` imports that paper's modules only (the
other four papers cost a GS-SVM or LDM job about 0.3 s of the 1.8 s its
imports took). ``BY_PAPER``, ``SUMMARIES`` and ``TABLES``, which read every
paper, import them all on first use.
"""
from . import PAPERS


# One function per paper, each importing that paper's tables and summary
# (imports written out, not built from the id: the import-graph test reads them).
def _gs_svm():
    from .gs_svm import summary, tables
    return tables.TABLES, summary.SUMMARY


def _nesvm():
    from .nesvm import summary, tables
    return tables.TABLES, summary.SUMMARY


def _pegasos():
    from .pegasos import summary, tables
    return tables.TABLES, summary.SUMMARY


def _lsvm():
    from .lsvm import summary, tables
    return tables.TABLES, summary.SUMMARY


def _ldm():
    from .ldm import summary, tables
    return tables.TABLES, summary.SUMMARY


_MODULES = {"gs_svm": _gs_svm, "nesvm": _nesvm, "pegasos": _pegasos, "lsvm": _lsvm, "ldm": _ldm}


def paper_tables(paper: str) -> dict:
    """table id -> TableSpec of one paper (its ``tables.TABLES``)."""
    return _MODULES[paper]()[0]


def table_spec(table_id: str):
    """The :class:`repro.experiments.TableSpec` of a table id such as ``"gs_svm_table2"``."""
    paper = next((p for p in PAPERS if table_id.startswith(p + "_")), None)
    if paper is None:
        raise ValueError(f"table id {table_id!r} does not start with a paper id ({', '.join(PAPERS)})")
    tables = paper_tables(paper)
    if table_id not in tables:
        raise ValueError(f"unknown table {table_id!r}; {paper} has {', '.join(tables)}")
    return tables[table_id]


def _by_paper():
    return {paper: paper_tables(paper) for paper in PAPERS}


def _summaries():
    return {paper: _MODULES[paper]()[1] for paper in PAPERS}


def _tables():
    return {table_id: spec for tables in _by_paper().values() for table_id, spec in tables.items()}


# name -> how it is made (PEP 562: a module attribute computed on first use, then kept)
_LAZY = {
    "BY_PAPER": _by_paper,     # paper id -> its tables (table id -> TableSpec)
    "SUMMARIES": _summaries,   # paper id -> what the index (paper_tables/README.md) says of it besides its counts
    "TABLES": _tables,         # table id -> TableSpec, over every paper
}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = _LAZY[name]()
    return value
