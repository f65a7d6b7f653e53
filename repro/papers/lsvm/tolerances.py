"""The LSVM paper's tolerances: how close each reproduced number must come to the paper's, and why.

The claims of Section 3 (claims.csv), checked on the measured runs.
"""
from ...tolerances import Tolerance, register

TOLERANCES = {  # metric -> rule, filed under "lsvm" below
    "alpha_times_nu_lower_bound_exclusive": Tolerance(
        "above", 0.0, "condition (16), 0 < alpha: the step the solver used, times nu."),
    "alpha_times_nu_upper_bound_exclusive": Tolerance(
        "below", 0.0, "condition (16), alpha < 2/nu: the step the solver used, times nu."),
    "alpha_times_nu": Tolerance(
        "abs", 1e-12, "alpha = 1.9/nu is a rule, not a measurement: equal up to rounding."),
    "norm_I_minus_alpha_Qinv_upper_bound_exclusive": Tolerance(
        "below", 0.0, "(23)-(24): the rate of (20), computed from the eigenvalues of H'H, is below 1."),
    "inverted_matrix_size_minus_n": Tolerance(
        "abs", 0.0, "the size of the matrix the solver factors is a count: exact."),
    "n_points_order": Tolerance(
        "at_least", 0.0, "'millions of points': the largest m solved (converged) is at least 1e6."),
}

register("lsvm", TOLERANCES)
