"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM, NESVM, Pegasos
"""
from .gssvm import GSSVM
from .linear import LinearSVM
from .lsvm import LSVM
from .nesvm import NESVM
from .pegasos import Pegasos
from .smo import SMO, HardMarginSVM

__all__ = ["GSSVM", "HardMarginSVM", "LSVM", "LinearSVM", "NESVM", "Pegasos", "SMO"]
