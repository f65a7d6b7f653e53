"""SMO (Keerthi's Modifications 1 and 2) and HardMarginSVM.

* against LIBSVM (sklearn.svm.SVC): dual objective and predictions;
* the KKT conditions at the solution, checked in NumPy;
* the kernel-evaluation counter against an independent Python re-implementation
  of the pseudo-code that counts as it goes (count mode and cache mode);
* count mode and cache mode take the same path; the dual objective trace;
* multiclass, termination guards, the hard-margin SVM on contradictory rows;
* (scikit-learn's estimator checks: tests/test_estimator_checks.py, from tests/estimators.py).
"""
import signal
import time
import warnings
from collections import OrderedDict

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, load_svmlight_file
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from repro.objectives import kernel_dual
from repro._kernels.kernels import kernel_matrix
from repro.solvers._validation import KERNELS, as_rows_input
from repro.solvers.smo import SMO as _SMO
from repro.solvers.smo import HardMarginSVM as _HardMarginSVM

GAMMA = 0.05

# This file tests Keerthi's path as the GS-SVM paper runs it: the estimators'
# defaults are a user's (the second-order path with a kernel cache, gamma='scale',
# no trace), so every fit here names the paper's settings, and a test overrides
# them where it says so.
KEERTHI = dict(working_set="keerthi", kernel_cache=False, gamma=GAMMA, history_every=100)


def SMO(**params):
    """SMO on Keerthi's path in count mode, gamma 0.05, traced every 100 steps."""
    return _SMO(**{**KEERTHI, **params})


def HardMarginSVM(**params):
    """HardMarginSVM on Keerthi's path (Modification 2 with the row cache), gamma 0.05."""
    return _HardMarginSVM(**{"working_set": "keerthi", "gamma": GAMMA, "history_every": 100,
                             **params})


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def as_pm(y, positive):
    return np.where(y == positive, 1.0, -1.0)


def full_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_)
    return alpha


def svc_dual_coef(svc):
    d = svc.dual_coef_
    return np.asarray(d.toarray() if sp.issparse(d) else d).ravel()


def load_libsvm(mirror, name, n_features):
    X, y = load_svmlight_file(str(mirror / "libsvm" / name), n_features=n_features)
    X = sp.csr_matrix(X)
    X.indices = X.indices.astype(np.int32)  # LIBSVM (SVC) wants 32-bit indices
    X.indptr = X.indptr.astype(np.int32)
    return X, y


@pytest.fixture(scope="module")
def problems(data_env):
    """name -> (X_train, y_train, X_test, y_test); heart_scale: last 70 rows held out."""
    X, y = load_libsvm(data_env, "heart_scale", 13)
    out = {"heart_scale": (X[:200], y[:200], X[200:], y[200:])}
    X, y = load_libsvm(data_env, "a1a", 123)
    Xt, yt = load_libsvm(data_env, "a1a.t", 123)
    out["a1a"] = (X, y, Xt[:8000], yt[:8000])  # a fixed part of a1a.t keeps the test fast
    return out


@pytest.fixture(scope="module")
def fits(problems):
    """(name, modification, kernel_cache) -> fitted SMO, C = 1; name -> SVC."""
    out = {}
    for name, (X, y, _, _) in problems.items():
        out[name] = SVC(C=1.0, gamma=GAMMA, tol=1e-3).fit(X, y)
        for mod in (1, 2):
            for cache in (False, True):
                out[name, mod, cache] = SMO(C=1.0, gamma=GAMMA, modification=mod,
                                            kernel_cache=cache).fit(X, y)
    return out


VARIANTS = [(name, mod, cache) for name in ("heart_scale", "a1a")
            for mod in (1, 2) for cache in (False, True)]


# ---------------------------------------------------------------------------
# against LIBSVM
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,mod,cache", VARIANTS)
def test_reaches_libsvm_dual_objective(problems, fits, name, mod, cache):
    X, y, _, _ = problems[name]
    m, svc = fits[name, mod, cache], fits[name]
    y_pm = as_pm(y, m.classes_[1])
    K = rbf_kernel(X, X, gamma=GAMMA)
    ours = kernel_dual(full_alpha(m, len(y)), K, y_pm)
    v = np.zeros(len(y))
    v[svc.support_] = svc_dual_coef(svc) * (1.0 if svc.classes_[1] == m.classes_[1] else -1.0)
    ref = kernel_dual(np.abs(v), K, np.sign(v))
    assert m.converged_
    assert abs(ours - ref) <= 1e-3 * abs(ref), (ours, ref)


@pytest.mark.parametrize("name,mod", [(n, m) for n in ("heart_scale", "a1a") for m in (1, 2)])
def test_predictions_agree_with_libsvm(problems, fits, name, mod):
    _, _, Xt, _ = problems[name]
    # the cache mode returns the same model (test below), so one mode is enough here
    agree = np.mean(fits[name, mod, True].predict(Xt) == fits[name].predict(Xt))
    assert agree >= 0.99, agree


@pytest.mark.parametrize("name,mod,cache", VARIANTS)
def test_kkt_conditions_at_solution(problems, fits, name, mod, cache):
    X, y, _, _ = problems[name]
    m = fits[name, mod, cache]
    C, tol = m.C, m.tol
    y_pm = as_pm(y, m.classes_[1])
    alpha = full_alpha(m, len(y))
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    assert abs(alpha @ y_pm) <= 1e-10 * C * len(y)
    F = rbf_kernel(X, X, gamma=GAMMA) @ (alpha * y_pm) - y_pm
    pos, neg = y_pm > 0, y_pm < 0
    up = (pos & (alpha < C)) | (neg & (alpha > 0))     # I0 + I1 + I2
    low = (pos & (alpha > 0)) | (neg & (alpha < C))    # I0 + I3 + I4
    b_up, b_low = F[up].min(), F[low].max()
    assert b_low - b_up <= 2 * tol + 1e-9, (b_low, b_up)
    assert m.optimality_gap_[0] == pytest.approx(b_low - b_up, abs=1e-9)
    b = -m.intercept_[0]
    assert b == pytest.approx(0.5 * (b_up + b_low), abs=1e-9)
    # every example's KKT condition holds within the threshold's tolerance
    margin = y_pm * (F + y_pm - b)  # y_i f(x_i)
    assert np.all(margin[alpha == 0] >= 1 - 2 * tol - 1e-9)
    assert np.all(margin[alpha == C] <= 1 + 2 * tol + 1e-9)
    free = (alpha > 0) & (alpha < C)
    assert np.all(np.abs(margin[free] - 1) <= 2 * tol + 1e-9)


@pytest.mark.parametrize("name", ["heart_scale", "a1a"])
@pytest.mark.parametrize("mod", [1, 2])
def test_cache_mode_takes_the_same_path_with_fewer_evaluations(fits, name, mod):
    count, fast = fits[name, mod, False], fits[name, mod, True]
    np.testing.assert_array_equal(count.support_, fast.support_)
    np.testing.assert_array_equal(count.dual_coef_, fast.dual_coef_)
    np.testing.assert_array_equal(count.intercept_, fast.intercept_)
    assert count.n_iter_ == fast.n_iter_
    np.testing.assert_array_equal(count.history_["objective"], fast.history_["objective"])
    assert fast.n_kernel_evals_ < count.n_kernel_evals_


@pytest.mark.parametrize("name,mod,cache", VARIANTS)
def test_history_tracks_the_dual_objective(problems, fits, name, mod, cache):
    X, y, _, _ = problems[name]
    m = fits[name, mod, cache]
    h = m.history_
    y_pm = as_pm(y, m.classes_[1])
    K = rbf_kernel(X, X, gamma=GAMMA)
    final = kernel_dual(full_alpha(m, len(y)), K, y_pm)
    assert h["objective"][-1] == pytest.approx(final, rel=1e-9)
    assert m.dual_objective_[0] == h["objective"][-1]
    assert h["iteration"][-1] == m.n_iter_
    assert np.all(np.diff(h["iteration"]) >= 0) and np.all(np.diff(h["time"]) >= 0)
    # every SMO step decreases the objective
    assert np.all(np.diff(h["objective"]) <= 1e-12 * abs(final))


@pytest.mark.parametrize("cache", [False, True])
def test_dense_and_sparse_input_give_the_same_model(problems, cache):
    # Both layouts sum squared norms and dot products in the same column order
    # (the cache mode computes CSR rows through the columns of X, adding the same
    # products in the same order), so kernel values are bitwise equal and SMO
    # follows the same path.
    X, y, _, _ = problems["heart_scale"]
    a = SMO(C=2.0, gamma=0.1, tol=1e-5, kernel_cache=cache).fit(X, y)
    b = SMO(C=2.0, gamma=0.1, tol=1e-5, kernel_cache=cache).fit(X.toarray(), y)
    assert a.n_iter_ == b.n_iter_ and a.n_kernel_evals_ == b.n_kernel_evals_
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert a.intercept_[0] == b.intercept_[0]


# ---------------------------------------------------------------------------
# the counter against an independent re-implementation
# ---------------------------------------------------------------------------
class CountingSMO:
    """Keerthi et al.'s pseudo-code in plain Python, counting kernel values as it
    needs them under the conventions stated in pyx/smo.pyx (no count for the RBF
    diagonal, F_i over the support vectors only, LRU rows of length l in cache
    mode, kept for examples that land in I0; exact bounds and the snap of
    multipliers to the bounds). Kernel values are read from ``K`` (the package's
    kernel, so both implementations see the same numbers and take the same path)."""

    def __init__(self, K, y, C, modification, tol=1e-3, eps=1e-12, rbf=True,
                 capacity=None, order=None):
        self.K, self.y, self.C, self.tol, self.eps = K, y, C, tol, eps
        self.l = len(y)
        self.capacity = capacity  # None: count mode; an int: LRU rows
        self.rows = OrderedDict()
        self.count = 0 if rbf else self.l  # linear/poly: the diagonal, once
        self.alpha = np.zeros(self.l)
        self.F = np.zeros(self.l)
        self.sv, self.i0 = [], []  # swap-remove lists, as in the solver
        self.n_steps = 0
        self.run(modification, np.arange(self.l) if order is None else order)

    # -- bookkeeping ---------------------------------------------------------
    @staticmethod
    def _add(lst, i):
        if i not in lst:
            lst.append(i)

    @staticmethod
    def _remove(lst, i):
        if i in lst:
            p = lst.index(i)
            lst[p] = lst[-1]
            lst.pop()

    def in_i0(self, i):
        return 0.0 < self.alpha[i] < self.C

    def in_up(self, i):
        return self.alpha[i] < self.C if self.y[i] > 0 else self.alpha[i] > 0.0

    def in_low(self, i):
        return self.alpha[i] > 0.0 if self.y[i] > 0 else self.alpha[i] < self.C

    # -- kernel values -------------------------------------------------------
    def kval(self, i, j):
        if self.capacity is None or (i not in self.rows and j not in self.rows):
            self.count += 1
        return self.K[i, j]

    def fetch(self, i):
        if i in self.rows:
            self.rows.move_to_end(i)
        else:
            if len(self.rows) == self.capacity:
                self.rows.popitem(last=False)
            self.rows[i] = True
            self.count += self.l - 1
        return self.K[i]

    def step_row(self, i, keep, n_others):
        """takeStep's row of i: cached, or computed into the cache when ``keep``,
        else only the n_others I0 values the update reads (counted, not cached)."""
        if keep or i in self.rows:
            return self.fetch(i)
        self.count += n_others
        return self.K[i]

    def compute_f(self, i):
        s = 0.0
        for j in self.sv:
            if j != i and not (self.capacity is not None and (i in self.rows or j in self.rows)):
                self.count += 1
            s += self.alpha[j] * self.y[j] * self.K[i, j]
        return s - self.y[i]

    # -- the pseudo-code -----------------------------------------------------
    def take_step(self, i1, i2):
        if i1 == i2:
            return 0
        a, y, F, C, K = self.alpha, self.y, self.F, self.C, self.K
        alph1, alph2, y1, y2, F1, F2 = a[i1], a[i2], y[i1], y[i2], F[i1], F[i2]
        s = y1 * y2
        if y1 != y2:
            L, H = max(0.0, alph2 - alph1), min(C, C + alph2 - alph1)
        else:
            L, H = max(0.0, alph1 + alph2 - C), min(C, alph1 + alph2)
        if L == H:
            return 0
        k11, k22, k12 = K[i1, i1], K[i2, i2], self.kval(i1, i2)
        eta = 2.0 * k12 - k11 - k22
        if eta < 0.0:
            a2 = min(max(alph2 - y2 * (F1 - F2) / eta, L), H)
        else:
            obj = lambda d2: y2 * (F2 - F1) * d2 - 0.5 * eta * d2 * d2  # noqa: E731
            Lobj, Hobj = obj(L - alph2), obj(H - alph2)
            a2 = L if Lobj < Hobj - self.eps else H if Lobj > Hobj + self.eps else alph2
        if abs(a2 - alph2) < self.eps * (a2 + alph2 + self.eps):
            return 0
        a1 = alph1 + s * (alph2 - a2)
        if y1 != y2:
            if a2 == L and alph2 - alph1 >= 0.0:
                a1 = 0.0
            elif a2 == H and alph2 - alph1 <= 0.0:
                a1 = C
        else:
            if a2 == L and alph1 + alph2 - C >= 0.0:
                a1 = C
            elif a2 == H and alph1 + alph2 <= C:
                a1 = 0.0
        a1 = min(max(a1, 0.0), C)
        snap = (2.0 * self.eps + 1e-15) * C
        a1 = 0.0 if a1 < snap else C if a1 > C - snap else a1
        a2 = 0.0 if a2 < snap else C if a2 > C - snap else a2
        if a1 == alph1 and a2 == alph2:
            return 0
        c1, c2 = y1 * (a1 - alph1), y2 * (a2 - alph2)
        others = [i for i in self.i0 if i != i1 and i != i2]
        if self.capacity is None:
            self.count += 2 * len(others)
            r1, r2 = K[i1], K[i2]
        else:  # a row is kept only for an example that lands in I0 (step_row)
            r1, r2 = (self.step_row(i, 0.0 < new < C, len(others))
                      for i, new in ((i1, a1), (i2, a2)))
        for i in others:
            F[i] += c1 * r1[i] + c2 * r2[i]
        F[i1] = F1 + c1 * k11 + c2 * k12
        F[i2] = F2 + c1 * k12 + c2 * k22
        a[i1], a[i2] = a1, a2
        for i in (i1, i2):
            (self._add if a[i] > 0.0 else self._remove)(self.sv, i)
            (self._add if self.in_i0(i) else self._remove)(self.i0, i)
        self.b_up, self.b_low = np.inf, -np.inf
        for i in [i1, i2] + self.i0:
            if (i in self.i0 or self.in_up(i)) and F[i] < self.b_up:
                self.b_up, self.i_up = F[i], i
            if (i in self.i0 or self.in_low(i)) and F[i] > self.b_low:
                self.b_low, self.i_low = F[i], i
        self.n_steps += 1
        return 1

    def examine(self, i2):
        F = self.F
        if self.in_i0(i2):
            F2 = F[i2]
        else:
            F2 = F[i2] = self.compute_f(i2)
            if self.in_up(i2):
                if F2 < self.b_up:
                    self.b_up, self.i_up = F2, i2
            elif F2 > self.b_low:
                self.b_low, self.i_low = F2, i2
        i1, optimal = None, True
        if self.in_up(i2) and self.b_low - F2 > 2 * self.tol:
            optimal, i1 = False, self.i_low
        if self.in_low(i2) and F2 - self.b_up > 2 * self.tol:
            optimal, i1 = False, self.i_up
        if optimal:
            return 0
        if self.in_i0(i2):
            i1 = self.i_low if self.b_low - F2 > F2 - self.b_up else self.i_up
        return self.take_step(i1, i2)

    def run(self, modification, order):
        y = self.y
        self.i_up = int(np.flatnonzero(y > 0)[0])
        self.i_low = int(np.flatnonzero(y < 0)[0])
        self.b_up, self.b_low = -1.0, 1.0
        self.F[self.i_up], self.F[self.i_low] = -1.0, 1.0
        changed, examine_all = 0, True
        while changed > 0 or examine_all:
            changed = 0
            if examine_all:
                for i in order:
                    changed += self.examine(int(i))
            elif modification == 1:
                for i in order:
                    if self.in_i0(i):
                        changed += self.examine(int(i))
                        if self.b_up > self.b_low - 2 * self.tol:
                            changed = 0
                            break
            else:
                success = 1
                while self.b_up <= self.b_low - 2 * self.tol and success:
                    success = self.take_step(self.i_up, self.i_low)
            if examine_all:
                examine_all = False
            elif changed == 0:
                examine_all = True


def tiny_problem(seed, n=16, d=3, duplicates=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    if duplicates:  # identical inputs with opposite labels: eta = 0
        X[3] = X[2]
        y[2], y[3] = 1.0, -1.0
    return X, y


def package_kernel(X, kernel, gamma):
    K, _ = kernel_matrix(as_rows_input(X), as_rows_input(X), KERNELS[kernel], gamma, 1.0, 2)
    if kernel == "rbf":
        np.fill_diagonal(K, 1.0)  # the solver never evaluates the RBF diagonal
    return K


TINY_CASES = [
    # seed, kernel, C, duplicates
    (0, "rbf", 1.0, False),
    (1, "rbf", 10.0, False),
    (2, "rbf", 0.3, True),
    (3, "linear", 1.0, False),
    (4, "poly", 5.0, True),
]


@pytest.mark.parametrize("seed,kernel,C,duplicates", TINY_CASES)
@pytest.mark.parametrize("mod", [1, 2])
@pytest.mark.parametrize("capacity", [None, "table", 3, 1000])
def test_evaluation_count_matches_independent_count(seed, kernel, C, duplicates, mod, capacity):
    # "table": count mode reading its values from the kernel matrix computed
    # first (count_table_memory), every read counted: the same count
    X, y = tiny_problem(seed, duplicates=duplicates)
    gamma = 0.5
    cached = isinstance(capacity, int)
    ref = CountingSMO(package_kernel(X, kernel, gamma), y, C, mod,
                      rbf=(kernel == "rbf"), capacity=capacity if cached else None)
    cache_size = capacity * 8.0 * len(y) / 2**20 if cached else 1.0
    m = SMO(C=C, kernel=kernel, gamma=gamma, coef0=1.0, degree=2, modification=mod,
            kernel_cache=cached, cache_size=cache_size,
            count_table_memory=1.0 if capacity == "table" else 0.0).fit(X, y)
    assert ref.n_steps > 0
    assert m.n_iter_ == ref.n_steps
    np.testing.assert_array_equal(full_alpha(m, len(y)), ref.alpha)
    assert m.n_kernel_evals_ == ref.count


@pytest.mark.parametrize("mod", [1, 2])
def test_visiting_order_is_a_permutation_and_counted(mod):
    X, y = tiny_problem(7, n=20)
    order = np.random.default_rng(5).permutation(len(y))
    ref = CountingSMO(package_kernel(X, "rbf", 0.5), y, 2.0, mod, order=order)
    m = SMO(C=2.0, gamma=0.5, modification=mod, random_state=5).fit(X, y)
    np.testing.assert_array_equal(full_alpha(m, len(y)), ref.alpha)
    assert m.n_kernel_evals_ == ref.count


@pytest.mark.parametrize("name", ["heart_scale", "a1a"])
@pytest.mark.parametrize("mod", [1, 2])
@pytest.mark.parametrize("start", ["cold", "warm", "shuffled"])
def test_count_table_takes_the_same_path_and_count(problems, name, mod, start):
    # the table's values are the ones count mode computes (bitwise): the same
    # steps, multipliers, threshold, trace and count, on CSR and dense rows, from
    # alpha = 0, from a warm start (every F_i computed first) and in shuffled order
    X, y, _, _ = problems[name]
    fits = []
    for rows in (X, X.toarray()):
        for memory in (0.0, 8.0 * X.shape[0] ** 2 / 2**20):
            m = SMO(C=4.0, gamma=GAMMA, modification=mod, count_table_memory=memory,
                    warm_start=start == "warm", random_state=3 if start == "shuffled" else None)
            if start == "warm":
                m.set_params(C=1.0).fit(rows, y)
                m.set_params(C=4.0)
            fits.append(m.fit(rows, y))
    first = fits[0]
    for m in fits[1:]:
        np.testing.assert_array_equal(m.support_, first.support_)
        np.testing.assert_array_equal(m.dual_coef_, first.dual_coef_)
        np.testing.assert_array_equal(m.intercept_, first.intercept_)
        assert m.n_iter_ == first.n_iter_ and m.n_kernel_evals_ == first.n_kernel_evals_
        assert m.fit_stats_ == first.fit_stats_
        np.testing.assert_array_equal(m.history_["objective"], first.history_["objective"])
    assert first.n_kernel_evals_ > X.shape[0] ** 2  # values asked for again and again


def test_count_mode_splits_the_cost_of_f_outside_i0():
    X, y = tiny_problem(8, n=20)
    m = SMO(C=1.0, gamma=0.5).fit(X, y)
    stats = m.fit_stats_[0]
    assert stats["n_kernel_evals"] == m.n_kernel_evals_
    assert 0 < stats["n_F_evals"] < m.n_kernel_evals_
    assert stats["n_F"] <= stats["n_examine"]


# ---------------------------------------------------------------------------
# estimator behaviour
# ---------------------------------------------------------------------------
def test_multiclass_iris():
    X, y = load_iris(return_X_y=True)
    m = SMO(C=1.0, gamma=0.5).fit(X, y)
    svc = SVC(C=1.0, gamma=0.5).fit(X, y)
    assert len(m.problems_) == 3 and len(m.dual_coef_) == 3
    assert m.decision_function(X).shape == (150, 3)
    assert np.mean(m.predict(X) == y) >= 0.95
    assert np.mean(m.predict(X) == svc.predict(X)) >= 0.98
    assert m.n_kernel_evals_ > 0 and m.n_iter_.shape == (3,)


def test_intercept_convention():
    """f(x) = sum dual_coef K + intercept_ with intercept_ = -b (Keerthi's f = ... - b)."""
    X, y = tiny_problem(9, n=30)
    m = SMO(C=1.0, gamma=0.5).fit(X, y)
    K = rbf_kernel(X, X[m.support_], gamma=0.5)
    np.testing.assert_allclose(m.decision_function(X), K @ m.dual_coef_ + m.intercept_[0], rtol=1e-12)


def test_max_iter_stops_with_a_warning():
    X, y = tiny_problem(10, n=40)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m = SMO(C=10.0, gamma=0.5, max_iter=3).fit(X, y)
    assert m.n_iter_ == 3 and not m.converged_


@pytest.mark.parametrize("mod", [1, 2])
@pytest.mark.parametrize("cache", [False, True])
def test_no_stall_on_multipliers_an_ulp_inside_the_box(mod, cache):
    """Sparse data with many all-zero rows (sklearn's sparse checks): without
    putting multipliers that are within rounding of a bound on it, one stayed
    at C - 2e-16 in I0 and the solver stopped with b_low - b_up = 0.028."""
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(40, 3))
    X[X < 0.8] = 0
    y = (4 * rng.uniform(size=40)).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = SMO(modification=mod, kernel_cache=cache).fit(sp.csr_matrix(X), y)
    assert m.converged_ and np.all(m.optimality_gap_ <= 2 * m.tol)


class _Alarm(Exception):
    pass


def _raise_alarm(signum, frame):
    raise _Alarm


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer (POSIX)")
@pytest.mark.parametrize("mod,cache", [(1, False), (2, True)])
def test_a_long_fit_can_be_interrupted(mod, cache):
    """The solver polls for signals (Ctrl-C) inside its passes, GIL released between."""
    rng = np.random.RandomState(0)
    X, y = rng.normal(loc=100, size=(100, 2)), rng.randint(0, 2, 100)  # ~1e7+ steps
    previous = signal.signal(signal.SIGALRM, _raise_alarm)
    start = time.perf_counter()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(_Alarm):
            SMO(C=1e8, modification=mod, kernel_cache=cache, max_iter=10**12).fit(X, y)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < 5.0


@pytest.mark.parametrize("mod", [1, 2])
def test_platt_eps_stops_above_the_gap(problems, mod):
    """eps_step = 1e-3 (Platt) refuses the last steps and ends above 2 tol (warned);
    the default 1e-12 meets the optimality test."""
    X, y, _, _ = problems["heart_scale"]
    with pytest.warns(ConvergenceWarning, match="eps_step"):
        platt = SMO(C=64.0, modification=mod, eps_step=1e-3, kernel_cache=True).fit(X, y)
    tiny = SMO(C=64.0, modification=mod, kernel_cache=True).fit(X, y)
    assert platt.optimality_gap_[0] > 2e-3 and not platt.converged_
    assert tiny.optimality_gap_[0] <= 2e-3 and tiny.converged_
    # (which of the two dual objectives is lower is not determined: the default run
    # also stops at the 2 tol gap, not at the exact optimum)


def test_hard_margin_terminates_on_contradictory_duplicates():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    X = np.vstack([X, X[:5], X[10:12]])  # the same inputs again ...
    y = np.r_[y, -y[:5], -y[10:12]]      # ... with the opposite labels
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = HardMarginSVM(gamma=0.5).fit(X, y)
    assert m.converged_
    alpha = full_alpha(m, len(y))
    first, second = np.r_[0:5, 10:12], np.r_[60:67]
    # raising both multipliers of a pair leaves f unchanged and lowers the dual:
    # the larger one of every contradictory pair sits at the box C
    np.testing.assert_array_equal(np.maximum(alpha[first], alpha[second]), m.C)
    others = np.setdiff1d(np.arange(len(y)), np.r_[first, second])
    assert np.all(alpha[others] < m.C)


def test_hard_margin_separates_separable_data():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1.0, 1, -1)
    m = HardMarginSVM(gamma=1.0, tol=1e-4).fit(X, y)
    assert m.converged_ and np.all(np.abs(m.dual_coef_) < m.C)
    f = m.decision_function(X) * np.where(y == 1, 1, -1)
    assert np.all(f >= 1 - 2e-4 - 1e-9)  # every margin >= 1 (up to the tolerance)
    soft = SMO(C=1e6, gamma=1.0, tol=1e-4, kernel_cache=True).fit(X, y)
    np.testing.assert_array_equal(m.dual_coef_, soft.dual_coef_)


@pytest.mark.parametrize("every", [1, 7, 100])
def test_history_samples_every_k_steps_and_the_last(every):
    """The trace is taken inside the passes (every k successful steps), not only
    at their ends: a user's stride holds for SMO as for every solver."""
    X, y = load_iris(return_X_y=True)
    m = SMO(C=10.0, gamma=0.5, history_every=every).fit(X[y > 0], y[y > 0])
    h = m.history_
    it = h["iteration"]
    expected = list(range(every, m.n_iter_ + 1, every))
    if not expected or expected[-1] != m.n_iter_:
        expected.append(m.n_iter_)
    assert it.tolist() == expected
    assert np.all(np.diff(h["time"]) >= 0)
    assert h["objective"][-1] == pytest.approx(m.dual_objective_[0], rel=1e-12)
    assert np.all(np.diff(h["objective"]) <= 1e-12 * abs(h["objective"][-1]))  # every step decreases W
