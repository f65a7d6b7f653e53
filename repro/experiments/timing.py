"""The timing harness of every speed table: interleaved best-of-N, threads pinned.

Speed is reported as ratios against a baseline measured in the same process,
on the same data, at the same time: the methods are run in turn (A, B, C, A,
B, C, ...) so that a drift of the machine (another job starting, frequency
scaling) hits all of them alike, and each one's best time is kept (the least
disturbed run). BLAS and OpenMP pools are pinned with threadpoolctl to
``threads`` (default 1: LIBSVM, LIBLINEAR and our kernels are single-threaded,
so a NumPy call must not take the other cores), and every record carries the
CPU model and the thread count so that ratios are compared only between like
machines.
"""
from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from threadpoolctl import threadpool_info, threadpool_limits


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


#: the record columns of :func:`machine_record`, for a timing table's schema
MACHINE_COLUMNS = {"cpu_model": "str", "cpu_count": "int", "threads": "int", "thread_pools": "str"}


def machine_record(threads: int) -> dict:
    """The columns every timing record carries: where and how it was measured."""
    pools = sorted({p["internal_api"] for p in threadpool_info()})
    return {"cpu_model": cpu_model(), "cpu_count": os.cpu_count(), "threads": threads,
            "thread_pools": "+".join(pools)}


@dataclass
class Timing:
    """Times of one method over the repetitions, and its last fitted result."""
    seconds: list = field(default_factory=list)
    result: Any = None

    @property
    def best(self) -> float:
        return min(self.seconds)


def interleaved_best_of(makers: dict[str, Callable[[], Any]], run: Callable[[Any], Any],
                        repeat: int, threads: int = 1) -> dict[str, Timing]:
    """Time ``run(makers[name]())`` for every method, ``repeat`` rounds of all
    methods in turn, with BLAS/OpenMP pools limited to ``threads``. Only
    ``run`` is timed (making the estimator is not). Returns name -> Timing,
    whose ``result`` is the value ``run`` returned in the last round (e.g.
    the fitted model, for its accuracy)."""
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1; got {repeat}")
    timings = {name: Timing() for name in makers}
    with threadpool_limits(limits=threads):
        for _ in range(repeat):
            for name, make in makers.items():
                subject = make()
                start = time.perf_counter()
                result = run(subject)
                timings[name].seconds.append(time.perf_counter() - start)
                timings[name].result = result
    return timings


@dataclass
class CappedRun:
    """One run of :func:`run_capped`: the function's value and its own time
    (``None`` and the cap when it was stopped at the cap)."""
    value: Any
    seconds: float
    capped: bool


def run_capped(fn: Callable[[], Any], cap_seconds: float, threads: int = 1,
               warm_below: float = 1.0) -> CappedRun:
    """Run ``fn()`` in a forked child process and stop it after ``cap_seconds``.

    Some baselines (LIBSVM and SVM-Light at a large C) run for hours with no
    iteration limit of their own; a speed table must record "not finished
    within the cap" rather than hang. The child runs in its own process group
    (so an external program it starts, svm_learn say, is stopped with it),
    pins its BLAS/OpenMP pools to ``threads``, and times ``fn`` itself: fork
    and the transfer of the value are not in ``seconds``. ``fn`` returns
    something picklable (coefficients, counts), not a fitted estimator that
    holds C pointers. An exception in the child is raised again here, as a
    RuntimeError naming it.

    A fit that took less than ``warm_below`` seconds is run a second time in
    the child and that run is the one timed (and returned): the first run in
    a forked child pays its copy-on-write page faults (Python's reference
    counts write to every object it touches) and first-call costs, about
    20 to 40 ms measured on a1a, several times a small fit's own time; above
    ``warm_below`` that is noise and the fit is not repeated."""
    import multiprocessing as mp
    import signal
    import traceback

    if not cap_seconds > 0:
        raise ValueError(f"cap_seconds must be positive; got {cap_seconds!r}")
    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def child():
        os.setpgid(0, 0)
        try:
            with threadpool_limits(limits=threads):
                start = time.perf_counter()
                value = fn()
                seconds = time.perf_counter() - start
                if seconds < warm_below:  # the warmed second run is the one timed
                    start = time.perf_counter()
                    value = fn()
                    seconds = time.perf_counter() - start
            send.send(("ok", value, seconds))
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            send.send(("error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}", 0.0))
        finally:
            send.close()

    process = ctx.Process(target=child, daemon=True)
    process.start()
    send.close()
    try:
        if receive.poll(cap_seconds):
            status, value, seconds = receive.recv()
            process.join()
            if status == "error":
                raise RuntimeError(f"the capped run failed: {value}")
            return CappedRun(value, seconds, False)
        return CappedRun(None, float(cap_seconds), True)
    finally:
        if process.is_alive():
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.join()
        receive.close()
