"""Reference solvers from outside this package that the papers compare against.

A baseline that cannot be shipped with the package (its licence forbids
redistribution, or it is a C program rather than a Python package) is built here on
demand from its published source, into a folder the caller names, and never
committed. Each module says how to build it (``build``), whether it is there
(``available``) and, when it cannot be had on this machine, why
(``why_unavailable``), so that tables can print 'unavailable' with a reason instead
of failing late.

- ``repro.baselines.svmlight``: SVM-Light V6.02 (T. Joachims), the baseline of the
  Pegasos slides and of the LSVM and NESVM papers, compiled from the ``svmlight``
  0.4 source distribution on the Python package index, with a thin wrapper
  ``SVMLight`` around its command-line programs.
"""
