"""The cache's verification policy: no corrupt copy is accepted, none is served twice.

Every cache file is hashed in full on its first use in each process; a copy that fails
is moved aside (``<name>.corrupt-<time>``) and fetched again from the mirror or the URL,
else the load fails naming the file, the places tried and what to do. "A new process"
is :func:`repro.datasets.clear_memo` here, and one real subprocess.
"""
import hashlib
import os
import subprocess
import sys
import urllib.error
from pathlib import Path

import numpy as np
import pytest

import repro._io
import repro.datasets as D
from repro.datasets import ChecksumError, DatasetUnavailableError, sources
from repro.datasets.registry import _MIRROR

REPO = Path(__file__).resolve().parents[1]
GOOD = _MIRROR["libsvm/heart_scale"][0]


@pytest.fixture
def cache(tmp_path, monkeypatch, data_env):
    """An empty cache in front of the shared mirror; the network replaced by a failing fake."""
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(data_env))
    monkeypatch.delenv("REPRO_ALLOW_UNVERIFIED", raising=False)
    monkeypatch.delenv("REPRO_VERIFY", raising=False)

    def offline(url, timeout=None):
        raise urllib.error.URLError("offline (test)")

    monkeypatch.setattr(sources, "urlopen", offline)
    D.clear_memo()
    yield tmp_path / "cache"
    D.clear_memo()


def _corrupt_in_place(path: Path) -> bytes:
    """Change one digit, keeping the size, and put the mtime back as it was."""
    st = path.stat()
    data = bytearray(path.read_bytes())
    i = data.index(b"1:")  # the first feature index of the first row: 1 -> 0
    data[i] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    return bytes(data)


def test_in_place_edit_is_caught_in_a_new_process_and_refetched(cache):
    X0, y0 = D.load("heart_scale")
    path = cache / "libsvm" / "heart_scale"
    bad = _corrupt_in_place(path)
    D.clear_memo()  # a new process
    with pytest.warns(UserWarning, match="moved aside to heart_scale.corrupt-") as w:
        X1, y1 = D.load("heart_scale")
    assert hashlib.sha256(bad).hexdigest() in str(w[0].message) and "from the mirror" in str(w[0].message)
    assert np.array_equal(X1, X0) and np.array_equal(y1, y0)
    assert sources.sha256_file(path) == GOOD
    (aside,) = path.parent.glob("heart_scale.corrupt-*")
    assert aside.read_bytes() == bad  # kept for inspection


def test_in_place_edit_is_caught_by_a_real_new_process(cache):
    D.fetch("heart_scale")
    path = cache / "libsvm" / "heart_scale"
    D.load("heart_scale")  # verified and parsed in this process
    bad = _corrupt_in_place(path)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", "import repro.datasets as D; print(D.load('heart_scale')[0].shape)"],
                       capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "(270, 13)" in r.stdout and "moved aside" in r.stderr
    assert sources.sha256_file(path) == GOOD
    assert [p.read_bytes() for p in path.parent.glob("heart_scale.corrupt-*")] == [bad]


def test_corrupt_copy_with_no_good_source_is_refused_with_what_to_do(cache, monkeypatch):
    D.fetch("heart_scale")
    path = cache / "libsvm" / "heart_scale"
    bad = _corrupt_in_place(path)
    monkeypatch.delenv("REPRO_DATA_MIRROR")
    D.clear_memo()
    with pytest.raises(ChecksumError) as e:
        D.load("heart_scale")
    msg = str(e.value)
    assert e.value.path == str(path) and e.value.actual == hashlib.sha256(bad).hexdigest()
    assert GOOD in msg and "moved aside to heart_scale.corrupt-" in msg
    assert "REPRO_DATA_MIRROR not set" in msg and "offline (test)" in msg  # where it looked
    assert "put a good copy in the mirror" in msg  # what to do
    with pytest.raises(DatasetUnavailableError, match="absent"):
        D.load("heart_scale")  # not served the second time either


def test_corrupt_copy_that_cannot_be_moved_is_refused_every_time(cache, monkeypatch):
    """The issue's case: a failed REPRO_VERIFY=full check, then a normal load."""
    D.load("heart_scale")
    path = cache / "libsvm" / "heart_scale"
    _corrupt_in_place(path)

    def read_only(p):
        raise PermissionError(13, "Permission denied (test)", str(p))

    monkeypatch.setattr(sources, "_move_aside", read_only)
    monkeypatch.setenv("REPRO_VERIFY", "full")
    with pytest.raises(ChecksumError, match="could not move it aside"):
        D.load("heart_scale")
    monkeypatch.delenv("REPRO_VERIFY")
    for _ in range(2):
        with pytest.raises(ChecksumError, match=str(path)):
            D.load("heart_scale")
        D.clear_memo()


def test_corrupt_cache_and_mirror_name_both_and_keep_the_mirror(cache, tmp_path, monkeypatch, data_env):
    D.fetch("heart_scale")
    mirror = tmp_path / "mirror"
    (mirror / "libsvm").mkdir(parents=True)
    bad_mirror = bytearray((data_env / "libsvm" / "heart_scale").read_bytes())
    bad_mirror[-2] ^= 0x01
    (mirror / "libsvm" / "heart_scale").write_bytes(bytes(bad_mirror))
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(mirror))
    _corrupt_in_place(cache / "libsvm" / "heart_scale")
    D.clear_memo()
    with pytest.raises(ChecksumError) as e:
        D.load("heart_scale")
    tried = e.value.tried
    assert tried[0].startswith(f"cache: {cache / 'libsvm' / 'heart_scale'}") and "moved aside" in tried[0]
    assert tried[1].startswith(f"mirror: {mirror / 'libsvm' / 'heart_scale'}")
    assert hashlib.sha256(bad_mirror).hexdigest() in tried[1]
    assert (mirror / "libsvm" / "heart_scale").read_bytes() == bytes(bad_mirror)
    assert not (cache / "libsvm" / "heart_scale").exists()


def test_parsed_memo_follows_the_bytes_of_its_file(cache, tmp_path, monkeypatch, data_env):
    """A file the registry has no hash for (a6a, here rows of a9a of the published size)
    is held to the hash first accepted; a new copy, accepted by deleting its stamp, is
    parsed anew in the same process."""
    lines = (data_env / "libsvm" / "a9a").read_bytes().splitlines(keepends=True)
    n = D.get_spec("a6a").expect("train").rows
    mirror = tmp_path / "mirror" / "libsvm"
    mirror.mkdir(parents=True)
    (mirror / "a6a").write_bytes(b"".join(lines[:n]))
    (mirror / "a6a.t").write_bytes(b"".join(lines[n:]))  # else a6a is a stand-in
    monkeypatch.setenv("REPRO_DATA_MIRROR", str(tmp_path / "mirror"))
    with pytest.warns(UserWarning, match="trusting it on first use"):
        y_first = D.load("a6a")[1]

    # another copy in the mirror is refused: the recorded hash is the one expected
    (mirror / "a6a").write_bytes(b"".join(lines[1:n + 1]))
    (cache / "libsvm" / "a6a").unlink()
    stamp = cache / ".stamps" / "libsvm" / "a6a.json"
    with pytest.raises(ChecksumError, match=str(stamp)):
        D.load("a6a")
    stamp.unlink()  # the user accepts the new copy
    with pytest.warns(UserWarning, match="trusting it on first use"):
        y_second = D.load("a6a")[1]
    np.testing.assert_array_equal(y_second[:-1], y_first[1:])  # parsed from the new bytes


def test_interrupted_mirror_copy_leaves_nothing(cache, monkeypatch):
    real = sources._copy_hashing

    def interrupted(read, tmp):
        tmp.write_bytes(read(1000))
        raise KeyboardInterrupt

    monkeypatch.setattr(sources, "_copy_hashing", interrupted)
    with pytest.raises(KeyboardInterrupt):
        D.load("heart_scale")
    lib = cache / "libsvm"
    assert not lib.exists() or not any(lib.iterdir())
    monkeypatch.setattr(sources, "_copy_hashing", real)
    assert D.load("heart_scale")[0].shape == (270, 13)


def test_atomic_path_flushes_the_data_before_the_rename(tmp_path, monkeypatch):
    flushed = []
    real = os.fsync

    def spy(fd):
        flushed.append(os.fstat(fd).st_ino)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    target = tmp_path / "out.txt"
    repro._io.write_text_atomic(target, "complete")
    assert target.stat().st_ino in flushed and target.read_text() == "complete"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
