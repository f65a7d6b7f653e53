"""LDM (ldm.txt) against independent references.

* Algorithm 1 ends at the minimum of the dual (12): the same objective as a
  generic bounded solve (scipy's L-BFGS-B on repro.objectives.ldm_dual, whose
  H comes from an LU solve, not from the solver's eigendecomposition), for the
  kernel (Gram) form, the linear primal form and a singular Gram matrix.
* With lambda1 = lambda2 = 0 LDM is the bias-free soft-margin SVM: its decision
  values equal LIBLINEAR's (no -B) and those of the SVM dual solved by scipy.
* Eq. 15 averaged over all m^2 pairs is the gradient of Eq. 14 (Theorem 2),
  exactly, against central differences of repro.objectives.ldm_primal.
* ASGD approaches the CD solution's primal (within 1 % after 20 epochs on a
  small problem; never below it); dense and CSR fits agree.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from repro import objectives as O
from repro._kernels.ldm import eq15_gradient
from repro.kernels import kernel_matrix
from repro.solvers import LDM
from repro.solvers._validation import as_rows_input


def data(m=40, d=4, seed=0, flip=0.1, sep=1.0):
    X, y = make_classification(n_samples=m, n_features=d, n_informative=min(d, 3), n_redundant=0,
                               flip_y=flip, class_sep=sep, random_state=seed)
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    return X, np.where(y == 1, 1.0, -1.0)


def box_qp(G, y, C, lambda1, lambda2):
    """(12) by L-BFGS-B from the objectives module's H (an LU solve)."""
    H, _ = O.ldm_dual_matrix(G, y, lambda1)
    H = 0.5 * (H + H.T)
    m = len(y)
    q = lambda2 / m * H.sum(axis=1) - 1.0
    res = minimize(lambda b: (0.5 * b @ H @ b + q @ b, H @ b + q), np.zeros(m), jac=True,
                   method="L-BFGS-B", bounds=[(0.0, C)] * m,
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100000, "maxcor": 50})
    return res.x


CASES = {
    "rbf": dict(kernel="rbf", gamma=0.7),
    "linear-primal": dict(kernel="linear"),             # d < m: P = X, R = X S^-1
    "poly": dict(kernel="poly", gamma=0.5, coef0=1.0, degree=2),
    "linear-gram": dict(kernel="linear"),               # d > m: the Gram form, w = X'alpha
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("C, lambda1, lambda2", [(1.0, 2**-4, 2**-4), (10.0, 2**-2, 2**-8),
                                                 (0.5, 0.0, 2**-2)])
def test_cd_reaches_the_box_qp_minimum(case, C, lambda1, lambda2):
    X, y = data(d=60) if case == "linear-gram" else data()
    model = LDM(C=C, lambda1=lambda1, lambda2=lambda2, tol=1e-9, max_iter=100000,
                random_state=0, **CASES[case]).fit(X, y)
    assert model.converged_
    G = kernel_matrix(X, X, kernel=CASES[case]["kernel"],
                      **{k: v for k, v in CASES[case].items() if k != "kernel"})
    ours = O.ldm_dual(model.beta_, G, y, lambda1, lambda2)
    ref = O.ldm_dual(box_qp(G, y, C, lambda1, lambda2), G, y, lambda1, lambda2)
    assert ours <= ref + 1e-6 * abs(ref)
    assert abs(ours - ref) <= 1e-6 * abs(ref)
    # the model predicts with alpha = Q^-1 G Y (lambda2/m e + beta), as after Eq. 12
    alpha = O.ldm_alpha_from_beta(model.beta_, G, y, lambda1, lambda2)
    np.testing.assert_allclose(model.decision_function(X), G @ alpha, rtol=1e-8, atol=1e-8)


def test_singular_gram_matrix_gives_the_linear_model():
    """A linear Gram matrix of rank d < m (and a duplicated row) makes Q singular;
    the Gram form never inverts it and ends where the primal form does."""
    X, y = data(m=50, d=3)
    X = np.vstack([X, X[:5]])
    y = np.concatenate([y, y[:5]])
    G = X @ X.T
    assert np.linalg.matrix_rank(G) == 3
    kw = dict(C=2.0, lambda1=0.25, lambda2=0.125, tol=1e-10, max_iter=200000, random_state=0)
    gram = LDM(kernel="precomputed", **kw).fit(G, y)
    primal = LDM(kernel="linear", **kw).fit(X, y)
    np.testing.assert_allclose(gram.decision_function(G), primal.decision_function(X),
                               rtol=1e-7, atol=1e-7)
    f_gram, f_primal = (O.ldm_dual(m.beta_, G, y, 0.25, 0.125) for m in (gram, primal))
    assert abs(f_gram - f_primal) <= 1e-9 * abs(f_primal)


def test_without_lambdas_it_is_the_bias_free_svm():
    X, y = data(m=60, d=5, seed=3)
    C = 2.0
    ldm = LDM(C=C, lambda1=0.0, lambda2=0.0, tol=1e-10, max_iter=100000, random_state=0).fit(X, y)
    ref = LinearSVC(C=C, loss="hinge", dual=True, fit_intercept=False, tol=1e-9,
                    max_iter=10**6).fit(X, y)
    assert ref.n_iter_ < 10**6
    np.testing.assert_allclose(ldm.decision_function(X), ref.decision_function(X), atol=1e-6)

    K = kernel_matrix(X, X, kernel="rbf", gamma=1.0)
    rbf = LDM(C=C, lambda1=0.0, lambda2=0.0, kernel="rbf", gamma=1.0, tol=1e-10,
              max_iter=100000, random_state=0).fit(X, y)
    YKY = y[:, None] * K * y[None, :]
    res = minimize(lambda a: (O.kernel_dual(a, K, y), YKY @ a - 1.0), np.zeros(len(y)), jac=True,
                   method="L-BFGS-B", bounds=[(0.0, C)] * len(y),
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100000})
    np.testing.assert_allclose(rbf.decision_function(X), K @ (res.x * y), atol=1e-5)


def test_variance_double_sum_is_lambda1_times_m_squared():
    X, y = data(m=30)
    a = LDM(lambda1=2**-6, variance="double-sum", tol=1e-10, max_iter=10**5, random_state=0).fit(X, y)
    b = LDM(lambda1=2**-6 * 30**2, tol=1e-10, max_iter=10**5, random_state=0).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9)
    w = a.coef_[0]
    assert O.ldm_primal(w, X, y, 1.0, 2**-6, 2**-4, variance="double-sum") == pytest.approx(
        O.ldm_primal(w, X, y, 1.0, 2**-6 * 900, 2**-4))


def test_eq15_averages_to_the_gradient_over_all_pairs():
    """Theorem 2, exactly: the mean of Eq. 15 over all m^2 ordered pairs (i, j)
    (i and j independent and uniform) is the gradient of g (Eq. 14)."""
    X, y = data(m=25, d=4, seed=5)
    C, l1, l2 = 0.7, 0.3, 0.2
    w = np.random.default_rng(0).normal(size=4)
    assert np.min(np.abs(y * (X @ w) - 1.0)) > 1e-3  # g is differentiable at w
    rows = as_rows_input(X)
    mean = np.mean([eq15_gradient(rows, y, C, l1, l2, w, i, j)
                    for i in range(25) for j in range(25)], axis=0)
    h = 1e-6
    numeric = np.array([(O.ldm_primal(w + h * e, X, y, C, l1, l2)
                         - O.ldm_primal(w - h * e, X, y, C, l1, l2)) / (2 * h) for e in np.eye(4)])
    np.testing.assert_allclose(mean, numeric, rtol=1e-6, atol=1e-6 * np.abs(numeric).max())
    # and a single pair is not the gradient (the test could fail)
    assert not np.allclose(eq15_gradient(rows, y, C, l1, l2, w, 0, 1), numeric, rtol=1e-3)


@pytest.mark.parametrize("variant", ["paper", "code"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_asgd_reaches_the_cd_primal(seed, variant):
    # measured on this problem: 0.3-0.7 % after 20 epochs, 0.2 % after 100; on
    # the less separated data(m=400, d=5, flip=0.02) one seed of three left
    # 1.4 % after 20 epochs (SGD's O(1/sqrt(T)) tail, not a wrong gradient:
    # see the Theorem 2 test)
    X, y = data(m=400, d=5, seed=0, flip=0.02, sep=1.5)
    C = 1.0
    cd = LDM(C=C, solver="cd", tol=1e-8, max_iter=100000, random_state=0).fit(X, y)
    best = O.ldm_primal(cd.coef_[0], X, y, C, 2**-4, 2**-4)
    gaps = []
    for epochs in (20, 100):
        asgd = LDM(C=C, solver="asgd", n_epochs=epochs, random_state=seed,
                   asgd_variant=variant).fit(X, y)
        assert asgd.n_iter_ == epochs * 400
        gaps.append((O.ldm_primal(asgd.coef_[0], X, y, C, 2**-4, 2**-4) - best) / best)
    assert -1e-9 <= gaps[0] <= 0.01
    assert -1e-9 <= gaps[1] <= 0.005


@pytest.mark.parametrize("variant", ["paper", "code"])
def test_asgd_dense_and_csr_agree(variant):
    X, y = data(m=200, d=8, seed=2)
    X[X < 0.3] = 0.0  # genuinely sparse rows
    a = LDM(solver="asgd", asgd_variant=variant, random_state=7).fit(X, y)
    b = LDM(solver="asgd", asgd_variant=variant, random_state=7).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)
    assert a.eta0_ == b.eta0_


def test_cd_dense_and_csr_agree():
    X, y = data(m=80, d=6, seed=4)
    X[X < 0.3] = 0.0
    for kernel in ("linear", "rbf"):
        a = LDM(kernel=kernel, gamma=0.5, tol=1e-9, max_iter=10**5, random_state=0).fit(X, y)
        b = LDM(kernel=kernel, gamma=0.5, tol=1e-9, max_iter=10**5, random_state=0).fit(
            sp.csr_matrix(X), y)
        np.testing.assert_allclose(a.decision_function(X), b.decision_function(X),
                                   rtol=1e-8, atol=1e-9)


def test_dual_trace_never_increases_and_warm_start_ends_at_the_same_optimum():
    X, y = data(m=120, d=6, seed=1)
    kw = dict(kernel="rbf", gamma=1.0, lambda1=2**-3, tol=1e-8, max_iter=10**5, random_state=0)
    cold = LDM(C=50.0, history_every=1, **kw).fit(X, y)
    trace = cold.history_["objective"]
    assert len(trace) == cold.n_iter_
    assert np.all(np.diff(trace) <= 1e-9 * np.abs(trace).max())
    warm = LDM(C=10.0, warm_start=True, **kw).fit(X, y)
    warm.set_params(C=50.0).fit(X, y)
    assert warm.n_iter_ < cold.n_iter_
    np.testing.assert_allclose(warm.decision_function(X), cold.decision_function(X),
                               atol=1e-5)


def test_margins():
    X, y = data(m=50)
    labels = np.where(y > 0, "b", "a")
    model = LDM(kernel="rbf", gamma=1.0, random_state=0).fit(X, labels)
    np.testing.assert_allclose(model.margins_, y * model.decision_function(X), rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(model.margins(X[:10], labels[:10]), model.margins_[:10],
                               rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="not seen"):
        model.margins(X[:2], ["a", "c"])


def test_unconverged_fit_warns_and_says_so():
    X, y = data(m=100, seed=6)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        model = LDM(C=100.0, max_iter=2, tol=1e-8, random_state=0).fit(X, y)
    assert not model.converged_
    assert model.max_projected_gradient_[0] > 1e-8


def test_multiclass_one_vs_one():
    X, y = make_classification(n_samples=150, n_features=5, n_informative=4, n_redundant=0,
                               n_classes=3, n_clusters_per_class=1, class_sep=2.0, random_state=0)
    for solver in ("cd", "asgd"):
        model = LDM(C=10.0, solver=solver, random_state=0).fit(X, y)
        assert len(model.problems_) == 3 and model.coef_.shape == (3, 5)
        assert model.score(X, y) > 0.8


@pytest.mark.parametrize("params, match", [
    (dict(C=0.0), "C"), (dict(lambda1=-1.0), "lambda1"), (dict(lambda2=-0.5), "lambda2"),
    (dict(solver="sgd"), "solver"), (dict(n_epochs=0), "n_epochs"), (dict(tol=0.0), "tol"),
    (dict(solver="asgd", kernel="rbf"), "asgd"), (dict(asgd_variant="x"), "asgd_variant"),
    (dict(variance="x"), "variance"), (dict(kernel="sigmoid"), "kernel"),
])
def test_bad_parameters_raise_value_error(params, match):
    X, y = data(m=20)
    with pytest.raises(ValueError, match=match):
        LDM(**params).fit(X, y)


def test_non_finite_input_is_refused():
    X, y = data(m=20)
    X[3, 1] = np.nan
    with pytest.raises(ValueError):
        LDM().fit(X, y)
    X[3, 1] = 1e200
    with pytest.raises(ValueError, match="float64"):
        LDM().fit(X, y)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_shrinking_and_order_do_not_change_the_optimum(kernel):
    X, y = data(m=150, d=5, seed=8)
    G = kernel_matrix(X, X, kernel=kernel, **({"gamma": 0.8} if kernel == "rbf" else {}))
    duals = []
    for shrinking in (True, False):
        for order in ("random", "printed"):
            model = LDM(C=20.0, kernel=kernel, gamma=0.8, shrinking=shrinking, cd_order=order,
                        tol=1e-8, max_iter=10**6).fit(X, y)
            assert model.converged_
            duals.append(O.ldm_dual(model.beta_, G, y, 2**-4, 2**-4))
    assert np.ptp(duals) <= 1e-9 * abs(duals[0])


def test_the_factorisation_caches_hold_every_pair_of_a_one_vs_one_grid(monkeypatch):
    # one-vs-one visits each pair at every grid point: with the caches bounded
    # by bytes, a second pass over the grid computes no eigendecomposition
    from repro.solvers import ldm as ldm_module

    X, y = data(m=90, d=4, seed=2)
    y = np.repeat([0, 1, 2, 3, 4], 18)
    calls = []
    real = np.linalg.eigh
    monkeypatch.setattr(ldm_module.np.linalg, "eigh", lambda A: calls.append(1) or real(A))
    G = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    model = LDM(kernel="precomputed", lambda1=2**-3, random_state=0)
    for lambda2 in (2**-8, 2**-4):
        model.set_params(lambda2=lambda2).fit(G, y)
    assert len(calls) == 10  # one per pair (5 classes), on the first grid point only


def test_start_from_another_fit_is_the_warm_start_of_that_fit():
    X, y = data(m=80, d=5, seed=3)
    kw = dict(kernel="rbf", gamma=1.0, lambda1=2**-3, tol=1e-6, max_iter=10**5, random_state=0)
    first = LDM(C=10.0, **kw).fit(X, y)
    handed = LDM(C=50.0, **kw).start_from(first).fit(X, y)
    own = LDM(C=10.0, warm_start=True, **kw).fit(X, y)
    own.set_params(C=50.0).fit(X, y)
    assert handed.n_iter_ == own.n_iter_
    np.testing.assert_array_equal(handed.decision_function(X), own.decision_function(X))
    assert not LDM(**kw).start_from(LDM(**kw)).warm_start  # an unfitted estimator hands nothing


def _gram_problem(seed, lambda1=2**-4, m=60):
    from repro.solvers.ldm import kernel_operands

    X, y = data(m=m, d=4, seed=seed)
    G = kernel_matrix(X, X, kernel="rbf", gamma=0.7)
    P = as_rows_input(G, gram=True)
    R, h = kernel_operands(G, P, y, lambda1)
    return P, np.asarray(R), np.asarray(h), y


@pytest.mark.parametrize("shrinking", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [1e-3, 10.0])
def test_the_confirmation_is_the_rebuild_bitwise_with_or_without_moves(C, seed, shrinking):
    # ldm_cd skips the confirming rebuild when no coordinate moved since u was
    # rebuilt (the pass just computed the same gradients from the same u).
    # max_iter=0 runs no pass and returns the rebuild itself, which every
    # solve must equal bitwise: a cold start (passes with moves, then the
    # rebuild) and a restart from its optimum. At C = 1e-3 every coordinate
    # ends at C and the restart's one pass moves none (the skipped rebuild);
    # at C = 10 the restart's pass moves coordinates within tol (a rebuild).
    from repro._kernels.ldm import ldm_cd

    P, R, h, y = _gram_problem(seed)
    shift, tol = 2**-4 / len(y), 1e-6

    def solve(beta, max_iter):
        u, passes, converged, worst = ldm_cd(P, R, y, C, shift, beta, tol, max_iter, False, 0,
                                             shrinking, None)
        return np.asarray(u).tobytes(), passes, converged, worst

    beta = np.zeros(len(y))
    for restart in (False, True):
        start = beta.copy()
        run = solve(beta, 10**6)
        rebuilt = solve(beta.copy(), 0)
        assert run[2] and not rebuilt[2] and rebuilt[1] == 0
        assert run[0] == rebuilt[0] and run[3] == rebuilt[3] <= tol
        if restart:
            assert run[1] == 1
            moved = not np.array_equal(start, beta)
            assert moved == (C == 10.0)
    if C == 1e-3:
        assert np.all(beta == C)


def test_handing_h_over_changes_nothing_bitwise():
    from repro._kernels.ldm import ldm_cd, update_diagonal

    P, R, h, y = _gram_problem(3)
    np.testing.assert_array_equal(h, update_diagonal(P, R))
    runs = []
    for given in (None, h):
        beta = np.zeros(len(y))
        u, passes, converged, worst = ldm_cd(P, R, y, 5.0, 0.01, beta, 1e-8, 10**6, True, 7, True,
                                             None, given)
        runs.append((np.asarray(u).tobytes(), beta.tobytes(), passes, converged, worst))
    assert runs[0] == runs[1]
    with pytest.raises(ValueError, match="h_given has 3 values"):
        ldm_cd(P, R, y, 5.0, 0.01, np.zeros(len(y)), 1e-8, 10, False, 0, False, None, h[:3])


def test_max_projected_gradient_is_numpys_three_way_where():
    from repro._kernels.ldm import max_projected_gradient

    def numpy_rule(g, beta, C):
        pg = np.where(beta <= 0.0, np.minimum(g, 0.0), np.where(beta >= C, np.maximum(g, 0.0), g))
        return float(np.max(np.abs(pg), initial=0.0))

    rng = np.random.default_rng(1)
    for _ in range(500):
        m, C = int(rng.integers(0, 30)), float(rng.choice([1.0, 10.0]))
        g = rng.normal(size=m) * rng.choice([1e-8, 1.0, 1e8])
        beta = rng.choice([0.0, -0.0, 0.5, C], size=m)
        if m and rng.random() < 0.1:
            g[rng.integers(m)] = np.nan
        ours, numpy = max_projected_gradient(g, beta, C), numpy_rule(g, beta, C)
        assert ours == numpy or (np.isnan(ours) and np.isnan(numpy))
