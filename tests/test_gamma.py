"""gamma='scale' and 'auto' in the kernel solvers, with scikit-learn SVC's conventions."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC
from sklearn.utils._param_validation import InvalidParameterError

from repro.solvers import GSSVM, SMO, HardMarginSVM

SOLVERS = [SMO, HardMarginSVM, GSSVM]
FORMATS = {"dense": np.asarray, "csr": sp.csr_matrix}

rng = np.random.default_rng(0)
# Three classes whose spreads differ (x1, x3, x10), and about half the entries
# exactly zero (CSR stores only the others): the variance of a one-vs-one
# problem's rows differs from that of the whole set, so a solver that
# resolved 'scale' per problem would train other models than the one checked
# against the numeric gamma below.
_blocks = [rng.normal(size=(20, 6)) * s + c for s, c in [(1.0, 0.0), (3.0, 2.0), (10.0, -1.0)]]
X3 = np.vstack(_blocks) * (rng.random((60, 6)) < 0.5)
y3 = np.repeat([0, 1, 2], 20)
X_TEST = rng.normal(size=(15, 6)) * 5.0  # another variance than the training data


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("gamma", ["scale", "auto"])
@pytest.mark.parametrize("Est", SOLVERS)
def test_gamma_equals_svcs(Est, gamma, fmt):
    X = FORMATS[fmt](X3)
    expected = SVC(gamma=gamma).fit(X, y3)._gamma
    assert Est(gamma=gamma).fit(X, y3)._gamma == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_constant_data_gives_gamma_one_as_svc(fmt):
    X = FORMATS[fmt](np.full((10, 3), 2.0))
    y = np.arange(10) % 2
    assert SVC(gamma="scale").fit(X, y)._gamma == 1.0
    assert SMO(gamma="scale").fit(X, y)._gamma == 1.0


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("gamma", ["scale", "auto"])
@pytest.mark.parametrize("Est", SOLVERS)
def test_string_gamma_is_the_model_of_its_number(Est, gamma, fmt):
    """The model with gamma='scale' is the model with the number it resolves
    to, in every one-vs-one problem (they use the whole set's gamma) and at
    prediction on data of another variance (prediction uses ``_gamma``, not
    a gamma recomputed on the data predicted)."""
    X, Xt = FORMATS[fmt](X3), FORMATS[fmt](X_TEST)
    named = Est(gamma=gamma).fit(X, y3)
    numeric = Est(gamma=named._gamma).fit(X, y3)
    assert named.gamma == gamma  # the parameter is left as given
    for a, b in zip(named.dual_coef_, numeric.dual_coef_):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(named.support_, numeric.support_):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(named.intercept_, numeric.intercept_)
    np.testing.assert_array_equal(named.decision_function(Xt), numeric.decision_function(Xt))


def test_one_vs_one_uses_the_gamma_of_the_whole_set():
    """Guards the data above: the first pair's own 'scale' differs from the
    whole set's, and the model trained with it differs too."""
    pair = y3 < 2
    whole = SMO(gamma="scale").fit(X3, y3)
    own = SVC(gamma="scale").fit(X3[pair], y3[pair])._gamma
    assert own != pytest.approx(whole._gamma, rel=0.1)
    per_pair = SMO(gamma=own).fit(X3[pair], y3[pair])
    assert not np.array_equal(per_pair.dual_coef_, whole.dual_coef_[0])


@pytest.mark.parametrize("gamma", ["scale", "auto"])
def test_linear_and_precomputed_ignore_gamma(gamma):
    X, y = X3[:40], y3[:40]
    lin = SMO(kernel="linear", gamma=gamma).fit(X, y)
    np.testing.assert_array_equal(lin.dual_coef_, SMO(kernel="linear", gamma=0.05).fit(X, y).dual_coef_)
    K = X @ X.T
    pre = GSSVM(kernel="precomputed", gamma=gamma).fit(K, y)
    assert pre._gamma == 0.0  # as SVC: a Gram matrix's variance means nothing
    np.testing.assert_array_equal(pre.dual_coef_, GSSVM(kernel="precomputed").fit(K, y).dual_coef_)


@pytest.mark.parametrize("Est", SOLVERS)
def test_other_strings_and_non_positive_gammas_refused(Est):
    for bad in ["Scale", "sqrt", 0.0, -1.0]:
        with pytest.raises(InvalidParameterError, match="gamma"):
            Est(gamma=bad).fit(X3, y3)


def test_scale_on_data_whose_variance_overflows_is_refused():
    X = np.vstack([np.full((5, 2), 1e200), np.full((5, 2), -1e200)])
    y = np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match="variance of X is beyond float64"):
        SMO(gamma="scale").fit(X, y)
