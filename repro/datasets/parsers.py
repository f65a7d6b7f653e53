"""File formats -> (X, y): LIBSVM/svmlight, UCI delimited text, ARFF, KEEL, R CSV exports.

Every failure to read a file is a :class:`~repro.datasets.errors.ParseError` (a
``ValueError``) naming the file and, for text, the line: corrupt or truncated
compression, malformed lines, values the format does not allow. Nothing is guessed:
a file either parses to exactly what it says or is refused. (A file that is missing
or unreadable stays an OSError: that is not a matter of its content.)

Conventions of the tabular path (:func:`read_table`), decided once for every UCI set:

* labels keep their identity: numbers become int64 when integral (``0.``/``1.``,
  ``1.0000000e+000`` -> 0/1/1) and within int64, else float64 (refused if two written
  values would become the same float); anything else stays a string;
* every number (LIBSVM values and labels, numeric table cells) matches one strict
  grammar, ``[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?``: what Python's float()
  reads beyond it ('1_0', 'nan', 'inf', 'infinity', non-ASCII digits, Unicode blanks) is
  refused; so is a number beyond float64 (``1e400``);
* a column's kind is the registry's declaration (:class:`~repro.datasets.registry.Tabular`:
  ``categorical``, ``coded``, ``boolean``, ARFF nominal, ``codes``; every other feature
  column is numeric), never inferred from its values: a cell that is not of its kind nor a
  declared missing-value marker, or a label outside the declared ``classes``, is refused
  naming file, line and column;
* ordinal coding maps a categorical column's values to 1..k in natural order
  (``A41 < A42 < A410``) or the ARFF's declared order; ``coded`` columns keep their
  numbers; explicit codes (nucleotides) win over both;
* one-hot coding uses the values observed in the file, in the same order;
* missing values are exactly the spec's ``na`` tokens (ARFF: its ``?``): ``none`` = an error if any, ``drop`` = drop rows, ``impute`` = column
  mean (numeric) or mode (categorical) over the rows loaded; labels are not used. A
  mode tie goes to the value first in natural order (for an ordinal or ``coded``
  column: the smallest number, as scikit-learn's SimpleImputer('most_frequent')
  breaks it). The statistics of a plain load come from the whole file, so an
  experiment that partitions the rows asks for ``impute=False``: the missing cells
  stay NaN, each column's strategy ('mean' or 'most_frequent') is returned beside
  them, and the experiment fits the imputation on each training part
  (:func:`repro.datasets.preprocess.impute_on`), as it fits its scaling.
"""
from __future__ import annotations

import bz2
import csv
import re
import zlib
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .errors import ParseError
from .sources import unlzw

_INT32_MAX = 2**31 - 1  # CSR column indices are int32 (the solvers' kernels assume it)
_CHUNK = 1 << 23  # LIBSVM is parsed 8 MiB at a time: vectorised, with bounded scratch memory

# What decoders and parsers raise on malformed input. An OSError with an errno is a real
# I/O failure (missing file, permissions, disk) and passes through; bz2 and gzip report
# corrupt data as OSErrors without one.
_FORMAT_ERRORS = (ValueError, IndexError, KeyError, AttributeError, OverflowError, TypeError,
                  EOFError, OSError, zlib.error, csv.Error)


# The one number grammar of every text format here: decimal, optional sign, fraction
# and exponent. Python's float() and Decimal() also read '1_0', 'nan', 'inf',
# 'Infinity', non-ASCII digits and surrounding whitespace; no data file means those.
_NUMBER_RE = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBER = re.compile(_NUMBER_RE)
_NUMBER_B = re.compile(_NUMBER_RE.encode())


def is_number(text) -> bool:
    """``text`` (str or bytes) is a number under the strict grammar (no underscores,
    nan, inf, whitespace or non-ASCII digits)."""
    return bool((_NUMBER_B if isinstance(text, bytes) else _NUMBER).fullmatch(text))


# Field separators and padding of delimited text: ASCII space and tab only. str.split()
# and str.strip() would also take NBSP, U+2003, U+001C-U+001F... as blanks, which
# would make '\xa01.4' the number 1.4.
_BLANK = " \t"
_FIELD_SEP = re.compile("[ \t]+")


class _Cursor:
    line = None


@contextmanager
def _reading(path):
    """The one place parser failures become ParseError(path, line).

    Readers set ``cursor.line`` to the line they are on (None while decoding) and raise
    plain ValueErrors; whatever a library raises instead is converted here too, so no
    symptom needs its own try/except.
    """
    cur = _Cursor()
    try:
        yield cur
    except ParseError:
        raise
    except _FORMAT_ERRORS as e:
        if isinstance(e, OSError) and e.errno is not None:
            raise
        msg = str(e) if type(e) is ValueError else f"{type(e).__name__}: {e}"
        raise ParseError(path, msg, cur.line) from e


class _RowError(ValueError):
    """A bad value at row position ``row``; the caller knows the row's file and line."""

    def __init__(self, row, msg):
        self.row = int(row)
        super().__init__(msg)


# Compressed files may hold several members one after another (pbzip2 writes many bz2
# streams, ``cat a.gz b.gz`` two gzip members), read in turn. Every byte must belong to a
# member: Python's BZ2File skips whatever follows the last stream and GzipFile skips NUL
# padding, so data appended to a file (or a download's trailing junk) went unnoticed; here
# it is refused with its offset, and so is a member cut short (no end-of-stream mark).
#
# A file cut exactly at a member boundary is a valid file with fewer members: nothing in a
# .gz or .bz2 says how many members there are (a gzip trailer's CRC and ISIZE, like a bz2
# stream's CRC, cover their own member only), so no parser can tell it from the whole
# file. The loader catches it instead, for every registry file: a file with a known
# sha256 is hashed before it is read (sources.check_cached), and a file without one is
# held to the rows the registry expects (loader._check_shape); tests/test_datasets.py
# checks that every registry file has one or the other.
_MEMBERS = ((b"BZh", "bz2 stream", bz2.BZ2Decompressor),
            (b"\x1f\x8b", "gzip member", lambda: zlib.decompressobj(wbits=31)))  # 31: gzip header, trailer
_MEMBER_INPUT = 1 << 18  # compressed bytes fed at a time: bounds the memory one step decodes into


def _members(f, magic, what, start):
    """The decompressed content of the binary file ``f`` (members of ``start()``'s
    format, each beginning with ``magic``), block by block."""
    decoder, data, offset = start(), b"", 0  # offset: of ``data`` in the file
    while True:
        if not data:
            data = f.read(_MEMBER_INPUT)
            if not data:
                break
        if decoder.eof:  # a member ended: the bytes after it must start the next one
            data += f.read(max(0, len(magic) - len(data)))
            if not data.startswith(magic):
                raise ValueError(f"the bytes from offset {offset} on follow the end of a {what} but do "
                                 f"not start another (data appended to the file?); refused")
            decoder = start()
        out = decoder.decompress(data)
        rest = decoder.unused_data if decoder.eof else b""
        offset += len(data) - len(rest)
        data = rest
        if out:
            yield out
    if not decoder.eof:
        raise ValueError(f"the file ends inside a {what} (cut short?); refused")


def _blocks(f):
    """The content of the binary file ``f``, block by block: bz2, gzip or unix-compress
    decoded by magic bytes, anything else as it is."""
    magic = f.read(3)
    f.seek(0)
    for prefix, what, start in _MEMBERS:
        if magic.startswith(prefix):
            return _members(f, prefix, what, start)
    if magic[:2] == b"\x1f\x9d":
        return iter([unlzw(f.read())])
    return iter(lambda: f.read(_CHUNK), b"")


def read_bytes(path) -> bytes:
    """A file's content, decompressed (bz2, gzip, .Z); a corrupt or truncated file is a ParseError."""
    with _reading(path), open(path, "rb") as f:
        return b"".join(_blocks(f))


_BOM = "\ufeff".encode()


def _text_lines(path, cur):
    """The file's lines as str (strict UTF-8: a bad byte is refused at its line); a
    byte-order mark at the start is dropped, and CR LF and a lone CR end a line as LF does."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        cur.line = data.count(b"\n", 0, e.start) + 1
        raise ValueError(f"not UTF-8 text: {e.reason} at byte {e.start}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _short(s, n=40):
    if isinstance(s, bytes):
        s = s.decode("utf-8", "replace")
    return repr(s if len(s) <= n else s[:n] + "...")


# ---------------------------------------------------------------- labels
def _labels(values, numeric=False) -> np.ndarray:
    """Original labels: int64 where every label is an integer within int64, else float64
    where every label is a finite number, else strings (or, with ``numeric``, an error).

    Numbers are read exactly (Decimal) before any cast, so a label is never rounded into
    another: values that float64 cannot tell apart (``12345678901234567890`` and
    ``...891``) are refused rather than merged. Errors are :class:`_RowError`.
    """
    vals = np.asarray(values)
    if vals.dtype.kind in "iub":
        big = vals.dtype.kind == "u" and len(vals) and vals.max() > np.iinfo(np.int64).max
        if big:
            raise _RowError(np.argmax(vals > np.iinfo(np.int64).max), "label exceeds int64")
        return vals.astype(np.int64)
    if vals.dtype.kind == "f":
        bad = ~np.isfinite(vals)
        if bad.any():
            r = int(np.argmax(bad))
            raise _RowError(r, f"label {vals[r]} is not a finite number")
        if np.all(vals == np.round(vals)) and np.all(np.abs(vals) < 2.0**63):
            return vals.astype(np.int64)
        return vals.astype(np.float64)
    uniq, first, inv = np.unique(vals, return_index=True, return_inverse=True)
    texts = [(u.decode("utf-8", "replace") if isinstance(u, bytes) else str(u)).strip(_BLANK)
             for u in uniq]
    nums, words = [], []
    for k, t in enumerate(texts):
        if not _NUMBER.fullmatch(t):  # Decimal() would read '1_0', 'nan', 'inf', '١'
            if numeric:
                raise _RowError(first[k], f"label {_short(t)} is not a number")
            words.append(k)
            continue
        nums.append(Decimal(t))
    if words:
        if nums:  # names mixed with numbers: refuse a number gone wrong ('nan', '1_0')
            for k in words:
                try:
                    Decimal(texts[k])
                except (InvalidOperation, ValueError):
                    continue
                raise _RowError(first[k], f"label {_short(texts[k])} is not a number")
        return np.array(texts)[inv.ravel()]
    lo, hi = -(2**63), 2**63 - 1
    if all(d == d.to_integral_value() and lo <= d <= hi for d in nums):
        return np.array([int(d) for d in nums], dtype=np.int64)[inv.ravel()]
    seen = {}
    out = np.empty(len(nums))
    for k, d in enumerate(nums):
        f = float(d)  # correctly rounded, as strtod
        if not np.isfinite(f):
            raise _RowError(first[k], f"label {_short(texts[k])} is beyond float64")
        j = seen.setdefault(f, k)
        if j != k and nums[j] != d:
            lo_k = min(first[j], first[k])
            raise _RowError(lo_k, f"labels {_short(texts[j])} and {_short(texts[k])} are the "
                                  "same float64: two classes would merge")
        out[k] = f
    return out[inv.ravel()]


# ---------------------------------------------------------------- LIBSVM
_WS = np.zeros(256, bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_NONDIGIT = np.ones(256, bool)
_NONDIGIT[48:58] = False
_VALUE_BYTE = _WS.copy()  # what a blanked value buffer may hold: whitespace, number bytes
_VALUE_BYTE[list(b"0123456789.eE+-")] = True


def _libsvm_chunk(data, cur, line0, max_index):
    """Parse whole lines (``line0`` lines precede them) -> labels, counts, indices, values, lines.

    Vectorised over bytes: token boundaries, the colon of every pair, digits of every
    index; values by one float() pass (correctly rounded, as strtod). Checks that fail
    name the first bad line.
    """
    if b"#" in data:  # a comment runs to the end of its line; dropping it keeps line numbers
        data = b"\n".join(ln.split(b"#", 1)[0] for ln in data.split(b"\n"))
    b = np.frombuffer(data, np.uint8)
    edge = np.diff(np.concatenate(([0], (~_WS[b]).view(np.int8), [0])))
    starts, ends = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
    if not len(starts):
        return None
    tline = np.searchsorted(np.flatnonzero(b == 10), starts)
    first = np.empty(len(starts), bool)
    first[0] = True
    first[1:] = tline[1:] != tline[:-1]

    def fail(tok, msg):
        cur.line = line0 + int(tline[tok]) + 1
        raise ValueError(msg)

    colons = np.flatnonzero(b == 58)
    ncolon = np.bincount(np.searchsorted(starts, colons, side="right") - 1, minlength=len(starts))
    bad = ncolon != ~first
    if bad.any():
        k = int(np.argmax(bad))
        t = data[starts[k]:ends[k]]
        fail(k, f"label {_short(t)} is not a number" if first[k] else
             f"{_short(t)} is not index:value")
    ptok = np.flatnonzero(~first)
    ps, pe = starts[ptok], ends[ptok]  # colons are in token order, one per pair
    nondigit = np.concatenate(([0], np.cumsum(_NONDIGIT[b])))
    bad = (colons == ps) | (nondigit[colons] != nondigit[ps]) | (colons + 1 == pe)
    if bad.any():
        k = int(np.argmax(bad))
        t = data[ps[k]:pe[k]]
        fail(ptok[k], f"{_short(t)}: " + ("no value" if colons[k] + 1 == pe[k] else
                                          "the index is not a positive integer"))
    ndig = colons - ps
    long = ndig > 10  # more digits than any int32 index: refuse before the sum overflows
    if long.any():
        k = int(np.argmax(long))
        fail(ptok[k], f"feature index {_short(data[ps[k]:colons[k]])} exceeds {max_index}")
    idx = np.zeros(len(ps), np.int64)  # digits checked above: decimal place by place
    for d in range(int(ndig.max(initial=0))):
        m = ndig > d
        idx[m] = idx[m] * 10 + (b[ps[m] + d] - 48)
    # values: the buffer with labels and "index:" blanked out leaves only value tokens
    mark = np.zeros(len(b) + 1, np.int8)
    mark[starts[first]], mark[ends[first]] = 1, -1
    mark[ps], mark[colons + 1] = 1, -1
    buf = b.copy()
    buf[np.cumsum(mark[:-1], dtype=np.int8) > 0] = 32
    toks = buf.tobytes().split()  # exactly the value tokens, in order
    # The number grammar (_NUMBER) in two vectorised steps: a value token holds only
    # digits . e E + - (Python's float() would also read '1_0', 'nan', 'inf', 'infinity'
    # and non-ASCII digits), and float() refuses every misordered string of those bytes
    # ('1e', '+-1', '1.2.3', 'e5'): together exactly _NUMBER.fullmatch (tested).
    try:
        if (~_VALUE_BYTE[buf]).any():
            raise ValueError
        val = np.fromiter(map(float, toks), np.float64, len(toks))
    except ValueError:
        for k, t in enumerate(toks):  # the error path only: find the value
            if not _NUMBER_B.fullmatch(t):
                fail(ptok[k], f"value {_short(t)} is not a number")
        raise  # unreachable: every token matched the grammar float() reads
    bad = ~np.isfinite(val)
    if bad.any():
        k = int(np.argmax(bad))
        fail(ptok[k], f"value {_short(data[colons[k] + 1:pe[k]])} is not a finite number")
    bad = (idx < 1) | (idx > max_index)
    if bad.any():
        k = int(np.argmax(bad))
        fail(ptok[k], f"feature index {int(idx[k])} is outside 1..{max_index}")
    same_row = ~first[ptok[1:] - 1]  # pair k+1 follows pair k on the same line
    bad = (idx[1:] <= idx[:-1]) & same_row
    if bad.any():
        k = int(np.argmax(bad)) + 1
        fail(ptok[k], f"feature index {int(idx[k])} after {int(idx[k - 1])}: indices must "
                      "increase along a line")
    rows = np.flatnonzero(first)
    counts = np.diff(np.append(rows, len(starts))) - 1
    labels = [data[s:e] for s, e in zip(starts[rows], ends[rows])]
    return labels, counts, idx.astype(np.int64), val, line0 + tline[rows] + 1


def _rechunk(blocks, size):
    """``blocks`` joined into pieces of at least ``size`` bytes (the last may be shorter)."""
    buf, n = [], 0
    for block in blocks:
        buf.append(block)
        n += len(block)
        if n >= size:
            yield b"".join(buf)
            buf, n = [], 0
    if buf:
        yield b"".join(buf)


def _lf(data: bytes) -> bytes:
    """CR LF and a lone CR as LF (what _text_lines does to text)."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data


def _line_pieces(blocks):
    """The bytes of ``blocks`` in pieces of about _CHUNK bytes that end at a line end (the
    last may not), read as the table reader reads text (_text_lines), so that a file saved
    by an editor reads the same in either format: a byte-order mark at the start dropped,
    CR LF and a lone CR each a line end."""
    pending = b""
    for k, piece in enumerate(_rechunk(blocks, _CHUNK)):
        data = pending + piece
        if k == 0:  # at least _CHUNK bytes, or the whole file: a mark at its start is whole here
            data = data.removeprefix(_BOM)
        # a CR at the end may be the first half of a CR LF split between pieces: kept back
        held = len(data) - 1 if data.endswith(b"\r") else len(data)
        lines = _lf(data[:held])
        cut = lines.rfind(b"\n") + 1
        pending = lines[cut:] + data[held:]
        if cut:
            yield lines[:cut]
    if pending:
        yield _lf(pending)


def _libsvm_file(path, max_index):
    parts = []
    with _reading(path) as cur, open(path, "rb") as f:
        line0 = 0
        for data in _line_pieces(_blocks(f)):  # cur.line stays None while decoding
            got = _libsvm_chunk(data, cur, line0, max_index)
            if got is not None:
                parts.append(got)
            line0 += data.count(b"\n")
        cur.line = None
        if not parts:
            raise ValueError("no data rows")
    labels = [t for p in parts for t in p[0]]
    return (labels,) + tuple(np.concatenate([p[i] for p in parts]) for i in range(1, 5))


def read_libsvm(paths, n_features=None, dense=False):
    """Read one or more LIBSVM files (stacked), all with ``n_features`` columns
    (default: the largest index in the files).

    Sparse output is CSR with int32 indices and float64 data, sorted indices. Refused,
    naming the file and line: a malformed line, an index outside 1..n_features, indices
    not increasing along a line, a non-finite value, a label that is not a number or
    that float64 cannot keep apart from another, an empty file.
    """
    paths = [str(p) for p in paths]
    if n_features is not None and not 0 < n_features <= _INT32_MAX:
        raise ParseError(", ".join(paths), f"n_features={n_features}: CSR columns are int32, "
                                           f"so at most {_INT32_MAX}")
    limit = _INT32_MAX if n_features is None else n_features
    files = [_libsvm_file(p, limit) for p in paths]
    labels = [t for f in files for t in f[0]]
    try:
        y = _labels(np.array(labels, dtype=object), numeric=True)  # 'S' would drop trailing NULs
    except _RowError as e:
        r = e.row
        for p, f in zip(paths, files):
            if r < len(f[0]):
                raise ParseError(p, str(e), int(f[4][r])) from None
            r -= len(f[0])
        raise
    counts = np.concatenate([f[1] for f in files])
    idx = np.concatenate([f[2] for f in files])
    val = np.concatenate([f[3] for f in files])
    ncols = n_features if n_features is not None else int(idx.max(initial=0))
    nnz = len(idx)
    indptr = np.zeros(len(counts) + 1, np.int32 if nnz < 2**31 else np.int64)
    np.cumsum(counts, out=indptr[1:])
    X = sp.csr_matrix((val, (idx - 1).astype(np.int32), indptr), shape=(len(counts), ncols))
    if dense:
        return np.ascontiguousarray(X.toarray(), dtype=np.float64), y
    X.has_sorted_indices = True  # indices increase along every line: checked above
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
    return [v.strip(_BLANK) for v in row]


def _read_arff(path):
    names, nominal, first_decl = [], {}, {}
    rows, at = [], []
    in_data = False
    with _reading(path) as cur:
        for i, raw in enumerate(_text_lines(path, cur), 1):
            cur.line = i
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            if not in_data:
                # header: only these three keywords; anything else (a misspelt @data)
                # would otherwise swallow the data as header and give 0 rows
                kw = line.split(None, 1)[0].lower()
                if kw == "@attribute":
                    m = _ATTR.match(line)
                    if not m:
                        raise ValueError(f"cannot parse {_short(line, 80)}")
                    name, typ = _unquote(m.group(1)), m.group(2).strip()
                    if name in first_decl:
                        raise ValueError(f"attribute {name!r} declared twice (also on line "
                                         f"{first_decl[name]})")
                    first_decl[name] = i
                    names.append(name)
                    if typ.startswith("{"):
                        nominal[name] = [_unquote(v) for v in _split_csvish(typ.strip("{} \t"))]
                elif kw == "@data":
                    if not names:
                        raise ValueError("@data before any @attribute")
                    in_data = True
                    checks = [(j, set(nominal[n])) for j, n in enumerate(names) if n in nominal]
                elif kw != "@relation":
                    raise ValueError(f"{_short(line, 60)} in the header: expected @relation, "
                                     "@attribute or @data")
                continue
            if line.startswith("{"):
                raise ValueError("sparse ARFF rows are not supported")
            vals = [_unquote(v) for v in _split_csvish(line)]
            if len(vals) != len(names):
                raise ValueError(f"{len(vals)} values for {len(names)} attributes: {_short(line, 80)}")
            vals = [None if v == "?" else v for v in vals]
            for j, allowed in checks:
                if vals[j] is not None and vals[j] not in allowed:
                    raise ValueError(f"attribute {names[j]!r}: {vals[j]!r} is not among its "
                                     f"declared values {nominal[names[j]]}")
            rows.append(vals)
            at.append(i)
        cur.line = None
        if not in_data:
            raise ValueError("no @data section")
        if not rows:
            raise ValueError("no data rows after @data")
    return pd.DataFrame(rows, columns=names, dtype=object), nominal, np.array(at)


def read_arff(path):
    """Small dense-ARFF reader: returns (DataFrame of str/None, {column: declared values}).

    Written because scipy's reader rejects some valid files (quoted nominals with
    spaces, escaped quotes) and returns bytes; this one keeps declared nominal order,
    which defines ordinal codes. Refused, naming the line: anything in the header but
    @relation / @attribute / @data, a repeated attribute name, no attributes or no data,
    a row of the wrong length, a nominal value that is not declared.
    """
    df, nominal, _ = _read_arff(path)
    return df, nominal


# ---------------------------------------------------------------- delimited text
def _read_text(path, reader):
    """Delimited text -> (DataFrame of stripped str, line number of every row).

    Every row must have the width of the first (or of the header): pandas would pad a
    short row with missing values, which ``missing='impute'`` would then fill silently.
    """
    if reader not in ("ws", "csv", "keel", "hcsv", "rcsv"):
        raise ValueError(f"unknown reader {reader!r}")
    with _reading(path) as cur:
        lines = _text_lines(path, cur)
        if reader == "keel":  # KEEL .dat: '@' header lines (if any), then CSV, label last
            lines = ["" if ln.lstrip().startswith("@") else ln for ln in lines]
        # Fields are gathered flat, with a count and a line number per record, and
        # reshaped at the end: a list per row would keep ~10^5 containers alive and
        # make the garbage collector rescan them (Skin_NonSkin: 10x slower).
        flat, counts, at = [], [], []
        if reader == "ws":
            for i, ln in enumerate(lines, 1):
                f = _FIELD_SEP.split(ln.strip(_BLANK)) if ln.strip(_BLANK) else []
                if f:
                    flat += f
                    counts.append(len(f))
                    at.append(i)
        else:
            rd = csv.reader(lines, skipinitialspace=True)
            last = 0
            for r in rd:
                if rd.line_num > last + 1:
                    # a record of a data table is one line: a quote left open would
                    # otherwise join the lines after it into one field, silently
                    cur.line = last + 1
                    raise ValueError(f"a quoted field runs from line {last + 1} to line "
                                     f"{rd.line_num} (a quote left open?)")
                last = rd.line_num
                if len(r) > 1 or (r and r[0].strip(_BLANK)):  # not blank
                    flat += [v.strip(_BLANK) for v in r]
                    counts.append(len(r))
                    at.append(rd.line_num)  # the record's last line
        header = None
        if reader in ("hcsv", "rcsv") and counts:  # header row (R exports)
            cur.line, n = at.pop(0), counts.pop(0)
            header = [v or f"Unnamed: {j}" for j, v in enumerate(flat[:n])]
            del flat[:n]
            dup = next((v for j, v in enumerate(header) if v in header[:j]), None)
            if dup is not None:
                raise ValueError(f"column {dup!r} named twice in the header")
        if not counts:
            cur.line = None
            raise ValueError("no data rows")
        width, width_line = (len(header), cur.line) if header else (counts[0], at[0])
        counts = np.array(counts)
        if (counts != width).any():
            k = int(np.argmax(counts != width))
            cur.line = at[k]
            raise ValueError(f"{counts[k]} fields where line {width_line} has {width}")
    rows = np.empty(len(flat), dtype=object)
    rows[:] = flat
    rows, at = rows.reshape(len(counts), width), np.array(at)
    return pd.DataFrame(rows, columns=header if header else range(width), dtype=object), at


def _natural_key(v):
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", str(v)) if t)


def _numbers(col: pd.Series, what, c, at):
    """A numeric column's present cells as floats; any cell not under the number grammar
    (``what`` = 'number') or not True/False (``what`` = 'boolean') is refused at its row."""
    present = col.dropna()
    if what == "boolean":
        low = present.map(str.lower)
        bad = ~low.isin(["true", "false"])
        vals = (low == "true").astype(np.float64)
    else:
        bad = ~present.map(is_number).astype(bool)
        vals = None
    if bad.any():
        r = bad.idxmax()
        kind = "True or False" if what == "boolean" else "a number"
        raise at(r, f"column {c}: {present[r]!r} is not {kind} (nor a declared missing-value "
                    "marker)")
    if vals is None:
        vals = present.map(float).astype(np.float64)
    out = pd.Series(np.nan, index=col.index, dtype=np.float64)
    out[present.index] = vals
    return out


def _colref(df, ref):
    if isinstance(ref, str):
        if ref not in df.columns:
            raise KeyError(f"no column {ref!r}; have {list(df.columns)}")
        return ref
    return df.columns[ref]


def read_table(files, tab, split="train", impute=True):
    """Parse tabular files (concatenated) according to a :class:`Tabular` spec.

    ``files`` is a list of ``(path, sha256)``; the hash selects the registry's row fixes.
    Returns ``(X float64 C-contiguous, y, feature_names)``. ``impute=False`` (for a spec
    with ``missing='impute'``; nothing changes for the others): the missing cells are
    kept as NaN, nothing is imputed, and a fourth element gives each column's strategy,
    'mean' (numeric, boolean) or 'most_frequent' (categorical, coded), for the caller
    to fit on a training part (one-hot coding is refused: a missing value there spans
    several columns). Column kinds and the classes
    come from the spec (never from the values); a value the spec does not allow is a
    ParseError naming its file, line and column. Every step runs inside the error
    context of its file (a fix for a row the file does not have included).
    """
    frames, declared, origin = [], {}, []
    for path, sha in files:
        with _reading(path) as cur:
            if tab.reader == "arff":
                df, nominal, lines = _read_arff(path)
                declared.update(nominal)
            else:
                df, lines = _read_text(path, tab.reader)
            for fsha, row, col, old, new, why in tab.fixes:
                if fsha == sha:
                    c = _colref(df, col)
                    if row not in df.index:
                        raise ValueError(f"registry fix ({why}) is for row {row + 1}, but the "
                                         f"file has {len(df)} rows")
                    cur.line = int(lines[row])
                    if df.at[row, c] != old:
                        raise ValueError(f"registry fix ({why}): column {c} holds "
                                         f"{df.at[row, c]!r}, not {old!r}")
                    df.at[row, c] = new
        frames.append(df)
        origin.append((path, lines))
    offsets = np.cumsum([0] + [len(f) for f in frames])

    def at(row, msg):
        """ParseError at a row label of the concatenated frame: its own file and line."""
        k = int(np.searchsorted(offsets, row, side="right")) - 1
        path, lines = origin[k]
        return ParseError(path, msg, int(lines[row - offsets[k]]))

    with _reading(", ".join(str(p) for p, _ in files)):
        X, y, names, strategies = _table(frames, declared, tab, split, at,
                                         impute or tab.missing != "impute")
    return (X, y, names) if impute else (X, y, names, strategies)


def _table(frames, declared, tab, split, at, impute=True):
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
    kind = {}
    for decl, k in ((tab.categorical, "names"), (tab.coded, "coded"), (tab.boolean, "boolean")):
        for r in decl:
            c = _colref(df, shift(r))
            if c in kind or c == label_col or c in drop_cols:
                raise ValueError(f"column {c}: declared {k} and also "
                                 f"{kind.get(c, 'the label or dropped')}")
            kind[c] = k
    levels = {_colref(df, shift(r)): set(v) for r, v in tab.levels}
    y_raw = df[label_col]
    feats = df.drop(columns=[label_col] + drop_cols)
    codes = dict(tab.codes)

    # labels: exactly the declared classes (a typo is not a new class)
    if tab.classes is not None:
        classes = {str(v) for v in tab.classes}
        bad = ~y_raw.isin(classes)
        if bad.any():
            r = bad.idxmax()
            v = y_raw[r]
            raise at(r, f"column {label_col} (the label): "
                        + ("missing" if v is None else f"{v!r} is not a declared class")
                        + f" (classes: {', '.join(sorted(classes))})")

    # missing values: exactly the declared markers (features only: 'N' is a splice class)
    na = set(tab.na)
    feats = feats.map(lambda v: None if (v is None or (isinstance(v, str) and v in na)) else v)
    # every kept cell is checked against its column's declared kind before any row is dropped
    nums = {}
    for c in feats.columns:
        k = "names" if (codes or c in declared) else kind.get(c, "number")
        if k in ("number", "coded", "boolean"):
            nums[c] = _numbers(feats[c], "boolean" if k == "boolean" else "number", c, at)
        if c in levels:
            if k not in ("names", "coded"):
                raise ValueError(f"column {c}: levels declared for a {k} column")
            present = feats[c].dropna()
            bad = ~present.isin(levels[c])
            if bad.any():
                r = bad.idxmax()
                raise at(r, f"column {c}: {present[r]!r} is not one of its declared values "
                            f"({', '.join(levels[c])}) nor a declared missing-value marker")
        kind[c] = k
    y_missing = y_raw.isna() | (y_raw.isin(["?", ""]) if tab.classes is None else False)
    miss = feats.isna().any(axis=1)
    if tab.missing == "drop":
        keep = ~(miss | y_missing)
        feats, y_raw = feats[keep], y_raw[keep]
    elif tab.missing == "impute":
        feats, y_raw = feats[~y_missing], y_raw[~y_missing]
    elif miss.any() or y_missing.any():
        r = (miss | y_missing).idxmax()
        what = "the label" if y_missing[r] else f"column {feats.columns[feats.loc[r].isna().to_numpy()][0]}"
        raise at(r, f"{what} is missing ({int((miss | y_missing).sum())} rows with missing "
                    "values) but the registry says none")
    if not len(feats):
        raise ValueError("no rows left" + (f" in split {split!r}" if tab.split_column is not None else "")
                         + (" after dropping rows with missing values" if tab.missing == "drop" else ""))

    # impute=False: the missing cells stay NaN and each column says how to fill it
    keep_na = tab.missing == "impute" and not impute
    if keep_na and tab.encoding != "ordinal":
        raise ValueError(f"missing values kept with {tab.encoding!r} coding: a missing value "
                         "would span several columns")
    blocks, names, sources, strategies = [], [], [], []
    for c in feats.columns:
        col = feats[c]
        k = kind[c]
        num = nums[c].loc[feats.index] if c in nums else None
        if tab.missing == "impute" and col.isna().all():
            raise ValueError(f"column {c}: every value is missing, nothing to impute from")
        strategies.append("mean" if k in ("number", "boolean") else "most_frequent")
        if k in ("number", "boolean"):
            if tab.missing == "impute" and not keep_na:
                num = num.fillna(num.mean())
            blocks.append(num.to_numpy()[:, None])
            names.append(str(c))
            sources.append(c)
            continue
        if keep_na:
            present = col.dropna()
            if codes:
                unknown = ~present.isin(list(codes))
                if unknown.any():
                    r = unknown.idxmax()
                    raise at(r, f"column {c}: {col[r]!r} has no code (codes: {sorted(codes)})")
                blocks.append(col.map(codes).to_numpy(np.float64)[:, None])
            elif k == "coded":  # numeric codes: keep the numbers (NaN where missing)
                blocks.append(num.to_numpy()[:, None])
            else:  # 1..k over the present values, in the order a plain load gives them
                order = (declared[c] if c in declared
                         else sorted(present.unique(), key=_natural_key))
                idx = {v: i + 1 for i, v in enumerate(order)}
                blocks.append(col.map(idx).to_numpy(np.float64)[:, None])
            names.append(str(c))
            sources.append(c)
            continue
        if tab.missing == "impute" and col.isna().any():
            present = col.dropna()
            vc = present.value_counts()
            mode = min(vc[vc == vc.max()].index, key=_natural_key)
            col = col.fillna(mode)
            if num is not None:
                num = num.fillna(float(mode))
        if codes:
            unknown = ~col.isin(list(codes))
            if unknown.any():
                r = unknown.idxmax()
                raise at(r, f"column {c}: {col[r]!r} has no code (codes: {sorted(codes)})")
            blocks.append(col.map(codes).to_numpy(np.float64)[:, None])
            names.append(str(c))
            sources.append(c)
            continue
        if c in declared:  # ARFF: declared order (one-hot: only the values present)
            order = (declared[c] if tab.encoding == "ordinal"
                     else [v for v in declared[c] if v in set(col.unique())])
        elif k == "coded":
            order = sorted(col.unique(), key=float)
        else:
            order = sorted(col.unique(), key=_natural_key)
        if tab.encoding == "ordinal":
            if k == "coded":  # numeric codes: keep the numbers
                blocks.append(num.to_numpy()[:, None])
            else:
                idx = {v: i + 1 for i, v in enumerate(order)}
                blocks.append(col.map(idx).to_numpy(np.float64)[:, None])
            names.append(str(c))
            sources.append(c)
        elif tab.encoding == "onehot-binary-as-one" and len(order) == 2:
            blocks.append((col == order[1]).to_numpy(np.float64)[:, None])
            names.append(f"{c}={order[1]}")
            sources.append(c)
        elif tab.encoding in ("onehot", "onehot-binary-as-one"):
            vals = col.to_numpy()
            blocks.append(np.stack([(vals == v) for v in order], axis=1).astype(np.float64))
            names.extend(f"{c}={v}" for v in order)
            sources.extend(c for _ in order)
        else:
            raise ValueError(f"unknown encoding {tab.encoding!r}")

    X = np.hstack(blocks) if blocks else np.empty((len(feats), 0))
    # The one guard for every route to a non-finite feature: 'nan' / 'inf' / '1e400'
    # written in a numeric column, a value without an ordinal code (a missing cell
    # kept as NaN is the one NaN allowed).
    bad = ~np.isfinite(X)
    if keep_na:
        bad &= ~feats.isna().to_numpy()
    if bad.any():
        i, j = np.argwhere(bad)[0]
        r = feats.index[i]
        raise at(r, f"column {sources[j]}: {feats.at[r, sources[j]]!r} is not a finite number")
    if tab.drop_constant:
        keep = (np.nanmax(X, axis=0) > np.nanmin(X, axis=0) if keep_na else np.ptp(X, axis=0) > 0) \
            if len(X) else np.ones(X.shape[1], bool)
        X, names = X[:, keep], [n for n, k in zip(names, keep) if k]
        strategies = [t for t, k in zip(strategies, keep) if k]
    try:
        y = _labels(y_raw.to_numpy())
    except _RowError as e:
        raise at(y_raw.index[e.row], str(e)) from None
    return np.ascontiguousarray(X, dtype=np.float64), y, names, tuple(strategies)
