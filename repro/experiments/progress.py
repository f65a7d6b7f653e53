"""Progress lines for long jobs: items done, elapsed time, estimated time left.

A workflow job's stdout goes to its log (``repro._io.log_to``), so an
hour-long job (one outer fold of Page in the GS-SVM paper's Table 2) shows in
``logs/`` how far it is. The estimate assumes the items left cost what the
items done cost on average: a rough figure when they differ (SVMs' grids are
12 times GS-SVM's), said so on every line.
"""
from __future__ import annotations

import sys
import time


def duration(seconds: float) -> str:
    """3725 -> '1h02m', 125 -> '2m05s', 4.2 -> '4.2s'."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """``Progress(total, label)``; call ``step(what)`` after each item."""

    def __init__(self, total: int, label: str, stream=None):
        self.total, self.label, self.done = total, label, 0
        self.stream = stream or sys.stdout
        self.start = time.perf_counter()
        self._say(f"started, {total} items")

    def step(self, what: str = "") -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        left = elapsed / self.done * (self.total - self.done)
        self._say(f"{self.done}/{self.total} done{f' ({what})' if what else ''}, {duration(elapsed)} "
                  f"elapsed, about {duration(left)} left if the rest cost the average")

    def _say(self, text: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {self.label}: {text}", file=self.stream, flush=True)
