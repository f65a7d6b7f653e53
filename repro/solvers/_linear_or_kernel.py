"""The one dispatch of a model that is a weight vector for kernel='linear' and
a kernel expansion otherwise (LSVM, NESVM, LDM and the LDM paper's baselines)."""
from ._kernel_model import KernelExpansionMixin, resolve_gamma
from ._linear_model import LinearModelMixin
from ._validation import kernel_params


class LinearOrKernelMixin:
    """``coef_``/``intercept_`` (:class:`LinearModelMixin`) for kernel='linear',
    support vectors (:class:`KernelExpansionMixin`) for the other kernels.

    ``gamma=None`` stands for ``_gamma_when_none`` ('scale' as scikit-learn's
    SVC), resolved on the whole training set before the first
    problem. ``n_kernel_evals_`` is set for both kinds of model (a linear
    solver that computes no kernel value reports 0)."""

    _gamma_when_none = "scale"

    def _linear(self):
        return self.kernel == "linear"

    def _prepare_fit(self, X):
        self._resolve_gamma(X)

    def _resolve_gamma(self, X):
        gamma = self._gamma_when_none if self.gamma is None else self.gamma
        self._gamma = resolve_gamma(gamma, X, self.kernel)

    def _set_fitted(self, results, X):
        if self._linear():
            LinearModelMixin._set_fitted(self, results, X)
            self.n_kernel_evals_ = int(sum(r.get("n_kernel_evals", 0) for r in results))
        else:
            KernelExpansionMixin._set_fitted(self, results, X)

    def _decision_values(self, X):
        if self._linear():
            return LinearModelMixin._decision_values(self, X)
        return KernelExpansionMixin._decision_values(self, X)

    def _kernel_args(self):
        # NESVM has no polynomial kernel, hence no coef0 or degree
        return kernel_params(self.kernel, self._gamma, getattr(self, "coef0", 0.0),
                             getattr(self, "degree", 3))
