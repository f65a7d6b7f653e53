"""The LDM paper's baselines (ldm.txt, Sec. 4.1 and 4.5) behind the estimator base.

=============  ===============================================================
``SVM``        "SVM": LIBSVM (scikit-learn's SVC) for kernels and LIBLINEAR
               (scikit-learn's LinearSVC, L1-loss dual, ``-s 3``) for the linear
               kernel, with a bias (``fit_intercept=True``) or without one:
               LIBLINEAR without ``-B`` for linear, and for other kernels the
               bias-free kernel SVM (``BiasFreeSVM``), which LIBSVM cannot fit.
               LDM has no bias, so the experiments compare against both.
``SVMl``       "SVMl" of Figure 2: ``SVM(kernel='linear')``, i.e. LIBLINEAR.
``ASGDSVM``    "SVMa": the linear SVM by averaged SGD (Bottou's ASGD, which the
               paper used): LDM's Algorithm 2 with lambda1 = lambda2 = 0, i.e.
               Xu's step schedule and Bottou's eta0 search on
               1/2 ||w||^2 + C sum hinge (no bias: see its docstring).
``BiasFreeSVM`` the soft-margin kernel SVM without bias, by LDM's coordinate
               descent with lambda1 = lambda2 = 0 (then H = YKY and (12) is the
               bias-free SVM dual: Hsieh et al.'s dual CD in kernel form).
``MAMC``       Pelckmans et al. (2007), the maximal average margin classifier,
               in closed form (see its docstring for what could be read).
``MDO``        Garg and Roth (2003): not implemented (NotImplementedError says why);
               not exported by ``repro.solvers`` (every estimator there fits).
``KMOMD``      Aiolli et al. (2008), in the formulation of the authors' group's
               published KOMD estimator (see its docstring).
=============  ===============================================================
"""
import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, LinearSVC
from sklearn.utils._param_validation import Interval

from ._kernel_model import KERNEL_PARAMETER_CONSTRAINTS, resolve_gamma
from .._kernels.kernels import kernel_matrix
from ._validation import as_rows_input, kernel_params
from .base import BaseSVMClassifier, shared_constraints
from .ldm import LDM, LinearOrKernelMixin

_GAMMA = KERNEL_PARAMETER_CONSTRAINTS["gamma"] + [None]


class BiasFreeSVM(LDM):
    """Soft-margin kernel SVM without bias, ``min 1/2 ||w||^2 + C sum_i max(0, 1 - y_i w'phi(x_i))``,
    solved as LDM with lambda1 = lambda2 = 0 by coordinate descent on its dual
    ``min 1/2 b'YKYb - e'b, 0 <= b_i <= C`` (LDM's Eq. 12 with Q = G). Parameters
    as :class:`~repro.solvers.LDM` (C, kernel, gamma, coef0, degree, tol,
    max_iter, warm_start, random_state, history_every)."""

    # fixed: the LDM parameters that make it an SVM (class attributes, so they
    # are not parameters of this estimator)
    lambda1 = 0.0
    lambda2 = 0.0
    solver = "cd"
    n_epochs = 1
    asgd_variant = "paper"
    variance = "normalised"
    cd_order = "random"
    shrinking = True

    def __init__(self, C=1.0, kernel="rbf", gamma=None, coef0=0.0, degree=3, tol=1e-3,
                 max_iter=10000, warm_start=False, random_state=0, history_every=None):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.tol = tol
        self.max_iter = max_iter
        self.warm_start = warm_start
        self.random_state = random_state
        self.history_every = history_every


class ASGDSVM(LDM):
    """"SVMa": linear soft-margin SVM ``1/2 ||w||^2 + C sum_i max(0, 1 - y_i w'x_i)``
    by averaged SGD: LDM's Algorithm 2 with lambda1 = lambda2 = 0 (its gradient
    is then the SVM's), with the schedule and eta0 search documented in
    :class:`~repro.solvers.LDM` (``asgd_variant='paper'``). That is Bottou's
    ASGD (sgd-2.0 ``svmasgd``: eta0 (1 + lambda eta0 t)^-3/4, eta0 by a search on
    a sample) except for the bias: Bottou's program learns an unregularised bias
    with a reduced step; this one has none, like LDM (whose comparison it is)."""

    lambda1 = 0.0
    lambda2 = 0.0
    kernel = "linear"
    gamma = None
    coef0 = 0.0
    degree = 3
    solver = "asgd"
    tol = 1e-3
    max_iter = 1
    asgd_variant = "paper"
    variance = "normalised"
    cd_order = "random"
    shrinking = True
    warm_start = False

    def __init__(self, C=1.0, n_epochs=5, random_state=0, history_every=None):
        self.C = C
        self.n_epochs = n_epochs
        self.random_state = random_state
        self.history_every = history_every


class SVM(LinearOrKernelMixin, BaseSVMClassifier):
    """The paper's "SVM": LIBSVM for kernels, LIBLINEAR for the linear kernel.

    Parameters
    ----------
    C : float, default=1.0
    kernel : {'linear', 'rbf', 'poly', 'precomputed'}, default='linear'
    gamma, coef0, degree : kernel parameters (gamma None means 'scale').
    fit_intercept : bool, default=True
        True: LIBSVM's SVC (an unregularised bias) for kernels; LIBLINEAR with
        a constant feature of 1 (``-B 1``: the bias is regularised) for linear.
        False: LIBLINEAR without ``-B`` (its default) for linear; the
        bias-free kernel SVM (:class:`BiasFreeSVM`) for other kernels.
    tol : float, default=1e-3
        LIBSVM's / LIBLINEAR's ``-e`` (for BiasFreeSVM: its tol).
    max_iter : int, default=1000
        LIBLINEAR's cap on passes (and BiasFreeSVM's); LIBSVM runs to ``tol``.
    random_state : int, RandomState or None, default=0
        LIBLINEAR's coordinate order (and BiasFreeSVM's).
    history_every : int or None, default=None
        The dual trace of the bias-free kernel SVM (see LDM); the LIBSVM and
        LIBLINEAR backends keep none.

    ``n_kernel_evals_`` is 0 for the LIBSVM and LIBLINEAR backends (they do not
    report it).
    """

    _parameter_constraints = {
        **shared_constraints("C", "tol", "max_iter", "random_state", "history_every"),
        **KERNEL_PARAMETER_CONSTRAINTS,
        "gamma": _GAMMA,
        "fit_intercept": ["boolean"],
    }

    def __init__(self, C=1.0, kernel="linear", gamma=None, coef0=0.0, degree=3,
                 fit_intercept=True, tol=1e-3, max_iter=1000, random_state=0, history_every=None):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state
        self.history_every = history_every

    def _prepare_fit(self, X):
        self._resolve_gamma(X)

    def _fit_binary(self, X, y, history):
        if self.kernel == "linear":
            model = LinearSVC(C=self.C, loss="hinge", dual=True, fit_intercept=self.fit_intercept,
                              intercept_scaling=1.0, tol=self.tol, max_iter=self.max_iter,
                              random_state=self._seed())
            with warnings.catch_warnings():  # reported once, through the base
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(X, y)
            n_iter = int(model.n_iter_)
            result = {"coef": model.coef_[0].copy(), "intercept": float(np.ravel(model.intercept_)[0]),
                      "n_iter": n_iter, "converged": n_iter < self.max_iter, "n_kernel_evals": 0}
            if not result["converged"]:
                result.update(limit=f"max_iter={self.max_iter} passes (LIBLINEAR)",
                              parameter="max_iter")
            return result
        if self.fit_intercept:
            model = SVC(C=self.C, kernel=self.kernel, gamma=self._gamma if self._gamma > 0 else "scale",
                        coef0=self.coef0, degree=self.degree, tol=self.tol, cache_size=500)
            model.fit(X, y)
            dual = model.dual_coef_  # sparse when X is (LIBSVM's sparse mode)
            dual = np.asarray(dual.toarray() if sp.issparse(dual) else dual)[0]
            return {"support": model.support_.copy(), "dual_coef": dual.copy(),
                    "intercept": float(np.ravel(model.intercept_)[0]), "n_iter": int(model.n_iter_[0]),
                    "converged": model.fit_status_ == 0, "limit": "LIBSVM's iteration limit",
                    "parameter": None, "n_kernel_evals": 0}
        inner = BiasFreeSVM(C=self.C, kernel=self.kernel, gamma=self._gamma or None,
                            coef0=self.coef0, degree=self.degree, tol=self.tol,
                            max_iter=self.max_iter, random_state=self.random_state)
        inner._gamma, inner._solver_used, inner._beta_start = self._gamma, "cd", None
        return inner._fit_cd(X, y, history)

    def _set_fitted(self, results, X):
        self._set_model(results, X)


class MAMC(LinearOrKernelMixin, BaseSVMClassifier):
    """Maximal Average Margin Classifier (Pelckmans, Suykens, De Moor, NIPS 2007).

    The MAM principle maximises the average margin (1/m) sum_i y_i f(x_i) over
    a norm ball, which has the closed form of a Parzen window classifier:

        w = (1 / (gamma m)) sum_i y_i phi(x_i),   f(x) = w'phi(x) + b.

    What could be read here: the paper's abstract (NeurIPS metadata) and two
    secondary descriptions: the LDM paper (Sec. 5: "a special case of LDM
    assuming that the margin variance is zero", with "a closed-form solution"
    that "will degenerate to a trivial solution when the classes are not with
    equal sizes") and Abe (2016), for whom the MAMC's bias "depends only on the
    difference between the numbers of training data for the two classes". The
    bias is therefore taken as the maximiser of the same average margin with
    b penalised like w (b in the norm ball): b = (1 / (gamma m)) sum_i y_i =
    (m+ - m-) / (gamma m), i.e. f(x) = (1 / (gamma m)) sum_i y_i (k(x_i, x) + 1).
    gamma (the norm bound) only scales f, so the predictions do not depend on
    it and it is not a parameter (gamma = 1). ``fit_intercept=False`` gives the
    bias-free Parzen classifier.

    Parameters
    ----------
    kernel, gamma, coef0, degree : kernel parameters (gamma None means 'scale').
    fit_intercept : bool, default=True
    history_every : int or None, default=None
        Accepted for the shared interface; a closed form has no trace.
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        **shared_constraints("history_every"),
        "gamma": _GAMMA,
        "fit_intercept": ["boolean"],
    }

    def __init__(self, kernel="linear", gamma=None, coef0=0.0, degree=3, fit_intercept=True,
                 history_every=None):
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.fit_intercept = fit_intercept
        self.history_every = history_every

    def _prepare_fit(self, X):
        self._resolve_gamma(X)

    def _fit_binary(self, X, y, history):
        m = len(y)
        coef = y / m
        intercept = float(y.mean()) if self.fit_intercept else 0.0
        result = {"intercept": intercept, "n_iter": 1, "converged": True, "n_kernel_evals": 0}
        if self.kernel == "linear":
            result["coef"] = np.asarray(X.T @ coef).ravel()
        else:
            result.update(support=np.arange(m), dual_coef=coef)
        return result

    _set_fitted = SVM._set_fitted


class _Unavailable(BaseSVMClassifier):
    """A baseline that cannot be implemented faithfully here; ``fit`` raises
    NotImplementedError with ``reason`` (the tables print it instead of numbers)."""

    reason = ""

    def _fit_binary(self, X, y, history):
        raise NotImplementedError(f"{type(self).__name__}: {self.reason}")


class MDO(_Unavailable):
    """Margin Distribution Optimization (Garg and Roth, ICML 2003): not implemented.

    Kept here, outside ``repro.solvers.__all__``, for its ``reason``, which the
    LDM tables cite for their MDO column ('not run')."""

    reason = ("the LDM paper runs MDO with 'the recommended parameters in [Garg and Roth "
              "2003]'; of that paper only the abstract and introduction could be obtained "
              "offline, not the section that defines MDO's (non-convex) cost of the margins, "
              "its optimiser or those parameter values; the LDM paper's one-sentence summary "
              "(Sec. 5) does not define them either, so an implementation would not be MDO")

    def __init__(self):
        pass


def project_simplex(v):
    """The Euclidean projection of v onto {g >= 0, sum g = 1} (sort-based:
    Held, Wolfe and Crowder 1974; Duchi et al. 2008)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, len(v) + 1)
    rho = np.nonzero(u - css / k > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1), 0.0)


class KMOMD(LinearOrKernelMixin, BaseSVMClassifier):
    """KM-OMD (Aiolli, Da San Martino, Sperduti, ICANN 2008): the margin
    distribution as a game between the two classes.

    Only the paper's abstract could be read here; the formulation is the one of
    the KOMD estimator published by the authors' group (MKLpy's ``KOMD``,
    Donini and Lauriola; read, not copied), which cites that paper:

        min_g  (1 - lam) g'YKYg + lam (m+ m- / m) ||g||^2
        s.t.   g >= 0,  sum_{y_i = +1} g_i = 1,  sum_{y_i = -1} g_i = 1,

    i.e. the closest pair of points p+ = sum_{+} g_i phi(x_i), p- = sum_{-} g_i
    phi(x_i) of the two convex hulls (lam = 0: the hard-margin SVM), pulled
    towards the uniform distributions by lam; f(x) = (p+ - p-)'phi(x) - b with
    b = (||p+||^2 - ||p-||^2) / 2 = g'KYg / 2 (the bisecting hyperplane). The
    factor m+ m- / m of the lam term is that implementation's and could not be
    checked against the paper. The LDM paper selects a "C" for KM-OMD from
    {10, 50, 100} without saying how it maps to lam: the mapping is the
    experiments' to state.

    Solved by accelerated projected gradient (FISTA) on the two simplices,
    stopped by the Frank-Wolfe gap g'(g - s) (s the best vertex of each
    simplex), an upper bound on the distance to the optimum's objective.

    Parameters
    ----------
    lam : float in [0, 1), default=0.1
    kernel, gamma, coef0, degree : kernel parameters (gamma None means 'scale').
    tol : float, default=1e-8
        Stop when the Frank-Wolfe gap is at most tol times max(1, |objective|).
    max_iter : int, default=100000
        The most projected-gradient steps.
    history_every : int or None, default=None
        Stride of the objective trace (steps).
    """

    _parameter_constraints = {
        **shared_constraints("tol", "max_iter", "history_every"),
        **KERNEL_PARAMETER_CONSTRAINTS,
        "gamma": _GAMMA,
        "lam": [Interval(Real, 0, 1, closed="left")],
    }

    def __init__(self, lam=0.1, kernel="rbf", gamma=None, coef0=0.0, degree=3, tol=1e-8,
                 max_iter=100000, history_every=None):
        self.lam = lam
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.tol = tol
        self.max_iter = max_iter
        self.history_every = history_every

    def _prepare_fit(self, X):
        self._resolve_gamma(X)

    def _fit_binary(self, X, y, history):
        m = len(y)
        pos, neg = y > 0, y < 0
        if self._precomputed():
            K, evals = np.asarray(X), 0
        else:
            rows = as_rows_input(X)
            K, evals = kernel_matrix(rows, rows, *kernel_params(self.kernel, self._gamma,
                                                                self.coef0, self.degree))
        lam = float(self.lam)
        ridge = lam * pos.sum() * neg.sum() / m
        Q = (1.0 - lam) * (y[:, None] * K * y[None, :])
        Q[np.diag_indices(m)] += ridge

        def objective(g):
            return float(g @ Q @ g)

        def project(v):
            out = np.empty_like(v)
            out[pos], out[neg] = project_simplex(v[pos]), project_simplex(v[neg])
            return out

        step = 1.0 / (2.0 * max(float(np.linalg.eigvalsh(Q)[-1]), 1e-300))
        g = np.where(pos, 1.0 / pos.sum(), 1.0 / neg.sum())  # the uniform start
        z, t, n_iter, gap, converged = g.copy(), 1.0, 0, np.inf, False
        while n_iter < self.max_iter:
            grad_g = 2.0 * Q @ g
            # Frank-Wolfe gap at g: the best vertex of each simplex
            gap = float(grad_g @ g - grad_g[pos].min() - grad_g[neg].min())
            if gap <= self.tol * max(1.0, abs(objective(g))):
                converged = True
                break
            n_iter += 1
            g_next = project(z - step * 2.0 * Q @ z)
            t_next = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
            z = g_next + (t - 1.0) / t_next * (g_next - g)
            if objective(g_next) > objective(g):  # restart the momentum (monotone FISTA)
                z, t_next = g.copy(), 1.0
                g_next = project(g - step * grad_g)
            g, t = g_next, t_next
            if history.wants(n_iter):
                history(n_iter, objective(g))
        history(n_iter, objective(g))
        yg = y * g
        bias = 0.5 * float(g @ (K @ yg))
        result = {"intercept": -bias, "n_iter": n_iter, "converged": converged,
                  "n_kernel_evals": int(evals), "objective": objective(g), "gap": gap}
        if not converged:
            result.update(limit=f"max_iter={self.max_iter} steps", parameter="max_iter",
                          detail=f"the Frank-Wolfe gap is {gap:.3g}")
        if self.kernel == "linear":
            result["coef"] = np.asarray(X.T @ yg).ravel()
        else:
            support = np.flatnonzero(g > 0)
            result.update(support=support, dual_coef=yg[support])
        return result

    _set_fitted = SVM._set_fitted
