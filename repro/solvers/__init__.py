"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM, NESVM, Pegasos, LDM
"""
from .gssvm import GSSVM
from .ldm import LDM
from .ldm_baselines import ASGDSVM, KMOMD, MAMC, MDO, SVM, BiasFreeSVM
from .linear import LinearSVM
from .lsvm import LSVM
from .nesvm import NESVM
from .pegasos import Pegasos
from .smo import SMO, HardMarginSVM

__all__ = ["ASGDSVM", "BiasFreeSVM", "GSSVM", "KMOMD", "LDM", "MAMC", "MDO", "NESVM", "SVM", "HardMarginSVM",
           "LSVM", "LinearSVM", "Pegasos", "SMO"]
