"""Issue 22, the probe run after its eleven fixes: extreme parameters give a
clear ValueError naming the parameter, or a model that is right or says it is
not. Each test keeps one of that probe's reproducers (what it did before the
fix is in the test's docstring)."""
import inspect
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

import repro.solvers
from repro.solvers import LDM, LSVM, NESVM, SMO, SVM, GSSVM, HardMarginSVM, LinearSVM, Pegasos


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 4))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1, -1)
    return X, y


def _poly_estimators():
    """Every exported estimator that takes kernel='poly'."""
    out = []
    for name in repro.solvers.ESTIMATORS:
        cls = getattr(repro.solvers, name)
        if "coef0" in inspect.signature(cls).parameters:
            try:
                cls(kernel="poly")._validate_params()
            except ValueError:
                continue  # NESVM: linear and rbf only
            out.append(cls)
    return out


@pytest.mark.parametrize("cls", _poly_estimators(), ids=lambda c: c.__name__)
def test_a_polynomial_kernel_with_negative_coef0_is_refused(cls, data):
    """Before: GSSVM converged to a decision of 0 on most rows, BiasFreeSVM
    to one class, and SVM (LIBSVM) with coef0=-1e6 ran without end: the
    kernel is not positive semi-definite, the problem not convex."""
    X, y = data
    with pytest.raises(ValueError, match=r"coef0.*>= 0 with kernel='poly'"):
        cls(kernel="poly", gamma=1.0, coef0=-1.0).fit(X, y)
    cls(kernel="poly", gamma=1.0, coef0=0.0).fit(X, y)  # coef0 = 0 is a PSD kernel
    cls(kernel="rbf", coef0=-1.0).fit(X, y)  # coef0 is read by the polynomial kernel only


def test_svm_kernel_path_honours_max_iter(data):
    """Before: SVC was built without max_iter, so SVM(kernel='rbf', max_iter=1)
    ran LIBSVM to the end and any LIBSVM run had no cap."""
    X, y = data
    with pytest.warns(ConvergenceWarning, match=r"max_iter=1 passes \(40 LIBSVM steps\)"):
        short = SVM(kernel="rbf", max_iter=1).fit(X, y)
    assert short.converged_ is False and short.n_iter_ == 40
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        full = SVM(kernel="rbf").fit(X, y)
    assert full.converged_ and full.n_iter_ < 40 * 1000


def test_linear_svm_refuses_an_intercept_scaling_beyond_float64(data):
    """Before: intercept_scaling=1e300 made every dual diagonal infinite, no
    step was taken, and the zero model was reported converged."""
    X, y = data
    with pytest.raises(ValueError, match="intercept_scaling"):
        LinearSVM(intercept_scaling=1e300).fit(X, y)
    with pytest.warns(ConvergenceWarning):  # finite but huge: said unconverged, not hidden
        assert not LinearSVM(intercept_scaling=1e100).fit(X, y).converged_


@pytest.mark.parametrize("cls, kernel", [(SMO, "rbf"), (HardMarginSVM, "rbf"), (SVM, "rbf"),
                                         (SVM, "linear")])
@pytest.mark.parametrize("tol", [1.0, 1e300])
def test_an_smo_type_tol_of_one_or_more_is_refused(cls, kernel, tol, data):
    """Before: tol=1e300 reported the zero model converged after 0 steps (the
    zero start has b_low - b_up = 2 in Keerthi's stop, m - M = 2 in LIBSVM's;
    SVM's LIBSVM path was found by the second probe round)."""
    X, y = data
    with pytest.raises(ValueError, match="tol"):
        cls(kernel=kernel, tol=tol).fit(X, y)


def test_smo_at_its_largest_tol_still_steps(data):
    X, y = data
    model = SMO(tol=0.99).fit(X, y)
    assert model.n_iter_ > 0 and model.converged_


def test_pegasos_claims_no_convergence_and_refuses_an_overflowing_lambda(data):
    """Before: Pegasos said converged_ True (ASGD False), and lambda_=1e-300
    gave the zero model, converged."""
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fixed-iteration method warns about nothing
        model = Pegasos(lambda_=0.1, n_iter=500, random_state=0, history_every=None).fit(X, y)
    assert model.converged_ is False and model.n_unconverged_problems_ == 1
    with pytest.raises(ValueError, match="lambda_"):
        Pegasos(lambda_=1e-300, n_iter=10).fit(X, y)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_ldm_names_lambda1_when_its_scale_overflows(kernel, data):
    """Before: a raw 'array must not contain infs or NaNs' from the Cholesky
    factorisation (linear) or a non-finite dual (rbf)."""
    X, y = data
    with pytest.raises(ValueError, match="lambda1"):
        LDM(kernel=kernel, lambda1=1e300).fit(X * 1e8, y)


def test_ldm_says_rounding_when_a_psd_kernel_is_too_large(data):
    """Before: 'LDM needs a positive semi-definite kernel matrix' for a
    polynomial kernel (PSD) whose values reach 1e51."""
    X, y = data
    with pytest.raises(ValueError, match="rounding.*scale the features"):
        LDM(kernel="poly", gamma=1.0).fit(X * 1e8, y)


@pytest.mark.parametrize("cls, name", [(NESVM, "C"), (LSVM, "nu")])
def test_an_overflowing_weight_is_refused_up_front(cls, name, data):
    """Before: NESVM(C=1e300) and LSVM(nu=1e300) overflowed in every product
    and returned unconverged garbage after many steps."""
    X, y = data
    with pytest.raises(ValueError, match=f"{name}=1e\\+300 is too extreme"):
        cls(**{name: 1e300}).fit(X, y)
    assert cls(**{name: 1e3}).fit(X, y).score(X, y) > 0.8  # large but representable: fits


def test_gssvm_step_cap_is_capacity_control_not_a_failure(data):
    """GS-SVM's max_steps is the paper's capacity control: a fit stopped by it
    says converged_ False without a warning (documented, kept on purpose)."""
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = GSSVM(max_steps=1).fit(X, y)
    assert model.converged_ is False

