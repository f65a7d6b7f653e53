"""What the index (paper_tables/README.md) says of LSVM's Section 3 besides its counts."""
from ...experiments.index import PaperSummary
from .central_claims import CLAIMS

SUMMARY = PaperSummary(
    paper="lsvm",
    citation="O. L. Mangasarian and D. R. Musicant, Lagrangian Support Vector Machines, Section 3 "
             "(lsvm_section3.txt)",
    scope="Section 3's algorithm and its statements: the linear rate (20), judged on the measured iterates, "
          "beside the convergence condition 0 < alpha < 2/nu and the size of the one matrix inverted, which the "
          "code sets itself and the pages show without a judgement; that LSVM handles millions of points; and an "
          "accuracy table beside the soft-margin SVM, which the section does not print.",
    titles={"lsvm_convergence": "Section 3: the convergence statements on measured runs",
            "lsvm_scaling": "Millions of points",
            "lsvm_accuracy": "LSVM beside the soft-margin SVM (not in the paper)"},
    claims=CLAIMS,
)
