"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import LinearSVM, GSSVM
"""
from .gssvm import GSSVM
from .linear import LinearSVM

__all__ = ["GSSVM", "LinearSVM"]
