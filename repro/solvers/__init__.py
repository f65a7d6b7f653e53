"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM, NESVM, Pegasos, LDM
"""
from ._gram import PrecomputedGram
from .gssvm import GSSVM
from .ldm import LDM
from .ldm_baselines import ASGDSVM, KMOMD, MAMC, SVM, BiasFreeSVM
from .linear import LinearSVM
from .lsvm import LSVM
from .nesvm import NESVM
from .pegasos import Pegasos
from .smo import SMO, HardMarginSVM

# Every name in __all__ is an estimator that fits (tests/test_estimator_defaults.py);
# PrecomputedGram, a Gram matrix for repeated fits, is exported beside them.
# The LDM paper's MDO is not one of them: repro.solvers.ldm_baselines.MDO only
# says why it is not run (its fit raises NotImplementedError).
__all__ = ["ASGDSVM", "BiasFreeSVM", "GSSVM", "KMOMD", "LDM", "MAMC", "NESVM", "SVM", "HardMarginSVM",
           "LSVM", "LinearSVM", "Pegasos", "SMO"]
