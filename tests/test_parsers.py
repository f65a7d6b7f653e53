"""repro.datasets.parsers: correct or refused.

Every file under tests/data/ is a case that once parsed to something wrong or failed
with an error that did not name the file; each must now be a ParseError (a ValueError)
naming the file and, for text, the line, or parse to exactly what it says. The
property-based tests feed every parser arbitrary bytes (data or a ParseError, nothing
else) and check that generated valid files come back exactly.
"""
import bz2
import gc
import gzip
import shutil
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repro.datasets.errors import ParseError
from repro.datasets.parsers import _labels, _RowError, read_arff, read_libsvm, read_table
from repro.datasets.registry import Tabular

DATA = Path(__file__).parent / "data"


def refused(call, path, line=None, match=None):
    """``call()`` raises a ParseError naming ``path`` (and ``line``); returns the message."""
    with pytest.raises(ParseError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert e.value.path.startswith(str(path)) and str(e.value).startswith(str(path))
    assert e.value.line == line, str(e.value)
    if match:
        assert match in str(e.value), str(e.value)
    return str(e.value)


def table(path, **kw):
    return read_table([(path, None)], Tabular(**kw))


# ---------------------------------------------------------------- LIBSVM regressions
@pytest.mark.parametrize("name,line,match", [
    ("libsvm_bad_value.txt", 2, "'abc' is not a number"),
    ("libsvm_index_above_int32.txt", 2, "exceeds 2147483647"),  # was OverflowError
    ("libsvm_index_1e12.txt", 2, "not a positive integer"),
    ("libsvm_nan.txt", 2, "'nan' is not a number"),  # was accepted; grammar since issue 22
    ("libsvm_inf.txt", 2, "'inf' is not a number"),
    ("libsvm_1e400.txt", 2, "'1e400' is not a finite number"),
    ("libsvm_duplicate_index.txt", 1, "indices must increase"),
    ("libsvm_labels_merge.txt", 1, "two classes would merge"),
])
def test_libsvm_refuses_bad_lines(name, line, match):
    refused(lambda: read_libsvm([DATA / name]), DATA / name, line, match)


def test_libsvm_empty_file_is_refused_not_a_zero_row_matrix():
    refused(lambda: read_libsvm([DATA / "libsvm_empty.txt"]), DATA / "libsvm_empty.txt",
            match="no data rows")


def test_libsvm_index_beyond_n_features_names_the_line():
    refused(lambda: read_libsvm([DATA / "ok.txt"], n_features=2), DATA / "ok.txt", 3,
            "outside 1..2")


def test_libsvm_more_columns_than_int32_names_n_features():
    msg = refused(lambda: read_libsvm([DATA / "ok.txt"], n_features=2**31), DATA / "ok.txt")
    assert "n_features=2147483648" in msg


def test_libsvm_huge_labels_stay_two_classes():
    X, y = read_libsvm([DATA / "libsvm_labels_1e30_2e30.txt"])
    assert y.dtype == np.float64 and y.tolist() == [1e30, 2e30]  # were both int64 min
    assert X.toarray().tolist() == [[1.0], [2.0]]


@pytest.mark.parametrize("name", ["truncated.gz", "truncated.bz2", "two_bytes.Z", "corrupt.Z"])
def test_corrupt_compression_is_a_parse_error(name):
    # truncated gzip / bz2 raised EOFError, .Z an IndexError inside unlzw
    with pytest.raises(ParseError) as e:
        read_libsvm([DATA / name])
    assert e.value.path == str(DATA / name) and e.value.line is None
    assert isinstance(e.value.__cause__, (EOFError, IndexError, ValueError))  # the decoder's complaint


def test_compressed_files_read_like_plain_ones(tmp_path):
    X, y = read_libsvm([DATA / "ok.txt"])
    raw = (DATA / "ok.txt").read_bytes()
    (tmp_path / "ok.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "ok.bz2").write_bytes(bz2.compress(raw))
    for p in ("ok.gz", "ok.bz2"):
        Xc, yc = read_libsvm([tmp_path / p])
        assert (Xc != X).nnz == 0 and yc.tolist() == y.tolist() == [1, -1, 1]


_EDITS = {"bom": lambda raw: "\ufeff".encode() + raw,
          "cr": lambda raw: raw.replace(b"\n", b"\r"),
          "crlf": lambda raw: raw.replace(b"\n", b"\r\n"),
          "bom-cr-gz": lambda raw: gzip.compress("\ufeff".encode() + raw.replace(b"\n", b"\r"))}


@pytest.mark.parametrize("name", list(_EDITS))
def test_libsvm_reads_a_bom_and_cr_line_ends_as_the_table_reader_does(tmp_path, name):
    """Issue 47 item 8: a UTF-8 BOM was "label '\\ufeff1' is not a number" and CR-only
    line ends one long line, where read_table reads both as text editors write them."""
    edit = _EDITS[name]
    path = tmp_path / name
    path.write_bytes(edit((DATA / "ok.txt").read_bytes()))
    X, y = read_libsvm([path])
    assert X.toarray().tolist() == [[0.5, 0, 0], [0, 0.25, 0], [0, 0, 1.0]] and y.tolist() == [1, -1, 1]
    table_copy = tmp_path / f"{name}.csv"  # the same line ends and mark in a table
    table_copy.write_bytes(edit(b"0.5,1\n0.25,-1\n1,1\n"))
    assert table(table_copy, reader="csv")[1].tolist() == [1, -1, 1]


def test_libsvm_lines_counted_as_the_table_reader_counts_them(tmp_path):
    """A bad value is named on the line a text editor shows it: CR, LF and CR LF each end one."""
    path = tmp_path / "mixed"
    path.write_bytes("\ufeff1 1:1\r-1 1:2\r\n1 1:3\n-1 1:x\r".encode())
    refused(lambda: read_libsvm([path]), path, 4, "'x' is not a number")


def test_a_cr_lf_split_between_chunks_is_one_line_end(tmp_path, monkeypatch):
    """Files are parsed 8 MiB at a time: a CR LF across the cut is still one line end."""
    import repro.datasets.parsers as P

    path = tmp_path / "crlf"
    path.write_bytes(b"1 1:1\r\n-1 1:2\r\n1 1:3\r\n-1 1:x\r\n")
    monkeypatch.setattr(P, "_CHUNK", 6)  # the first piece ends with the CR of line 1
    refused(lambda: read_libsvm([path]), path, 4, "'x' is not a number")


_BROKEN = {  # file name -> (bytes, what the refusal says)
    "appended.bz2": (bz2.compress(b"1 1:1\n") + b"appended", "follow the end of a bz2 stream"),
    "appended.gz": (gzip.compress(b"1 1:1\n") + b"appended", "follow the end of a gzip member"),
    "nul_padded.gz": (gzip.compress(b"1 1:1\n") + b"\0" * 8, "follow the end of a gzip member"),
    "cut_second_member.bz2": (bz2.compress(b"1 1:1\n") + bz2.compress(b"-1 1:2\n")[:-4],
                              "the file ends inside a bz2 stream"),
    "cut_second_member.gz": (gzip.compress(b"1 1:1\n") + gzip.compress(b"-1 1:2\n")[:-4],
                             "the file ends inside a gzip member"),
    "magic_only.gz": (gzip.compress(b"1 1:1\n") + b"\x1f\x8b", "the file ends inside a gzip member"),
}


@pytest.mark.parametrize("name", list(_BROKEN))
def test_appended_data_and_cut_members_are_refused_naming_the_file(tmp_path, name):
    """Issue 47 item 8: bz2 ignored data after its last stream (gzip ignored NUL padding),
    so a file with something appended parsed as if whole."""
    data, match = _BROKEN[name]
    path = tmp_path / name
    path.write_bytes(data)
    refused(lambda: read_libsvm([path]), path, None, match)
    refused(lambda: table(path, reader="ws"), path, None, match)


def test_concatenated_members_are_read_in_turn(tmp_path):
    """pbzip2 writes many bz2 streams, `cat a.gz b.gz` two gzip members: all rows are read.
    (A file cut exactly between two members is whole to any parser: the loader's sha256 and
    expected rows catch it; tests/test_datasets.py.)"""
    rows = [b"1 1:1\n", b"-1 1:2\n", b"1 1:3\n"]
    for compress, suffix in ((bz2.compress, "bz2"), (gzip.compress, "gz")):
        path = tmp_path / f"members.{suffix}"
        path.write_bytes(b"".join(compress(r) for r in rows))
        X, y = read_libsvm([path])
        assert y.tolist() == [1, -1, 1] and X.toarray().ravel().tolist() == [1, 2, 3]


def test_missing_file_stays_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_libsvm([tmp_path / "absent"])


# ---------------------------------------------------------------- ARFF regressions
@pytest.mark.parametrize("name,line,match", [
    ("arff_no_attributes.arff", 2, "@data before any @attribute"),  # was IndexError
    ("arff_duplicate_attribute.arff", 3, "declared twice"),  # was AttributeError
    ("arff_misspelt_data.arff", 4, "'@dta' in the header"),  # was 0 rows
    ("arff_undeclared_nominal.arff", 6, "'r' is not among its declared values"),  # was NaN
])
def test_arff_refuses(name, line, match):
    refused(lambda: read_arff(DATA / name), DATA / name, line, match)
    # and through the loader's path, with missing="none" and one-hot alike
    for enc in ("ordinal", "onehot"):
        refused(lambda: table(DATA / name, reader="arff", encoding=enc), DATA / name, line, match)


def test_read_arff_closes_its_file(tmp_path):
    p = tmp_path / "ok.arff"
    p.write_text("@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n2,y\n")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        read_arff(p)
        gc.collect()  # an unclosed handle warns when collected
    assert not [x for x in w if issubclass(x.category, ResourceWarning)]


# ---------------------------------------------------------------- delimited text regressions
def test_imputing_a_wholly_missing_column_is_refused():
    p = DATA / "csv_all_missing_column.csv"
    refused(lambda: table(p, missing="impute"), p, match="column 1: every value is missing")


def test_non_finite_number_in_a_numeric_column_is_refused():
    p = DATA / "csv_nan.csv"
    refused(lambda: table(p), p, 2, "column 1: 'nan' is not a number")


def test_short_row_is_refused_not_padded():
    p = DATA / "csv_short_row.csv"
    refused(lambda: table(p, missing="impute"), p, 2, "1 fields where line 1 has 3")


def test_csv_huge_labels_stay_two_classes():
    X, y = table(DATA / "csv_labels_1e30_2e30.csv")[:2]
    assert y.tolist() == [1e30, 2e30] and X.tolist() == [[1.0], [2.0]]


def test_csv_labels_float64_cannot_tell_apart_are_refused():
    p = DATA / "csv_labels_merge.csv"
    refused(lambda: table(p), p, 1, "two classes would merge")


def test_missing_value_names_line_and_column(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text("1,2,0\n3,?,1\n")
    refused(lambda: table(p), p, 2, "column 1 is missing")


# ---------------------------------------------------------------- labels
@pytest.mark.parametrize("values,expected", [
    (["1", "-1", "+1"], [1, -1, 1]),
    (["0.", "1.0000000e+000"], [0, 1]),
    (["9223372036854775807", "-9223372036854775808"], [2**63 - 1, -(2**63)]),
    (["1e30", "2e30"], [1e30, 2e30]),
    (["0.5", "2"], [0.5, 2.0]),
    (["a", "b"], ["a", "b"]),
])
def test_labels_keep_identity(values, expected):
    assert _labels(np.array(values, dtype=object)).tolist() == expected


@pytest.mark.parametrize("values", [["nan", "1"], ["1", "inf"], ["1e400", "1"],
                                    ["12345678901234567890", "12345678901234567891"]])
def test_labels_that_cannot_be_kept_are_refused(values):
    with pytest.raises(_RowError):
        _labels(np.array(values, dtype=object))


# ---------------------------------------------------------------- properties
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ROUND = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TMP = Path(tempfile.mkdtemp(prefix="repro-parsers-"))
_MAGIC = [b"", b"", b"", b"", b"BZh", b"\x1f\x8b", b"\x1f\x9d", b"\x1f\x9d\x90"]
_PARSERS = {
    "libsvm": lambda p: read_libsvm([p]),
    "libsvm-n": lambda p: read_libsvm([p], n_features=5, dense=True),
    "arff": read_arff,
    "arff-table": lambda p: table(p, reader="arff", encoding="onehot", missing="impute"),
    "csv": lambda p: table(p),
    "ws-impute": lambda p: table(p, reader="ws", missing="impute"),
    "keel-drop": lambda p: table(p, reader="keel", missing="drop", encoding="onehot"),
    "rcsv": lambda p: table(p, reader="rcsv", label="c"),
}
# Lines close to each format (valid ones among them) reach past the first check far
# more often than random bytes do; compressed valid-looking text exercises the decoders.
_LINES = {
    "libsvm": ["1 1:2", "-1 2:0.5 3:1", "+1", "1 1:1 1:2", "1 0:1", "2 3:nan", "# c",
               "1 4:1e400", "x 1:1", "1e30 1:1", "1 5:1 # c"],
    "arff": ["@relation r", "@attribute a numeric", "@attribute c {x,y}", "@attribute a {x,y}",
             "@attribute 'q r' {x, 'y z'}", "@data", "@DATA", "@dta", "1,x", "?,y", "1,'y z'",
             "2,z", "{0 1}", "% c", "1,x,3", "x,1", "nan,x"],
    "csv": ["a,b,c", "1,2,0", "3,?,1", "1,nan,1", "2,3", "c", "1e400,1,1", '"x,y",1,0',
            "4,5,1e30", "@attribute", "1,2,x"],
}
_HEAD = {"libsvm": [""], "csv": ["", "a,b,c\n"],
         "arff": ["", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n",
                  "@attribute a {x,'y z'}\n@attribute c {x,y}\n@data\n"]}
_ALPHABET = {"libsvm": "0123456789 :.-+eE\n#nafi\t", "arff": "@attribute data relation {},'\" ?%\nxyz01.",
             "csv": "0123456789,.-? \n\"abcnaNA@"}
_FAMILY = {"libsvm": "libsvm", "libsvm-n": "libsvm", "arff": "arff", "arff-table": "arff",
           "csv": "csv", "ws-impute": "csv", "keel-drop": "csv", "rcsv": "csv"}


def _fuzz_bytes(kind):
    fam = _FAMILY[kind]
    junk = st.text(alphabet=_ALPHABET[fam], max_size=20)
    lines = st.tuples(st.sampled_from(_HEAD[fam]),
                      st.lists(st.one_of(st.sampled_from(_LINES[fam]), junk), max_size=10)).map(
        lambda t: (t[0] + "\n".join(t[1])).replace(",", " " if kind == "ws-impute" else ",").encode())
    body = st.one_of(st.binary(max_size=200), st.text(alphabet=_ALPHABET[fam], max_size=200).map(str.encode),
                     lines, lines, lines, lines.map(gzip.compress), lines.map(bz2.compress))
    return st.tuples(st.sampled_from(_MAGIC), body).map(lambda t: t[0] + t[1])


def _data_or_parse_error(kind, data):
    path = _TMP / f"fuzz-{kind}"
    path.write_bytes(data)
    try:
        out = _PARSERS[kind](path)
    except ParseError as e:
        assert str(e).startswith(str(path)), str(e)
        return
    X = out[0]
    X = X.toarray() if sp.issparse(X) else X
    if isinstance(X, np.ndarray):
        assert np.isfinite(X).all() and X.shape[0] > 0


@pytest.mark.parametrize("kind", list(_PARSERS))
def test_any_bytes_give_data_or_a_parse_error(kind):
    given(data=_fuzz_bytes(kind))(FUZZ(lambda data: _data_or_parse_error(kind, data)))()


_finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
_label = st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from([0.5, -2.25, 1e30]))


@ROUND
@given(rows=st.lists(st.tuples(_label, st.dictionaries(st.integers(1, 40), _finite, max_size=6)),
                     min_size=1, max_size=12),
       sep=st.sampled_from([" ", "\t", "  "]), comment=st.booleans(),
       compress=st.sampled_from([None, gzip.compress, bz2.compress]))
def test_libsvm_round_trip_is_exact(rows, sep, comment, compress):
    ys = [r[0] for r in rows]
    if any(isinstance(v, float) for v in ys):  # the reader's rule: all ints or all floats
        ys = [float(v) for v in ys]
    lines = []
    for y, feats in zip(ys, (r[1] for r in rows)):
        pairs = sep.join(f"{j}:{v!r}" for j, v in sorted(feats.items()))
        lines.append(f"{y!r}{sep}{pairs}" + (" # note" if comment else ""))
    raw = ("\n".join(lines) + "\n").encode()
    path = _TMP / "round.svm"
    path.write_bytes(compress(raw) if compress else raw)
    X, y = read_libsvm([path], n_features=40)
    want = np.zeros((len(rows), 40))
    for i, (_, feats) in enumerate(rows):
        for j, v in feats.items():
            want[i, j - 1] = v
    assert X.shape == (len(rows), 40) and X.indices.dtype == np.int32
    np.testing.assert_array_equal(X.toarray(), want)
    assert y.tolist() == ys and y.dtype == (np.float64 if isinstance(ys[0], float) else np.int64)


_name = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)


@ROUND
@given(names=st.lists(_name, min_size=2, max_size=5, unique=True),
       levels=st.lists(st.sampled_from(["x", "y y", "it's", "z,w"]), min_size=1, max_size=4, unique=True),
       data=st.data())
def test_arff_round_trip_is_exact(names, levels, data):
    n = data.draw(st.integers(1, 8))
    numeric = [[data.draw(_finite) for _ in range(n)] for _ in names[:-1]]
    klass = [data.draw(st.sampled_from(levels)) for _ in range(n)]

    def q(v):
        return "'" + v.replace("'", "\\'") + "'"

    head = "".join(f"@attribute {a} numeric\n" for a in names[:-1])
    head += f"@attribute {names[-1]} {{{', '.join(q(v) for v in levels)}}}\n"
    body = "".join(",".join([repr(c[i]) for c in numeric] + [q(klass[i])]) + "\n" for i in range(n))
    path = _TMP / "round.arff"
    path.write_text(f"% generated\n@relation r\n{head}@data\n{body}")
    df, nominal = read_arff(path)
    assert list(df.columns) == names and nominal == {names[-1]: levels}
    for a, col in zip(names, numeric):
        assert [float(v) for v in df[a]] == col
    assert list(df[names[-1]]) == klass


@ROUND
@given(X=st.lists(st.lists(_finite, min_size=2, max_size=2), min_size=1, max_size=10),
       labels=st.data(), reader=st.sampled_from(["csv", "ws"]))
def test_delimited_round_trip_is_exact(X, labels, reader):
    y = [labels.draw(st.integers(-(2**63), 2**63 - 1)) for _ in X]
    sep = "," if reader == "csv" else " \t"
    path = _TMP / "round.txt"
    path.write_text("".join(sep.join([repr(a) for a in row] + [str(b)]) + "\n" for row, b in zip(X, y)))
    Xr, yr, _ = table(path, reader=reader)
    np.testing.assert_array_equal(Xr, np.array(X, dtype=np.float64))
    assert yr.tolist() == y and yr.dtype == np.int64


def teardown_module():
    shutil.rmtree(_TMP, ignore_errors=True)
