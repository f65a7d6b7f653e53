"""What the index (paper_tables/README.md) says of the NESVM paper besides its counts."""
from ...experiments.index import PaperSummary
from .central_claims import CLAIMS

SUMMARY = PaperSummary(
    paper="nesvm",
    citation="T. Zhou, D. Tao and X. Wu, NESVM: a Fast Gradient Method for Support Vector Machines "
             "(nesvm.txt)",
    scope="Theorem 4's O(1/k^2) rate measured on the iterates; the claims of Section IV-A on training "
          "time against C and set size (Figs. 3 and 4, NESVM beside Pegasos, LIBSVM, SVM-Light and "
          "LIBLINEAR); the image sets of Figs. 6, 8, 10 and 11; and the paper's printed readings against "
          "their alternatives. The paper prints its results as figures only, so its numbers here are "
          "those its text states.",
    titles={"nesvm_time": "Section IV-A: training time against C and set size (Figs. 3, 4)",
            "nesvm_convergence": "Theorem 4: the O(1/k^2) rate",
            "nesvm_images": "Figs. 6, 8, 10, 11: the image sets",
            "nesvm_readings": "The printed readings against the alternatives"},
    claims=CLAIMS,
)
