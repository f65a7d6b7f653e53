"""pyx/simplex.pyx: the projection onto a product of simplices (KM-OMD's feasible
set) against the NumPy sort-based rule it replaced, bitwise, and against the
projection's defining properties."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from repro._kernels.simplex import project_simplices
from repro.solvers import ldm_baselines
from repro.solvers.ldm_baselines import KMOMD, project_simplex


def numpy_projection(v):
    """The NumPy rule KM-OMD used before pyx/simplex.pyx (Duchi et al. 2008, Fig. 1)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, len(v) + 1)
    rho = np.nonzero(u - css / k > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1), 0.0)


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(arrays(np.float64, st.integers(1, 60), elements=finite))
def test_bitwise_the_numpy_rule(v):
    assert np.array_equal(project_simplex(v), numpy_projection(v))


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, st.integers(2, 40), elements=st.sampled_from([-1.0, 0.0, 0.25, 0.5, 3.0])))
def test_ties_bitwise(v):
    assert np.array_equal(project_simplex(v), numpy_projection(v))


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, st.integers(2, 50), elements=finite), st.data())
def test_two_groups_project_separately(v, data):
    pos = np.array(data.draw(st.lists(st.booleans(), min_size=len(v), max_size=len(v))))
    if pos.all() or not pos.any():
        pos[0] = not pos[0]
    out = ldm_baselines._two_simplices(pos, ~pos)(v)
    assert np.array_equal(out[pos], numpy_projection(v[pos]))
    assert np.array_equal(out[~pos], numpy_projection(v[~pos]))


def test_is_the_closest_point_of_the_simplex():
    """The projection is feasible and no feasible point is closer (checked
    against random feasible points and the KKT form g = max(v - theta, 0))."""
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 100):
        v = rng.normal(size=n) * 3
        g = project_simplex(v)
        assert np.all(g >= 0) and abs(g.sum() - 1) < 1e-12
        for p in rng.dirichlet(np.ones(n), size=200):
            assert np.linalg.norm(v - g) <= np.linalg.norm(v - p) + 1e-12


def test_refuses_bad_groups():
    v, out = np.zeros(3), np.zeros(3)
    with pytest.raises(ValueError, match="empty"):
        project_simplices(v, np.arange(3, dtype=np.intp), np.array([0, 0, 3], dtype=np.intp), out)
    with pytest.raises(ValueError, match="outside"):
        project_simplices(v, np.array([0, 1, 5], dtype=np.intp), np.array([0, 3], dtype=np.intp), out)
    with pytest.raises(ValueError, match="bounds"):
        project_simplices(v, np.arange(3, dtype=np.intp), np.array([0, 2], dtype=np.intp), out)
    with pytest.raises(ValueError, match="out has"):
        project_simplices(v, np.arange(3, dtype=np.intp), np.array([0, 3], dtype=np.intp), np.zeros(2))


@pytest.mark.parametrize("stop", ["legacy", "relative"])
def test_kmomd_fit_bitwise_with_the_numpy_projection(monkeypatch, stop):
    """A whole KM-OMD fit (thousands of projections) gives the same iterates
    with either projection: the committed records need no rerun to stay true."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 6))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, 1, -1)
    new = KMOMD(lam=1 / 11, kernel="linear", stop=stop, tol=1e-8).fit(X, y)

    def numpy_two_simplices(pos, neg):
        def project(v):
            out = np.empty_like(v)
            out[pos], out[neg] = numpy_projection(v[pos]), numpy_projection(v[neg])
            return out
        return project

    monkeypatch.setattr(ldm_baselines, "_two_simplices", numpy_two_simplices)
    old = KMOMD(lam=1 / 11, kernel="linear", stop=stop, tol=1e-8).fit(X, y)
    assert new.n_iter_ == old.n_iter_ > 10
    assert np.array_equal(new.coef_, old.coef_) and np.array_equal(new.intercept_, old.intercept_)
