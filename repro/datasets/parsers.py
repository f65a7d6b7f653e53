"""File formats -> (X, y): LIBSVM/svmlight, UCI delimited text, ARFF, KEEL, R CSV exports.

Conventions of the tabular path (:func:`read_table`), decided once for every UCI set:

* labels keep their identity: numbers become int64 when integral (``0.``/``1.``,
  ``1.0000000e+000`` -> 0/1/1) else float64; anything else stays a string;
* a feature column is numeric when every present value parses as a number
  (``True``/``False`` read as 1/0); otherwise it is categorical, unless the spec says so;
* ordinal coding maps a categorical column's values to 1..k in natural order
  (``A41 < A42 < A410``) or the ARFF's declared order; numeric-coded categoricals keep
  their numbers; explicit codes (nucleotides) win over both;
* one-hot coding uses the values observed in the file, in the same order;
* missing values: ``none`` = an error if any, ``drop`` = drop rows, ``impute`` = column
  mean (numeric) or mode (categorical) over the rows loaded. There is no published
  split for those sets, so the statistics come from the whole file; labels are not used.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import io
import re
import warnings

from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .sources import unlzw


def open_binary(path):
    """Open a file, transparently decompressing bz2, gzip or unix-compress by magic bytes."""
    with open(path, "rb") as f:
        magic = f.read(3)
    if magic == b"BZh":
        return bz2.open(path, "rb")
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rb")
    if magic[:2] == b"\x1f\x9d":
        return io.BytesIO(unlzw(Path(path).read_bytes()))
    return open(path, "rb")


def _labels(values) -> np.ndarray:
    """Original labels, as ints where they are integral numbers, else floats, else strings."""
    vals = np.asarray(values)
    if vals.dtype.kind in "iu":
        return vals.astype(np.int64)
    if vals.dtype.kind == "f":
        return vals.astype(np.int64) if np.all(vals == np.round(vals)) else vals.astype(np.float64)
    strs = [str(v).strip() for v in vals]
    try:
        nums = np.array([float(s) for s in strs])
    except ValueError:
        return np.array(strs, dtype=str)
    return _labels(nums)


# ---------------------------------------------------------------- LIBSVM
def read_libsvm(paths, n_features=None, dense=False):
    """Read one or more LIBSVM files (stacked), all with ``n_features`` columns.

    Sparse output is CSR with int32 indices and float64 data, sorted indices.
    """
    from sklearn.datasets import load_svmlight_file

    Xs, ys = [], []
    for p in paths:
        with open_binary(p) as f:
            X, y = load_svmlight_file(f, n_features=n_features, dtype=np.float64,
                                      zero_based=False)
        Xs.append(X)
        ys.append(y)
    X = sp.vstack(Xs, format="csr") if len(Xs) > 1 else Xs[0].tocsr()
    y = _labels(np.concatenate(ys))
    if dense:
        return np.ascontiguousarray(X.toarray(), dtype=np.float64), y
    X.sort_indices()
    X = sp.csr_matrix((X.data.astype(np.float64, copy=False), X.indices.astype(np.int32),
                       X.indptr.astype(np.int32 if X.nnz < 2**31 else np.int64)), shape=X.shape)
    return X, y


# ---------------------------------------------------------------- ARFF
_ATTR = re.compile(r"@attribute\s+('(?:[^']|\\')*'|\"[^\"]*\"|\S+)\s+(.*)$", re.I)


def _unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1].replace("\\'", "'")
    return s


def _split_csvish(text):
    """Split an ARFF data line or nominal list: commas, quotes ' or ", spaces around."""
    row = next(csv.reader([text], quotechar="'", skipinitialspace=True, escapechar="\\"))
    return [v.strip() for v in row]


def read_arff(path):
    """Small dense-ARFF reader: returns (DataFrame of str/None, {column: declared values}).

    Written because scipy's reader rejects some valid files (quoted nominals with
    spaces, escaped quotes) and returns bytes; this one keeps declared nominal order,
    which defines ordinal codes.
    """
    names, nominal = [], {}
    rows = []
    in_data = False
    with open_binary(path) as f:
        for raw in io.TextIOWrapper(f, encoding="utf-8", errors="replace"):
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            if not in_data:
                low = line.lower()
                if low.startswith("@attribute"):
                    m = _ATTR.match(line)
                    if not m:
                        raise ValueError(f"{path}: cannot parse {line!r}")
                    name, typ = _unquote(m.group(1)), m.group(2).strip()
                    names.append(name)
                    if typ.startswith("{"):
                        nominal[name] = [_unquote(v) for v in _split_csvish(typ.strip("{} \t"))]
                elif low.startswith("@data"):
                    in_data = True
                continue
            if line.startswith("{"):
                raise NotImplementedError(f"{path}: sparse ARFF rows are not supported")
            vals = [_unquote(v) for v in _split_csvish(line)]
            if len(vals) != len(names):
                raise ValueError(f"{path}: {len(vals)} values for {len(names)} attributes: {line!r}")
            rows.append([None if v == "?" else v for v in vals])
    return pd.DataFrame(rows, columns=names, dtype=object), nominal


# ---------------------------------------------------------------- delimited text
def _read_text(path, reader, na):
    kw = dict(dtype=object, keep_default_na=False, na_values=[], skip_blank_lines=True)
    with open_binary(path) as f:
        text = f.read().decode("utf-8", errors="replace")
    buf = io.StringIO(text)
    if reader == "ws":
        df = pd.read_csv(buf, sep=r"\s+", header=None, **kw)
    elif reader == "csv":
        df = pd.read_csv(buf, sep=",", header=None, skipinitialspace=True, **kw)
    elif reader == "keel":  # KEEL .dat: '@' header lines (if any), then CSV, label last
        df = pd.read_csv(buf, sep=",", header=None, skipinitialspace=True, comment="@", **kw)
    elif reader in ("hcsv", "rcsv"):  # header row (R exports: mlbench, kernlab)
        df = pd.read_csv(buf, sep=",", header=0, skipinitialspace=True, **kw)
    else:
        raise ValueError(f"unknown reader {reader!r}")
    return df.map(lambda v: v.strip() if isinstance(v, str) else v)


def _natural_key(v):
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", str(v)) if t)


def _as_float(col: pd.Series):
    """The column as floats if every present value is a number (True/False -> 1/0), else None."""
    present = col.dropna()
    mapped = present.map(lambda v: {"true": "1", "false": "0"}.get(v.lower(), v) if isinstance(v, str) else v)
    try:
        vals = pd.to_numeric(mapped, errors="raise").astype(np.float64)
    except (ValueError, TypeError):
        return None
    out = pd.Series(np.nan, index=col.index, dtype=np.float64)
    out[present.index] = vals
    return out


def _colref(df, ref):
    if isinstance(ref, str):
        if ref not in df.columns:
            raise KeyError(f"no column {ref!r}; have {list(df.columns)}")
        return ref
    return df.columns[ref]


def read_table(files, tab, split="train"):
    """Parse tabular files (concatenated) according to a :class:`Tabular` spec.

    ``files`` is a list of ``(path, sha256)``; the hash selects the registry's row fixes.
    Returns ``(X float64 C-contiguous, y, feature_names)``.
    """
    frames, declared = [], {}
    for path, sha in files:
        if tab.reader == "arff":
            df, nominal = read_arff(path)
            declared.update(nominal)
        else:
            df = _read_text(path, tab.reader, tab.na)
        for fsha, row, col, old, new, why in tab.fixes:
            if fsha == sha:
                c = _colref(df, col)
                if df.at[row, c] == old:
                    df.at[row, c] = new
                else:
                    warnings.warn(f"{path}: registry fix ({why}) did not apply", stacklevel=2)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]

    if tab.split_column is not None:
        c = _colref(df, tab.split_column)
        want = dict(tab.split_values)
        if split == "all":
            keep = df[c].isin(list(want.values()))
        elif split in want:
            keep = df[c] == want[split]
        else:
            raise ValueError(f"no split {split!r}; have {list(want)} and 'all'")
        df = df[keep].drop(columns=[c])

    def shift(ref):  # positions after a dropped split column move left by one
        if tab.split_column is not None and isinstance(ref, int) and ref > tab.split_column:
            return ref - 1
        return ref

    label_col = _colref(df, shift(tab.label))
    drop_cols = [_colref(df, shift(r)) for r in tab.drop]
    cat_cols = (set() if tab.categorical == "auto"
                else {_colref(df, shift(r)) for r in tab.categorical})
    y_raw = df[label_col]
    feats = df.drop(columns=[label_col] + drop_cols)

    # missing values: tokens of the spec (features only: 'N' is a splice class) and '?'
    na = set(tab.na) | {"?"}
    feats = feats.map(lambda v: None if (v is None or (isinstance(v, str) and (v in na or v == ""))) else v)
    y_missing = y_raw.isna() | y_raw.isin(["?", ""])
    miss = feats.isna().any(axis=1)
    if tab.missing == "drop":
        keep = ~(miss | y_missing)
        feats, y_raw = feats[keep], y_raw[keep]
    elif tab.missing == "impute":
        feats, y_raw = feats[~y_missing], y_raw[~y_missing]
    elif miss.any() or y_missing.any():
        raise ValueError(f"{files[0][0]}: {int(miss.sum())} rows with missing values but the "
                         "registry says none")

    codes = dict(tab.codes)
    blocks, names = [], []
    for c in feats.columns:
        col = feats[c]
        num = None if codes else _as_float(col)
        is_cat = bool(codes) or c in cat_cols or c in declared or num is None
        if not is_cat:
            if tab.missing == "impute":
                num = num.fillna(num.mean())
            blocks.append(num.to_numpy()[:, None])
            names.append(str(c))
            continue
        if tab.missing == "impute" and col.isna().any():
            present = col.dropna()
            vc = present.value_counts()
            mode = min(vc[vc == vc.max()].index, key=_natural_key)
            col = col.fillna(mode)
        if codes:
            unknown = set(col.unique()) - set(codes)
            if unknown:
                raise ValueError(f"column {c}: values {sorted(unknown)} have no code")
            blocks.append(col.map(codes).to_numpy(np.float64)[:, None])
            names.append(str(c))
            continue
        if c in declared:  # ARFF: declared order (one-hot: only the values present)
            order = (declared[c] if tab.encoding == "ordinal"
                     else [v for v in declared[c] if v in set(col.unique())])
        elif num is not None:
            order = sorted(col.unique(), key=float)
        else:
            order = sorted(col.unique(), key=_natural_key)
        if tab.encoding == "ordinal":
            if num is not None and c not in declared:  # numeric-coded: keep the numbers
                blocks.append(_as_float(col).to_numpy()[:, None])
            else:
                idx = {v: i + 1 for i, v in enumerate(order)}
                blocks.append(col.map(idx).to_numpy(np.float64)[:, None])
            names.append(str(c))
        elif tab.encoding == "onehot-binary-as-one" and len(order) == 2:
            blocks.append((col == order[1]).to_numpy(np.float64)[:, None])
            names.append(f"{c}={order[1]}")
        elif tab.encoding in ("onehot", "onehot-binary-as-one"):
            vals = col.to_numpy()
            blocks.append(np.stack([(vals == v) for v in order], axis=1).astype(np.float64))
            names.extend(f"{c}={v}" for v in order)
        else:
            raise ValueError(f"unknown encoding {tab.encoding!r}")

    X = np.hstack(blocks) if blocks else np.empty((len(feats), 0))
    if tab.drop_constant:
        keep = np.ptp(X, axis=0) > 0 if len(X) else np.ones(X.shape[1], bool)
        X, names = X[:, keep], [n for n, k in zip(names, keep) if k]
    return np.ascontiguousarray(X, dtype=np.float64), _labels(y_raw.to_numpy()), names
