"""The NESVM paper (nesvm.txt): training time against C and set, Theorem 4, the printed readings.

``jobs`` (the timing experiments: protocols, grids, job runners), ``theory_jobs``
(Theorem 4 and the readings: small jobs, their own protocols), ``pages`` (the
pages and figures built from the records), ``tables`` (each table: its records,
jobs and page), ``tolerances`` and ``explanations`` (filed with the layer's
registries on import, here).
"""
from . import explanations, tolerances  # noqa: F401 (registers this paper's entries)
