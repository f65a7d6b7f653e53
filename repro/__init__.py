"""repro: reference implementations of five SVM papers and their reproduced results.

Submodules are imported lazily by the caller (``repro.solvers``, ``repro.datasets``,
``repro.published``) so that ``import repro`` stays cheap and never needs the
compiled kernels.
"""

__version__ = "0.1.0"
