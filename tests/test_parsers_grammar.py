"""Issue 22 item 3: every number in a LIBSVM file matches one strict grammar.

Python's float() and Decimal() also read '1_0', 'nan', 'inf', 'infinity', non-ASCII
digits and surrounding Unicode whitespace; the LIBSVM format means none of them. The
old guard ``b"_" in buf`` compared a uint8 array with bytes and never fired.
"""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repro.datasets.errors import ParseError
from repro.datasets.parsers import is_number, read_libsvm

STRICT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")


def _refused(tmp_path, data, line, *words):
    p = tmp_path / "f.svm"
    p.write_bytes(data)
    with pytest.raises(ParseError) as e:
        read_libsvm([p])
    msg = str(e.value)
    assert isinstance(e.value, ValueError) and msg.startswith(str(p)) and e.value.line == line, msg
    for w in words:
        assert w in msg, msg


def test_issue_reproducers(tmp_path):
    _refused(tmp_path, b"+1 1:0.1_5\n-1 1:0.25\n", 1, "'0.1_5' is not a number")
    _refused(tmp_path, b"-1 1:0.25\n+1 2:1 8:01_0114504\n", 2, "'01_0114504' is not a number")


@pytest.mark.parametrize("value", [b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"infinity",
                                   b"Infinity", b"1e", b"1e+", b"e5", b"+-1", b"-+1", b"--1",
                                   b"1.2.3", b".", b"1_000", b"_1", b"1__0", b"0x10", b"1d5",
                                   b"\xd9\xa1",  # Arabic-Indic digit one (UTF-8)
                                   b"1\xc2\xa0", b"\xc2\xa01",  # NBSP (UTF-8)
                                   b"1\x1c", b"1\x1f", b"1\x85"])
def test_values_outside_the_grammar_are_refused(tmp_path, value):
    _refused(tmp_path, b"1 1:0.5\n-1 1:" + value + b" 2:1\n", 2, "is not a number")


@pytest.mark.parametrize("label", [b"1_0", b"nan", b"inf", b"+-1", b"\xd9\xa1", b"1e", b"1\xc2\xa0"])
def test_labels_outside_the_grammar_are_refused(tmp_path, label):
    _refused(tmp_path, b"1 1:0.5\n" + label + b" 1:1\n", 2, "is not a number")


@pytest.mark.parametrize("value,want", [(b"1", 1.0), (b"-1.", -1.0), (b"+.5", 0.5), (b"1e3", 1000.0),
                                        (b"1E-3", 1e-3), (b"-0", -0.0), (b"007", 7.0),
                                        (b"1.5e+02", 150.0)])
def test_values_in_the_grammar_read_as_strtod(tmp_path, value, want):
    p = tmp_path / "f.svm"
    p.write_bytes(b"+1 3:" + value + b"\n")
    X, y = read_libsvm([p], dense=True)
    assert X.tolist() == [[0.0, 0.0, want]] and y.tolist() == [1]


@settings(max_examples=300, deadline=None)
@given(tok=st.text(alphabet="0123456789.eE+-_naifINF \u00a0\u0661x", min_size=1, max_size=8))
def test_a_value_is_accepted_exactly_when_it_matches_the_grammar(tmp_path_factory, tok):
    tok = tok.strip(" ")
    if not tok or " " in tok:
        return
    p = tmp_path_factory.mktemp("g") / "f.svm"
    p.write_bytes(b"1 1:" + tok.encode() + b"\n")
    ok = bool(STRICT.match(tok))
    assert is_number(tok) == ok and is_number(tok.encode()) == ok
    try:
        X, _ = read_libsvm([p], dense=True)
    except ParseError as e:
        assert not ok or "finite" in str(e), (tok, str(e))  # 1e999: a number, but not finite
        return
    assert ok, tok
    assert X[0, 0] == float(tok)
