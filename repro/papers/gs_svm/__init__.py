"""The GS-SVM paper (gs_svm.txt): Table 1 (kernel evaluations), Table 2 (10-fold CV accuracy), speed.

``jobs`` (protocols, grids, job runners), ``pages`` (the pages built from the
records), ``tables`` (each table: its records, jobs and page), ``tolerances``
and ``explanations`` (filed with the layer's registries on import, here).
"""
from . import explanations, tolerances  # noqa: F401 (registers this paper's entries)
