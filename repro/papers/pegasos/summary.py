"""What the index (paper_tables/README.md) says of the Pegasos slides besides their counts."""
from ...experiments.index import Claim, PaperSummary

SUMMARY = PaperSummary(
    paper="pegasos",
    citation="J. Rupnik, Stochastic Subgradient Approach for Solving Linear Support Vector Machines "
             "(slides on Pegasos; pegasos_slides.txt)",
    scope="The slides' experiments: iterations and time to 0.3 % and 0.1 % above the optimum on CCAT, "
          "SVM-Light's time to the optimum, the kT experiment (the gap depends on k times T) and the "
          "effect of the batch size k on the lowest objective reached.",
    titles={"pegasos_convergence": "Convergence to the optimum, the kT and batch-size experiments"},
    claims=(
        Claim("The gap after T iterations of batch k depends on kT only (the kT experiment)",
              "pegasos_convergence", metrics=("gap_ratio_over_k",)),
        Claim("A larger batch does not lower the objective reached at a fixed kT",
              "pegasos_convergence", metrics=("lowest_over_0.1pct",)),
        Claim("200 iterations reach 0.3 % above the optimum on CCAT in 9.2 s, SVM-Light takes hours",
              "pegasos_convergence", datasets=("CCAT",)),
    ),
)
