"""What the index (paper_tables/README.md) says of the GS-SVM paper besides its counts."""
from ...experiments.index import PaperSummary
from .central_claims import CLAIMS

SUMMARY = PaperSummary(
    paper="gs_svm",
    citation="L. Bo, L. Wang and L. Jiao, Training Support Vector Machines Using Greedy Stagewise "
             "Algorithm (gs_svm.txt)",
    scope="Table 1 (kernel evaluations of SMO with Keerthi's Modifications 1 and 2 and of GS-SVM on "
          "Adult and Web subsets), Table 2 (10-fold CV accuracy of GS-SVM, HM-SVM and SVM on 15 UCI "
          "sets, with the Mean row) and the speed claim of Section 3; a timing table beside LIBSVM "
          "that the paper does not print.",
    titles={"gs_svm_table1": "Table 1: kernel evaluations",
            "gs_svm_table2": "Table 2: 10-fold CV accuracy",
            "gs_svm_speed": "GS-SVM and SMO beside LIBSVM (not in the paper)"},
    claims=CLAIMS,
)
