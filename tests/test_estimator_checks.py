"""scikit-learn's estimator contract for every estimator of the registry
(``tests/estimators.py``), with each known failure declared there and explained."""
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators import ESTIMATORS, expected_failed_checks


# The checks fit on small random data, where a hard margin or a low tolerance is
# legitimately out of reach: the one ConvergenceWarning per fit is the solvers
# saying so (tested in test_base.py and test_correct_or_refused.py), not a failure
# of the contract checked here.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
