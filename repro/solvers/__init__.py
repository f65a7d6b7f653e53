"""The papers' solvers as scikit-learn estimators.

Every name in ``__all__`` but ``PrecomputedGram`` is a scikit-learn classifier
(``fit``, ``predict``, ``decision_function``, ``score``); ``PrecomputedGram`` is a
Gram matrix checked once for many fits with ``kernel='precomputed'``.

>>> from repro.solvers import GSSVM, SMO, HardMarginSVM, LinearSVM, LSVM, NESVM, Pegasos, LDM
>>> from repro.solvers import SVM, BiasFreeSVM, ASGDSVM, MAMC, KMOMD, PrecomputedGram
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

# Every name in ESTIMATORS is an estimator that fits (tests/test_estimator_defaults.py);
# PrecomputedGram, a Gram matrix for repeated fits (used in the README), is
# exported beside them. The LDM paper's MDO is not one of them:
# repro.solvers.ldm_baselines.MDO only says why it is not run (its fit raises
# NotImplementedError).
ESTIMATORS = ("ASGDSVM", "BiasFreeSVM", "GSSVM", "KMOMD", "LDM", "MAMC", "NESVM", "SVM",
              "HardMarginSVM", "LSVM", "LinearSVM", "Pegasos", "SMO")
__all__ = [*ESTIMATORS, "PrecomputedGram"]
