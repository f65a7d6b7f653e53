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
        "factor", float("nan"),
        "kernel-evaluation counts depend on the order in which the examples are visited, which "
        "the paper does not give. The factor allowed is measured, not chosen: Table 1's fits "
        "again on Adult-1 and Web-1 with their rows in 10 other orders (order_spread.py); every "
        "pair of orders of a set gives a ratio max / min of the cell, the cell's quantity when "
        "only the order differs; the factor is the 95th percentile of those ratios, pooled over "
        "the two sets, for GS-SVM and for SMO (its two modifications together), and applied to "
        "every set of the table. A cell beyond it is a difference that row orders alone give "
        "less than 5 % of the time; SMO's unnamed C grid is tested apart (explanations.py).",
        measured="order_noise", measured_as="the 95th percentile of the row orders' ratios"),
}

register("gs_svm", TOLERANCES)
