"""Every fitted model read into one form, and graded by the same code.

A fit runs in a forked, capped child (``repro.experiments.timing.run_capped``),
which hands back only picklable arrays: a :class:`Model`, either a weight
vector (``w``, ``b``) or a kernel expansion over training rows (``support``,
``beta``, ``b``) with its kernel. Decision values, test accuracy and the
objective are then computed here, for our solvers and the references alike,
from those arrays with one kernel (``repro.kernels.kernel_matrix``, the values
the solvers compute) and the functions of ``repro.objectives``; no solver's
own report of its objective or accuracy is used.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from repro import objectives
from repro.baselines.liblinear import coefficients
from repro.kernels import kernel_matrix

from .roster import C, GAMMA, LDM_LAMBDA, LSVM_NU

# kernel values held at once when summing K beta over the support rows
_BLOCK_VALUES = 4_000_000


@dataclass
class Model:
    """A fitted binary model, f(x) = x'w + b or sum_s beta_s k(x_s, x) + b,
    with labels +1 for the larger class label."""
    kernel: str
    b: float
    w: np.ndarray | None = None
    support: np.ndarray | None = None
    beta: np.ndarray | None = None
    n_kernel_evals: float = float("nan")
    n_iter: float = float("nan")
    converged: str = ""


def _flag(est):
    return str(bool(est.converged_)) if hasattr(est, "converged_") else ""


def _n_iter(value):
    return float(np.sum(value)) if value is not None else float("nan")


def read_ours(est, kernel):
    """A Model from one of the package's estimators (binary fit)."""
    evals = float(getattr(est, "n_kernel_evals_", float("nan")))
    common = dict(n_kernel_evals=evals, n_iter=_n_iter(getattr(est, "n_iter_", None)),
                  converged=_flag(est))
    if hasattr(est, "coef_"):
        return Model(kernel, float(est.intercept_[0]), w=np.asarray(est.coef_[0], dtype=float),
                     **common)
    return Model(kernel, float(est.intercept_[0]), support=np.asarray(est.support_),
                 beta=np.asarray(est.dual_coef_, dtype=float).ravel(), **common)


def read_svc(svc, kernel):
    """A Model from scikit-learn's SVC (LIBSVM): its decision function is
    dual_coef_ K + intercept_, positive for classes_[1]."""
    n_iter = getattr(svc, "n_iter_", None)
    dual = svc.dual_coef_.toarray() if sp.issparse(svc.dual_coef_) else svc.dual_coef_  # CSR input
    return Model(kernel, float(svc.intercept_[0]), support=np.asarray(svc.support_),
                 beta=np.asarray(dual, dtype=float).ravel(),
                 n_iter=_n_iter(n_iter), converged="")


def read_liblinear(model, n_features, bias):
    """A Model from a liblinear-official model (labels +1 / -1): LIBLINEAR's
    decision values are for its first label."""
    w, b = coefficients(model, n_features)
    return Model("linear", b if bias > 0 else 0.0, w=w)


def _expansion_weights(model, X):
    """w = X_s' beta of a linear-kernel expansion (the same decision function)."""
    Xs = X[model.support]
    return np.asarray(Xs.T @ model.beta).ravel()


def linear_weights(model, X_train):
    """The weight vector of a linear-kernel model, however it was returned."""
    return model.w if model.w is not None else _expansion_weights(model, X_train)


def kernel_products(model, X, X_train):
    """sum_s beta_s k(x_s, x) for the rows x of X, in blocks (no n x n matrix)."""
    if model.kernel == "linear":
        return np.asarray(X @ linear_weights(model, X_train)).ravel()
    Xs = X_train[model.support]
    out = np.empty(X.shape[0])
    block = max(1, _BLOCK_VALUES // max(1, len(model.support)))
    for start in range(0, X.shape[0], block):
        K = kernel_matrix(X[start:start + block], Xs, "rbf", GAMMA)
        out[start:start + block] = K @ model.beta
    return out


def accuracy(model, X_test, y_test, X_train):
    """Fraction of test rows with sign(f(x)) = y (f(x) = 0 counts as -1)."""
    f = kernel_products(model, X_test, X_train) + model.b
    return float(np.mean(np.where(f > 0, 1, -1) == y_test))


def _full_beta(model, n):
    beta = np.zeros(n)
    beta[model.support] = model.beta
    return beta


def objective(problem, model, X, y):
    """The objective of ``problem`` (roster.PROBLEMS) at the model, on the
    training data (X, y with labels +-1): the same function for every solver
    of that problem, reference included. The two hard-margin problems are
    graded by their dual (alpha = |beta|): at C = 1e6 the primal is C times
    the few margin violations that the dual's tolerance leaves, so two fits
    at the same tolerance differed by 13 % there (heart_scale, rbf) while the
    dual compares them."""
    n = X.shape[0]
    if model.kernel == "linear":
        w = linear_weights(model, X)
        if problem == "c-svm":
            return objectives.hinge_primal(w, X, y, C, model.b)
        if problem == "c-svm-nobias":
            return objectives.hinge_primal(w, X, y, C, 0.0) if model.b == 0.0 else np.nan
        if problem == "c-svm-penalised-bias":
            ones = sp.csr_matrix(np.ones((n, 1))) if sp.issparse(X) else np.ones((n, 1))
            Xb = sp.hstack([X, ones], format="csr") if sp.issparse(X) else np.hstack([X, ones])
            return objectives.hinge_primal(np.append(w, model.b), Xb, y, C, 0.0)
        if problem == "squared-hinge":
            return objectives.squared_hinge_primal(w, -model.b, X, y, LSVM_NU)
        if problem in ("lp-svm", "ls-svm"):
            return objectives.nesvm_primal("LP" if problem == "lp-svm" else "LS", w, X, y, C,
                                           model.b)
        if problem == "ldm":
            return objectives.ldm_primal(w, X, y, C, LDM_LAMBDA, LDM_LAMBDA)
        if problem in ("hard-dual-nobias", "c-svm-hard"):
            # alpha_s = |beta_s| (beta = alpha y); K beta = X w
            beta = _full_beta(model, n)
            return objectives.kernel_dual(np.abs(beta), None, y,
                                          Kay=np.asarray(X @ w).ravel())
        raise ValueError(f"unknown problem {problem!r}")
    beta = _full_beta(model, n)
    Kbeta = kernel_products(model, X, X)
    if problem == "c-svm":
        return objectives.kernel_hinge_primal(beta, None, y, C, model.b, Kbeta=Kbeta)
    if problem == "c-svm-nobias":
        return objectives.kernel_hinge_primal(beta, None, y, C, 0.0, Kbeta=Kbeta)
    if problem == "squared-hinge":
        return objectives.kernel_squared_hinge_primal(beta, None, y, LSVM_NU, model.b, Kbeta=Kbeta)
    if problem in ("lp-svm", "ls-svm"):
        return objectives.nesvm_kernel_primal("LP" if problem == "lp-svm" else "LS", beta, None,
                                              y, C, model.b, Kbeta=Kbeta)
    if problem == "ldm":
        return objectives.ldm_kernel_primal(beta, None, y, C, LDM_LAMBDA, LDM_LAMBDA,
                                            Galpha=Kbeta)
    if problem in ("hard-dual-nobias", "c-svm-hard"):
        return objectives.kernel_dual(np.abs(beta), None, y, Kay=Kbeta)
    raise ValueError(f"unknown problem {problem!r}")
