"""The one spelling of each paper's id, used everywhere a paper is named.

The id is the stem of the paper's text in ``../shared/papers/`` without its
suffix, and the prefix of its published tables (``paper_tables/published/
<id>_*.csv``), its tolerance rules, its explanations of misses, its dataset
references, its experiment module (``repro.experiments.<id>``) and its
workflow rules (``workflow/rules/<id>.smk``).
"""

#: paper id -> the paper's text beside the repository
PAPERS = {
    "gs_svm": "gs_svm.txt",
    "nesvm": "nesvm.txt",
    "pegasos": "pegasos_slides.txt",
    "lsvm": "lsvm_section3.txt",
    "ldm": "ldm.txt",
}


def check_paper(paper: str) -> str:
    """``paper`` if it is a known id; a ValueError naming the known ids otherwise."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper id {paper!r}; the ids are {', '.join(PAPERS)}")
    return paper
