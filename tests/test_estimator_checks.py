"""scikit-learn's estimator contract for every estimator of the registry
(``tests/estimators.py``), with each known failure declared there and explained."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimators import ESTIMATORS, expected_failed_checks


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
