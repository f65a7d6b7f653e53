"""LDM, the Large margin Distribution Machine (ldm.txt; Zhang and Zhou).

Kernel and linear LDM with the paper's two optimisers (``pyx/ldm.pyx``):
Algorithm 1 (dual coordinate descent on Eq. 12) and Algorithm 2 (averaged SGD
with the two-example gradient of Theorem 2, Eq. 15). The objectives the fits
are judged by live in ``repro.objectives`` (``ldm_*``).

What a cross-validation grid shares: Q, and so H, depend on the Gram matrix
and lambda1 only. The kernel path never inverts Q; it needs
(I + c M G)^-1 (c = 4 lambda1 / m^2, M = mI - yy'), which this module builds
from one eigendecomposition of G, G = V diag(s) V', by Sherman-Morrison:

    I + c M G = B - c y (Gy)',   B = I + c m G = V diag(1 + c m s) V',
    (I + c M G)^-1 = B^-1 + c (B^-1 y)(G B^-1 y)' / (1 - c y'G B^-1 y)

(the denominator is > 0 for a PSD G: y'G B^-1 y = sum_k s_k (V'y)_k^2 / (1 + c m s_k)
< sum_k (V'y)_k^2 / (c m) = 1/c, as y'y = m). The
eigendecomposition is cached (see ``_EIGH_CACHE``): every lambda1, lambda2
and C of a grid on one training fold pays one O(m^3) eigendecomposition and
one m x m product per lambda1 instead of an LU solve per fit (and the R of a
(G, y, lambda1) is cached too, so its lambda2 x C grid pays no O(m^3)).

The authors' released package (LDM.m, trainLDM.c, LDM.cpp; read, not copied)
solves the same model as the paper, as far as its code shows: LDM.m passes
C m to trainLDM, whose coordinate descent boxes beta in [0, (C m)/m] = [0, C]
with lambda1, lambda2 and Q as in Eq. 8 (Q^-1 by MATLAB's pinv; singular Q
then gives the same w in exact arithmetic), LIBLINEAR's random order,
shrinking, eps = 0.01 on the spread of projected gradients and at most 1,000
passes, after which it returns silently. Its ASGD divides the regularisers by
that C m, i.e. minimises Eq. 14 / (C m): the same minimiser, with the step
taken in those units (as ``ldm_asgd`` does). Where the code differs in the
algorithm (pairing, averaging start, eta0 search, the margin-equal-1 case) is
``asgd_variant='code'``.
"""
from collections import OrderedDict
from contextlib import nullcontext
from numbers import Integral, Real

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, StrOptions
from ._blas import one_blas_thread

from .._kernels.kernels import kernel_matrix
from .._kernels.ldm import PAIRINGS, ldm_asgd, ldm_cd, max_projected_gradient, update_diagonal
from ..objectives import ldm_primal
from ._gram import content_digest, is_frozen
from ._kernel_model import KERNEL_PARAMETER_CONSTRAINTS
from ._linear_or_kernel import LinearOrKernelMixin
from ._validation import as_rows_input
from .base import BaseSVMClassifier, shared_constraints

# Eigendecompositions of Gram matrices kept for the next fits (a grid over
# lambda1, lambda2 and C on one fold reuses one). Keyed by a hash of the Gram
# matrix's bytes (O(m^2) at every fit, or once for the matrices of a
# PrecomputedGram: _gram.content_digest); none for
# m > _EIGH_MAX_M (V alone would take 8 m^2 bytes: 200 MB at m = 5000).
# And the R of the Gram form per (G, y, lambda1): the lambda2 x C grid of one
# lambda1 then pays no O(m^3) at all. Both are bounded by bytes, not by a
# count: one-vs-one visits every pair of classes at each grid point (vehicle:
# 6 pairs), so a cache of a few entries was emptied at every point and paid
# an eigh per pair and point; _CACHE_BYTES holds every pair of a fold.
class _BytesLRU(OrderedDict):
    """An OrderedDict of arrays (or tuples of arrays) that drops its least
    recently used entries while it holds more than ``limit`` bytes (always
    keeping the newest). The byte total is kept as entries come and go:
    summing every entry at each insertion cost LDM Table 3's vehicle job
    about 1 s of 22 (2,268 insertions into caches of hundreds of entries)."""

    def __init__(self, limit):
        super().__init__()
        self.limit, self.nbytes = limit, 0

    @staticmethod
    def _size(value):
        return sum(a.nbytes for a in value) if isinstance(value, tuple) else value.nbytes

    def put(self, key, value):
        if key in self:
            self.nbytes -= self._size(self[key])
        self[key] = value
        self.move_to_end(key)
        self.nbytes += self._size(value)
        while len(self) > 1 and self.nbytes > self.limit:
            self.nbytes -= self._size(self.popitem(last=False)[1])

    def clear(self):
        super().clear()
        self.nbytes = 0


_CACHE_BYTES = 256 * 2**20
_EIGH_CACHE = _BytesLRU(_CACHE_BYTES)
_R_CACHE = _BytesLRU(_CACHE_BYTES)
_EIGH_MAX_M = 4000


def clear_factorisation_caches():
    """Drop every cached eigendecomposition and R (no fit changes: they are
    keyed by the matrices' contents). A process that moves on to matrices it
    will not see again (the next partition of a set) frees them at once
    instead of holding up to twice _CACHE_BYTES."""
    _EIGH_CACHE.clear()
    _R_CACHE.clear()

# The linear kernel is solved in the primal form (P = X, R = X S^-1, O(d) per
# coordinate) while d <= m and d is at most this; above it, S (d x d) is too
# large to factor and the Gram form (O(m) per coordinate) is used.
_PRIMAL_MAX_D = 4000

# solver='auto' takes ASGD for the linear kernel above this many rows (the
# dual's O(m^2) memory in the Gram form, and the large sets of Table 4).
_AUTO_ASGD_ROWS = 5000

# eta0 search (asgd): at most this many sample rows, factors of 2 from 1.
_ETA_SAMPLE = 1000
_ETA_MAX_TRIES = 40


# The O(m^3) factorisations of the regular sets (m up to ~1,000) run faster
# on one BLAS thread than threaded with the cores shared (eigh of 345 x 345:
# 9 ms on one thread, 23 ms threaded on the 2-core machine; a busy machine
# made the threaded one take seconds), as base.dense_product does for products.
_SERIAL_MAX_M = 1000


def _blas_for(m):
    return nullcontext() if m > _SERIAL_MAX_M else one_blas_thread()


def _gram_eigh(G, key=None):
    """(s, V) with G = V diag(s) V', cached by the bytes of G."""
    m = G.shape[0]
    key = (G.shape, content_digest(G)) if key is None else key
    if key in _EIGH_CACHE:
        _EIGH_CACHE.move_to_end(key)
        return _EIGH_CACHE[key]
    with _blas_for(m):
        s, V = np.linalg.eigh(G)
    if m <= _EIGH_MAX_M:
        _EIGH_CACHE.put(key, (s, V))
    return s, V


def _check_lambda1_scale(finite, lambda1, matrix):
    """A ValueError naming lambda1 when c = 4 lambda1 / m^2 times the data's
    second moments overflows float64 (instead of a LinAlgError or a
    non-finite model from the factorisation)."""
    if not finite:
        raise ValueError(f"LDM: lambda1 = {lambda1:.3g} (as the variance term takes it) is too "
                         f"large for X: {matrix}, c = 4 lambda1 / m^2, overflows float64; lower "
                         f"lambda1 or scale the features")


def kernel_operands(G, P, y, lambda1):
    """(R, h) of the Gram form: R with R_i = the i-th column of (I + c M G)^-1,
    i.e. R = T' for T = (I + c M G)^-1 (so Q^-1 G Y = T Y, the A of Algorithm 1,
    is R'Y read by columns), from the cached eigendecomposition of G (module
    docstring); h_i = P_i'R_i (``update_diagonal``; P: G's rows), kept with R,
    as every lambda2 and C of a grid solves on the same (G, R). lambda1 = 0
    gives R = I, kept for the matrices a PrecomputedGram holds (hashed once)."""
    m = len(y)
    c = 4.0 * lambda1 / m**2
    if c == 0.0 and not is_frozen(G):
        R = np.eye(m)
        return R, update_diagonal(P, R)
    gkey = (G.shape, content_digest(G))
    rkey = (gkey, None if c == 0.0 else content_digest(np.asarray(y, dtype=float)), float(lambda1))
    if rkey in _R_CACHE:  # the same fold and lambda1: another lambda2 or C of a grid
        _R_CACHE.move_to_end(rkey)
        return _R_CACHE[rkey]
    R = np.eye(m) if c == 0.0 else _update_rows(G, y, lambda1, c, gkey)
    h = update_diagonal(P, R)
    if m <= _EIGH_MAX_M:
        R.setflags(write=False)  # shared between fits
        h.setflags(write=False)
        _R_CACHE.put(rkey, (R, h))
    return R, h


def _update_rows(G, y, lambda1, c, gkey):
    """(I + c M G)^-1 transposed (kernel_operands), c > 0."""
    m = len(y)
    s, V = _gram_eigh(G, gkey)
    with np.errstate(over="ignore"):
        scale = 1.0 + c * m * s
    if scale.min() <= 0.0:
        if s.min() >= -1e-6 * max(s.max(), 0.0):
            # a PSD kernel (every kernel option is one) whose values are so large
            # that rounding leaves negative eigenvalues bigger than 1 / (c m)
            raise ValueError(f"LDM: the kernel matrix's eigenvalues reach {s.max():.3g}, and "
                             f"rounding at that scale gives one of {s.min():.3g}, which makes "
                             f"I + c m G singular: scale the features (or lower gamma / degree)")
        raise ValueError("LDM needs a positive semi-definite kernel matrix: G has an eigenvalue "
                         f"{s.min():.3g} (the largest is {s.max():.3g}), which makes I + c m G "
                         f"singular")
    with _blas_for(m), np.errstate(over="ignore", invalid="ignore"):
        Binv = (V / scale) @ V.T
        w = Binv @ y
        z = (V * (s / scale)) @ (V.T @ y)                    # G B^-1 y
        den = 1.0 - c * (y @ z)
        R = np.ascontiguousarray(Binv + (c / den) * np.outer(z, w))
    _check_lambda1_scale(np.isfinite(scale).all() and np.isfinite(R).all(), lambda1,
                         "(I + c M G)^-1")
    return R


def linear_update_rows(X, y, lambda1):
    """R = X S^-1 for the linear primal form, S = I + c X'MX (d x d, PD)."""
    m, d = X.shape
    c = 4.0 * lambda1 / m**2
    Xd = X.toarray() if sp.issparse(X) else np.asarray(X)
    if c == 0.0:
        return np.ascontiguousarray(Xd, dtype=float)
    with _blas_for(max(m, d)):
        Xy = Xd.T @ y
        with np.errstate(over="ignore", invalid="ignore"):
            S = np.eye(d) + c * (m * (Xd.T @ Xd) - np.outer(Xy, Xy))
        _check_lambda1_scale(np.isfinite(S).all(), lambda1, "S = I + c X'MX")
        factor = sla.cho_factor(S)
        return np.ascontiguousarray(sla.cho_solve(factor, Xd.T).T)


class LDM(LinearOrKernelMixin, BaseSVMClassifier):
    """Large margin Distribution Machine: an SVM that also optimises the margin distribution.
    LDM (Zhang and Zhou [1]_, ldm.txt) solves the bias-free soft-margin SVM plus
    ``lambda1`` times the variance of the margins ``y_i f(x_i)`` minus
    ``lambda2`` times their mean (Eq. 5), by dual coordinate descent on Eq. 12
    (Algorithm 1, any kernel) or by averaged SGD on Eq. 14 (Algorithm 2, linear
    kernel). Use it instead of SVC or LinearSVC when you can cross-validate two
    more hyperparameters for the accuracy the paper reports over the SVM on its
    32 sets (this package's LDM Tables 2-4 judge that claim); with
    ``lambda1 = lambda2 = 0`` it is the bias-free SVM (:class:`BiasFreeSVM`).
    Kernel LDM factorises the m x m Gram matrix (O(m^3) time, O(m^2) memory; 4.5
    to 12 times SVC's time on 500 rows of german, paper_tables/performance.md),
    so beyond a few thousand rows use ``kernel='linear'``, which runs Algorithm 2
    above 5,000 rows (1.3 to 1.8 times an averaged SGDClassifier's time on a9a
    and w8a).

    Parameters
    ----------
    C : float, default=1.0
        Weight of the summed hinge losses (the box ``0 <= beta_i <= C`` of Eq. 12).
    lambda1 : float, default=2**-4
        Weight of the margin variance (>= 0).
    lambda2 : float, default=2**-4
        Weight of the margin mean (>= 0).
    kernel : {'linear', 'rbf', 'poly', 'precomputed'}, default='linear'
        'precomputed': ``fit`` takes the Gram matrix K(X_train, X_train) (an
        ndarray or a :class:`PrecomputedGram`), ``predict`` K(X, X_train).
    gamma : float, 'scale', 'auto' or None, default=None
        Width of 'rbf' (``exp(-gamma ||x - z||^2)``) and 'poly'; None means
        'scale', scikit-learn's SVC rule.
    coef0 : float, default=0.0
        Constant of the 'poly' kernel ``(gamma x'z + coef0)^degree`` (>= 0).
    degree : int, default=3
        Degree of the 'poly' kernel.
    solver : {'auto', 'cd', 'asgd'}, default='auto'
        'cd': Algorithm 1. 'asgd': Algorithm 2, linear kernel only. 'auto':
        'asgd' for the linear kernel on more than 5,000 rows, 'cd' otherwise.
    max_iter : int, default=10000
        cd: the most passes over the coordinates; a fit that reaches it warns
        (ConvergenceWarning). A large C needs many passes (see Notes).
    tol : float, default=1e-2
        cd: stop when every projected gradient of Eq. 12 is at most ``tol`` in
        absolute value (margin units; the eps of the authors' code).
    n_epochs : int, default=5
        asgd: T of Algorithm 2, which runs T m steps and tests nothing else.
    asgd_variant : {'paper', 'code'}, default='paper'
        asgd: draw and average as Theorem 2 and Algorithm 2 print it, or as the
        authors' released code does (see Notes); both minimise Eq. 14.
    variance : {'normalised', 'double-sum'}, default='normalised'
        Which line of Eq. 4 ``lambda1`` multiplies: the normalised form that
        Eq. 6, 8 and 14 use, or the double sum (m^2 times larger).
    cd_order : {'random', 'printed'}, default='random'
        cd: visit the coordinates in a fresh random order every pass (Hsieh et
        al. 2008; the authors' code), or in the order 1..m of Algorithm 1.
    shrinking : bool, default=True
        cd: set aside variables stuck at a bound (LIBLINEAR's shrinking); the
        stopping rule is always confirmed on every variable.
    warm_start : bool, default=False
        cd: start from the previous fit's beta (clipped into the new box) when
        y is the same (see also :meth:`start_from`); the optimum does not
        depend on the start.
    random_state : int, RandomState or None, default=0
        Seed of cd's coordinate order and of asgd's draws and eta0 sample; the
        fixed default makes a fit repeatable, None draws a seed.
    history_every : int or None, default=None
        Stride of ``history_``: cd records the dual Eq. 12 every that many
        passes, asgd the primal Eq. 14 every that many epochs; None: no trace.
    stop : {'tol', 'authors'}, default='tol'
        cd: the ``tol`` test above (capped by ``max_iter``), or the rule of the
        authors' released code, which does not seek the optimum (see Notes).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels seen in ``fit``; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_problems, n_features)
        kernel='linear' only: w of each binary problem (one per pair of classes).
    intercept_ : ndarray of shape (n_problems,)
        Zeros: LDM has no bias.
    support_, support_vectors_, dual_coef_ : ndarray
        Other kernels: ``f(x) = sum_i alpha_i k(x_i, x)`` over the training rows
        with ``alpha_i != 0``.
    beta_ : ndarray or list of ndarray
        cd: the solution of the dual Eq. 12, per problem.
    margins_ : ndarray of shape (n_samples,)
        Binary fits: the training margins ``y_i f(x_i)`` (+1 for ``classes_[1]``).
    max_projected_gradient_ : ndarray of shape (n_problems,)
        cd: the largest |projected gradient| of Eq. 12 at the end.
    eta0_ : ndarray of shape (n_problems,)
        asgd: the initial step its search chose.
    stopped_by_ : ndarray of str
        ``stop='authors'`` only: 'spread' or 'cap', the rule that ended each problem.
    n_iter_ : int or ndarray
        Passes (cd) or steps (asgd) of each problem.
    converged_ : bool
        cd: every problem met the ``tol`` test, confirmed on gradients
        recomputed from beta. Always False for asgd and for ``stop='authors'``,
        which test no optimality condition (and then issue no warning).
    n_unconverged_problems_ : int
        How many problems did not converge.
    n_kernel_evals_ : int
        Kernel values computed in training (0 for the linear primal form, asgd
        and 'precomputed').
    history_ : dict of ndarray or None
        The trace (``problem``, ``iteration``, ``time``, ``objective``).

    See Also
    --------
    repro.solvers.BiasFreeSVM : LDM at lambda1 = lambda2 = 0.
    repro.solvers.SVM : the LDM paper's SVM baseline (LIBSVM / LIBLINEAR).
    repro.objectives.ldm_primal : Eq. 5 evaluated at a fitted model.

    Notes
    -----
    **Problem.** With the margin mean of Eq. 3 and the variance of Eq. 4 in the
    normalised form of Eq. 6, 8 and 14 (``repro.objectives.ldm_primal``)::

        min_w  1/2 w'w + lambda1 var - lambda2 mean + C sum_i max(0, 1 - y_i f_i),
        f_i = w'phi(x_i),  mean = 1/m sum_i y_i f_i,
        var = 2/m^2 (m sum_i f_i^2 - (sum_i y_i f_i)^2).

    Eq. 4 is inconsistent: its first line (the double sum over pairs) is m^2
    times its second; ``variance='double-sum'`` takes the first, solved as
    ``lambda1 m^2`` in the normalised form.

    **Algorithm 1** (``solver='cd'``) solves the dual Eq. 12::

        min_beta  1/2 beta'H beta + (lambda2/m H e - e)'beta,   0 <= beta_i <= C,
        H = Y G Q^-1 G Y,   Q = 4 lambda1 (m G'G - (Gy)(Gy)') / m^2 + G   (Eq. 8)

    one coordinate at a time (Hsieh et al. [2]_), ``beta_i <- min(max(beta_i - [grad f]_i / h_ii, 0), C)``.
    Q is never inverted: for kernel='linear' with d <= m and d <= 4,000 it runs
    in the primal form (``R = X S^-1``, ``S = I + c X'MX``, O(d) a step); otherwise on
    the Gram matrix with ``(I + c M G)^-1`` from one cached eigendecomposition of
    G (O(m) a step; module docstring). Every lambda1, lambda2 and C of a grid on
    one fold (or one :class:`PrecomputedGram`) pays one O(m^3) eigendecomposition.

    **Stopping rule** (``stop='tol'``): every projected gradient of Eq. 12 at most
    ``tol`` in absolute value, confirmed on gradients recomputed from beta; the
    final model is checked again independently of the kernel. The default
    ``tol=1e-2`` is the authors' eps. Dual CD needs many passes at large C on
    [0, 1]-scaled data, as LIBLINEAR does: on half of australian (345 rows),
    bias-free, tol=1e-2, 1,445 passes at C = 10 and 8,711 at C = 100 (LIBLINEAR:
    1,277 and 31,919); raise ``max_iter`` or warm-start along C.

    ``stop='authors'`` is the rule hard-wired in the authors' code (LDM.cpp,
    ``solve_cd``; LIBLINEAR's): stop after a pass whose projected gradients (over
    the variables not set aside by shrinking) have a spread max PG - min PG <=
    0.01 when none was set aside (else restore them all and go on), or after
    1,000 passes; no confirmation on recomputed gradients; ``tol`` and
    ``max_iter`` are ignored. A spread of 0.01 does not bound the largest |PG|
    (gradients of one sign all pass it) and the cap binds at the paper's larger
    C (on the paper's grid the objective was up to 19 % above the optimum at
    C = 100), so ``converged_`` is False under it, ``stopped_by_`` says which
    rule ended each problem and ``max_projected_gradient_`` how far from the
    optimum it was left; no ConvergenceWarning (the stop is the reading's
    setting). It is a reading of the paper's LDM cells, never a default. The
    code starts every fit from beta = 0 (with ``warm_start`` the rule stops
    elsewhere); its other details are ``ldm_cd``'s (its own random order; a step
    for any PG != 0 where the code skips |PG| <= 1e-12).

    **Algorithm 2** (``solver='asgd'``) takes steps ``w <- w - eta_t grad g(w,
    x_i, x_j)`` with the two-example gradient of Theorem 2 (Eq. 15) and averages
    the iterates from t0, ``mu_t = 1/max(1, t - t0)``. The step is Xu's [3]_,
    ``eta_t = eta0 (1 + a eta0 t)^(-3/4)``, in the units of Eq. 14 divided by mC
    (the authors' code's scaling: the same minimiser; the paper's step is
    ``eta_t / (mC)``), with ``a = 1/(mC)``, the weight of 1/2 ||w||^2 there
    (Xu's lambda, the code's lambda3). eta0 by the search of Bottou's sgd
    package and of the authors' code: from 1 (or 1 / max ||x_i||^2 for longer
    rows), halve or double while the objective after one epoch of SGD (the
    same schedule, no averaging) on a random sample of at most 1,000 rows
    decreases. ``asgd_variant='paper'``: i and j drawn independently and
    uniformly at every step (Theorem 2), a violation when ``y_i w'x_i < 1``
    (Eq. 15), averaging from t0 = m (the iterates of epochs 2..T). 'code'
    (LDM.cpp, ``asgd::train_asgd``): i and j from two permutations shuffled at
    every epoch, a violation when ``y_i w'x_i <= 1``, averaging from t0 = 2m.
    Departures from that code: its average uses mu = 1/(t - t0 + 1) for the
    0-based t (the first averaged iterate weighs more), here Algorithm 2's
    plain average is kept; its eta0 search evaluates the variance with the
    averaging scalar in place of (y'X'w)^2 (a bug) and its non-averaged branch
    uses the step before setting it; neither is reproduced.
    Algorithm 2 has no stopping test: ``converged_`` is False (on german.numer at
    C = 1 the 5-epoch model was 16.8 % above the optimum); compare
    ``repro.objectives.ldm_primal`` with a cd fit to know how close it is. C must
    keep m C and 1/(m C) finite.

    **Costs measured.** Random order took 593 / 3,907 / 31,901 passes at C = 1 /
    10 / 100 against 2,138 / 11,600 / over 100,000 in the printed order (2000 x
    20 synthetic, tol=1e-3). Shrinking: a 147-fit RBF grid of half of
    australian took 3.4 s and 111,432 passes with it, 5.4 s and 79,961 passes
    without; ``history_every=1`` made the same grid 11.3 s instead of 5.4 s.

    References
    ----------
    .. [1] T. Zhang and Z.-H. Zhou, "Large margin distribution machine", KDD
       2014 (shared/papers/ldm.txt: Eq. 3-5, 8, 12, 14, 15, Algorithms 1-2).
    .. [2] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi and S.
       Sundararajan, "A dual coordinate descent method for large-scale linear
       SVM", ICML 2008.
    .. [3] W. Xu, "Towards optimal one pass large scale learning with averaged
       stochastic gradient descent", arXiv:1107.2490, 2011.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from repro.solvers import LDM
    >>> X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    >>> clf = LDM(C=1.0, lambda1=2**-4, lambda2=2**-4).fit(X[:200], y[:200])
    >>> clf.converged_
    True
    >>> print(clf.score(X[200:], y[200:]))  # held-out accuracy
    0.9...
    >>> margins = clf.margins(X[200:], y[200:])  # y_i f(x_i), what LDM shapes
    """

    # the authors' released code's hard-wired stopping constants (LDM.cpp,
    # solve_cd: max_iter = 1000; trainLDM.c: param.eps = 0.01), stop='authors'
    AUTHORS_EPS = 0.01
    AUTHORS_MAX_PASSES = 1000

    _parameter_constraints = {
        **shared_constraints("C", "tol", "max_iter", "random_state", "history_every"),
        **KERNEL_PARAMETER_CONSTRAINTS,
        "gamma": KERNEL_PARAMETER_CONSTRAINTS["gamma"] + [None],
        "lambda1": [Interval(Real, 0, None, closed="left")],
        "lambda2": [Interval(Real, 0, None, closed="left")],
        "solver": [StrOptions({"auto", "cd", "asgd"})],
        "n_epochs": [Interval(Integral, 1, None, closed="left")],
        "asgd_variant": [StrOptions({"paper", "code"})],
        "variance": [StrOptions({"normalised", "double-sum"})],
        "cd_order": [StrOptions({"printed", "random"})],
        "shrinking": ["boolean"],
        "warm_start": ["boolean"],
        "stop": [StrOptions({"tol", "authors"})],
    }

    def __init__(self, C=1.0, lambda1=2**-4, lambda2=2**-4, kernel="linear", gamma=None,
                 coef0=0.0, degree=3, solver="auto", max_iter=10000, tol=1e-2, n_epochs=5,
                 asgd_variant="paper", variance="normalised", cd_order="random",
                 shrinking=True, warm_start=False, random_state=0, history_every=None, stop="tol"):
        self.C = C
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_epochs = n_epochs
        self.asgd_variant = asgd_variant
        self.variance = variance
        self.cd_order = cd_order
        self.shrinking = shrinking
        self.warm_start = warm_start
        self.random_state = random_state
        self.history_every = history_every
        self.stop = stop

    # -- fitting -------------------------------------------------------------
    def fit(self, X, y):
        """Fit one binary problem, or one per pair of classes (one-vs-one)."""
        previous = getattr(self, "_warm_state", None)
        self._beta_start = None
        if self.warm_start and previous is not None and np.array_equal(previous[0], np.asarray(y)):
            self._beta_start = iter([np.minimum(b, self.C) for b in previous[1]])
        try:
            super().fit(X, y)
        finally:
            self._beta_start = None
        if self._solver_used == "cd":
            betas = self.beta_ if isinstance(self.beta_, list) else [self.beta_]
            self._warm_state = (np.array(y, copy=True), betas)
        if self._train_f is not None:  # binary: the training margins y_i f(x_i)
            positive = np.asarray(y) == self.classes_[1]
            self.margins_ = np.where(positive, 1.0, -1.0) * self._train_f
        elif hasattr(self, "margins_"):  # a multiclass refit: no stale margins
            del self.margins_
        return self

    @property
    def _warn_unconverged(self):
        """cd: the base's report (a ConvergenceWarning when a limit stopped it).
        asgd: a fixed-epoch method (Algorithm 2 runs n_epochs * m steps and
        tests nothing): its problems report converged False, so ``converged_``
        is False and ``n_unconverged_problems_`` counts every problem -- no
        convergence is claimed that was not tested -- and no ConvergenceWarning
        is issued (no limit was reached: the epochs are the method's setting),
        as for GS-SVM's max_steps."""
        return getattr(self, "_solver_used", None) != "asgd" and self.stop != "authors"

    def _resolved_solver(self, m):
        if self.solver != "auto":
            return self.solver
        return "asgd" if self.kernel == "linear" and m > _AUTO_ASGD_ROWS else "cd"

    def _prepare_fit(self, X):
        super()._prepare_fit(X)
        if self.solver == "asgd" and self.kernel != "linear":
            raise ValueError(f"solver='asgd' is Algorithm 2, for kernel='linear' only; "
                             f"got kernel={self.kernel!r} (use solver='cd')")
        self._solver_used = self._resolved_solver(X.shape[0])

    def _lambda1(self, m):
        return self.lambda1 * (float(m) ** 2 if self.variance == "double-sum" else 1.0)

    def _fit_binary(self, X, y, history):
        if self._solver_used == "asgd":
            return self._fit_asgd(X, y, history)
        return self._fit_cd(X, y, history)

    def _cd_operands(self, X, y, lambda1):
        """(P rows, R, h or None, form, n_kernel_evals) of Algorithm 1
        (pyx/ldm.pyx; h None: ldm_cd computes it)."""
        m, d = X.shape
        if self.kernel == "linear" and d <= m and d <= _PRIMAL_MAX_D:
            return as_rows_input(X), linear_update_rows(X, y, lambda1), None, "primal", 0
        if self._precomputed():
            G, evals = np.ascontiguousarray(X), 0
        else:
            rows = as_rows_input(X)
            G, evals = kernel_matrix(rows, rows, *self._kernel_args())
        if not is_frozen(G) and not np.all(np.isfinite(G)):  # a PrecomputedGram's is checked
            raise ValueError("LDM: non-finite kernel values: the data's norms overflow float64; "
                             "scale the features (or lower gamma / degree)")
        P = as_rows_input(G, gram=True)
        return (P, *kernel_operands(G, P, y, lambda1), "gram", int(evals))

    def _fit_cd(self, X, y, history):
        m = X.shape[0]
        lambda1, shift, C = self._lambda1(m), self.lambda2 / m, float(self.C)
        P, R, h, form, evals = self._cd_operands(X, y, lambda1)
        beta = np.zeros(m)
        start = None if self._beta_start is None else next(self._beta_start, None)
        if start is not None and len(start) == m:
            beta[:] = np.clip(start, 0.0, C)
        callback = None
        if history.callback is not None:
            He = y * np.asarray(_rows_matmul(P, R.T @ y))

            def callback(passes, b):
                history(passes, lambda: _dual_from(P, R, y, b, shift, He))
        authors = self.stop == "authors"
        tol, max_iter = ((self.AUTHORS_EPS, self.AUTHORS_MAX_PASSES) if authors
                         else (float(self.tol), int(self.max_iter)))
        u, n_iter, converged, max_pg = ldm_cd(P, R, y, C, shift, beta, tol, max_iter,
                                              self.cd_order == "random",
                                              self._seed() if self.cd_order == "random" else 0,
                                              bool(self.shrinking), callback, h, authors)
        u = np.array(u)
        # the final check, independent of the kernel's bookkeeping: u rebuilt
        # from beta, the projected gradients of (12) recomputed
        u_check = R.T @ (y * (beta + shift))
        f = _rows_matmul(P, u_check)
        pg = max_projected_gradient(y * f - 1.0, beta, C)
        result = {"beta": beta, "n_iter": int(n_iter), "converged": bool(converged),
                  "max_pg": float(pg), "n_kernel_evals": evals, "f": f, "intercept": 0.0}
        if authors:
            # the code's rule met (or its cap reached) says nothing of optimality
            result.update(converged=False, stopped_by="spread" if converged else "cap",
                          limit=(f"the authors' stopping rule (spread max PG - min PG <= {tol:g}, "
                                 f"after {n_iter} passes)" if converged else
                                 f"the authors' pass cap ({max_iter} passes)"),
                          parameter="stop",
                          detail=f"stop='authors' does not seek the optimum: the largest projected "
                                 f"gradient of (12) is {pg:.3g}")
        elif not converged:
            result.update(limit=f"max_iter={self.max_iter} passes", parameter="max_iter",
                          detail=f"the largest projected gradient of (12) is {max_pg:.3g} > tol={self.tol}")
        elif pg > self.tol:
            result.update(converged=False, limit="the final optimality check", parameter=None,
                          detail=f"the recomputed projected gradient {pg:.3g} exceeds tol={self.tol}")
        if self.kernel == "linear":
            result["coef"] = u_check if form == "primal" else np.asarray(X.T @ u_check).ravel()
        else:
            support = np.flatnonzero(u_check != 0.0)
            result.update(support=support, dual_coef=u_check[support])
        return result

    def _fit_asgd(self, X, y, history):
        m = X.shape[0]
        lambda1, C = self._lambda1(m), float(self.C)
        rows = as_rows_input(X)
        code = self.asgd_variant == "code"
        seed = self._seed()
        with np.errstate(over="ignore", divide="ignore"):
            a = 1.0 / (m * C)
        if not (np.isfinite(m * C) and 0.0 < a < np.inf):
            # a = 1/(mC) is the weight of 1/2 ||w||^2 in the step's units: mC
            # overflowing (or 1/(mC) overflowing) leaves no step schedule
            raise ValueError(f"{type(self).__name__}: C={C!r} is out of range for ASGD on {m} rows: "
                             f"m C = {m * C:.3g} must be a finite number whose inverse is finite "
                             f"(ASGD's step works in units of 1/(m C)); choose a C between "
                             f"{(1.0 / np.finfo(float).max) / m:.3g} and {np.finfo(float).max / m:.3g}")
        eta0 = self._search_eta0(X, y, lambda1, a, seed, code)
        callback = None
        if history.callback is not None:
            def callback(t, w):
                history(t, lambda: ldm_primal(w, X, y, C, lambda1, self.lambda2))
        w, steps = ldm_asgd(rows, y, C, lambda1, float(self.lambda2), int(self.n_epochs) * m,
                            eta0, a, 0.75, (2 if code else 1) * m,
                            PAIRINGS["permutations" if code else "independent"], code, True,
                            seed, callback, m if callback is not None else 0, float(m))
        w = np.array(w)
        # Algorithm 2 runs T m steps and has no stopping test: no convergence
        # is claimed (see _set_convergence)
        return {"coef": w, "intercept": 0.0, "n_iter": int(steps), "converged": False,
                "limit": f"n_epochs={self.n_epochs} epochs (a fixed-epoch method: no convergence test)",
                "parameter": None, "eta0": eta0, "f": np.asarray(X @ w).ravel(), "n_kernel_evals": 0}

    def _search_eta0(self, X, y, lambda1, a, seed, code):
        """eta0 by factors of 2 from 1 (Bottou's determineEta0, as the authors'
        code): one epoch of plain SGD with the training schedule on a random
        sample of at most 1,000 rows for each candidate (from 1, or from
        1 / max ||x_i||^2 when rows are longer), keep the best objective
        (Eq. 14 on the sample with the hinge weight C m / m_s, i.e. the training
        objective's per-example scale). Candidates stay below 1/a, where the
        shrink factor 1 - eta a would reach 0."""
        m = X.shape[0]
        rng = np.random.default_rng(seed)
        sample = np.sort(rng.choice(m, size=min(_ETA_SAMPLE, m), replace=False))
        Xs, ys = X[sample], y[sample]
        rows = as_rows_input(Xs)
        C, lambda2 = float(self.C), float(self.lambda2)
        Cs = C * m / len(sample)
        pairing = PAIRINGS["permutations" if code else "independent"]

        def cost(eta):
            w, _ = ldm_asgd(rows, ys, C, lambda1, lambda2, len(sample), eta, a, 0.75, 0,
                            pairing, code, False, seed + 1, None, 0, float(m))
            with np.errstate(over="ignore", invalid="ignore"):
                value = ldm_primal(np.asarray(w), Xs, ys, Cs, lambda1, lambda2)
            return value if np.isfinite(value) else np.inf

        cap = 0.5 / a
        # Bottou starts at 1 for normalised data; the step's natural scale is
        # 1 / ||x||^2 (scaling x by s scales w* by 1/s and the gradient by s),
        # so start there when rows are longer than 1
        sqnorm = float(np.max(rows[3], initial=0.0))
        lo = min(1.0 / max(1.0, sqnorm), cap / 2)
        lo_cost = cost(lo)
        for _ in range(_ETA_MAX_TRIES):  # a diverging start: halve until finite
            if np.isfinite(lo_cost):
                break
            lo /= 2.0
            lo_cost = cost(lo)
        hi_cost = cost(2 * lo) if 2 * lo <= cap else np.inf
        best, best_cost = (lo, lo_cost) if lo_cost <= hi_cost else (2 * lo, hi_cost)
        if lo_cost <= hi_cost:  # halve while it helps
            for _ in range(_ETA_MAX_TRIES):
                eta = best / 2
                c_ = cost(eta)
                if not c_ < best_cost:
                    break
                best, best_cost = eta, c_
        else:  # double while it helps
            for _ in range(_ETA_MAX_TRIES):
                eta = best * 2
                if eta > cap:
                    break
                c_ = cost(eta)
                if not c_ < best_cost:
                    break
                best, best_cost = eta, c_
        return best

    # -- fitted model --------------------------------------------------------
    def _set_fitted(self, results, X):
        super()._set_fitted(results, X)
        if "beta" in results[0]:
            betas = [r["beta"] for r in results]
            self.beta_ = betas[0] if len(results) == 1 else betas
            self.max_projected_gradient_ = np.array([r["max_pg"] for r in results])
        if "stopped_by" in results[0]:
            self.stopped_by_ = np.array([r["stopped_by"] for r in results])
        elif hasattr(self, "stopped_by_"):  # a refit by another rule: no stale report
            del self.stopped_by_
        if "eta0" in results[0]:
            self.eta0_ = np.array([r["eta0"] for r in results])
        self._train_f = results[0]["f"] if len(results) == 1 else None

    def start_from(self, fitted):
        """Start the next fit from ``fitted``'s last solution: its beta (one per
        pair of classes) when ``fitted`` is an LDM fitted by coordinate descent
        on the same labels, as ``warm_start=True`` does with this estimator's
        own. Sets ``warm_start``; returns self. A grid hands each point the
        previous point's fit this way (cheaper than re-parameterising one
        estimator with set_params)."""
        state = getattr(fitted, "_warm_state", None)
        if state is not None:
            self.warm_start, self._warm_state = True, state
        return self

    def margins(self, X, y):
        """y_i f(x_i) on any data of a binary fit (y in ``classes_``; +1 for
        ``classes_[1]``), for cumulative margin distributions (Figure 1)."""
        if len(getattr(self, "classes_", [])) != 2:
            raise ValueError("margins are defined for a fitted binary LDM")
        y = np.asarray(y)
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise ValueError(f"y holds labels not seen in fit: {np.unique(y[unknown])!r}")
        return np.where(y == self.classes_[1], 1.0, -1.0) * self.decision_function(X)


def _rows_matmul(P, u):
    """P @ u for an as_rows_input tuple (dense or CSR)."""
    data, indices, indptr, _, n, d, dense = P
    if dense:
        return data.reshape(n, d) @ u
    nnz = int(indptr[-1])
    return sp.csr_matrix((data[:nnz], indices[:nnz], indptr), shape=(n, d)) @ u


def _dual_from(P, R, y, beta, shift, He):
    """(12) at beta: 1/2 b'Hb + (shift He - e)'b, from H v = Y P R'Y v."""
    Hv = y * _rows_matmul(P, R.T @ (y * (beta + shift)))
    Hb = Hv - shift * He
    return 0.5 * beta @ Hb + (shift * He - 1.0) @ beta
