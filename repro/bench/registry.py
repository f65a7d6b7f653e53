"""Every comparison of the bench target, by name: a function of the size
("full" or "tiny") returning its rows (measure.COLUMNS)."""
from __future__ import annotations

import pandas as pd

from . import hard_margin, kernel_svm, ldm_kernel, linear_svm, lsvm, nesvm, pass_floor, sgd, smo_cv
from .measure import COLUMNS, check_size

COMPARISONS = {
    "kernel_svm": kernel_svm.compare,
    "hard_margin": hard_margin.compare,
    "smo_cv": smo_cv.compare,
    "linear_svm": linear_svm.compare,
    "pegasos_sgd": sgd.pegasos_vs_sgd,
    "ldm_asgd_sgd": sgd.ldm_asgd_vs_sgd,
    "nesvm": nesvm.compare,
    "lsvm": lsvm.compare,
    "ldm_kernel": ldm_kernel.compare,
    "pass_floor": pass_floor.compare,
}
#: what each comparison sets side by side, for the page's headings
TITLES = {
    "kernel_svm": "GS-SVM and SMO beside LIBSVM (SVC)",
    "hard_margin": "HardMarginSVM beside SVC at C = 1e6",
    "smo_cv": "10-fold cross-validation: SMO and GS-SVM beside SVC",
    "linear_svm": "LinearSVM beside LIBLINEAR -s 3",
    "pegasos_sgd": "Pegasos beside SGDClassifier",
    "ldm_asgd_sgd": "LDM's ASGD beside averaged SGDClassifier",
    "nesvm": "NESVM beside LIBLINEAR -s 3, to the same primal accuracy",
    "lsvm": "LSVM beside LIBLINEAR -s 2 at 1e6 points",
    "ldm_kernel": "Kernel LDM beside SVC",
    "pass_floor": "The floor: one pass over the data (two bare products) per iteration",
}
#: the module whose docstring says how a comparison is made
MODULES = {"kernel_svm": kernel_svm, "hard_margin": hard_margin, "smo_cv": smo_cv, "linear_svm": linear_svm, "pegasos_sgd": sgd,
           "ldm_asgd_sgd": sgd, "nesvm": nesvm, "lsvm": lsvm, "ldm_kernel": ldm_kernel,
           "pass_floor": pass_floor}


def run(name: str, size: str) -> pd.DataFrame:
    """The rows of one comparison, in the page's columns."""
    if name not in COMPARISONS:
        raise ValueError(f"unknown comparison {name!r}; the comparisons: {', '.join(COMPARISONS)}")
    check_size(size)
    return pd.DataFrame(COMPARISONS[name](size), columns=COLUMNS)
