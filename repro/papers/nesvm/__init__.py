"""The NESVM paper (nesvm.txt): training time against C and set, Theorem 4, the printed readings.

``jobs`` and ``pages`` (the timing experiments, Figs. 3 and 4 and the image sets:
protocols, grids, job runners; the pages and figure built from their records),
``claims`` (Section IV-A's claims read as numbers from timing records) and
``readings`` (those claims under other readings of Pegasos's iteration count),
``theory_jobs`` and ``theory_pages`` (Theorem 4 and the printed readings: small
jobs with their own protocols, and their pages), ``tables`` (each table: its
records, jobs and page), ``tolerances`` and ``explanations`` (filed with the
layer's registries on import, here).
"""
from . import explanations, tolerances  # noqa: F401 (registers this paper's entries)
