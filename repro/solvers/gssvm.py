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
    """Greedy stagewise SVM (GS-SVM): a sparse bias-free hard-margin kernel SVM.

    Algorithm 1 of Bo, Wang and Jiao [1]_: it approximates the hard-margin
    SVM dual without a bias by adding, one step at a time, the training
    example that decreases the dual most, never changing earlier
    coefficients, and stops when no unused example would decrease it. Use it
    instead of :class:`~sklearn.svm.SVC` (or :class:`SMO`) when kernel
    evaluations are the cost and a small model is wanted: it keeps O(l)
    memory, computes one kernel row per selected example, and in the
    reproduction of the paper's Table 1 needed 18 to 31 times fewer kernel
    evaluations than SMO (``paper_tables/gs_svm_table1.md``). It has no C:
    the early stop (and ``max_steps``) is its only capacity control, so its
    accuracy is that of a hard margin; where a soft margin matters use SVC.

    Parameters
    ----------
    kernel : {'rbf', 'linear', 'poly', 'precomputed'}, default='rbf'
        'rbf': ``exp(-gamma ||x - z||^2)`` (the paper's Gaussian kernel with
        theta = gamma); 'linear': ``x.z``; 'poly': ``(gamma x.z +
        coef0)**degree``; 'precomputed': ``X`` is the kernel matrix (``fit``:
        K(train, train), ``predict``: K(test, train)).
    gamma : float, 'scale' or 'auto', default='scale'
        Width of 'rbf' and 'poly'. 'scale': ``1 / (n_features * X.var())``,
        'auto': ``1 / n_features``, computed on the whole training set at
        ``fit`` as SVC does and kept in ``_gamma``. The paper's theta is a
        number (0.05 in its Table 1).
    coef0 : float, default=0.0
        Constant of 'poly' (>= 0).
    degree : int, default=3
        Degree of 'poly'.
    max_steps : int or None, default=None
        At most this many greedy steps (selected examples) per problem; None:
        run to the paper's stopping rule. A cap is a capacity control here,
        not a safeguard: a problem it stops is reported unconverged
        (``converged_``) but no ConvergenceWarning is issued.
    history_every : int or None, default=None
        None: no trace. An int: record the dual objective in ``history_``
        every ``history_every`` steps and at the last (every step: about 40 %
        more time on 100-sample problems; every 10th: about 5 %).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    support_ : ndarray, or list of ndarray (one per one-vs-one problem)
        Training indices of the selected examples, in selection order.
    selection_order_ : ndarray, or list of ndarray
        The same indices b_1, b_2, ... under the paper's name for them.
    dual_coef_ : ndarray, or list of ndarray
        ``a_m y_{b_m}`` of the selected examples, in selection order.
    intercept_ : ndarray of shape (n_problems,)
        Zeros (the model has no bias).
    support_vectors_ : ndarray or CSR, or list of them
        The selected examples (None with kernel='precomputed').
    n_support_ : ndarray of shape (n_problems,)
        Selected examples per problem.
    n_kernel_evals_ : int
        Kernel values computed during training, all problems together: one
        row over the still-unused examples per step, plus the diagonal K(x, x)
        once per example (not for 'rbf', where it is 1).
    n_iter_ : int or ndarray of shape (n_problems,)
        Greedy steps (selected examples) per problem.
    converged_ : bool
        True when every problem ended by the paper's stopping rule, False when
        ``max_steps`` cut one short.
    n_unconverged_problems_ : int
        How many problems ``max_steps`` cut short.
    history_ : dict of ndarray
        ``problem, iteration, time, objective``: the dual objective over the
        selected examples after the recorded steps (empty arrays when
        ``history_every=None``).

    See Also
    --------
    SMO : the soft-margin SVM the paper compares GS-SVM with.

    Notes
    -----
    The problem is the hard-margin dual without the equality constraint (no
    bias, Eq. 1 of the paper)::

        min_a  1/2 sum_ij a_i a_j y_i y_j K_ij - sum_i a_i,   a_i >= 0,

    and the model ``f(x) = sum_m a_m y_{b_m} K(x, x_{b_m})``, intercept 0.
    Step m adds the unused example b whose one-variable subproblem decreases
    the objective most (Eq. 10-12): with the gradient ``g_b = y_b f(x_b) - 1``
    of the current model, the best step is ``a_b = -g_b / K_bb`` and it
    decreases the objective by ``g_b^2 / (2 K_bb)``; earlier coefficients are
    never changed. The stopping rule (Eq. 5): stop when every unused example
    has ``g_b >= 0`` (a step would not decrease the objective), when every
    example is used, or after ``max_steps`` steps. Ties go to the lowest
    index; examples with ``K(x, x) <= 0`` are never selected. Step 6 of the
    printed algorithm multiplies by beta_m; the coefficient alpha_m of Eq. 5
    is used (``pyx/gssvm.pyx``). More than two classes are solved one-vs-one
    (the paper's Sec. 3).

    References
    ----------
    .. [1] L. Bo, L. Wang and L. Jiao, "Training support vector machines
       using greedy stagewise algorithm", PAKDD 2005 (``gs_svm.txt``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import train_test_split
    >>> from repro.solvers import GSSVM
    >>> X, y = make_classification(n_samples=300, n_features=8, random_state=0)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = GSSVM().fit(X_train, y_train)
    >>> print(f"{clf.score(X_test, y_test):.2f}", clf.n_support_[0] < len(y_train))
    0.92 True
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **shared_constraints("history_every"),
        "max_steps": [Interval(Integral, 1, None, closed="left"), None],
    }

    # max_steps is the model's capacity control (see its description)
    _warn_unconverged = False

    def __init__(self, kernel="rbf", gamma="scale", coef0=0.0, degree=3, max_steps=None,
                 history_every=None):
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
