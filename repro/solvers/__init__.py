"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM, Pegasos
"""
from .gssvm import GSSVM
from .linear import LinearSVM
from .lsvm import LSVM
from .pegasos import Pegasos
from .smo import SMO, HardMarginSVM

__all__ = ["GSSVM", "HardMarginSVM", "LSVM", "LinearSVM", "Pegasos", "SMO"]
