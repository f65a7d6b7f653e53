"""load / fetch / availability: the registry, the sources and the parsers put together."""
from __future__ import annotations

import functools
import glob
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from . import sources
from .errors import DatasetUnavailableError
from .registry import DatasetSpec, get_spec, names
from .standins import standin_indices

_ORDER = ("cached", "mirror", "package", "download", "stand-in", "unavailable")
# where a file is had without the network: the cache, the mirror, an installed package
_LOCAL = ("cached", "mirror", "package")


def _source_word(origins) -> str:
    """One word for where a split's files came from: the least local of them."""
    for word in ("download", "package", "mirror"):
        if word in origins:
            return word
    return "cache"
_RCV1_N_TRAIN = 23149  # fetch_rcv1 puts lyrl2004's training documents first


@dataclass(frozen=True)
class DatasetInfo:
    """Where loaded data came from. ``source``: cache, mirror, download, stand-in
    (:func:`info` may also say unavailable). Results built on a stand-in must say so."""
    name: str
    split: str
    source: str
    standin: bool
    description: str
    files: tuple = ()
    sha256: tuple = ()
    papers: tuple = ()
    preprocessing: str = ""
    note: str = ""
    # load(..., impute=False) of a set whose registry entry imputes missing values:
    # each feature column's strategy, 'mean' or 'most_frequent', for the caller to fit
    # on a training part (repro.datasets.preprocess.impute_on); empty otherwise
    impute: tuple = ()


# ---------------------------------------------------------------- availability
def _sk_home() -> Path:
    return sources.data_dir() / "sklearn"


def _sk_cached(kind) -> bool:
    home = _sk_home()
    if kind == "covtype":
        pats = ["covertype/samples*", "covertype/targets*"]
    else:
        pats = ["RCV1/samples.pkl*", "RCV1/sample_topics.pkl*", "RCV1/topics_names.pkl*"]
    return all(glob.glob(str(home / p)) for p in pats)


def _worst(states):
    return max(states, key=_ORDER.index) if states else "unavailable"


def _canonical_files(spec: DatasetSpec):
    """A stand-in's published files: the loader takes all of them or none (its train
    and test parts are complementary draws from one pool, never mixed with a file)."""
    return [f for s in ("train", "test") for f in spec.files(s)]


def _split_state(spec: DatasetSpec, split: str) -> str:
    """Where one split (or 'all') of a dataset without a stand-in would come from."""
    has_files = spec.splits and (split in dict(spec.splits) or split == "all")
    worst = _worst([sources.where(f) for f in spec.files(split)]) if has_files else None
    if spec.sklearn:  # the LIBSVM file when it is here, else the scikit-learn fetcher
        if worst in _LOCAL:
            return worst
        return "cached" if _sk_cached(spec.sklearn) else "download"
    return worst or "unavailable"


def obtainable(name: str, split: str | None = None, download: bool | None = None) -> bool:
    """Whether ``load(name, split)`` can get the data on this machine now: from
    the cache, the mirror or a stand-in, or (``availability`` says 'download')
    from the network. ``download``: whether downloads are allowed; None probes
    the host the download would use (a TCP connection, a few seconds at most),
    so that an offline machine does not count a 'download' set as obtainable
    (a table says 'unavailable offline' for it, not 'not run')."""
    word = availability(name, split)
    if word in _LOCAL + ("stand-in",):
        return True
    if word != "download":
        return False
    if download is not None:
        return bool(download)
    spec = get_spec(name)
    urls = [f.url for f in spec.files(split or "all") if f.url] if spec.splits else []
    if spec.sklearn:
        urls.append(_SK_URL[spec.sklearn])
    return any(_host_answers(u) for u in urls)


@functools.lru_cache(maxsize=None)
def _host_answers(url: str) -> bool:
    """One probe per URL and process (sources.network_reachable)."""
    return sources.network_reachable(url)[0]


def availability(name: str, split: str | None = None) -> str:
    """Where a split would come from here: 'cached', 'mirror', 'download' (a URL with a
    known sha256, one whose sha256 is recorded at its first download, or a checksumming
    scikit-learn fetcher), 'stand-in' or 'unavailable'. Looks at files only; nothing is
    read or fetched. An image-feature set (format 'image') is 'cached' when its feature
    file is, else its archives' word (built from them on load: minutes to hours).

    ``split``: 'train', 'test' (where the dataset has one) or 'all'. Without it, the
    weakest word over the splits the papers use (``DatasetSpec.used_splits``): what a
    run of the papers' experiments can count on, and what ``fetch`` gets. So 'cached'
    means every used split is cached; a split no paper uses may still be worse (a9a's
    test file for LDM, which trains on a9a only): ask for it by name.
    """
    spec = get_spec(name)
    if split is not None and split not in spec.split_names() + ["all"]:
        raise ValueError(f"{spec.name}: no split {split!r}; choose from {spec.split_names() + ['all']}")
    if spec.format == "none":
        return "unavailable"
    if spec.format == "image":  # its feature file, else where its archives would come from
        from .image_features import cached_features

        if cached_features(spec.name) is not None:
            return "cached"
        return _worst([sources.where(f) for f in spec.all_files()])
    if spec.standin:  # the same word for every split: canonical files for all, or none
        worst = _worst([sources.where(f) for f in _canonical_files(spec)])
        if worst in _LOCAL + ("download",):
            return worst
        st = spec.standin
        return "stand-in" if availability(st.pool, st.pool_split) != "unavailable" else "unavailable"
    return _worst([_split_state(spec, s) for s in ([split] if split else spec.used_splits())])


def is_standin(name: str) -> bool:
    """True when ``load(name)`` returns a stand-in here (the canonical files are not
    in the cache or the mirror); see :mod:`repro.datasets.standins`."""
    return availability(name) == "stand-in"


def _describe(spec: DatasetSpec, source: str, split: str) -> str:
    if source == "stand-in":
        st = spec.standin
        return (f"{spec.name} STAND-IN ({st.train:,} train / {st.test:,} test rows drawn from "
                f"{st.pool} {st.pool_split}, stratified, seed {st.seed}); not the published "
                "LIBSVM file")
    parts = [spec.title]
    if spec.source_note:
        parts.append(spec.source_note)
    return "; ".join(parts)


def info(name: str, split: str | None = None) -> DatasetInfo:
    """What :func:`load` would use here, without loading anything. ``split``:
    default 'train', or 'all' for a set registered without splits (the
    unavailable image sets of NESVM)."""
    spec = get_spec(name)
    if split is None:
        split = "train" if "train" in spec.split_names() else "all"
    av = availability(spec.name, split)
    source = {"cached": "cache"}.get(av, av)
    files = tuple(f.path for f in spec.files(split)) if spec.splits else ()
    return DatasetInfo(spec.name, split, source, av == "stand-in", _describe(spec, source, split),
                       files, tuple(f.sha256 for f in spec.files(split)) if spec.splits else (),
                       tuple(p.label() for p in spec.papers), spec.preprocessing, spec.note)


# ---------------------------------------------------------------- loading
_MEMO: OrderedDict = OrderedDict()
_MEMO_SIZE = 6


def _copy(X, y, *rest):
    return ((X.copy() if sp.issparse(X) else X.copy(order="C")), y.copy(), *rest)


def _keeps_missing(spec: DatasetSpec, impute: bool) -> bool:
    """Whether a load leaves the imputation to its caller: ``impute=False`` on a
    set whose registry entry imputes (for every other set the flag changes nothing)."""
    return not impute and spec.tabular is not None and spec.tabular.missing == "impute"


def _parse(spec: DatasetSpec, split: str, got, impute: bool = True):
    """Parse obtained files, memoised per process (big sets are slow to parse):
    ``(X, y, strategies)``, strategies empty unless the missing values are kept."""
    keep = _keeps_missing(spec, impute)
    key = (spec.name, split, tuple((str(p), sha) for p, sha in got)) + (("keep_missing",) if keep else ())
    if key in _MEMO:
        _MEMO.move_to_end(key)
        return _copy(*_MEMO[key])
    from .parsers import read_libsvm, read_table  # pandas / sklearn: imported on first use

    paths = [p for p, _ in got]
    strategies = ()
    if spec.format == "libsvm":
        X, y = read_libsvm(paths, spec.n_features, dense=not spec.sparse)
    else:
        uniq = list(dict.fromkeys(got))  # a split-column file is listed under each split
        if keep:
            X, y, _, strategies = read_table(uniq, spec.tabular, split, impute=False)
        else:
            X, y, _ = read_table(uniq, spec.tabular, split)
    if spec.columns is not None:  # a declared selection of the parsed features
        X = X[:, list(spec.columns)]
        X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X)
        strategies = tuple(strategies[c] for c in spec.columns) if strategies else ()
    _MEMO[key] = (X, y, strategies)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return _copy(X, y, strategies)


def _obtain(spec, split, download, reason=""):
    got, origins, unverified = [], [], []
    for f in spec.files(split):
        path, origin = sources.ensure_file(f, download=download, reason=reason)
        # the hash checked in this process: it keys the parsed-array memo, so parsed data
        # never outlives the exact bytes it was parsed from
        sha, verified = sources.verified_hash(path)
        got.append((path, sha))
        origins.append(origin)
        if not verified:
            unverified.append((path, sha))
    source = _source_word(origins)
    return got, source, unverified


def _check_shape(spec, split, X, unverified):
    exp = spec.expect(split)
    if unverified and exp and (X.shape[0] != exp.rows or X.shape[1] != exp.features):
        files = ", ".join(f"{p} (sha256 {h})" for p, h in unverified)
        raise ValueError(f"{spec.name} {split}: unverified file(s) {files} give shape {X.shape}, "
                         f"the registry expects ({exp.rows}, {exp.features}); delete them")


def _from_files(spec, split, download, reason="", impute=True):
    """``(X, y, source, got, strategies)``: strategies as :func:`_parse` gives them."""
    d = dict(spec.splits)
    if split == "all" and "train" in d and "test" in d and not (
            spec.tabular and spec.tabular.split_column is not None):
        # train + test from the (memoised) parts, not a second parse of both files
        parts = [_from_files(spec, s, download, reason, impute) for s in ("train", "test")]
        Xs = [p[0] for p in parts]
        X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.vstack(Xs)
        if sp.issparse(X):
            X.indices = X.indices.astype(np.int32, copy=False)
            if X.nnz < 2**31:
                X.indptr = X.indptr.astype(np.int32, copy=False)
        srcs = [p[2] for p in parts]
        source = _source_word(srcs)
        return X, np.concatenate([p[1] for p in parts]), source, parts[0][3] + parts[1][3], parts[0][4]
    got, source, unverified = _obtain(spec, split, download, reason)
    X, y, strategies = _parse(spec, split, got, impute)
    _check_shape(spec, split, X, unverified)
    return X, y, source, got, strategies


_UNVERIFIED = "sha256 unknown; set REPRO_ALLOW_UNVERIFIED=1 to download it"


def _missing_lines(files, reason):
    """The places tried for files that are not here, without downloading anything."""
    tried = []
    for f in files:
        if sources.where(f) in ("unavailable", "download"):
            try:
                sources.ensure_file(f, download=False, reason=reason)
            except DatasetUnavailableError as e:
                tried += e.tried
    return tried


def _from_standin(spec, split, download):
    # The canonical files win when all of them are here (cache / mirror), or may be
    # downloaded unverified at the user's request; else the stand-in.
    canon = _canonical_files(spec)
    worst = _worst([sources.where(f) for f in canon])
    tried = []
    if worst in _LOCAL or (download and worst == "download"):
        try:
            return _from_files(spec, split, download)[:4]
        except DatasetUnavailableError as e:
            tried = e.tried
    else:
        tried = _missing_lines(canon, _UNVERIFIED + " (a stand-in is used meanwhile)")
    st = spec.standin
    try:
        Xp, yp, pinfo = load(st.pool, st.pool_split, return_info=True, download=download)
    except DatasetUnavailableError as e:
        raise DatasetUnavailableError(
            f"dataset {spec.name!r} (canonical files, then a stand-in drawn from {st.pool!r})",
            tried + e.tried) from None
    tr, te = standin_indices(yp, st.train, st.seed, st.stratified)
    idx = {"train": tr, "test": te, "all": np.concatenate([tr, te])}[split]
    X = Xp[idx] if sp.issparse(Xp) else np.ascontiguousarray(Xp[idx])
    return X, yp[idx], "stand-in", [(Path(p), h) for p, h in zip(pinfo.files, pinfo.sha256)]


def _sklearn_fetch(kind, download):
    from sklearn.datasets import fetch_covtype, fetch_rcv1

    home = str(_sk_home())
    if kind == "covtype":
        b = fetch_covtype(data_home=home, download_if_missing=download, n_retries=1, delay=0.5)
        X = np.ascontiguousarray(b.data, dtype=np.float64)
        # Collobert et al. (2002): cover type 2 (Lodgepole pine) against the rest
        return {"train": (X, np.where(b.target == 2, 1, -1).astype(np.int64))}
    b = fetch_rcv1(data_home=home, subset="all", download_if_missing=download, n_retries=1, delay=0.5)
    X = b.data.tocsr()
    X = sp.csr_matrix((X.data.astype(np.float64), X.indices.astype(np.int32),
                       X.indptr.astype(np.int32)), shape=X.shape)
    topics = list(b.target_names)
    T = b.target.tocsc()

    def has(t):
        return T[:, topics.index(t)].toarray().ravel().astype(bool)

    n = _RCV1_N_TRAIN
    if kind == "rcv1-ccat":  # Pegasos: CCAT vs rest, trained on the large part
        y = np.where(has("CCAT"), 1, -1).astype(np.int64)
        return {"train": (X[n:], y[n:]), "test": (X[:n], y[:n])}
    # LIBSVM rcv1.binary: CCAT/ECAT vs GCAT/MCAT, documents in both or neither dropped
    pos, neg = has("CCAT") | has("ECAT"), has("GCAT") | has("MCAT")
    keep = pos ^ neg
    y = np.where(pos, 1, -1).astype(np.int64)
    tr, te = np.flatnonzero(keep[:n]), n + np.flatnonzero(keep[n:])
    return {"train": (X[tr], y[tr]), "test": (X[te], y[te])}


_SK_URL = {"covtype": "https://ndownloader.figshare.com/files/5976039",
           "rcv1-binary": "https://ndownloader.figshare.com/files/5976069",
           "rcv1-ccat": "https://ndownloader.figshare.com/files/5976069"}


def _from_sklearn(spec, split, download):
    tried = []
    if spec.splits:  # a LIBSVM file in cache / mirror (or an allowed unverified download)
        try:
            return _from_files(spec, split, download and sources.allow_unverified(),
                               _UNVERIFIED + "; the scikit-learn route is tried instead")[:4]
        except DatasetUnavailableError as e:
            tried += e.tried
    fname = "fetch_covtype" if spec.sklearn == "covtype" else "fetch_rcv1"
    key = (spec.name, "sklearn")
    if key in _MEMO:
        parts, source = _MEMO[key], "cache"
    elif _sk_cached(spec.sklearn):
        parts, source = _sklearn_fetch(spec.sklearn, False), "cache"
    else:
        tried.append(f"scikit-learn cache {_sk_home()} (absent)")
        what = f"dataset {spec.name!r}"
        if not download:
            raise DatasetUnavailableError(what, tried + [f"{fname}: download not attempted"])
        ok, why = sources.network_reachable(_SK_URL[spec.sklearn])
        if not ok:
            raise DatasetUnavailableError(
                what, tried + [f"sklearn.datasets.{fname}: not attempted, no network: {why}"])
        try:
            parts, source = _sklearn_fetch(spec.sklearn, True), "download"
        except Exception as e:  # noqa: BLE001 - reported in the tried list
            raise DatasetUnavailableError(
                what, tried + [f"sklearn.datasets.{fname}: {type(e).__name__}: {e}"]) from e
    _MEMO[key] = parts
    if split == "all":
        Xs, ys = zip(*(parts[s] for s in ("train", "test") if s in parts))
        X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.vstack(Xs)
        out = (X, np.concatenate(ys))
    else:
        out = parts[split]
    X, y = _copy(*out)
    return X, y, source, [(_sk_home(), None)]


def group_labels(y, groups, name="") -> np.ndarray:
    """Labels of a multiclass file mapped to their groups' labels
    (``DatasetSpec.groups``); a label in no group is an error, not dropped."""
    y = np.asarray(y)
    out = np.empty(len(y), dtype=np.int64)
    covered = np.zeros(len(y), dtype=bool)
    for new, old in groups:
        hit = np.isin(y, np.asarray(old, dtype=y.dtype))
        out[hit] = new
        covered |= hit
    if not covered.all():
        raise ValueError(f"{name}: labels {sorted(set(np.unique(y[~covered]).tolist()))} are in no group")
    return out


def load(name: str, split: str = "train", *, return_info: bool = False, download: bool = True,
         impute: bool = True):
    """Load a registry dataset as ``(X, y)`` (or ``(X, y, DatasetInfo)``).

    split: 'train', 'test' (the published test part) or 'all' (train + test, as LDM
    uses for ijcnn1 and rcv1). X is float64: a C-contiguous array, or CSR with int32
    indices for the sparse LIBSVM sets. y holds the original labels (ints, floats or
    strings); solvers map them to +-1 themselves. An image-feature set (the NESVM
    paper's four, format 'image') gives its whole drawn set for 'train' and 'all',
    from its cached feature file, else built from its archives
    (:mod:`repro.datasets.image_features`: minutes to hours).

    impute: a set whose registry entry imputes missing values (``missing='impute'``:
    austra, colic, colic.orig) has them filled from all its rows (column mean for a
    numeric column, mode for a categorical or coded one). ``impute=False`` keeps them
    as NaN and gives each column's strategy in ``DatasetInfo.impute``, so that an
    experiment fits the imputation on each training part only
    (:func:`repro.datasets.preprocess.impute_on`); for every other set it changes nothing.
    """
    spec = get_spec(name)
    if spec.format == "none":
        raise DatasetUnavailableError(
            f"dataset {spec.name!r}",
            [f"no public file: {spec.source_note}"] + [f"see {u}" for u in spec.urls])
    valid = spec.split_names() + ["all"]
    if split not in valid:
        raise ValueError(f"{spec.name}: no split {split!r}; choose from {valid}")
    strategies = ()
    try:
        if spec.format == "image":  # the whole drawn set, whichever split is asked
            from .image_features import load_features

            X, y, source, got = load_features(spec.name, download=download)
        elif spec.standin:
            X, y, source, got = _from_standin(spec, split, download)
        elif spec.sklearn:
            X, y, source, got = _from_sklearn(spec, split, download)
        else:
            X, y, source, got, strategies = _from_files(spec, split, download, impute=impute)
        if spec.groups:
            y = group_labels(y, spec.groups, spec.name)
    except DatasetUnavailableError as e:
        if e.what.startswith("dataset"):
            raise
        raise DatasetUnavailableError(f"dataset {spec.name!r} ({split}): {e.what}", e.tried) from None
    if not return_info:
        return X, y
    inf = DatasetInfo(spec.name, split, source, source == "stand-in",
                      _describe(spec, source, split),
                      tuple(str(p) for p, _ in got), tuple(h for _, h in got),
                      tuple(p.label() for p in spec.papers), spec.preprocessing, spec.note,
                      tuple(strategies))
    return X, y, inf


def fetch(name: str, *, download: bool = True) -> list[Path]:
    """Fetch and verify into the cache the files of the splits the papers use;
    return their cache paths (for a stand-in: its pool's files)."""
    spec = get_spec(name)
    if spec.format == "none":
        load(spec.name)  # raises DatasetUnavailableError with the reason
    if spec.format == "image":  # the archives, verified, and the feature file built from them
        from .image_features import cached_features, features_path

        if cached_features(spec.name) is None:
            load(spec.name, download=download)
        return [features_path(spec.name)]
    if spec.standin:
        canon = _canonical_files(spec)
        if _worst([sources.where(f) for f in canon]) in _LOCAL:
            return [sources.ensure_file(f, download=False)[0] for f in canon]
        return fetch(spec.standin.pool, download=download)
    if spec.sklearn:
        files = [f for s in spec.used_splits() for f in spec.files(s)] if spec.splits else []
        if files and _worst([sources.where(f) for f in files]) in _LOCAL:
            return [sources.ensure_file(f)[0] for f in files]
        _from_sklearn(spec, "train", download)
        return [_sk_home() / ("covertype" if spec.sklearn == "covtype" else "RCV1")]
    out = []
    for s in spec.used_splits():
        for f in spec.files(s):
            p = sources.ensure_file(f, download=download)[0]
            if p not in out:
                out.append(p)
    return out


def clear_memo():
    """Forget what this process has learned about the dataset files: the parsed arrays
    held in memory and which cache files it has verified. The next load hashes and
    parses each file again, as the first load in a new process does."""
    _MEMO.clear()
    sources.forget_verified()


__all__ = ["DatasetInfo", "availability", "clear_memo", "fetch", "info", "is_standin", "load",
           "names"]
