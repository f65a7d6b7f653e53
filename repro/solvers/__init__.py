"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM
"""
from .gssvm import GSSVM
from .linear import LinearSVM
from .lsvm import LSVM
from .smo import SMO, HardMarginSVM

__all__ = ["GSSVM", "HardMarginSVM", "LSVM", "LinearSVM", "SMO"]
