"""GS-SVM: greedy stagewise training of a hard-margin kernel SVM (Bo, Wang, Jiao).

The optimiser is ``repro._kernels.gssvm.gs_svm`` (pyx/gssvm.pyx), Algorithm 1
of the paper; this module wraps it as a scikit-learn classifier.
"""
from numbers import Integral

from sklearn.utils._param_validation import Interval

from .._kernels.gssvm import gs_svm
from ._kernel_model import KernelExpansionMixin
from ._validation import as_columns_input, as_rows_input
from .base import KERNEL_CONSTRAINTS, BaseSVMClassifier, shared_constraints


class GSSVM(KernelExpansionMixin, BaseSVMClassifier):
    """Greedy stagewise SVM (GS-SVM), Algorithm 1 of Bo, Wang and Jiao.

    L. Bo, L. Wang, L. Jiao, "Training Support Vector Machines Using Greedy
    Stagewise Algorithm", PAKDD 2005 (``gs_svm.txt``). The hard-margin dual
    ``min 1/2 sum_ij a_i a_j y_i y_j K_ij - sum_i a_i, a >= 0`` is approximated
    by adding, at each step, the unused training sample whose one-variable
    subproblem decreases it most (Eq. 10-12), never changing earlier
    coefficients. The algorithm stops when every unused sample has a
    non-negative gradient (Eq. 5), when every sample is used, or after
    ``max_steps`` steps; this early stop is the model's only capacity control
    (there is no ``C``). There is no bias term (Eq. 1 has no equality
    constraint): ``f(x) = sum_m a_m y_{b_m} K(x, x_{b_m})``, intercept 0.
    Multiclass problems are solved one-vs-one, as in the paper's Sec. 3.

    Parameters
    ----------
    kernel : {'rbf', 'linear', 'poly', 'precomputed'}, default='rbf'
        ``rbf``: ``exp(-gamma ||x - z||^2)`` (the paper's Gaussian kernel with
        theta = gamma); ``linear``: ``x.z``; ``poly``: ``(gamma x.z + coef0)**degree``;
        ``precomputed``: ``X`` is the kernel matrix (``fit``: K(train, train),
        ``predict``: K(test, train)).
    gamma : float, 'scale' or 'auto', default=0.05
        Kernel width of rbf and poly (the paper's theta; 0.05 in its Table 1).
        ``'scale'``: ``1 / (n_features * X.var())`` and ``'auto'``: ``1 /
        n_features``, computed on the training data at ``fit`` as
        scikit-learn's SVC does (one-vs-one problems use the value of the whole
        training set) and stored in ``_gamma``, which prediction uses. Ignored
        by 'linear' and 'precomputed'.
    coef0 : float, default=0.0
        Constant of the polynomial kernel.
    degree : int, default=3
        Degree of the polynomial kernel.
    max_steps : int or None, default=None
        Upper bound on the number of greedy steps (selected samples) per
        binary problem; None means the number of training samples, i.e. run
        until the paper's stopping rule. A cap is a capacity control here,
        not a safeguard: a problem it stops is not converged (``converged_``,
        ``n_unconverged_problems_``) but no ConvergenceWarning is issued.
    history_every : int or None, default=10
        Stride of ``history_`` in greedy steps (see the base module's "Trace");
        the kernel skips the other steps itself. A step costs one kernel row
        over the unused samples, O(l d): on the one-vs-one problems of Iris and
        Vowel (100 samples) a trace entry per step (``history_every=1``) added
        about 40% to the solver's time, every 10th step about 5% (Segment,
        660 samples: 5% and 1%). None: no trace.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    support_ : ndarray or list of ndarray
        Training indices of the selected samples, in selection order.
    selection_order_ : ndarray or list of ndarray
        The same indices b_1, b_2, ... in the order the algorithm chose them
        (equal to ``support_``; kept as the explicit name of the paper's
        sequence).
    dual_coef_ : ndarray or list of ndarray
        ``a_m * y_{b_m}`` for the selected samples, in selection order.
    intercept_ : ndarray (n_problems,)
        Always 0.
    support_vectors_, n_support_ :
        As in :class:`~repro.solvers._kernel_model.KernelExpansionMixin`.
    n_kernel_evals_ : int
        Kernel values computed during training, summed over the problems:
        one kernel row over the still-unused samples per step, plus the
        diagonal K(x, x). Diagonal evaluations counted: 0 for rbf (K(x, x) = 1
        is not evaluated), l otherwise (one per training sample of each
        problem, computed once at the start).
    n_iter_ : int or ndarray
        Number of greedy steps (= number of selected samples) per problem.
    converged_ : bool
        True when every problem ended by the paper's stopping rule (no unused
        sample with a negative gradient, or none left), False when
        ``max_steps`` cut one short.
    n_unconverged_problems_ : int
        How many problems ``max_steps`` cut short.
    history_ : dict of arrays
        ``problem, iteration, time, objective``: the dual objective (1)
        restricted to the selected samples after the steps kept by
        ``history_every``; it decreases by exactly ``g_b^2 / (2 K_bb)`` at
        every step.

    Notes
    -----
    Ties in the greedy selection go to the lowest sample index. Samples with
    ``K(x, x) <= 0`` (an all-zero row under the linear kernel, for instance)
    are never selected: Eq. 8 assumes ``K(x, x) > 0``. Step 6 of the printed
    algorithm multiplies by ``beta_m``; the coefficient ``alpha_m`` of Eq. 5 is
    used (see pyx/gssvm.pyx).
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **shared_constraints("history_every"),
        "max_steps": [Interval(Integral, 1, None, closed="left"), None],
    }

    # max_steps is the model's capacity control (see its description)
    _warn_unconverged = False

    def __init__(self, kernel="rbf", gamma=0.05, coef0=0.0, degree=3, max_steps=None,
                 history_every=10):
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.max_steps = max_steps
        self.history_every = history_every

    def _fit_binary(self, X, y, history):
        n = X.shape[0]
        max_steps = n if self.max_steps is None else min(int(self.max_steps), n)
        rows = as_rows_input(X, gram=self._precomputed())
        # CSR data: kernel rows through the columns of X (same values, fewer products)
        columns = None if rows[6] or self._precomputed() else as_columns_input(rows)
        alpha, selected, n_steps, n_evals, stopped = gs_svm(
            rows, y, *self._kernel_args(), max_steps, history.callback, history.every or 1, columns,
        )
        result = {"support": selected, "dual_coef": alpha * y[selected], "intercept": 0.0,
                  "n_iter": n_steps, "n_kernel_evals": n_evals,
                  "selection_order": selected, "converged": stopped}
        if not stopped:
            result.update(limit=f"max_steps={self.max_steps}", parameter="max_steps")
        return result

    def _set_fitted(self, results, X):
        super()._set_fitted(results, X)
        order = [r["rows"][r["selection_order"]] for r in results]
        self.selection_order_ = order[0] if len(results) == 1 else order
