"""The five papers: one folder each (``repro/papers/<id>/``), and here the one spelling of their ids.

The id is the stem of the paper's text in ``../shared/papers/`` without its
suffix, and the name of everything of the paper: its folder here (its
protocols and jobs, pages and figures, tolerances and explanations of misses),
the prefix of its published tables (``paper_tables/published/<id>_*.csv``) and
table ids, its dataset references, its workflow rules
(``workflow/rules/<id>.smk``) and its tests (``tests/<id>/``).

This module imports nothing, so that every layer (datasets, experiments,
tolerances) may read the ids without depending on a paper;
:mod:`repro.papers.catalog` gathers every paper's tables.
"""

#: paper id -> the paper's text beside the repository
PAPERS = {
    "gs_svm": "gs_svm.txt",
    "nesvm": "nesvm.txt",
    "pegasos": "pegasos_slides.txt",
    "lsvm": "lsvm_section3.txt",
    "ldm": "ldm.txt",
}

#: paper id -> the name a page or the index calls it by
NAMES = {"gs_svm": "GS-SVM", "nesvm": "NESVM", "pegasos": "Pegasos", "lsvm": "LSVM", "ldm": "LDM"}


def check_paper(paper: str) -> str:
    """``paper`` if it is a known id; a ValueError naming the known ids otherwise."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper id {paper!r}; the ids are {', '.join(PAPERS)}")
    return paper
