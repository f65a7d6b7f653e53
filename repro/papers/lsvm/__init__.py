"""The LSVM paper (lsvm_section3.txt): Section 3's claims, scaling to millions of points, accuracy.

``jobs`` (protocols, grids, job runners), ``pages`` (the pages and figure built
from the records), ``tables`` (each table: its records, jobs and page),
``tolerances`` (filed with the layer's registry on import, here; no miss needs
an explanation).
"""
from . import tolerances  # noqa: F401 (registers this paper's rules)
