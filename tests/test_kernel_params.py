"""Issue 22, item 5: every kernel parameter is finite, and no kernel solver
fits on kernel values beyond float64 (it refuses them up front, naming the row).

Before the fix ``LSVM(kernel='poly', gamma=1).fit(X * 1e80, y)`` reported
converged_=True with no support vectors and decision 0 everywhere (its kernel
matrix was +-inf), and ``GSSVM(kernel='poly', coef0=nan)`` converged after 0
steps."""
import numpy as np
import pytest

from repro.kernels import kernel_matrix
from repro.solvers import GSSVM, LSVM, NESVM, SMO, HardMarginSVM
from repro.solvers.base import KERNEL_CONSTRAINTS, check_kernel_parameters, check_kernel_range

KERNEL_ESTIMATORS = [LSVM, GSSVM, SMO, HardMarginSVM]


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    y = np.where(rng.normal(size=30) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("cls", KERNEL_ESTIMATORS)
@pytest.mark.parametrize("name, value", [("coef0", np.nan), ("coef0", np.inf), ("coef0", -np.inf),
                                         ("gamma", np.nan), ("gamma", np.inf)])
def test_non_finite_kernel_parameter_refused(cls, name, value, data):
    X, y = data
    with pytest.raises(ValueError, match=name):
        cls(kernel="poly", **{"gamma": 1.0, name: value}).fit(X, y)


def test_nesvm_gamma_must_be_finite(data):
    X, y = data
    for value in (np.nan, np.inf):
        with pytest.raises(ValueError, match="gamma"):
            NESVM(kernel="rbf", gamma=value).fit(X, y)


def test_constraints_exclude_nan_and_inf():
    coef0 = KERNEL_CONSTRAINTS["coef0"][0]
    assert all(v not in coef0 for v in (np.nan, np.inf, -np.inf))
    assert 0.0 in coef0 and -1e300 in coef0


def test_check_kernel_parameters_whatever_the_constraints():
    """The check at fit does not rely on the declared constraints."""
    class Loose:
        gamma, coef0, degree = 1.0, float("nan"), 3
    with pytest.raises(ValueError, match="coef0"):
        check_kernel_parameters(Loose())
    Loose.coef0, Loose.gamma = 0.0, -1.0
    with pytest.raises(ValueError, match="gamma"):
        check_kernel_parameters(Loose())
    Loose.gamma = "scale"
    check_kernel_parameters(Loose())  # strings are the constraints' business


@pytest.mark.parametrize("cls", KERNEL_ESTIMATORS)
@pytest.mark.parametrize("scale, coef0", [(1e80, 0.0), (1.0, 1e200)])
def test_overflowing_poly_kernel_refused_naming_the_row(cls, scale, coef0, data):
    """The reproducers: a constant model was reported as converged."""
    X, y = data
    row = int(np.argmax((X * X).sum(axis=1)))
    with pytest.raises(ValueError, match=rf"row {row} of X gives a poly kernel value beyond float64"):
        cls(kernel="poly", gamma=1.0, coef0=coef0).fit(X * scale, y)


@pytest.mark.parametrize("cls", [GSSVM, SMO, HardMarginSVM])
def test_large_but_finite_poly_kernel_still_fits(cls, data):
    """The bound is the largest row's own K(x, x): below the limit, no refusal."""
    X, y = data
    with np.errstate(all="ignore"):
        est = cls(kernel="poly", gamma=1.0, degree=3).fit(X * 1e10, y)
    assert np.all(np.isfinite(est.decision_function(X * 1e10)))


def test_lsvm_names_a_matrix_that_rounding_made_indefinite(data):
    """Finite kernel values 1e62 against 1/nu = 1: Q's Cholesky factorisation
    fails in float64; a ValueError naming Q, not LAPACK's LinAlgError."""
    X, y = data
    with pytest.raises(ValueError, match=r"Q = I/nu \+ D\(K \+ ee'\)D is not positive definite"):
        LSVM(kernel="poly", gamma=1.0, degree=3).fit(X * 1e10, y)


def test_check_kernel_range_bound():
    sq = np.array([1.0, 4.0, 2.0])
    check_kernel_range("poly", 1.0, 0.0, 3, sq)  # (4)^3 fine
    check_kernel_range("rbf", 1e300, 0.0, 3, sq * 1e300)  # rbf never overflows
    with pytest.raises(ValueError, match="row 1 of X"):
        check_kernel_range("poly", 1e300, 0.0, 3, sq)
    with pytest.raises(ValueError, match="row 2 of X"):
        check_kernel_range("linear", 1.0, 0.0, 1, np.array([0.0, 1.0, np.inf]))
    # K(X, Y): ||x|| ||z|| <= sqrt(max ||x||^2 max ||z||^2)
    check_kernel_range("poly", 1.0, 0.0, 3, np.array([1e150]), other_sqnorm=np.array([1e-150]))
    with pytest.raises(ValueError):
        check_kernel_range("poly", 1.0, 0.0, 3, np.array([1e150]), other_sqnorm=np.array([1e150]))


def test_public_kernel_matrix_refuses_overflow(data):
    X, _ = data
    with pytest.raises(ValueError, match="beyond float64"):
        kernel_matrix(X * 1e80, kernel="poly", gamma=1.0)
    with pytest.raises(ValueError, match="beyond float64"):
        kernel_matrix(X, X * 1e160, kernel="poly", gamma=1.0)
    assert np.all(np.isfinite(kernel_matrix(X * 1e10, kernel="poly", gamma=1.0)))
