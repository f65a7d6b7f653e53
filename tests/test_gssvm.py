"""GS-SVM (Algorithm 1 of gs_svm.txt) against a NumPy transcription of the paper."""
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris

from repro._kernels.gssvm import gs_svm
from repro.solvers._validation import as_rows_input, kernel_params
from repro.solvers.gssvm import GSSVM

KERNELS = {
    "rbf": dict(kernel="rbf", gamma=0.5),
    "linear": dict(kernel="linear"),
    "poly": dict(kernel="poly", gamma=0.3, coef0=1.0, degree=3),
}


# -- an independent implementation, straight from the paper -------------------
def numpy_kernel(A, B, kernel, gamma=0.05, coef0=0.0, degree=3):
    A = A.toarray() if sp.issparse(A) else np.asarray(A, dtype=float)
    B = B.toarray() if sp.issparse(B) else np.asarray(B, dtype=float)
    if kernel == "rbf":  # exp(-theta ||x - z||^2), from explicit differences
        return np.exp(-gamma * ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1))
    if kernel == "poly":
        return (gamma * (A @ B.T) + coef0) ** degree
    return A @ B.T


def reference_gs_svm(K, y, max_steps=None, diag_is_free=False):
    """Algorithm 1 (Fig. 1) with the full kernel matrix K and labels y in {-1, +1}.

    Returns (alpha, order, objectives, n_evals, g): the coefficients and indices
    in selection order, the dual (1) over the selected set after each step, the
    kernel values an O(l)-memory version must compute (one per unused sample per
    step, plus the diagonal unless it is free), and the final gradient (Eq. 5).
    """
    l = len(y)
    d = np.diag(K).copy()
    g = -np.ones(l)                          # g^0 = -1
    unused = d > 0                           # Q (Eq. 8 needs K(x, x) > 0)
    alpha, order, objectives = [], [], []
    n_evals = 0 if diag_is_free else l
    max_steps = l if max_steps is None else max_steps
    for _ in range(max_steps):               # m = 1 .. l
        if not np.any(unused & (g < 0)):     # step 3: min_{b in Q} g_b >= 0
            break
        h = np.where(g < 0, -g ** 2 / (2 * np.where(d > 0, d, 1)), 0.0)  # Eq. 10
        h[~unused] = np.inf
        b = int(np.argmin(h))                # Eq. 11, first (lowest) index on ties
        a = -g[b] / d[b]                     # Eq. 12
        unused[b] = False                    # step 5
        g[unused] += a * y[b] * y[unused] * K[b, unused]  # step 6 with alpha_m (Eq. 5)
        n_evals += int(unused.sum())
        alpha.append(a)
        order.append(b)
        S = np.array(order)
        c = np.array(alpha) * y[S]
        objectives.append(0.5 * c @ K[np.ix_(S, S)] @ c - np.sum(alpha))  # Eq. 1 on P
    return np.array(alpha), np.array(order, dtype=int), np.array(objectives), n_evals, g


def random_problem(seed, n=40, d=6, sparse=False):
    rng = np.random.default_rng(seed)
    if sparse:
        X = sp.random(n, d, density=0.4, format="csr", random_state=seed,
                      data_rvs=rng.standard_normal)
    else:
        X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    score = np.asarray(X @ w).ravel() + 0.5 * rng.standard_normal(n)
    y = np.where(score > 0, "pos", "neg")  # classes_ = ["neg", "pos"], "pos" is +1
    return X, y


def reference_for(model, X, y):
    params = {k: getattr(model, k) for k in ("kernel", "gamma", "coef0", "degree")}
    K = numpy_kernel(X, X, **params)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    return K, y_pm, reference_gs_svm(K, y_pm, model.max_steps, diag_is_free=model.kernel == "rbf")


# -- agreement with the reference ----------------------------------------------
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("seed", [0, 1])
def test_same_selection_and_alphas_as_reference(kernel, sparse, seed):
    X, y = random_problem(seed, sparse=sparse)
    m = GSSVM(**KERNELS[kernel], history_every=1).fit(X, y)
    K, y_pm, (alpha, order, objectives, n_evals, _) = reference_for(m, X, y)
    assert len(order) > 1
    np.testing.assert_array_equal(m.selection_order_, order)
    np.testing.assert_array_equal(m.support_, order)
    np.testing.assert_allclose(m.dual_coef_, alpha * y_pm[order], rtol=1e-10)
    assert m.n_iter_ == len(order)
    assert m.n_kernel_evals_ == n_evals
    np.testing.assert_allclose(m.history_["objective"], objectives, rtol=1e-10, atol=1e-12)
    assert np.all(m.intercept_ == 0.0)


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("empty_row", [False, True])
def test_dense_and_csr_give_the_same_model(kernel, empty_row):
    """CSR rows take the kernel rows through the columns of X
    (kernel_row_by_columns), dense rows by full dot products: the same products
    added in the same column order, so the models are bitwise equal."""
    X, y = random_problem(3, sparse=True)
    if empty_row:  # a row with no nonzero, and a row holding every column
        X = X.tolil()
        X[0, :] = 0.0
        X[1, :] = np.arange(1.0, X.shape[1] + 1.0)
        X = X.tocsr()
    a = GSSVM(**KERNELS[kernel]).fit(X, y)
    b = GSSVM(**KERNELS[kernel]).fit(X.toarray(), y)
    np.testing.assert_array_equal(a.selection_order_, b.selection_order_)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert a.n_kernel_evals_ == b.n_kernel_evals_


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_kernel_evaluation_count_on_tiny_problems(kernel, n):
    X, y = random_problem(n, n=n, d=3)
    if len(np.unique(y)) < 2:
        y[0] = "neg" if y[0] == "pos" else "pos"
    m = GSSVM(**KERNELS[kernel]).fit(X, y)
    # step m computes K(x_{b_m}, x_q) for the l - m samples still unused; the
    # diagonal costs 0 evaluations for rbf (K(x, x) = 1) and l otherwise
    steps = m.n_iter_
    expected = sum(n - s for s in range(1, steps + 1)) + (0 if kernel == "rbf" else n)
    assert m.n_kernel_evals_ == expected
    assert m.n_kernel_evals_ == reference_for(m, X, y)[2][3]


def test_count_and_cap_with_max_steps():
    X, y = random_problem(4, n=30)
    m = GSSVM(gamma=0.5, max_steps=4).fit(X, y)
    assert m.n_iter_ == 4 and len(m.support_) == 4 and not m.converged_
    assert m.n_kernel_evals_ == 29 + 28 + 27 + 26
    full = GSSVM(gamma=0.5, history_every=1).fit(X, y)
    assert full.converged_
    np.testing.assert_array_equal(full.selection_order_[:4], m.selection_order_)
    np.testing.assert_allclose(full.dual_coef_[:4], m.dual_coef_, rtol=1e-14)
    assert GSSVM(gamma=0.5, max_steps=10_000).fit(X, y).n_iter_ == full.n_iter_


# -- the paper's properties, checked with NumPy -------------------------------
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_stopping_rule_holds_on_the_unused_samples(kernel):
    X, y = random_problem(5, n=60, sparse=True)
    m = GSSVM(**KERNELS[kernel]).fit(X, y)
    assert m.converged_
    K = numpy_kernel(X, X, **{k: getattr(m, k) for k in ("kernel", "gamma", "coef0", "degree")})
    y_pm = np.where(y == m.classes_[1], 1.0, -1.0)
    g = y_pm * (K[:, m.support_] @ m.dual_coef_) - 1.0  # Eq. 5 for every sample
    unused = np.setdiff1d(np.arange(len(y)), m.support_)
    usable = np.diag(K)[unused] > 0  # Q: all-zero rows have K(x, x) = 0 for linear
    assert usable.sum() > 0
    assert np.all(g[unused[usable]] >= -1e-10), g[unused[usable]].min()
    assert np.all(g[unused[~usable]] == -1.0) and (kernel == "linear" or usable.all())
    alpha = m.dual_coef_ * y_pm[m.support_]
    assert np.all(alpha > 0)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_dual_objective_decreases_by_h_at_every_step(kernel):
    X, y = random_problem(6, n=50)
    m = GSSVM(**KERNELS[kernel], history_every=1).fit(X, y)
    obj = m.history_["objective"]
    assert np.array_equal(m.history_["iteration"], np.arange(1, m.n_iter_ + 1))
    assert np.all(np.diff(np.r_[0.0, obj]) < 0)
    # the maintained value is the dual (1) over the selected set, recomputed here
    K, y_pm, _ = reference_for(m, X, y)
    S, c = m.support_, m.dual_coef_
    alpha = c * y_pm[S]
    np.testing.assert_allclose(obj[-1], 0.5 * c @ K[np.ix_(S, S)] @ c - alpha.sum(), rtol=1e-10)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_predictions_are_the_sign_of_the_expansion(kernel):
    X, y = random_problem(7, n=50)
    Xt, _ = random_problem(8, n=30)
    m = GSSVM(**KERNELS[kernel]).fit(X, y)
    params = {k: getattr(m, k) for k in ("kernel", "gamma", "coef0", "degree")}
    f = numpy_kernel(Xt, X[m.support_], **params) @ m.dual_coef_  # no bias term
    np.testing.assert_allclose(m.decision_function(Xt), f, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(m.predict(Xt), m.classes_[(f > 0).astype(int)])


def test_ties_go_to_the_lowest_index():
    # rbf: every h^0 is -1/2, so the first pick is sample 0. Then samples 1 and
    # 3, mirror images around sample 0, tie exactly; after the swap-remove of 0
    # the unused set is stored as [3, 1, 2], so the lowest index (1), not the
    # first position (3), must win
    X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 5.0], [-1.0, 0.0]])
    y = np.array([1, 0, 1, 0])
    m = GSSVM(gamma=1.0).fit(X, y)
    assert list(m.selection_order_[:2]) == [0, 1]
    K, y_pm, (alpha, order, *_) = reference_for(m, X, y)
    np.testing.assert_array_equal(m.selection_order_, order)


def test_duplicated_rows_with_opposite_labels_terminate():
    rng = np.random.default_rng(0)
    base = rng.standard_normal((10, 3))
    X = np.vstack([base, base, base])
    y = np.r_[np.zeros(10), np.ones(10), np.zeros(10)]
    copy_of = np.tile(np.arange(10), 3)  # row i is a copy of base[copy_of[i]]
    for kernel in KERNELS:
        m = GSSVM(**KERNELS[kernel]).fit(X, y)
        assert 1 <= m.n_iter_ <= len(y)
        assert len(np.unique(m.selection_order_)) == m.n_iter_  # each sample used once
        assert np.all(np.isfinite(m.dual_coef_))
        # copies tie exactly (the Cython kernel is bitwise equal on equal rows);
        # build the reference kernel from the base rows so its ties are exact too
        params = {k: getattr(m, k) for k in ("kernel", "gamma", "coef0", "degree")}
        K = numpy_kernel(base, base, **params)[np.ix_(copy_of, copy_of)]
        y_pm = np.where(y == m.classes_[1], 1.0, -1.0)
        alpha, order, *_ = reference_gs_svm(K, y_pm, diag_is_free=kernel == "rbf")
        np.testing.assert_array_equal(m.selection_order_, order)
        np.testing.assert_allclose(m.dual_coef_, alpha * y_pm[order], rtol=1e-10)
    # the smallest case: one point, both labels
    m = GSSVM().fit([[1.0, 2.0], [1.0, 2.0]], [0, 1])
    assert m.n_iter_ == 2 and m.converged_


def test_samples_with_zero_self_kernel_are_never_selected():
    # linear kernel: an all-zero row has K(x, x) = 0, Eq. 8's 1-d problem is unbounded
    X = np.array([[0.0, 0.0], [1.0, 0.2], [-1.0, 0.1], [0.0, 0.0], [0.5, -1.0]])
    y = np.array([0, 1, 0, 1, 1])
    for Xin in (X, sp.csr_matrix(X)):
        m = GSSVM(kernel="linear").fit(Xin, y)
        assert not set(m.selection_order_) & {0, 3}
        assert np.all(np.isfinite(m.dual_coef_))
        ref = reference_for(m, X, y)[2]
        np.testing.assert_array_equal(m.selection_order_, ref[1])
        assert m.n_kernel_evals_ == ref[3]


def test_multiclass_one_vs_one_on_iris():
    X, y = load_iris(return_X_y=True)
    m = GSSVM(gamma=0.5).fit(X, y)
    assert m.problems_ == [(0, 1), (0, 2), (1, 2)]
    assert len(m.selection_order_) == 3 and m.n_iter_.shape == (3,)
    total = 0
    for p, (neg, pos) in enumerate(m.problems_):
        rows = np.flatnonzero((y == neg) | (y == pos))
        assert set(m.selection_order_[p]) <= set(rows)
        yp = np.where(y[rows] == pos, 1.0, -1.0)
        K = numpy_kernel(X[rows], X[rows], "rbf", gamma=0.5)
        alpha, order, _, n_evals, _ = reference_gs_svm(K, yp, diag_is_free=True)
        np.testing.assert_array_equal(m.selection_order_[p], rows[order])
        np.testing.assert_allclose(m.dual_coef_[p], alpha * yp[order], rtol=1e-10)
        total += n_evals
    assert m.n_kernel_evals_ == total
    assert (m.predict(X) == y).mean() > 0.95


# -- the Cython entry point -----------------------------------------------------
def test_history_every_k_steps_and_the_last():
    X, y = random_problem(9, n=40)
    y_pm = np.where(y == "pos", 1.0, -1.0)
    calls = []
    alpha, sel, steps, n_evals, stopped = gs_svm(
        as_rows_input(X), y_pm, *kernel_params("rbf", 0.5), -1, lambda i, o: calls.append((i, o)), 3,
    )
    assert stopped and steps == len(alpha) == len(sel)
    expected = list(range(3, steps + 1, 3)) + ([] if steps % 3 == 0 else [steps])
    assert [i for i, _ in calls] == expected
    full = GSSVM(gamma=0.5, history_every=1).fit(X, y)
    np.testing.assert_allclose([o for _, o in calls], full.history_["objective"][np.array(expected) - 1],
                               rtol=1e-14)
    # no history callback is fine too
    assert gs_svm(as_rows_input(X), y_pm, *kernel_params("rbf", 0.5), -1, None)[2] == steps


def test_memory_is_linear_in_the_number_of_samples():
    # a full kernel matrix of 40000 rows would take 12.8 GB
    n = 40_000
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 3))
    y = (X[:, 0] > 0).astype(int)
    tracemalloc.start()
    try:
        m = GSSVM(gamma=0.5, max_steps=2).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert m.n_kernel_evals_ == (n - 1) + (n - 2)
    assert peak < 50 * n * 8, peak


def test_parameter_validation():
    X, y = random_problem(0, n=10)
    with pytest.raises(ValueError, match="max_steps"):
        GSSVM(max_steps=0).fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        GSSVM(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="gamma"):
        GSSVM(gamma=0.0).fit(X, y)
