"""Every paper's tables by id: the one module that knows all the papers.

The workflow (``workflow/rules/*.smk``, ``workflow/scripts/*.py``), the commands
of :mod:`repro.papers.__main__` and the tests reach a table through
:func:`table_spec`; the experiment layer never imports this module (it is
handed a :class:`repro.experiments.TableSpec`), so no layer module depends on a
paper. Adding a paper adds its ``tables.TABLES`` here.
"""
from . import PAPERS
from .gs_svm.tables import TABLES as GS_SVM
from .ldm.tables import TABLES as LDM
from .lsvm.tables import TABLES as LSVM
from .nesvm.tables import TABLES as NESVM
from .pegasos.tables import TABLES as PEGASOS
from .gs_svm.summary import SUMMARY as GS_SVM_SUMMARY
from .ldm.summary import SUMMARY as LDM_SUMMARY
from .lsvm.summary import SUMMARY as LSVM_SUMMARY
from .nesvm.summary import SUMMARY as NESVM_SUMMARY
from .pegasos.summary import SUMMARY as PEGASOS_SUMMARY

#: paper id -> its tables (table id -> TableSpec)
BY_PAPER = {"gs_svm": GS_SVM, "nesvm": NESVM, "pegasos": PEGASOS, "lsvm": LSVM, "ldm": LDM}
#: paper id -> what the index (paper_tables/README.md) says of it besides its counts
SUMMARIES = {s.paper: s for s in (GS_SVM_SUMMARY, NESVM_SUMMARY, PEGASOS_SUMMARY, LSVM_SUMMARY, LDM_SUMMARY)}
#: table id -> TableSpec, over every paper
TABLES = {table_id: spec for tables in BY_PAPER.values() for table_id, spec in tables.items()}


def table_spec(table_id: str):
    """The :class:`repro.experiments.TableSpec` of a table id such as ``"gs_svm_table2"``."""
    paper = next((p for p in PAPERS if table_id.startswith(p + "_")), None)
    if paper is None:
        raise ValueError(f"table id {table_id!r} does not start with a paper id ({', '.join(PAPERS)})")
    if table_id not in BY_PAPER[paper]:
        raise ValueError(f"unknown table {table_id!r}; {paper} has {', '.join(BY_PAPER[paper])}")
    return BY_PAPER[paper][table_id]
