"""repro.datasets: registry, parsers, sources (cache / mirror / URL), stand-ins, scaling, CLI.

Shapes and class counts are recomputed from the parsed files and compared with the
registry, which is the check that the parsers are right. Tests that need their own
cache or mirror use a temporary one; the rest share the session cache of ``data_env``.
"""
import csv
import hashlib
import io
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import repro.datasets as D
from repro.datasets import ChecksumError, DatasetUnavailableError, sources
from repro.datasets.parsers import read_arff
from repro.datasets.preprocess import RangeScaler, scale01, scale_pm1
from repro.datasets.registry import REGISTRY, _MIRROR
from repro.datasets.standins import allocate, standin_indices
from repro.papers import PAPERS

REPO = Path(__file__).resolve().parents[1]

# every (name, split) with an expectation; the test loads those the mirror can supply
CASES = [(n, s) for n, spec in REGISTRY.items() if spec.format != "none"
         for s, _ in spec.expected]
BIG = {"skin", "news20.multiclass", "ijcnn1"}


def _class_counts(y):
    u, c = np.unique(y, return_counts=True)
    return tuple(sorted(zip(u.tolist(), c.tolist()), key=lambda kv: (isinstance(kv[0], str), kv[0])))


def _check_types(X, y):
    assert y.ndim == 1 and len(y) == X.shape[0]
    if sp.issparse(X):
        assert X.format == "csr" and X.dtype == np.float64
        assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32
    else:
        assert isinstance(X, np.ndarray) and X.dtype == np.float64 and X.flags.c_contiguous


# ---------------------------------------------------------------- registry
def test_registry_names_cover_the_papers():
    ldm = D.paper_datasets("ldm")
    assert len(ldm) == 36, sorted(ldm)  # Table 1: 20 regular + 12 large; haberman-onehot, heart-f9, wdbc-f14, colic-f13 (Tables 2-3)
    assert ldm["haberman-onehot"] == "haberman-onehot"
    assert set(ldm) >= {"promoters", "colic.ORIG", "austra", "australian", "adult-a", "kdd2010"}
    gs = D.paper_datasets("gs_svm")
    assert len(gs) == 22 and gs["Splice-onehot"] == "splice-onehot" and gs["Adult-7"] == "a7a" and gs["Web-4"] == "w4a" and gs["Page"] == "page-blocks"
    assert len(D.paper_datasets("nesvm")) == 10  # Table I sets 1-6 + four image-feature sets
    assert D.paper_datasets("pegasos") == {"Reuters RCV2 / CCAT": "rcv1-ccat"}
    for name in ("a2a", "a3a", "a5a", "a8a", "a9a", "w8a", "heart_scale", "adult-a", "house", "page"):
        D.get_spec(name)
    for name, spec in REGISTRY.items():
        assert name == name.lower() and spec.name == name
        for p in spec.papers:
            assert p.paper in PAPERS


def test_registry_hashes_match_manifest(data_env):
    rows = {r["path"]: r for r in csv.DictReader(open(data_env / "MANIFEST.tsv"), delimiter="\t")}
    for path, (sha, size, _) in _MIRROR.items():
        assert rows[path]["sha256"] == sha and int(rows[path]["bytes"]) == size, path
    for spec in REGISTRY.values():
        for f in spec.all_files():
            if f.package is not None:  # pinned here, read from an installed package
                assert f.sha256 is not None and f.path not in rows, f.path
                continue
            assert (f.sha256 is None) == (f.path not in rows), f.path


def test_a_file_an_installed_package_ships_is_verified_before_it_is_read(tmp_path, monkeypatch):
    """digits comes from scikit-learn's installed copy, checked against its pinned
    sha256 on the way into the cache; a copy that does not match is refused."""
    from dataclasses import replace

    from repro.datasets import sources

    spec = D.get_spec("digits")
    fs = spec.files("train")[0]
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    assert sources.where(fs) == "package" and D.availability("digits") == "package"
    path, origin = sources.ensure_file(fs, download=False)
    assert origin == "package" and sources.sha256_file(path) == fs.sha256
    X, y, info = D.load("digits", return_info=True)
    assert X.shape == (1797, 64) and info.source in ("package", "cache")
    wrong = replace(fs, path="pkg/sklearn/digits-wrong.csv.gz", sha256="0" * 64)
    with pytest.raises(D.ChecksumError):
        sources.ensure_file(wrong, download=False)
    gone = replace(fs, path="pkg/sklearn/none.csv.gz", package=("scikit-learn", "sklearn", "no/such.csv.gz"))
    assert sources.where(gone) == "unavailable"
    with pytest.raises(D.DatasetUnavailableError, match="package: sklearn/no/such.csv.gz"):
        sources.ensure_file(gone, download=False)


def test_unknown_name_suggests_close_matches():
    with pytest.raises(KeyError, match="a1a"):
        D.load("a1b")
    assert D.get_spec("adult-a").name == "a9a" and D.get_spec("House").name == "vote"


# ---------------------------------------------------------------- parsed shapes
@pytest.mark.parametrize("name,split", CASES, ids=[f"{n}-{s}" for n, s in CASES])
@pytest.mark.slow
def test_shape_and_classes_match_registry(data_env, name, split):
    spec = D.get_spec(name)
    here = D.availability(name, split)
    if here not in ("cached", "mirror", "package", "stand-in"):
        pytest.skip(f"{name} {split}: {here} here")
    X, y, info = D.load(name, split, return_info=True)
    _check_types(X, y)
    assert sp.issparse(X) == spec.sparse
    exp = spec.expect(split)
    assert X.shape == (exp.rows, exp.features)
    if exp.classes:
        assert _class_counts(y) == exp.classes
    assert info.standin == (info.source == "stand-in") == bool(spec.standin and D.is_standin(name))


@pytest.mark.parametrize("name", ["ijcnn1", "a1a", "vowel"])
@pytest.mark.slow
def test_split_all_is_train_plus_test(data_env, name):
    Xa, ya = D.load(name, "all")
    Xr, yr = D.load(name, "train")
    Xt, yt = D.load(name, "test")
    assert Xa.shape[0] == Xr.shape[0] + Xt.shape[0] == D.get_spec(name).expect("all").rows
    np.testing.assert_array_equal(ya, np.concatenate([yr, yt]))
    _check_types(Xa, ya)


def test_libsvm_train_and_test_share_the_full_width(data_env):
    X, _ = D.load("a1a")
    Xt, _ = D.load("a1a", "test")
    assert X.shape[1] == Xt.shape[1] == 123
    assert X.indices.max() + 1 == 119  # the training file alone is only 119 wide


def test_labels_keep_their_identity(data_env):
    assert set(D.load("iris")[1]) == {"Iris-setosa", "Iris-versicolor", "Iris-virginica"}
    assert D.load("wine")[1].dtype == np.int64 and set(D.load("wine")[1]) == {1, 2, 3}
    assert set(D.load("clean1")[1]) == {0, 1}  # written '0.' and '1.'
    assert set(D.load("heart_scale")[1]) == {-1, 1}


def test_splice_onehot_is_splice_with_one_indicator_per_base(data_env):
    """The two codings of Splice (GS-SVM Table 2) hold the same rows and labels;
    base j coded c in 1..4 (A, C, G, T) is indicator 4 j + c - 1."""
    X, y = D.load("splice")
    H, yh = D.load("splice-onehot")
    np.testing.assert_array_equal(y, yh)
    assert H.shape == (X.shape[0], 4 * X.shape[1]) and set(np.unique(X)) == {1.0, 2.0, 3.0, 4.0}
    expected = np.zeros_like(H)
    rows, bases = np.indices(X.shape)
    expected[rows, 4 * bases + X.astype(int) - 1] = 1.0
    np.testing.assert_array_equal(H, expected)


def test_loads_return_copies(data_env):
    X, y = D.load("glass")
    X[:] = 0
    y[:] = -5
    X2, y2 = D.load("glass")
    assert X2.any() and (y2 != -5).all()


def test_arff_reader_agrees_with_scipy(data_env):
    from scipy.io import arff

    files = sorted((data_env / "pkg" / "weka").glob("*.arff"))
    assert files
    for f in files:
        ours, _ = read_arff(f)
        ref, meta = arff.loadarff(f)
        for name in meta.names():
            col, name = ref[name], name.strip("'")  # scipy keeps some names' quotes
            if col.dtype.kind == "S":  # nominal: bytes, b'?' for missing
                want = [None if v == b"?" else v.decode() for v in col]
                assert list(ours[name]) == want, (f.name, name)
            else:
                got = np.array([np.nan if v is None else float(v) for v in ours[name]])
                np.testing.assert_array_equal(got, col, err_msg=f"{f.name} {name}")


def test_arff_reader_handles_quoted_nominals(tmp_path):
    p = tmp_path / "q.arff"
    p.write_text("% comment\n@relation r\n@attribute 'a b' {'x y', 'it\\'s', z}\n"
                 "@attribute n numeric\n@attribute class {'p, q', r}\n@data\n"
                 "'x y', 1.5, 'p, q'\n'it\\'s',?,r\nz , 2 , r\n")
    df, nominal = read_arff(p)
    assert nominal == {"a b": ["x y", "it's", "z"], "class": ["p, q", "r"]}
    assert df.values.tolist() == [["x y", "1.5", "p, q"], ["it's", None, "r"], ["z", "2", "r"]]


def test_unlzw_rebuilds_page_blocks(data_env):
    raw = (data_env / "uci" / "page-blocks.data.Z").read_bytes()
    assert hashlib.sha256(sources.unlzw(raw)).hexdigest() == _MIRROR["uci/page-blocks.data"][0]


def test_page_blocks_is_derived_from_the_Z_when_only_that_exists(tmp_path, monkeypatch, data_env):
    mirror = tmp_path / "mirror"
    (mirror / "uci").mkdir(parents=True)
    (mirror / "uci" / "page-blocks.data.Z").write_bytes((data_env / "uci" / "page-blocks.data.Z").read_bytes())
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(mirror))
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    X, y = D.load("page-blocks")
    assert X.shape == (5473, 10)


# ---------------------------------------------------------------- sources
@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache and no mirror; the network replaced by a failing fake."""
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("REPRO_DATA_MIRROR", raising=False)
    monkeypatch.delenv("REPRO_ALLOW_UNVERIFIED", raising=False)

    def offline(url, timeout=None):
        raise urllib.error.URLError("offline (test)")

    monkeypatch.setattr(sources, "urlopen", offline)
    yield tmp_path
    D.clear_memo()  # parsed copies of this test's private files are of no further use


def _serve(monkeypatch, mapping):
    """Fake network: URL -> local file, opened through urllib's file:// handler."""
    def fake(url, timeout=None):
        if url not in mapping:
            raise urllib.error.URLError(f"no route to {url}")
        return urllib.request.urlopen(Path(mapping[url]).as_uri())

    monkeypatch.setattr(sources, "urlopen", fake)


def test_corrupted_mirror_copy_raises_checksum_error(fresh, monkeypatch, data_env):
    mirror = fresh / "mirror"
    (mirror / "libsvm").mkdir(parents=True)
    data = bytearray((data_env / "libsvm" / "heart_scale").read_bytes())
    data[100] ^= 0x01
    bad = mirror / "libsvm" / "heart_scale"
    bad.write_bytes(bytes(data))
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(mirror))
    with pytest.raises(ChecksumError) as e:
        D.load("heart_scale")
    msg = str(e.value)
    assert str(bad) in msg
    assert _MIRROR["libsvm/heart_scale"][0] in msg and hashlib.sha256(data).hexdigest() in msg
    assert isinstance(e.value, ValueError)
    cache = fresh / "cache" / "libsvm"
    assert not cache.exists() or not any(cache.iterdir())  # nothing corrupt left behind


def test_corrupted_cache_file_without_a_good_source_raises_checksum_error(fresh, monkeypatch, data_env):
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(data_env))
    (path,) = D.fetch("heart_scale")
    monkeypatch.delenv("REPRO_DATA_MIRROR")
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    with pytest.raises(ChecksumError, match=hashlib.sha256(data).hexdigest()) as e:
        D.load("heart_scale")
    assert str(path) in str(e.value) and _MIRROR["libsvm/heart_scale"][0] in str(e.value)
    # the corrupt copy is kept for inspection, out of the way of later loads
    (aside,) = path.parent.glob("heart_scale.corrupt-*")
    assert aside.read_bytes() == bytes(data) and not path.exists()


def test_unavailable_error_lists_every_place_tried(fresh, monkeypatch):
    with pytest.raises(DatasetUnavailableError) as e:
        D.load("glass")
    msg = str(e.value)
    assert isinstance(e.value, LookupError) and isinstance(e.value, OSError)
    assert str(fresh / "cache" / "uci" / "glass.data") in msg
    assert "REPRO_DATA_MIRROR not set" in msg
    assert "https://archive.ics.uci.edu/ml/machine-learning-databases/glass/glass.data" in msg
    assert "offline (test)" in msg
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(fresh / "empty-mirror"))
    with pytest.raises(DatasetUnavailableError, match="empty-mirror/uci/glass.data"):
        D.load("glass")
    with pytest.raises(DatasetUnavailableError, match="no canonical URL"):
        D.load("segment")  # Weka conversion: mirror only
    assert D.availability("glass") == "download" and D.availability("segment") == "unavailable"


def test_download_is_verified_and_atomic(fresh, monkeypatch, data_env):
    spec = D.get_spec("heart_scale")
    (f,) = spec.files("train")
    _serve(monkeypatch, {f.url: data_env / f.path})
    X, y, info = D.load("heart_scale", return_info=True)
    assert info.source == "download" and X.shape == (270, 13)
    X, y, info = D.load("heart_scale", return_info=True)
    assert info.source == "cache"

    # a download cut short leaves neither the file nor a temporary behind

    class Broken(io.BytesIO):
        def read(self, n=-1):
            raise ConnectionResetError("connection lost (test)")

        def __enter__(self):
            return self

    monkeypatch.setattr(sources, "urlopen", lambda url, timeout=None: Broken())
    with pytest.raises(DatasetUnavailableError, match="connection lost"):
        D.load("fourclass")
    assert sorted(p.name for p in (fresh / "cache" / "libsvm").iterdir()) == ["heart_scale"]

    # a corrupted download of a file whose URL content is known is a checksum error
    (h,) = D.get_spec("iris").files("train")
    assert h.url_sha256
    served = fresh / "served"
    served.write_bytes((data_env / h.path).read_bytes()[:-3])
    _serve(monkeypatch, {h.url: served})
    with pytest.raises(ChecksumError, match=h.url_sha256):
        D.load("iris")
    assert not (fresh / "cache" / "uci" / "iris.data").exists()


def test_leftover_part_files_are_ignored(fresh, monkeypatch, data_env):
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(data_env))
    lib = fresh / "cache" / "libsvm"
    lib.mkdir(parents=True)
    (lib / ".heart_scale.abc123.part").write_bytes(b"garbage from an interrupted copy")
    (lib / "heart_scale.part").write_bytes(b"garbage")
    X, y = D.load("heart_scale")
    assert X.shape == (270, 13)
    assert sources.sha256_file(lib / "heart_scale") == _MIRROR["libsvm/heart_scale"][0]


def test_unknown_hash_download_is_refused_unless_allowed(fresh, monkeypatch, data_env):
    # a fake w8a.t of the published size, made of w8a rows
    lines = (data_env / "libsvm" / "w8a").read_bytes().splitlines(keepends=True)[:14951]
    served = fresh / "w8a.t"
    served.write_bytes(b"".join(lines))
    sha = hashlib.sha256(served.read_bytes()).hexdigest()
    (f,) = D.get_spec("w8a").files("test")
    _serve(monkeypatch, {f.url: served})
    with pytest.raises(DatasetUnavailableError, match=sha) as e:
        D.load("w8a", "test")
    assert "REPRO_ALLOW_UNVERIFIED" in str(e.value)
    assert not (fresh / "cache" / "libsvm" / "w8a.t").exists()

    monkeypatch.setenv("REPRO_ALLOW_UNVERIFIED", "1")
    with pytest.warns(UserWarning, match=sha):
        X, y, info = D.load("w8a", "test", return_info=True)
    assert X.shape == (14951, 300) and info.source == "download"
    monkeypatch.delenv("REPRO_ALLOW_UNVERIFIED")
    D.clear_memo()
    assert D.load("w8a", "test")[0].shape == (14951, 300)  # trusted from now on, by its hash
    cached = fresh / "cache" / "libsvm" / "w8a.t"
    cached.write_bytes(cached.read_bytes() + b"-1 1:1\n")
    with pytest.warns(UserWarning, match="moved aside"):  # and downloaded again, held to its hash
        assert D.load("w8a", "test")[0].shape == (14951, 300)
    assert sources.sha256_file(cached) == sha
    served.write_bytes(served.read_bytes() + b"-1 1:1\n")  # changed upstream: refused
    cached.write_bytes(served.read_bytes())
    with pytest.raises(ChecksumError, match=sha):
        D.load("w8a", "test")


# A compressed file cut exactly between two members (bz2 streams, gzip members) is a whole
# file with fewer rows to any parser (repro.datasets.parsers): the loader holds every file
# to its registry sha256, or, where nobody knows one, to the rows the registry expects.
def test_every_registry_file_the_parsers_read_has_a_sha256_or_expected_rows():
    for spec in REGISTRY.values():
        if spec.format in ("none", "image"):  # nothing read / archives of images, not these parsers
            continue
        for split, files in spec.splits:
            for f in files:
                expect = spec.expect(split)
                assert f.sha256 or (expect and expect.rows), (spec.name, split, f.path)


def test_an_unverified_file_cut_between_two_members_is_refused_by_its_rows(fresh, data_env):
    """Issue 47 item 8: w8a.t (no registry sha256) as two gzip members, the second lost."""
    import gzip

    lines = (data_env / "libsvm" / "w8a").read_bytes().splitlines(keepends=True)[:14951]
    first = gzip.compress(b"".join(lines[:7000]))
    cached = fresh / "cache" / "libsvm" / "w8a.t"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(first + gzip.compress(b"".join(lines[7000:])))
    with pytest.warns(UserWarning, match="trusting it on first use"):
        assert D.load("w8a", "test")[0].shape == (14951, 300)  # whole: both members read
    D.clear_memo()
    (fresh / "cache" / ".stamps" / "libsvm" / "w8a.t.json").unlink()  # a first copy already cut
    sources.forget_verified()
    cached.write_bytes(first)
    with pytest.warns(UserWarning, match="trusting it on first use"), \
            pytest.raises(ValueError, match=r"give shape \(7000, 300\), the registry expects \(14951, 300\)"):
        D.load("w8a", "test")


# ---------------------------------------------------------------- stand-ins
STANDINS = {"a6a": ("a9a", 11220, 21341), "a7a": ("a9a", 16100, 16461),
            "w1a": ("w8a", 2477, 47272), "w4a": ("w8a", 7366, 42383), "w7a": ("w8a", 24692, 25057)}


@pytest.mark.parametrize("name", list(STANDINS))
def test_standins(data_env, name):
    pool, n_train, n_test = STANDINS[name]
    if D.availability(name) != "stand-in":
        pytest.skip(f"the canonical {name} is present here")
    assert D.is_standin(name) and not D.is_standin(pool)
    Xp, yp = D.load(pool)
    X, y, info = D.load(name, return_info=True)
    Xt, yt, info_t = D.load(name, "test", return_info=True)
    assert info.standin and info_t.standin and info.source == "stand-in" and "STAND-IN" in info.description
    assert X.shape == (n_train, Xp.shape[1]) and Xt.shape == (n_test, Xp.shape[1])
    _check_types(X, y)
    seed = D.get_spec(name).standin.seed
    tr, te = standin_indices(yp, n_train, seed)
    assert len(np.intersect1d(tr, te)) == 0
    np.testing.assert_array_equal(np.sort(np.concatenate([tr, te])), np.arange(len(yp)))
    assert (X != Xp[tr]).nnz == 0 and (Xt != Xp[te]).nnz == 0
    np.testing.assert_array_equal(y, yp[tr])
    # stratified: each class within one row of its proportional share
    for c in np.unique(yp):
        share = (yp == c).sum() * n_train / len(yp)
        assert abs((y == c).sum() - share) < 1
    D.clear_memo()
    X2, y2 = D.load(name)  # deterministic across calls (and processes: the seed is fixed)
    assert (X2 != X).nnz == 0 and np.array_equal(y2, y)


def test_standin_seeds_are_crc32_of_the_name():
    import zlib

    for name in STANDINS:
        assert D.get_spec(name).standin.seed == zlib.crc32(name.encode())


def test_allocate_is_exact():
    assert allocate(np.array([7841, 24720]), 11220).sum() == 11220
    assert allocate(np.array([1, 1, 1]), 2).tolist() == [1, 1, 0]


def test_canonical_file_wins_over_the_standin(fresh, monkeypatch, data_env):
    # put a "canonical" a6a / a6a.t into a private mirror (here: rows of a9a)
    lines = (data_env / "libsvm" / "a9a").read_bytes().splitlines(keepends=True)
    mirror = fresh / "mirror" / "libsvm"
    mirror.mkdir(parents=True)
    (mirror / "a6a").write_bytes(b"".join(lines[:11220]))
    (mirror / "a6a.t").write_bytes(b"".join(lines[11220:]))
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(fresh / "mirror"))
    assert D.availability("a6a") == "mirror" and not D.is_standin("a6a")
    with pytest.warns(UserWarning, match="trusting it on first use"):
        X, y, info = D.load("a6a", return_info=True)
    assert not info.standin and info.source == "mirror" and X.shape == (11220, 123)


# ---------------------------------------------------------------- scikit-learn routes
def test_sklearn_route_not_attempted_offline(fresh, monkeypatch):
    import sklearn.datasets

    def must_not_run(**kw):
        raise AssertionError("fetcher called although there is no network")

    monkeypatch.setattr(sklearn.datasets, "fetch_covtype", must_not_run)
    monkeypatch.setattr(sources, "network_reachable", lambda url, timeout=3.0: (False, "no route (test)"))
    with pytest.raises(DatasetUnavailableError) as e:
        D.load("covtype")
    msg = str(e.value)
    assert "fetch_covtype" in msg and "no route (test)" in msg
    assert "libsvm/covtype.libsvm.binary.bz2" in msg and "REPRO_DATA_MIRROR not set" in msg
    assert D.availability("covtype") == "download"


def test_rcv1_labels_from_topics(fresh, monkeypatch):
    import sklearn.datasets
    from sklearn.utils import Bunch

    from repro.datasets import loader

    n = loader._RCV1_N_TRAIN + 6
    rng = np.random.default_rng(0)
    topics = ["CCAT", "ECAT", "GCAT", "M11", "MCAT"]
    T = np.zeros((n, len(topics)), dtype=np.uint8)
    # last six documents (the lyrl2004 test part): CCAT, ECAT, GCAT, MCAT, CCAT+GCAT, none
    T[-6, 0] = T[-5, 1] = T[-4, 2] = T[-3, 4] = T[-2, 0] = T[-2, 2] = 1
    T[: n - 6, 0] = rng.integers(0, 2, n - 6)
    T[: n - 6, 2] = 1 - T[: n - 6, 0]
    bunch = Bunch(data=sp.random(n, 7, density=0.3, format="csr", random_state=0),
                  target=sp.csr_matrix(T), target_names=np.array(topics))
    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", lambda **kw: bunch)
    monkeypatch.setattr(sources, "network_reachable", lambda url, timeout=3.0: (True, ""))
    Xtr, ytr, info = D.load("rcv1-ccat", "train", return_info=True)
    assert info.source == "download" and Xtr.shape == (6, 7) and Xtr.indices.dtype == np.int32
    assert ytr.tolist() == [1, -1, -1, -1, 1, -1]
    assert D.load("rcv1-ccat", "test")[0].shape[0] == n - 6
    D.clear_memo()
    yb = D.load("rcv1", "test")[1]  # CCAT/ECAT vs GCAT/MCAT; both or neither dropped
    assert yb.tolist() == [1, 1, -1, -1]
    D.clear_memo()


# ---------------------------------------------------------------- preprocessing
def test_scaling_dense():
    Xtr = np.array([[0.0, 5.0, 2.0], [10.0, 5.0, 4.0], [5.0, 5.0, 3.0]])
    Xte = np.array([[20.0, 7.0, 2.0]])
    a, b, sc = scale01(Xtr, Xte)
    np.testing.assert_allclose(a, [[0, 0, 0], [1, 0, 1], [0.5, 0, 0.5]])
    np.testing.assert_allclose(b, [[2.0, 0.0, 0.0]])  # training statistics, no clipping
    a, _, _ = scale_pm1(Xtr)
    np.testing.assert_allclose(a, [[-1, 0, -1], [1, 0, 1], [0, 0, 0]])  # constant -> 0
    assert a.flags.c_contiguous and a.dtype == np.float64
    with pytest.raises(ValueError):
        RangeScaler().fit(Xtr).transform(Xtr[:, :2])


def test_scaling_csr_keeps_sparsity(data_env):
    X, _ = D.load("a1a")
    Xt, _ = D.load("a1a", "test")
    X = X * 3.0
    a, b, sc = scale01(X, Xt)
    assert sp.issparse(a) and a.nnz == X.nnz and a.indices.dtype == np.int32
    assert a.max() == 1.0 and a.min() == 0.0 and b.nnz <= Xt.nnz
    np.testing.assert_allclose(a.toarray(), RangeScaler().fit(X.toarray()).transform(X.toarray()))
    Z = sp.csr_matrix(np.array([[0.0, 2.0, 0.0], [0.0, 4.0, 1.0]]))  # zero and constant-free
    np.testing.assert_allclose(scale01(Z)[0].toarray(), [[0, 0.5, 0], [0, 1, 1]])
    with pytest.raises(ValueError, match="negative"):
        scale01(sp.csr_matrix(np.array([[-1.0, 0.0], [1.0, 2.0]])))
    with pytest.raises(ValueError, match="implicit zeros"):
        scale_pm1(Z)


def test_scaling_refuses_bad_input_without_changing_the_fitted_scaler():
    sc = RangeScaler().fit(np.array([[0.0, 1.0], [2.0, 3.0]]))
    before = sc.scale_.copy()
    with pytest.raises(ValueError, match="NaN"):
        sc.fit(np.array([[0.0, np.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="infinity"):
        sc.transform(np.array([[0.0, np.inf]]))
    with pytest.raises(ValueError, match="implicit zeros"):
        RangeScaler((-1.0, 1.0)).fit(sp.csr_matrix(np.eye(2)))
    with pytest.raises(ValueError, match="implicit zeros"):
        sc.set_params(feature_range=(-1.0, 1.0)).fit(sp.csr_matrix(np.eye(2)))
    np.testing.assert_array_equal(sc.scale_, before)  # the refused fits left it unchanged


# ---------------------------------------------------------------- command line
def _run(args, env_extra):
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "repro.datasets", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=120)


def _listed(text):
    """name -> availability text of the listing's table (header, rows, blank line)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("name ")) + 1
    rows = lines[start:lines.index("", start)]
    return {line[:24].strip(): line[25:].split("  ")[0].strip() for line in rows}


def test_cli_lists_every_dataset(data_env):
    r = _run([], {})
    assert r.returncode == 0, r.stderr
    listed = _listed(r.stdout)
    assert set(listed) == set(D.names())
    assert listed["a1a"] in ("mirror", "cached") and listed["isolet"] == "unavailable"
    assert {a.split()[0] for a in listed.values()} <= {"cached", "mirror", "package", "download", "stand-in",
                                                       "unavailable"}
    assert listed["digits"] in ("package", "cached")
    # w8a.t is in no mirror and has no recorded sha256: the listing says so
    assert listed["w8a"] in ("mirror (test: unavailable)", "cached (test: unavailable)")


def test_cli_fetch(tmp_path, data_env):
    env = {"REPRO_DATA_DIR": str(tmp_path)}
    r = _run(["fetch", "heart_scale", "glass"], env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "libsvm" / "heart_scale").is_file() and (tmp_path / "uci" / "glass.data").is_file()
    r = _run(["fetch", "isolet"], env)
    assert r.returncode == 1 and "isolet" in r.stderr and "not available" in r.stderr
    r = _run(["fetch", "no-such-set"], env)
    assert r.returncode == 1 and "unknown dataset" in r.stderr


# ---------------------------------------------------------------- where the mirror is
def _fake_checkout(base, with_mirror):
    """A repository checkout (pyproject.toml beside the package) and, optionally, a
    mirror beside it holding heart_scale; returns (checkout, mirror folder)."""
    root = base / "checkout"
    (root / "repro").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'repro'\n")
    mirror = base / "shared" / "datasets"
    if with_mirror:
        (mirror / "libsvm").mkdir(parents=True)
    return root, mirror


def test_checkout_is_recognised_by_its_pyproject(tmp_path):
    root, _ = _fake_checkout(tmp_path, with_mirror=False)
    assert sources.checkout_of(root / "repro") == root
    installed = tmp_path / "lib" / "site-packages" / "repro"
    installed.mkdir(parents=True)
    assert sources.checkout_of(installed) is None


def test_mirror_beside_the_checkout_is_used_when_the_variable_is_unset(fresh, monkeypatch, data_env):
    root, mirror = _fake_checkout(fresh, with_mirror=True)
    (mirror / "libsvm" / "heart_scale").write_bytes((data_env / "libsvm" / "heart_scale").read_bytes())
    monkeypatch.setattr(sources, "_checkout", lambda: root)
    assert sources.mirror_dir() == (mirror, f"REPRO_DATA_MIRROR not set; found beside the checkout {root}")
    X, y, info = D.load("heart_scale", return_info=True)
    assert info.source == "mirror" and X.shape == (270, 13)


def test_mirror_variable_wins_over_the_checkout(fresh, monkeypatch):
    root, _ = _fake_checkout(fresh, with_mirror=True)
    monkeypatch.setattr(sources, "_checkout", lambda: root)
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(fresh / "elsewhere"))
    assert sources.mirror_dir() == (fresh / "elsewhere", "set by REPRO_DATA_MIRROR")
    monkeypatch.setenv("REPRO_DATA_MIRROR", "")  # set empty: no mirror at all
    assert sources.mirror_dir().path is None
    with pytest.raises(DatasetUnavailableError, match="REPRO_DATA_MIRROR set empty"):
        D.load("segment")


def test_no_mirror_without_the_variable_or_a_folder_beside_the_checkout(fresh, monkeypatch):
    root, mirror = _fake_checkout(fresh, with_mirror=False)
    monkeypatch.setattr(sources, "_checkout", lambda: root)
    m = sources.mirror_dir()
    assert m.path is None and str(mirror) in m.how
    monkeypatch.setattr(sources, "_checkout", lambda: None)  # an installed package
    m = sources.mirror_dir()
    assert m.path is None and "installed" in m.how
    with pytest.raises(DatasetUnavailableError, match="REPRO_DATA_MIRROR not set; the package is installed"):
        D.load("segment")


def test_readme_example_works_in_a_new_process_with_nothing_set(tmp_path):
    """The issue's first hour: from a checkout with ../shared/datasets beside it,
    load("a1a") and the listing find the mirror with no variable set."""
    if not (REPO.parent / "shared" / "datasets").is_dir():
        pytest.skip("no shared/datasets beside this checkout")
    env = {k: v for k, v in os.environ.items() if k != "REPRO_DATA_MIRROR"}
    env.update(REPRO_DATA_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = "from repro.datasets import load; X, y, i = load('a1a', return_info=True); print(X.shape, i.source)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[0] == "(1605, 123) mirror"
    r = subprocess.run([sys.executable, "-m", "repro.datasets", "list"], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    beside = REPO.parent / "shared" / "datasets"
    assert f"mirror:    {beside} (REPRO_DATA_MIRROR not set; found beside the checkout {REPO})" in r.stdout
    # NESVM uses a1a's train and test; only the training file is cached so far
    assert _listed(r.stdout)["a1a"] == "mirror (train: cached)"


# ---------------------------------------------------------------- the listing
def _listing(monkeypatch, reachable=(False, "no route (test)"), paper=None):
    from repro.datasets.__main__ import cmd_list

    monkeypatch.setattr(sources, "network_reachable", lambda url, timeout=3.0: reachable)
    out = io.StringIO()
    assert cmd_list(paper, out=out) == 0
    return out.getvalue()


def test_listing_says_where_it_looked_and_what_the_words_mean(fresh, monkeypatch, data_env):
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(data_env))
    text = _listing(monkeypatch)
    assert f"cache:     {fresh / 'cache'} (set by REPRO_DATA_DIR)\n" in text
    assert f"mirror:    {data_env} (set by REPRO_DATA_MIRROR)\n" in text
    assert "downloads: not possible now, no route (test);" in text
    legend = text.split("\n\n")[-1]
    for word in ("cached", "mirror", "download", "stand-in", "unavailable"):
        assert any(line.startswith(f"{word} ") for line in legend.splitlines()), word
    assert "splits the papers use" in legend

    monkeypatch.setenv("REPRO_DATA_MIRROR", str(fresh / "no-such-folder"))
    text = _listing(monkeypatch, reachable=(True, ""), paper="ldm")
    assert f"mirror:    {fresh / 'no-such-folder'} (set by REPRO_DATA_MIRROR; THE FOLDER DOES NOT EXIST)" in text
    assert "downloads: possible (https://www.csie.ntu.edu.tw answers)" in text
    assert "a1a" not in _listed(text) and _listed(text)["a9a"] == "download"  # a1a: not in LDM
    monkeypatch.delenv("REPRO_DATA_MIRROR")
    assert "mirror:    none (REPRO_DATA_MIRROR not set;" in _listing(monkeypatch)


# ---------------------------------------------------------------- availability per split
def _mirror_with(fresh, data_env, *paths):
    """A private mirror holding only ``paths`` of the shared one (symbolic links)."""
    for rel in paths:
        (fresh / "mirror" / rel).parent.mkdir(parents=True, exist_ok=True)
        (fresh / "mirror" / rel).symlink_to(data_env / rel)
    return fresh / "mirror"


def test_availability_is_per_split(fresh, monkeypatch, data_env):
    # a9a's training file in the mirror, its test file in neither cache nor mirror
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(_mirror_with(fresh, data_env, "libsvm/a9a", "libsvm/a1a")))
    assert D.availability("a9a", "train") == "mirror"
    assert D.availability("a9a", "test") == D.availability("a9a", "all") == "download"
    assert D.availability("a9a") == "mirror"  # LDM trains on a9a only
    D.load("a9a")
    assert D.availability("a9a") == "cached" and D.availability("a9a", "test") == "download"
    assert _listed(_listing(monkeypatch))["a9a"] == "cached (test: download)"
    assert D.info("a9a", "test").source == "download" and D.info("a9a").source == "cache"
    with pytest.raises(DatasetUnavailableError, match="a9a.t"):
        D.load("a9a", split="test")  # offline: what the listing's 'download' said
    # NESVM uses a1a's train and test: the dataset's word is the weaker of the two
    assert D.availability("a1a", "train") == "mirror" and D.availability("a1a") == "download"
    assert _listed(_listing(monkeypatch))["a1a"] == "download (train: mirror)"
    with pytest.raises(ValueError, match="no split 'test'"):
        D.availability("heart_scale", "test")


def test_standin_word_follows_all_its_canonical_files(fresh, monkeypatch, data_env):
    """A stand-in's canonical files are used all together or not at all, so a7a with
    only its training file here is still a stand-in, for every split."""
    mirror = _mirror_with(fresh, data_env, "libsvm/a9a")
    lines = (data_env / "libsvm" / "a9a").read_bytes().splitlines(keepends=True)
    (mirror / "libsvm" / "a7a").write_bytes(b"".join(lines[:16100]))
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(mirror))
    assert D.availability("a7a") == D.availability("a7a", "train") == D.availability("a7a", "test") == "stand-in"
    assert D.load("a7a", return_info=True)[2].standin


def test_obtainable_counts_a_download_set_only_where_downloads_can_happen(data_env, monkeypatch):
    """'download' (rcv1-ccat offline, no scikit-learn cache) is obtainable when
    downloads are allowed and its host answers, not otherwise; cached and
    stand-in sets always are, 'unavailable' ones never."""
    from repro.datasets import loader

    assert D.obtainable("heart_scale") and D.obtainable("a7a")  # cached or mirror; stand-in
    assert not D.obtainable("isolet") and not D.obtainable("isolet", download=True)
    if D.availability("rcv1-ccat") != "download":
        pytest.skip("rcv1-ccat is in the scikit-learn cache here")
    assert D.obtainable("rcv1-ccat", download=True) and not D.obtainable("rcv1-ccat", download=False)
    probed = []
    monkeypatch.setattr(loader, "_host_answers", lambda url: probed.append(url) or False)
    assert not D.obtainable("rcv1-ccat")
    assert probed and all(u.startswith("https://") for u in probed)
    monkeypatch.setattr(loader, "_host_answers", lambda url: True)
    assert D.obtainable("rcv1-ccat")
