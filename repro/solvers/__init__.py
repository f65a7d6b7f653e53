"""The papers' solvers as scikit-learn estimators.

>>> from repro.solvers import LinearSVM
"""
from .linear import LinearSVM

__all__ = ["LinearSVM"]
