"""The LDM paper (ldm.txt): Tables 1-4 (sizes; accuracy beside SVM) and Figures 1-3.

``jobs`` and ``pages`` (Tables 2-4: random partitions, nested CV, paired
t-tests), ``figure_jobs`` and ``figure_pages`` (Table 1 and Figures 1-3: their
own protocols), ``tables`` (each table: its records, jobs and page),
``tolerances`` and ``explanations`` (filed with the layer's registries on
import, here).
"""
from . import explanations, tolerances  # noqa: F401 (registers this paper's entries)
