"""What the index (paper_tables/README.md) says of the Pegasos slides besides their counts."""
from ...experiments.index import PaperSummary
from .central_claims import CLAIMS

SUMMARY = PaperSummary(
    paper="pegasos",
    citation="J. Rupnik, Stochastic Subgradient Approach for Solving Linear Support Vector Machines "
             "(slides on Pegasos; pegasos_slides.txt)",
    scope="The slides' experiments: iterations and time to 0.3 % and 0.1 % above the optimum on CCAT, "
          "SVM-Light's time to the optimum, the kT experiment (the gap depends on k times T) and how "
          "early the lowest test error is reached.",
    titles={"pegasos_convergence": "Convergence to the optimum, the kT and batch-size experiments"},
    claims=CLAIMS,
)
