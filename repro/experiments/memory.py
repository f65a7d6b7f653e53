"""How an experiment job's process asks the C library for memory.

A job allocates and frees the same large arrays again and again: GS-SVM
Table 2 makes a 4,925 x 4,925 kernel matrix per theta on Page (194 MB) and
cuts its one-vs-one sub-Grams (about 0.66 GB a theta), then drops them. glibc's
malloc serves every block above its mmap threshold (at most 32 MiB) with a
fresh ``mmap`` and gives it back with ``munmap`` when it is freed, so each new
array is fresh pages, which the kernel zeroes on first touch: on Page's SVM
grid that is about a fifth of the time (measured below).

:func:`keep_freed_memory` makes malloc serve every block from its heap and
keep what is freed there for the next allocation. The values computed are
the same (NumPy's arrays are written before they are read; the jobs' records
are compared in the commit that made this the default); what changes is the
time and the peak: a process keeps the memory it has freed, and reuse leaves
gaps, so its peak resident size grows (about 12 % on Page's grids), which the
workflow's memory requests (1.5 x the measured peak) cover.

Measured on a 2-core Intel Xeon, nothing else running, one GS-SVM Table 2
inner grid (outer fold 0, 90 % of it fitted), off / on, two rounds each,
identical accuracies: Page SVMs 28.7, 25.9 -> 22.5, 22.1 s; Page GS-SVMs
5.8, 5.6 -> 4.7, 5.0 s; Splice SVMs 7.9, 7.8 -> 7.2, 7.5 s; Page HM-SVMs
(its time is SMO steps on cached columns) 29.2, 29.0 -> 29.3, 28.9 s.
"""
import ctypes
import ctypes.util
import sys

# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
# the most mallopt takes for the trim threshold (an int): 2 GiB of free memory
# at the top of the heap before malloc gives any back
_TRIM_THRESHOLD = 2**31 - 1


def keep_freed_memory() -> bool:
    """Have glibc's malloc serve every allocation from its heap (no ``mmap``
    per large block) and keep freed memory for reuse instead of returning it
    to the system. Returns whether it applied: False off Linux, or where
    the C library is not glibc (there is nothing to set; the job runs as
    before). Call it once, early in a job's process: it holds for the whole
    process."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    # mallopt returns 1 on success; both must hold, or freed blocks are still
    # returned (trimmed) and the next one is fresh pages again
    return mallopt(_M_MMAP_MAX, 0) == 1 and mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD) == 1
