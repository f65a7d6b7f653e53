"""scikit-learn's estimator contract for LinearSVM (GSSVM, SMO and HardMarginSVM are
checked in their own test files, beside their declared known failures).

Known failures are declared per check with the reason (none so far)."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from repro.solvers import LinearSVM

ESTIMATORS = [LinearSVM(max_iter=5000)]

# check name -> reason, per estimator class; an entry documents why the
# check cannot pass for that solver (never a blanket skip).
EXPECTED_FAILED_CHECKS = {}


def _expected_failed_checks(estimator):
    return EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
