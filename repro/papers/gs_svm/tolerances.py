"""The GS-SVM paper's tolerances: how close each reproduced number must come to the paper's, and why."""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "gs_svm" below
    "accuracy_percent": Tolerance(
        "abs", 3.0,
        "10-fold CV accuracy: fold assignment, scaling and tie-breaking in model selection "
        "are not published; on sets of 100-300 rows one test point is 0.3-1 point.", " points"),
    "mean_accuracy_percent": Tolerance(
        "abs", 3.0, "mean of the accuracy column, same reasons as the cells.", " points"),
    "kernel_evals_1e6": Tolerance(
        "factor", 2.0,
        "kernel-evaluation counts depend on counting conventions, visiting order and, for "
        "SMO, the unnamed C grid (../shared/notes/papers.md); a factor of 2 separates a different "
        "algorithm from a different convention."),
}

register("gs_svm", TOLERANCES)
