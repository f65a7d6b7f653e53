"""The Pegasos slides (pegasos_slides.txt): convergence to the optimum, the kT and test-error claims.

``jobs`` (protocols, job runners), ``pages`` (the page and figure built from the
records), ``tables`` (its table: records, jobs and page), ``tolerances`` and
``explanations`` (filed with the layer's registries on import, here).
"""
from . import explanations, tolerances  # noqa: F401 (registers this paper's entries)
