"""The estimator base: validation errors (every estimator of the registry),
label mapping, one-vs-one, convergence reporting, the trace, seeding, shared
constraints and the linear-model mixin."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from estimators import ESTIMATORS
from repro._kernels.linear_dcd import dcd_l1svm
from repro.solvers import GSSVM, SMO, LinearSVM
from repro.solvers import base
from repro.solvers._validation import as_rows_input
from repro.solvers.base import SHARED_CONSTRAINTS, History

X2 = np.array([[0.0, 1.0], [1.0, 0.0], [0.2, 0.9], [0.9, 0.1]])
Y2 = np.array(["a", "b", "a", "b"])


def _nan(X, y):
    X = X.copy()
    X[1, 1] = np.nan
    return X, y, None


def _inf(X, y):
    X = X.copy()
    X[1, 1] = np.inf
    return X, y, None


# name -> (make (X, y, X_predict or None), error message pattern); with
# X_predict the fit must succeed and predict(X_predict) must fail
BAD_INPUTS = {
    "nan": (_nan, "NaN"),
    "inf": (_inf, "infinity"),
    "single_class": (lambda X, y: (X, np.full(len(y), "a"), None), "at least 2 classes"),
    "shape_mismatch": (lambda X, y: (X, y[:3], None), "inconsistent numbers of samples"),
    "empty": (lambda X, y: (X[:0], y[:0], None), "0 sample"),
    "continuous_y": (lambda X, y: (X, np.array([0.1, 0.2, 0.3, 0.4]), None), "Unknown label type"),
    "wrong_n_features_at_predict": (lambda X, y: (X, y, np.ones((2, 3))),
                                    "X has 3 features, but .* is expecting 2 features"),
}


@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("case", list(BAD_INPUTS))
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_bad_input_is_rejected_by_name(estimator, case, layout):
    make, message = BAD_INPUTS[case]
    X, y, X_predict = make(X2, Y2)
    as_layout = sp.csr_matrix if layout == "csr" else np.asarray
    model = clone(estimator)
    if X_predict is None:
        with pytest.raises(ValueError, match=message):
            model.fit(as_layout(X), y)
    else:
        model.fit(as_layout(X), y)
        with pytest.raises(ValueError, match=message):
            model.predict(as_layout(X_predict))


def test_binary_labels_map_to_pm1_and_back():
    m = LinearSVM(C=10.0).fit(X2, Y2)
    assert list(m.classes_) == ["a", "b"]
    f = m.decision_function(X2)
    assert f.shape == (4,)
    assert np.all((f > 0) == (Y2 == "b"))  # classes_[1] is the positive class
    assert list(m.predict(X2)) == list(Y2)


def test_one_vs_one_on_iris():
    X, y = load_iris(return_X_y=True)
    m = LinearSVM(C=1.0, history_every=1).fit(X, y)
    assert m.problems_ == [(0, 1), (0, 2), (1, 2)]
    assert m.coef_.shape == (3, 4)
    assert m.n_iter_.shape == (3,)
    assert set(np.unique(m.history_["problem"])) == {0, 1, 2}
    assert m.decision_function(X).shape == (150, 3)
    assert (m.predict(X) == y).mean() > 0.9
    # each pairwise problem was fitted only on its two classes
    assert len(m.dual_coef_[0]) == 100


# -- convergence: one warning per fit, counted problems --------------------------
def test_one_warning_per_fit_counts_the_unconverged_problems():
    X, y = load_iris(return_X_y=True)
    with pytest.warns(ConvergenceWarning) as caught:
        m = LinearSVM(C=100.0, tol=1e-12, max_iter=2).fit(X, y)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("LinearSVM: 3 of 3 one-vs-one problems stopped unconverged")
    assert "max_iter=2 passes reached" in message and "change max_iter" in message
    assert not m.converged_ and m.n_unconverged_problems_ == 3


def test_unconverged_count_is_per_problem():
    # SMO's path does not depend on max_iter, so a cap between the step counts
    # of the problems stops exactly those that needed more steps
    X, y = load_iris(return_X_y=True)
    full = SMO(C=10.0, gamma=0.5, working_set="keerthi").fit(X, y)
    assert full.converged_ and full.n_unconverged_problems_ == 0
    steps = np.sort(full.n_iter_)
    assert steps[1] + 1 < steps[2]  # (129, 163, 372)
    cap = int(steps[1]) + 1  # one more for the final pass that checks optimality
    with pytest.warns(ConvergenceWarning, match=r"SMO: 1 of 3 one-vs-one problems") as caught:
        m = SMO(C=10.0, gamma=0.5, working_set="keerthi", max_iter=cap).fit(X, y)
    assert len(caught) == 1
    assert m.n_unconverged_problems_ == 1 and not m.converged_


def test_converged_fit_is_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = LinearSVM(C=10.0).fit(X2, Y2)
    assert m.converged_ and m.n_unconverged_problems_ == 0


def test_gssvm_step_cap_is_counted_but_not_warned():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = GSSVM(gamma=0.5, max_steps=2).fit(X, y)
    assert not m.converged_ and m.n_unconverged_problems_ == 3


# -- the trace -------------------------------------------------------------------
@pytest.mark.parametrize("every", [1, 3, 7])
def test_history_keeps_every_kth_iteration_and_the_last(every):
    X, y = load_iris(return_X_y=True)
    m = LinearSVM(C=1.0, max_iter=50, history_every=every)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, y)
    h = m.history_
    assert set(h) == {"problem", "iteration", "time", "objective"}
    for p, n_iter in enumerate(m.n_iter_):  # LinearSVM reports after every pass
        its = h["iteration"][h["problem"] == p]
        expected = list(range(every, n_iter + 1, every))
        if not expected or expected[-1] != n_iter:
            expected.append(n_iter)
        assert list(its) == expected


def test_history_every_none_records_nothing():
    m = LinearSVM(history_every=None).fit(X2, Y2)
    assert set(m.history_) == {"problem", "iteration", "time", "objective"}
    assert all(len(v) == 0 for v in m.history_.values())
    # the model does not depend on the trace
    np.testing.assert_array_equal(m.coef_, LinearSVM().fit(X2, Y2).coef_)


def test_history_evaluates_objectives_of_kept_rows_only_outside_the_time(monkeypatch):
    class Clock:  # a fake perf_counter: every reading advances it by 1 s
        t = -1.0

        def __call__(self):
            self.t += 1.0
            return self.t

    clock = Clock()
    monkeypatch.setattr(base, "perf_counter", clock)
    evaluated = []

    def objective(i):
        def f():
            evaluated.append(i)
            clock.t += 1000.0  # an expensive objective
            return -i
        return f

    h = History(every=2)  # start: reading 0
    assert not h.wants(1) and h.wants(2)
    for i in range(1, 6):
        h(i, objective(i))  # two readings per report: entry and exit
    h.close()
    assert [row[0] for row in h.rows] == [2, 4, 5]
    assert evaluated == [2, 4, 5]  # the objectives of 1 and 3 were never computed
    assert [row[2] for row in h.rows] == [-2.0, -4.0, -5.0]
    # the solver's own time is the 1 s before each report's entry reading; the
    # 1000 s objectives and the trace's exit readings are left out
    assert [row[1] for row in h.rows] == [2.0, 4.0, 5.0]


# -- seeding, shared constraints, the linear-model mixin -------------------------
def test_an_int_random_state_is_the_kernel_seed():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(60, 4)), np.r_[np.zeros(30), np.ones(30)]
    m = LinearSVM(C=1.0, random_state=7).fit(X, y)
    y_pm = np.where(y == 1, 1.0, -1.0)
    w, wb, *_ = dcd_l1svm(as_rows_input(X), y_pm, 1.0, 1.0, m.tol, m.max_iter, 7, None)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == wb


def test_a_random_state_instance_is_accepted():
    X, y = np.random.default_rng(3).normal(size=(50, 3)), np.r_[np.zeros(25), np.ones(25)]
    a = LinearSVM(random_state=np.random.RandomState(5)).fit(X, y).coef_
    b = LinearSVM(random_state=np.random.RandomState(5)).fit(X, y).coef_
    np.testing.assert_array_equal(a, b)
    SMO(working_set="keerthi", random_state=np.random.RandomState(5)).fit(X, y)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_shared_parameters_use_the_shared_constraints(estimator):
    constraints = type(estimator)._parameter_constraints
    shared = [name for name in SHARED_CONSTRAINTS if name in estimator.get_params()]
    assert "history_every" in shared  # every iterative solver has a trace stride
    for name in shared:
        if (type(estimator).__name__, name) in NARROWED:
            assert constraints[name] is NARROWED[type(estimator).__name__, name], name
        else:
            assert constraints[name] is SHARED_CONSTRAINTS[name], name


# shared parameters a solver narrows, and why: an SMO-type stop's tol must be
# below 1 (the zero start meets the stop otherwise; issue 22)
NARROWED = {("SMO", "tol"): base.KKT_TOL, ("HardMarginSVM", "tol"): base.KKT_TOL,
            ("SVM", "tol"): base.KKT_TOL}


def test_linear_model_decisions_on_csr_equal_dense():
    X, y = load_iris(return_X_y=True)
    m = LinearSVM(C=1.0, max_iter=5000).fit(X, y)
    f_dense = m._decision_values(X)
    np.testing.assert_allclose(m._decision_values(sp.csr_matrix(X)), f_dense, rtol=1e-12)
    np.testing.assert_allclose(f_dense, X @ m.coef_.T + m.intercept_, rtol=1e-12)
    assert m.coef_.shape == (3, 4) and m.intercept_.shape == (3,)


def test_one_vs_one_votes_equal_the_loop_over_problems_bitwise():
    # decision_function sums each class's votes and confidences with one
    # np.add.at; the order of the terms must stay that of a loop over problems
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(120, 3)), rng.integers(0, 5, 120)
    m = SMO(gamma=0.5).fit(X, y)
    values = rng.normal(size=(50, len(m.problems_))) * 10.0 ** rng.integers(-3, 4, (50, 1))
    m._decision_values = lambda X: values  # any values: the combination is checked
    votes, confidence = np.zeros((50, 5)), np.zeros((50, 5))
    for p, (neg, pos) in enumerate(m.problems_):
        f = values[:, p]
        votes[:, pos] += f > 0
        votes[:, neg] += f <= 0
        confidence[:, pos] += f
        confidence[:, neg] -= f
    expected = votes + confidence / (3 * (np.abs(confidence) + 1))
    np.testing.assert_array_equal(m.decision_function(X[:50]), expected)
    # the data do tell orders apart: the problems summed backwards round differently
    backwards = np.zeros((50, 5))
    for p, (neg, pos) in reversed(list(enumerate(m.problems_))):
        backwards[:, pos] += values[:, p]
        backwards[:, neg] -= values[:, p]
    assert not np.array_equal(backwards, confidence)


def test_dense_product_is_the_product():
    rng = np.random.default_rng(5)
    A, B = rng.normal(size=(40, 30)), rng.normal(size=(30, 7))
    with threadpool_limits(limits=1):
        expected = A @ B
    np.testing.assert_array_equal(base.dense_product(A, B), expected)  # small: one thread
    A[A < 0.5] = 0.0
    out = base.dense_product(sp.csr_matrix(A), B)
    assert type(out) is np.ndarray
    np.testing.assert_allclose(out, A @ B, rtol=1e-12, atol=1e-12)


def test_dense_product_limits_blas_to_one_thread_for_small_products_only(monkeypatch):
    from contextlib import nullcontext

    calls = []

    class Spy:
        def limit(self, limits, user_api):
            calls.append((limits, user_api))
            return nullcontext()

    from repro.solvers import _blas

    monkeypatch.setattr(_blas, "_controller", Spy())
    rng = np.random.default_rng(6)
    base.dense_product(rng.normal(size=(40, 30)), rng.normal(size=(30, 7)))
    assert calls == [(1, "blas")]
    base.dense_product(rng.normal(size=(300, 300)), rng.normal(size=(300, 200)))  # 18e6 >= 2^24
    assert calls == [(1, "blas")]  # a large product keeps every thread
