"""Earlier measurements, quoted on the page as they were recorded by the
benchmark scripts this package replaced (benchmarks/*.py, removed in issue 24:
their comparisons are now the bench target's jobs). Text, not data: they were
measured by those scripts on the dates given, and are not remeasured here."""

NOTES = """\
- `benchmarks/smo_second_order.py`, 2026-11-25 (commit a60f5b2, best of 3, 2-core machine shared with
  other work, load 2.3 before and 3.2 after; scikit-learn 1.9.1), time of SMO (second order) / SVC (solver-only share
  in brackets): a4a C=1 0.30, C=100 0.59; w8a C=1 0.19, C=100 0.24; ijcnn1 (20k) C=1 0.93, C=100 0.86;
  Segment 10-fold CV 0.82 (0.61); Vowel 10-fold CV 1.70 (0.70): 550 one-vs-one problems of ~86 rows, where the
  per-problem Python layer (about 165 us a problem) costs more than the solver; HardMarginSVM sonar 0.70,
  ionosphere 0.66, wdbc 1.02 (fits of 3-5 ms). Dual objectives agreed to 1e-7 relative or better. SVC there used
  the same tolerance rule as here (tol 2e-3).
- `benchmarks/cv_overhead.py` (Python 3.11, scikit-learn 1.9.1, OpenBLAS; C=1, gamma=0.5, 1 thread, best of 7;
  SVC at tol 1e-3), 10-fold CV time / SVC's, before (e042f68) and after the issue's changes: Vowel SMO (Keerthi,
  cache) 1.89 / 1.84, GS-SVM 0.96 / 0.80; Segment SMO 2.07 / 2.10, GS-SVM 0.60 / 0.56; Iris SMO 1.02 / 1.05, GS-SVM
  0.87 / 0.89 (SVC: Vowel 0.051 s, Segment 0.196 s, Iris 0.0135 s). Keerthi's Modification 2 takes ~5x more steps
  than LIBSVM's second-order selection with shrinking (mean steps per one-vs-one problem: Vowel 401 vs 75, Segment
  867 vs 131, Iris 132 vs 26). Unpinned, with a busy process beside it, the same pairs read 1.5x to 8x: OpenBLAS's
  threaded GEMM in prediction waits for a core; hence every time here is pinned.
- `benchmarks/lsvm_scaling.py` (quoted in LSVM's docstring): with nu = 1/m, 21 iterations at m = 1e4 and 1 at
  m = 1e6, where the primal was within 1e-7 relative of LIBLINEAR -s 2 -B 1's.
- `benchmarks/bench_linalg.py` (quoted in pyx/_linalg.pxd): loop time / BLAS time of the dense products, X w
  2.0 to 4.9, X' u 1.4 to 1.8 with every u_i nonzero.
"""
