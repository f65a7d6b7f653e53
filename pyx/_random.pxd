# cython: language_level=3
"""A small seeded random number generator shared by the stochastic solvers.

xorshift64* (Vigna 2016, "An experimental exploration of Marsaglia's xorshift
generators, scrambled", the variant with shifts 12, 25, 27 and multiplier
2685821657736338717). The solvers need a generator that is seedable, callable
without the GIL and identical on every platform, so that a fit with a given
``random_state`` is reproducible bit for bit; libc ``rand()`` is none of those,
and NumPy's generators cannot be called from ``nogil`` code. The state is one
64-bit word held by the caller (``cdef unsigned long long state``), so several
independent streams cost nothing.

The state must never be zero (zero is a fixed point of the xorshift step).
``rng_seed`` maps any seed to the odd, hence non-zero, state ``seed * 2 + 1``
(wrapping modulo 2**64) that pyx/linear_dcd.pyx has always used, so LinearSVM
keeps its exact permutations.

``rng_randint(s, n)`` is ``next % n``: its bias, at most n / 2**64, is far
below anything a solver can detect, and it is what linear_dcd has always drawn
(a rejection loop would change LinearSVM's results). ``rng_uniform`` takes the
top 53 bits, the standard conversion to a double in [0, 1) with every value a
multiple of 2**-53.
"""


cdef inline unsigned long long rng_seed(unsigned long long seed) noexcept nogil:
    """The initial state for ``seed``: odd, hence never zero."""
    return seed * 2 + 1


cdef inline unsigned long long rng_next(unsigned long long* s) noexcept nogil:
    """Advance the state and return the next 64-bit output."""
    s[0] ^= s[0] >> 12
    s[0] ^= s[0] << 25
    s[0] ^= s[0] >> 27
    return s[0] * <unsigned long long> 2685821657736338717


cdef inline int rng_randint(unsigned long long* s, int n) noexcept nogil:
    """A uniform integer in [0, n) for n >= 1."""
    return <int> (rng_next(s) % <unsigned long long> n)


cdef inline double rng_uniform(unsigned long long* s) noexcept nogil:
    """A uniform double in [0, 1)."""
    return <double> (rng_next(s) >> 11) * (1.0 / 9007199254740992.0)
