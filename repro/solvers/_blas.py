"""BLAS on one thread for a small dense computation, process-wide while it lasts.

A threaded BLAS hands work to threads that may have to wait for a core: with the
cores busy (cross-validation with n_jobs, other users) a 53 x 438 x 55 product
took 16 ms instead of 0.06 ms, an eigh of 345 x 345 9 ms on one thread against
23 ms threaded, a9a's margin-band least squares 0.9 s threaded beside another job
against 0.02 s on one thread. Fits run in threads of one process (joblib's
threading backend) may see BLAS on one thread meanwhile (slower, never wrong);
processes (the default loky backend) are unaffected. The one place the solvers
take the limit (base.dense_product, ldm's factorisations, _gram's PSD check,
SVM's least squares).
"""
from threadpoolctl import ThreadpoolController

_controller = None


def one_blas_thread():
    """A context manager: BLAS on one thread while the block lasts."""
    global _controller
    if _controller is None:  # scanning the loaded libraries costs ~0.1 ms: once
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")
