"""Issue 22, items 1, 2 and 7, offline: the sdist's sha256 is checked before
anything of it runs (and planning never fetches or runs it), temporary folders
go on every exit path and svm_learn sees only short relative file names, and
the wrapper refuses input SVM-Light cannot hold and reports unconverged models.
Everything here runs without the network and without a real SVM-Light build
(fake programs stand in for it)."""
import hashlib
import io
import os
import signal
import subprocess
import sys
import tarfile
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from repro.baselines import svmlight as S


def _tar(path, files):
    """A .tar.gz at ``path`` holding {name: text}."""
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _malicious_sdist(folder, marker):
    """A fake svmlight-0.4.tar.gz whose setup.py and in-tree build backend both
    write ``marker`` when anything (pip's metadata step, a build) runs them."""
    hook = f"open({str(marker)!r}, 'w').write('ran')\n"
    backend = hook + textwrap.dedent("""
        def get_requires_for_build_wheel(config_settings=None): return []
        def get_requires_for_build_sdist(config_settings=None): return []
        def prepare_metadata_for_build_wheel(d, config_settings=None): raise SystemExit(1)
        def build_wheel(d, config_settings=None, metadata_directory=None): raise SystemExit(1)
        def build_sdist(d, config_settings=None): raise SystemExit(1)
        """)
    return _tar(Path(folder) / S.SDIST_NAME, {
        "svmlight-0.4/pyproject.toml": '[build-system]\nrequires = []\nbuild-backend = "backend"\n'
                                       'backend-path = ["."]\n',
        "svmlight-0.4/backend.py": backend,
        "svmlight-0.4/setup.py": hook + "from setuptools import setup\nsetup(name='svmlight', version='0.4')\n",
        "svmlight-0.4/PKG-INFO": "Metadata-Version: 1.0\nName: svmlight\nVersion: 0.4\n",
        "svmlight-0.4/lib/svm_common.h": '# define VERSION       "V6.02"\n',
    })


@pytest.fixture
def offered(monkeypatch, tmp_path):
    """A malicious archive offered as pip would find it: PIP_NO_INDEX=1,
    PIP_FIND_LINKS=<its folder>. Yields (marker path, its sha256)."""
    links = tmp_path / "links"
    links.mkdir()
    marker = tmp_path / "MARKER"
    digest = _malicious_sdist(links, marker)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    S._probe.cache_clear()
    yield marker, digest
    S._probe.cache_clear()


def test_a_wrong_archive_is_refused_before_anything_of_it_runs(offered, tmp_path):
    marker, digest = offered
    assert digest != S.SDIST_SHA256
    into = tmp_path / "out"
    with pytest.raises(RuntimeError) as e:
        S.build(into, log=lambda m: None)
    message = str(e.value)
    assert f"sha256 {digest}" in message and f"expected {S.SDIST_SHA256}" in message
    assert not marker.exists(), "code from the unverified archive ran"
    assert not S.available(into) and not (into / "build.json").exists()


def test_planning_neither_downloads_nor_runs_the_archive(offered, monkeypatch, tmp_path):
    marker, _ = offered

    def forbidden(*args, **kwargs):
        raise AssertionError("why_unavailable fetched or unpacked the archive")

    monkeypatch.setattr(S, "_download_sdist", forbidden)
    monkeypatch.setattr(S.tarfile, "open", forbidden)
    # the archive is where pip looks: buildable, as far as cheap facts tell
    assert S.why_unavailable(tmp_path / "nothing") is None
    assert not marker.exists()


def test_an_archive_with_members_outside_its_folder_is_refused(tmp_path):
    for bad in ("../evil.c", "/etc/evil", "other/svm_common.h"):
        path = tmp_path / "a.tar.gz"
        _tar(path, {"svmlight-0.4/lib/svm_common.h": "x", bad: "x"})
        with tarfile.open(path) as tar, pytest.raises(RuntimeError, match="refusing the member"):
            S._safe_members(tar)


# ------------------------------------------------- fake programs for the wrapper

_EMPTY_MODEL = """SVM-light Version V6.02
0 # kernel type
3 # kernel parameter -d 
1 # kernel parameter -g 
1 # kernel parameter -s 
1 # kernel parameter -r 
empty# kernel parameter -u 
{d} # highest feature index 
{n} # number of training documents 
1 # number of support vectors plus 1 
0 # threshold b, each following line is a SV (starting with alpha*y)
"""


def _fake_build(folder, learn_body):
    """A build folder whose svm_learn is the shell script ``learn_body``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "build.json").write_text("{}")
    for prog, body in (("svm_learn", learn_body), ("svm_classify", "exit 3\n")):
        (folder / prog).write_text("#!/bin/sh\n" + body)
        (folder / prog).chmod(0o755)
    return folder


def _data(n=20, d=2):
    X = np.random.default_rng(0).normal(size=(n, d))
    return X, np.arange(n) % 2


def test_empty_model_that_says_finished_is_not_converged(tmp_path):
    # svm_learn's own report says finished within tol, but the model (w = 0, b = 0)
    # is no better than the trivial point: the duality gap tells
    X, y = _data()
    model = _EMPTY_MODEL.format(d=2, n=20).replace("\n", "\\n")
    learn = (f'for a; do last="$a"; done\nprintf "{model}" > "$last"\n'
             'echo "Optimization finished (0 misclassified, maxdiff=0.00000)."\n')
    fake = _fake_build(tmp_path / "b", learn)
    with pytest.warns(ConvergenceWarning, match="not converged: its duality gap 20 exceeds"):
        m = S.SVMLight(C=1.0, binaries=fake).fit(X, y)
    assert m.converged_ is False and m.objective_ == 20.0
    # and without its report it is not converged either, whatever the model
    learn = f'for a; do last="$a"; done\nprintf "{model}" > "$last"\n'
    with pytest.warns(ConvergenceWarning, match="did not report 'Optimization finished'"):
        assert not S.SVMLight(C=1.0, binaries=_fake_build(tmp_path / "c", learn)).fit(X, y).converged_


def test_svm_learn_gets_short_relative_names_in_a_long_tmpdir(tmp_path, monkeypatch):
    # svm_learn strcpy's its file names into 200-byte buffers
    long_tmp = tmp_path / ("t" * 120) / ("u" * (250 - len(str(tmp_path)) - 123))
    long_tmp.mkdir(parents=True)
    assert len(str(long_tmp)) >= 245
    monkeypatch.setenv("TMPDIR", str(long_tmp))
    monkeypatch.setattr(S.tempfile, "tempdir", None)  # tempfile caches gettempdir()
    model = _EMPTY_MODEL.format(d=2, n=20).replace("\n", "\\n")
    learn = ('for a; do [ ${#a} -lt 200 ] || { echo "long name $a" >&2; exit 9; }; last="$a"; done\n'
             '[ -f train.dat ] || { echo "not run in its folder" >&2; exit 8; }\n'
             f'printf "{model}" > "$last"\necho "Optimization finished (0 misclassified, maxdiff=0.00000)."\n')
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        S.SVMLight(binaries=_fake_build(tmp_path / "b", learn)).fit(X, y)
    assert list(long_tmp.iterdir()) == []


@pytest.mark.parametrize("scale, match", [(1e200, "squared norm beyond float64"),
                                          (1e30, "32-bit floats")])
def test_input_svmlight_cannot_hold_is_refused_up_front(tmp_path, scale, match):
    fake = _fake_build(tmp_path / "b", "echo ran > ran\nexit 3\n")
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        S.SVMLight(binaries=fake).fit(X * scale, y)
    import scipy.sparse as sp

    with pytest.raises(ValueError, match=match):
        S.SVMLight(binaries=fake).fit(sp.csr_matrix(X * scale), y)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        S.SVMLight(binaries=fake).fit(X, y)


def test_default_time_limit():
    assert S.SVMLight().timeout == 600.0


def _wait_for(pattern, folder, proc, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if list(folder.glob(pattern)):
            return
        if proc.poll() is not None:
            raise AssertionError(f"exited early: {proc.communicate()}")
        time.sleep(0.05)
    raise AssertionError(f"no {pattern} in {folder}")


def _terminate_and_check(proc, tmp):
    time.sleep(0.3)  # inside the slow step
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode != 0, (out, err)
    left = [p.name for p in tmp.iterdir()]
    assert not [p for p in left if p.startswith(("svmlight-", "pip-build-env-"))], left


def test_a_fit_stopped_with_sigterm_leaves_no_folder(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    fake = _fake_build(tmp_path / "b", "sleep 30\n")
    code = textwrap.dedent(f"""
        import numpy as np
        from repro.baselines import svmlight as S
        S.SVMLight(binaries={str(fake)!r}).fit(np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2)
        """)
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "TMPDIR": str(tmp)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for("svmlight-fit-*/train.dat", tmp, proc)
    _terminate_and_check(proc, tmp)


def test_a_build_stopped_with_sigterm_leaves_no_folder(tmp_path):
    # a build of an archive that passes the (patched) hash check, stopped while compiling
    tmp, links = tmp_path / "tmp", tmp_path / "links"
    tmp.mkdir()
    links.mkdir()
    digest = _tar(links / S.SDIST_NAME, {"svmlight-0.4/lib/svm_common.h": '# define VERSION       "V6.02"\n'})
    cc = tmp_path / "slowcc"
    cc.write_text("#!/bin/sh\nsleep 30\n")
    cc.chmod(0o755)
    code = textwrap.dedent(f"""
        from repro.baselines import svmlight as S
        S.SDIST_SHA256 = {digest!r}
        S.build({str(tmp_path / 'out')!r}, log=lambda m: None)
        """)
    env = {**os.environ, "TMPDIR": str(tmp), "CC": str(cc), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(links)}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    _wait_for("svmlight-build-*/svmlight-0.4/lib/svm_common.h", tmp, proc)
    _terminate_and_check(proc, tmp)
