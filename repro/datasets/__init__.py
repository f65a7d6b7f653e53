"""Every dataset of the five papers: registry, loader, preprocessing, stand-ins.

>>> from repro import datasets
>>> X, y = datasets.load("a1a")                 # CSR, 1605 x 123, labels -1/+1
>>> Xt, yt = datasets.load("a1a", split="test")  # the published a1a.t
>>> datasets.availability("a6a")                 # 'stand-in' here (see standins)
>>> X, y, info = datasets.load("a6a", return_info=True); info.standin
True

Files come from the cache ``$REPRO_DATA_DIR``, else the mirror (``$REPRO_DATA_MIRROR``,
else ``../shared/datasets`` beside the checkout: :func:`sources.mirror_dir`), else the
canonical URL, with sha256 checks (see :mod:`repro.datasets.sources`).
``python -m repro.datasets`` lists every dataset and where it would come from;
``python -m repro.datasets fetch NAME ...`` fills the cache.
"""
from .errors import ChecksumError, DatasetUnavailableError, ParseError
from .loader import DatasetInfo, availability, clear_memo, fetch, info, is_standin, load, obtainable
from .sources import configure
from .registry import REGISTRY, DatasetSpec, get_spec, names, paper_datasets

__all__ = [
    "ChecksumError", "DatasetInfo", "DatasetSpec", "DatasetUnavailableError", "ParseError", "REGISTRY",
    "availability", "clear_memo", "configure", "fetch", "get_spec", "info", "is_standin", "load", "names", "obtainable",
    "paper_datasets", "preprocess",
]


def __getattr__(name):  # preprocess imports scikit-learn (slow): load it on first use
    if name == "preprocess":
        import importlib

        return importlib.import_module(".preprocess", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
