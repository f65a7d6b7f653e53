"""PrecomputedGram: a training Gram matrix checked and cut once for many fits
(issue 25: GS-SVM Table 2 fits one K at every C of its grid).

* A fit on the wrapper is the fit on the ndarray, bitwise: multipliers,
  intercepts, steps, kernel-evaluation counts, predictions; binary and
  multiclass, both SMO working sets, warm starts on and off, and every other
  estimator that takes kernel='precomputed'.
* Bad input is refused with the ndarray's ValueErrors, and a wrapper is
  refused by an estimator whose kernel is not 'precomputed'.
* What makes the reuse safe: the wrapper's matrix and its cached sub-Grams
  are read-only, a change of the caller's array after wrapping changes no fit,
  and the cache keeps to its byte budget.
"""
import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification

from repro._kernels.kernels import kernel_matrix
from repro.papers.gs_svm import jobs as GS
from repro.solvers import (GSSVM, KMOMD, LDM, MAMC, SMO, SVM, BiasFreeSVM, HardMarginSVM, LinearSVM,
                           PrecomputedGram)
from repro.solvers._validation import as_rows_input, kernel_params


def gram(A, B, gamma):
    K, _ = kernel_matrix(as_rows_input(A), as_rows_input(B), *kernel_params("rbf", gamma))
    return K


def data(kind):
    if kind == "binary":
        X, y = make_classification(n_samples=120, n_features=5, flip_y=0.1, random_state=1)
    else:  # 3 classes: three one-vs-one problems, each on a sub-Gram
        X, y = load_iris(return_X_y=True)
    return gram(X, X, 0.5), gram(X[::3], X, 0.5), y


def fitted(model):
    """Every fitted number a solver's model is made of, as plain arrays."""
    out = {"intercept": model.intercept_, "n_iter": np.atleast_1d(model.n_iter_),
           "n_kernel_evals": np.atleast_1d(model.n_kernel_evals_),
           "converged": np.atleast_1d(model.converged_)}
    for name in ("dual_coef_", "support_", "selection_order_"):
        if hasattr(model, name):
            value = getattr(model, name)
            for p, part in enumerate(value if isinstance(value, list) else [value]):
                out[f"{name}{p}"] = np.asarray(part)
    for name in ("dual_objective_", "optimality_gap_"):
        if hasattr(model, name):
            out[name] = getattr(model, name)
    if hasattr(model, "fit_stats_"):
        for p, stats in enumerate(model.fit_stats_):
            out.update({f"{k}{p}": np.asarray(v) for k, v in stats.items()})
    return out


def assert_same_model(a, b, K_test):
    fa, fb = fitted(a), fitted(b)
    assert fa.keys() == fb.keys()
    for key in fa:
        assert np.array_equal(fa[key], fb[key]), key  # bitwise (no tolerance)
    assert np.array_equal(a.decision_function(K_test), b.decision_function(K_test))
    assert np.array_equal(a.predict(K_test), b.predict(K_test))


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
@pytest.mark.parametrize("working_set", ["keerthi", "second_order"])
@pytest.mark.parametrize("warm_start", [False, True])
def test_smo_on_the_wrapper_is_smo_on_the_array_along_a_c_path(kind, working_set, warm_start):
    K, K_test, y = data(kind)
    wrapped = PrecomputedGram(K)
    kw = dict(kernel="precomputed", working_set=working_set, warm_start=warm_start)
    # fast and count mode of the Keerthi path; the second path ignores kernel_cache
    for cache in (True, False):
        on_array = SMO(kernel_cache=cache, **kw)
        on_gram = SMO(kernel_cache=cache, **kw)
        for C in (0.5, 4.0, 64.0):
            on_array.set_params(C=C).fit(K, y)
            on_gram.set_params(C=C).fit(wrapped, y)
            assert_same_model(on_array, on_gram, K_test)
    if kind == "multiclass":
        assert len(wrapped._cache) == 3  # each pair cut once, reused at every later fit


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
@pytest.mark.parametrize("make", [
    lambda: HardMarginSVM(kernel="precomputed", working_set="keerthi"),
    lambda: HardMarginSVM(kernel="precomputed", working_set="second_order"),
    lambda: GSSVM(kernel="precomputed", max_steps=20),
    lambda: SMO(kernel="precomputed", working_set="keerthi", random_state=0, modification=1),
], ids=["hm-keerthi", "hm-second-order", "gs-svm", "smo-mod1-shuffled"])
def test_the_other_smo_type_estimators_fit_the_wrapper_as_the_array(kind, make):
    K, K_test, y = data(kind)
    wrapped = PrecomputedGram(K)
    for _ in range(2):  # the second fit reads the cached sub-Grams
        assert_same_model(make().fit(K, y), make().fit(wrapped, y), K_test)


@pytest.mark.parametrize("make", [
    lambda: LDM(kernel="precomputed"), lambda: BiasFreeSVM(kernel="precomputed"),
    lambda: SVM(kernel="precomputed"), lambda: KMOMD(kernel="precomputed"),
    lambda: MAMC(kernel="precomputed"),
], ids=["LDM", "BiasFreeSVM", "SVM", "KMOMD", "MAMC"])
def test_every_estimator_that_takes_a_gram_matrix_takes_the_wrapper(make):
    # the base's fit is the one place a Gram matrix enters; these estimators
    # read the read-only sub-Grams without writing to them
    K, K_test, y = data("multiclass")
    a, b = make().fit(K, y), make().fit(PrecomputedGram(K), y)
    assert np.array_equal(a.decision_function(K_test), b.decision_function(K_test))
    assert np.array_equal(a.dual_coef_[0], b.dual_coef_[0])


def test_bad_matrices_are_refused_when_wrapped_as_when_fitted():
    K, _, y = data("binary")
    bad = K.copy()
    bad[2, 5] += 0.1
    nan = K.copy()
    nan[3, 3] = np.nan
    cases = [(bad, r"symmetric Gram matrix.*K\[2, 5\] - K\[5, 2\] = 0.1"),
             (nan, "contains NaN"), (K[:, :100], "square Gram matrix"),
             (K[0], "Expected 2D array")]
    for matrix, message in cases:
        with pytest.raises(ValueError, match=message):
            SMO(kernel="precomputed").fit(matrix, y[:len(matrix)] if matrix.ndim == 2 else y)
        with pytest.raises(ValueError, match=message):
            PrecomputedGram(matrix)


def test_a_wrapper_is_refused_by_an_estimator_that_computes_its_kernel():
    K, _, y = data("binary")
    for model in (SMO(), SMO(kernel="linear"), GSSVM(), HardMarginSVM(kernel="poly"), LinearSVM()):
        with pytest.raises(ValueError, match="PrecomputedGram is a Gram matrix, for "
                                             "kernel='precomputed'"):
            model.fit(PrecomputedGram(K), y)


def test_labels_are_checked_at_every_fit():
    K, _, y = data("binary")
    wrapped = PrecomputedGram(K)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        SMO(kernel="precomputed").fit(wrapped, y[:-1])
    with pytest.raises(ValueError, match="at least 2 classes"):
        SMO(kernel="precomputed").fit(wrapped, np.zeros(len(y)))
    model = SMO(kernel="precomputed").fit(wrapped, y)
    assert model.n_features_in_ == len(y)
    with pytest.raises(ValueError, match="features"):  # K(X_test, X_train) of another width
        model.predict(K[:, :10])


def test_the_wrapper_owns_a_read_only_copy_that_no_later_change_reaches():
    K, K_test, y = data("multiclass")
    wrapped = PrecomputedGram(K)
    before = SMO(kernel="precomputed").fit(wrapped, y)
    K *= 0.5  # the caller changes its array in place: the wrapper holds its own copy
    after = SMO(kernel="precomputed").fit(wrapped, y)
    assert_same_model(before, after, K_test)
    assert not wrapped.matrix.flags.writeable
    with pytest.raises(ValueError):
        wrapped.matrix.flags.writeable = True  # a view of a read-only array stays read-only
    rows = np.flatnonzero(y != 2)
    sub = wrapped.sub_gram(rows)
    assert not sub.flags.writeable
    assert sub is wrapped.sub_gram(rows.copy())  # keyed on the rows, not on the array
    assert np.array_equal(sub, (2 * K)[np.ix_(rows, rows)])


def test_copy_false_takes_the_array_itself_read_only_and_copies_a_view():
    K, _, _ = data("binary")
    wrapped = PrecomputedGram(K, copy=False)
    assert not K.flags.writeable  # the caller's name for it is read-only too
    with pytest.raises(ValueError):
        K[0, 0] = 2.0
    base = np.zeros((2 * len(K), len(K)))
    base[::2] = data("binary")[0]
    view = base[::2]  # not C-contiguous: copied, the base stays writeable
    assert PrecomputedGram(view, copy=False).matrix.base is not base
    assert base.flags.writeable
    assert wrapped.shape == K.shape


def test_the_cache_keeps_to_its_byte_budget():
    K, K_test, y = data("multiclass")
    sizes = [8 * np.sum(np.isin(y, pair)) ** 2 for pair in ((0, 1), (0, 2), (1, 2))]
    wrapped = PrecomputedGram(K, max_cache_bytes=sizes[0])  # room for the first pair only
    a = SMO(kernel="precomputed").fit(wrapped, y)
    assert len(wrapped._cache) == 1 and wrapped.cache_bytes == sizes[0]
    none = PrecomputedGram(K, max_cache_bytes=0)
    b = SMO(kernel="precomputed").fit(none, y)
    assert len(none._cache) == 0 and none.cache_bytes == 0
    assert_same_model(a, b, K_test)  # a cut not kept is cut again: the same values


def test_score_grid_records_do_not_change_with_the_wrapper(monkeypatch):
    # Table 2's hook fits the wrapper; on the ndarray it selects the same
    # accuracies (its records: what the committed tables were made of)
    X, y = load_iris(return_X_y=True)
    fit, val = np.arange(0, 150, 2), np.arange(1, 150, 2)
    grid = [{"gamma": g, "C": c} for c in (0.5, 8.0, 128.0) for g in (0.25, 4.0)]
    hook = GS.ScoreGrid("SVMs")
    wrapped = hook(X[fit], y[fit], X[val], y[val], grid)
    monkeypatch.setattr(GS, "PrecomputedGram", lambda K, copy=True: K)
    plain = GS.ScoreGrid("SVMs")(X[fit], y[fit], X[val], y[val], grid)
    assert np.array_equal(wrapped, plain)


def test_content_digest_is_kept_only_for_the_wrappers_own_matrices(monkeypatch):
    """LDM keys its cached factorisations by repro.solvers._gram.content_digest:
    a PrecomputedGram's read-only matrices are hashed once (at construction,
    where the positive semi-definiteness check's memo needs the digest); any
    other array at every call, so an edit in place gives a new key; a frozen
    array's entry goes when the array does."""
    from repro.solvers import _gram

    rng = np.random.default_rng(0)
    A = rng.normal(size=(30, 4))
    K = A @ A.T
    calls = []
    blake = _gram._blake
    monkeypatch.setattr(_gram, "_blake", lambda X: calls.append(1) or blake(X))
    gram = PrecomputedGram(K)
    inner = gram._K  # what fit hands a binary problem's solver
    assert _gram.is_frozen(inner) and not _gram.is_frozen(K)
    d1, d2 = _gram.content_digest(inner), _gram.content_digest(inner)
    assert d1 == d2 == blake(K)
    assert len(calls) == 1  # the wrapper's matrix: hashed once, when it was wrapped
    before = _gram.content_digest(K)
    K[0, 0] += 1.0
    assert _gram.content_digest(K) != before  # a caller's array: hashed at every call
    key = id(inner)
    del gram, inner
    import gc

    gc.collect()
    assert key not in _gram._FROZEN or _gram._FROZEN[key][0]() is not None


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 130])
def test_the_one_pass_gram_primitives_agree_with_numpy(n):
    """gram_submatrix is K[rows][:, rows] and gram_asymmetry is max |K|, max
    |K - K'| and a pair where it is reached, on sizes around the 64-row tile."""
    from repro._kernels.kernels import gram_asymmetry, gram_submatrix

    rng = np.random.default_rng(n)
    A = rng.normal(size=(n, n))
    K = A + A.T
    scratch = np.full(n * n + 3, np.nan)  # one buffer for every cut, as the one-vs-one loop
    for rows in (np.arange(n), np.flatnonzero(rng.random(n) < 0.5), np.array([n - 1, 0])):
        assert np.array_equal(gram_submatrix(K, rows), K[np.ix_(rows, rows)])
        sub = gram_submatrix(K, rows, out=scratch)
        assert sub.flags.c_contiguous and (len(rows) == 0 or np.shares_memory(sub, scratch))
        assert np.array_equal(sub, K[np.ix_(rows, rows)])
    with pytest.raises(IndexError, match=f"row index {n} out of range"):
        gram_submatrix(K, np.array([0, n]))
    with pytest.raises(ValueError, match=f"at least {n * n} values"):
        gram_submatrix(K, np.arange(n), out=np.empty(n * n - 1))
    assert gram_asymmetry(K) == (np.abs(K).max(), 0.0, 0, 0)
    if n > 1:
        K[n - 1, 0] += 0.5  # the largest asymmetry, below the diagonal
        if n > 2:
            K[0, 1] -= 0.25  # a smaller one elsewhere
        scale, asym, i, j = gram_asymmetry(K)
        assert (scale, asym, i, j) == (np.abs(K).max(), np.abs(K - K.T).max(), 0, n - 1)


def test_labels_checked_once_per_content_and_rows_checked_at_every_prediction():
    """validate_fit keeps the labels it checked (a grid fits one y at every
    point): equal labels are not checked again, changed ones are, in place or
    not; prediction on a plain float64 array skips validate_data's probes but
    keeps its checks (finite unless assume_finite, width, a fitted model)."""
    from sklearn import config_context

    K, K_test, y = data("binary")
    wrapped = PrecomputedGram(K)
    y = y.astype(float)
    first = SMO(kernel="precomputed").fit(wrapped, y)
    again = SMO(kernel="precomputed").fit(wrapped, y.copy())
    assert_same_model(first, again, K_test)
    assert wrapped._y is not y and not wrapped._y.flags.writeable
    y[0] = 0.5  # in place: a continuous target now, refused as an ndarray fit refuses it
    with pytest.raises(ValueError, match="Unknown label type"):
        SMO(kernel="precomputed").fit(wrapped, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        SMO(kernel="precomputed").fit(K, y)
    bad = K_test.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        first.predict(bad)
    with config_context(assume_finite=True):  # as validate_data: the finite check is skipped
        first.decision_function(np.ascontiguousarray(K_test))
    with pytest.raises(ValueError, match="features"):
        first.predict(np.ascontiguousarray(K_test[:, :-1]))
    for other in (np.asfortranarray(K_test), K_test.tolist()):  # through validate_data, same values
        np.testing.assert_array_equal(first.decision_function(other), first.decision_function(K_test))
