"""What the index (paper_tables/README.md) says of the LDM paper besides its counts."""
from ...experiments.index import PaperSummary
from ...solvers.ldm_baselines import MDO
from .central_claims import CLAIMS

SUMMARY = PaperSummary(
    paper="ldm",
    citation="T. Zhang and Z.-H. Zhou, Large Margin Distribution Machine (ldm.txt)",
    scope="Table 1 (the 32 data sets' sizes), Tables 2 and 3 (accuracy on 20 regular-scale sets, "
          "linear and RBF kernels, against SVM, MDO, MAMC and KM-OMD, with the t-test markers and the "
          "win/tie/loss row), Table 4 (12 large-scale sets, linear) and Figures 1 to 3 (margin "
          "distributions, CPU time, parameter sensitivity).",
    titles={"ldm_table1": "Table 1: the data sets",
            "ldm_table2": "Table 2: accuracy, linear kernel",
            "ldm_table3": "Table 3: accuracy, RBF kernel",
            "ldm_table4": "Table 4: accuracy on the large sets",
            "ldm_figure1": "Figure 1: margin distributions",
            "ldm_figure2": "Figure 2: CPU time",
            "ldm_figure3": "Figure 3: sensitivity to lambda1, lambda2 and C"},
    claims=CLAIMS,
    not_run={"MDO": f"MDO is not run: {MDO.reason}"},
)
