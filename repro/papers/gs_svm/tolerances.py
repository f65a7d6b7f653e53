"""The GS-SVM paper's tolerances: how close each reproduced number must come to the paper's, and why."""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "gs_svm" below
    "accuracy_percent": Tolerance(
        "abs", float("nan"),
        "10-fold CV accuracy. The paper's assignment of rows to folds is not published, so its cell and "
        "ours are two draws of the folds. The difference allowed is measured, not chosen: the whole "
        "protocol again with the outer folds drawn with 4 other seeds (split_spread.py; GS-SVM on every "
        "set, SVM and HM-SVM on the cells that cost at most 2 CPU-minutes), the spread sd of a cell over "
        "the 5 draws pooled over the set's measured methods; two draws differ with standard deviation "
        "sqrt(2) sd, so a set's cells get t sqrt(2) sd plus half a unit of the printed last digit "
        "(0.005), t the 95 % point of Student's t at the degrees of freedom of sd (4 to 12; the normal's 1.96 "
        "until issue 46). A method whose spread was not measured on a set borrows the set's, and says so. A cell beyond it differs by more than two draws of the folds give 5 % of the time: the "
        "scaling, the tie rule, the grids, the solver or the data then differ, which the readings test.",
        " points", measured="split_noise",
        measured_as="t95 sqrt(2) of the set's spread over 5 draws of the outer folds, plus the printed rounding"),
    "mean_accuracy_percent": Tolerance(
        "abs", float("nan"),
        "mean of the accuracy column over the paper's 15 sets: the same draws, t sqrt(2 sum sd^2) / 15 "
        "plus the printed rounding, t at the Welch-Satterthwaite degrees of freedom (split_spread.py).", " points", measured="split_noise",
        measured_as="t95 sqrt(2) of the 15 sets' spread of the mean, plus the printed rounding"),
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
