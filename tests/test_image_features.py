"""repro.datasets.gist and repro.datasets.bag_of_words (issue 28): the NESVM image
sets' features, checked on real images bundled with installed packages.

The images load offline: scikit-image ships camera, astronaut, coffee, chelsea
and logo in its package (``skimage/data/*.png``; other ``skimage.data`` images are
downloaded by pooch), scikit-learn ships china.jpg and flower.jpg. Gist and SIFT
values are compared with references written here from the docstrings' formulas
(element-by-element loops and ``numpy.fft``), not with the modules' own helpers.
"""
import numpy as np
import pytest
from skimage import data
from sklearn.cluster import KMeans
from sklearn.datasets import load_sample_image

from repro.datasets import bag_of_words as B
from repro.datasets import gist as G


@pytest.fixture(scope="module")
def camera():
    return data.camera()  # (512, 512) uint8, grey


@pytest.fixture(scope="module")
def astronaut():
    return data.astronaut()  # (512, 512, 3) uint8


@pytest.fixture(scope="module")
def china():
    return load_sample_image("china.jpg")  # (427, 640, 3) uint8


# --- references from the docstring formulas --------------------------------------

def _g(fx, fy, size, scale, n, j):
    """createGabor's formula at one frequency (filter_bank's docstring), in scalars."""
    t = np.arctan2(fy, fx) + np.pi * j / n
    if t > np.pi:
        t -= 2 * np.pi
    elif t < -np.pi:
        t += 2 * np.pi
    b, c = 0.3 / 1.85 ** scale, 16 * n ** 2 / 32 ** 2
    return np.exp(-3.5 * (np.hypot(fx, fy) / size / b - 1) ** 2 - 2 * c * np.pi * t ** 2)


def _reference_filter(size, scale, n, j):
    """The transfer function bin by bin: the mean of the formula over the
    frequencies in [-size/2, size/2]^2 that fall on the bin; 0 at zero frequency."""
    out = np.zeros((size, size))
    for u in range(size):
        for v in range(size):
            if u == v == 0:
                continue
            aliases = [[k - size] if k > size / 2 else [k] if k < size / 2 else [-k, k]
                       for k in (v, u)]  # fx from the column, fy from the row
            out[u, v] = np.mean([_g(fx, fy, size, scale, n, j) for fx in aliases[0] for fy in aliases[1]])
    return out


def _mirror_permutation(orientations):
    """For each filter, the filter a horizontal flip turns it into, from the angles:
    x -> -x maps the frequency angle t to pi - t, so the filter centred on -theta
    (theta = pi j / n) goes to the one centred on pi + theta, i.e. orientation
    pi - theta modulo pi (the energy of a real image's response is the same for
    angles pi apart)."""
    perm, start = [], 0
    for n in orientations:
        theta = np.pi * np.arange(n) / n
        mirrored = np.mod(np.pi - theta, np.pi)
        for m in mirrored:
            match = np.flatnonzero(np.isclose(np.mod(theta - m + np.pi / 2, np.pi), np.pi / 2))
            assert match.size == 1
            perm.append(start + match[0])
        start += n
    return np.array(perm)


# --- gist: sizes and parts ---------------------------------------------------------

def test_gist_lengths(camera, astronaut, china):
    assert G.gist(camera).shape == (512,)  # 4 scales x 8 orientations x 16 blocks
    colour = G.gist(astronaut)
    assert colour.shape == (1536,) and colour.dtype == np.float64
    assert G.gist(china, orientations_per_scale=(8, 4), grid=2, image_size=64).shape == (3 * 12 * 4,)
    # per channel, concatenated: without the prefilter (whose contrast normalisation
    # pools the channels) the first third is the red channel's own Gist
    raw = G.gist(astronaut, prefilter=False, image_size=64)
    np.testing.assert_allclose(raw[:512], G.gist(astronaut[:, :, 0], prefilter=False, image_size=64), rtol=1e-10)
    assert not np.allclose(raw[:512], raw[512:1024], rtol=0.01)


def test_paper_gist_readings(astronaut):
    """352 = (20 Gabor + 2 intensity) x 16; 544 adds 12 colour values per block.
    The intensity and colour parts are checked against block statistics computed
    here on the same 256-pixel square."""
    g352, g544 = G.paper_gist(astronaut, 352), G.paper_gist(astronaut, 544)
    assert g352.shape == (352,) and g544.shape == (544,)
    np.testing.assert_array_equal(g544[:352], g352)
    square = G.square(G.as_float_image(astronaut), 256)
    grey = G.to_gray(square)
    np.testing.assert_allclose(g352[:320], G.gist(grey, orientations_per_scale=(8, 8, 4)), rtol=1e-12)
    blocks = grey.reshape(4, 64, 4, 64)
    np.testing.assert_allclose(g352[320:336], blocks.mean(axis=(1, 3)).ravel(), rtol=1e-12)
    np.testing.assert_allclose(g352[336:352], blocks.std(axis=(1, 3)).ravel(), rtol=1e-9)
    hist = g544[352:].reshape(3, 4, 4, 4)  # channel, bin, block row, block column
    np.testing.assert_allclose(hist.sum(axis=1), 1.0)
    red = square[:64, :64, 0]  # block (0, 0) of the red channel
    expected = np.histogram(red, bins=4, range=(0, 1))[0] / red.size
    np.testing.assert_allclose(hist[0, :, 0, 0], expected)


def test_gist_is_deterministic(camera):
    first, second = G.gist(camera, image_size=128), G.gist(camera.copy(), image_size=128)
    assert first.tobytes() == second.tobytes()


# --- gist: invariances ---------------------------------------------------------------

@pytest.mark.parametrize("value", [0, 77, 255])
def test_constant_image_has_no_gabor_energy(value):
    """Prefiltered: the min-max scaling maps a constant to 0 and log(1 + 0) = 0, so
    every energy is exactly 0. Not prefiltered: the image's spectrum is only its
    mean, at zero frequency, where every transfer function is 0, so the responses
    vanish up to FFT rounding."""
    image = np.full((40, 60, 3), value, dtype=np.uint8)
    assert np.all(G.gist(image, image_size=64) == 0.0)
    assert np.abs(G.gist(image, image_size=64, prefilter=False)).max() < 1e-12


@pytest.mark.parametrize("name", ["camera", "astronaut"])
def test_flipped_image_mirrors_orientations_and_columns(name, request):
    """A horizontal flip of a square image (no crop) flips the resized image,
    commutes with symmetric padding and with the radial prefilter, and maps filter
    theta to filter pi - theta (mod pi): its Gist is the original's with the
    orientations permuted and the block columns reversed. Exact up to rounding
    because the bank is mirror-symmetric on the DFT grid (module docstring)."""
    image = request.getfixturevalue(name)
    orientations = (8, 8, 6, 4)
    kw = dict(orientations_per_scale=orientations, image_size=128)
    channels = 1 if image.ndim == 2 else 3
    shape = (channels, sum(orientations), 4, 4)
    original = G.gist(image, **kw).reshape(shape)
    flipped = G.gist(image[:, ::-1], **kw).reshape(shape)
    perm = _mirror_permutation(orientations)
    assert not np.array_equal(perm, np.arange(len(perm)))
    assert not np.allclose(flipped, original, rtol=1e-3)  # the image is not symmetric
    np.testing.assert_allclose(flipped[:, perm][..., ::-1], original, rtol=1e-10, atol=1e-13)


def test_intensity_scaling(camera):
    """The prefiltered Gist is invariant to x -> a x + b (a > 0): resizing is linear
    and keeps constants (its weights sum to 1), and LMgist's min-max scaling to
    [0, 255] removes a and b. (prefilt's log and the 0.2 in its contrast
    normalisation alone would not.) Without the prefilter the energies are linear in a."""
    x = camera / 255.0
    base = G.gist(x, image_size=128)
    np.testing.assert_allclose(G.gist(0.7 * x, image_size=128), base, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(G.gist(0.5 * x + 0.3, image_size=128), base, rtol=1e-9, atol=1e-12)
    raw = G.gist(x, image_size=128, prefilter=False)
    np.testing.assert_allclose(G.gist(0.7 * x, image_size=128, prefilter=False), 0.7 * raw, rtol=1e-9)
    assert not np.allclose(raw, base, rtol=0.1)  # the prefilter does change the energies


# --- gist: references ----------------------------------------------------------------

@pytest.mark.parametrize("size", [32, 33])
def test_filter_bank_against_the_formula(size):
    bank = G.filter_bank(size, (8, 4))
    assert bank.shape == (12, size, size)
    for k, (scale, n, j) in {0: (0, 8, 0), 3: (0, 8, 3), 7: (0, 8, 7), 9: (1, 4, 1)}.items():
        np.testing.assert_allclose(bank[k], _reference_filter(size, scale, n, j), rtol=1e-12, atol=1e-300)


def test_one_gabor_energy_against_numpy_fft(camera):
    """gist(prefilter=False) of a 32-pixel square (used as it is) against the
    module docstring's step 4 written out: symmetric padding by 32, FFT, the
    reference transfer function, |inverse FFT|, crop, mean over a block."""
    small = camera[::16, ::16]  # (32, 32)
    orientations = (8, 4)
    g = G.gist(small, orientations_per_scale=orientations, image_size=32, prefilter=False)
    x = np.pad(small / 255.0, 32, mode="symmetric")
    assert x.shape == (96, 96)
    for k, (scale, n, j) in {2: (0, 8, 2), 10: (1, 4, 2)}.items():
        response = np.abs(np.fft.ifft2(np.fft.fft2(x) * _reference_filter(96, scale, n, j)))[32:64, 32:64]
        for r, c in [(0, 0), (1, 3), (3, 2)]:
            expected = response[8 * r:8 * r + 8, 8 * c:8 * c + 8].mean()
            assert g[k * 16 + r * 4 + c] == pytest.approx(expected, rel=1e-10)


# --- dense SIFT ------------------------------------------------------------------------

def _reference_sift(gray, top, left, patch):
    """One descriptor by loops over the patch's pixels (dense_sift's docstring):
    orientation shared linearly between the two nearest of 8 bins, Gaussian
    window sigma = patch/2, bilinear sharing between 4 x 4 cells, then unit norm,
    clip at 0.2, unit norm."""
    dy, dx = np.gradient(gray)
    c = patch / 4
    d = np.zeros((4, 4, 8))
    for i in range(patch):
        for j in range(patch):
            y, x = top + i, left + j
            m = np.hypot(dx[y, x], dy[y, x])
            pos = (np.arctan2(dy[y, x], dx[y, x]) % (2 * np.pi)) / (np.pi / 4)
            o = int(np.floor(pos))
            w = np.exp(-((i + 0.5 - patch / 2) ** 2 + (j + 0.5 - patch / 2) ** 2) / (2 * (patch / 2) ** 2))
            for a in range(4):
                for b in range(4):
                    ta = max(0.0, 1 - abs(i + 0.5 - (a + 0.5) * c) / c)
                    tb = max(0.0, 1 - abs(j + 0.5 - (b + 0.5) * c) / c)
                    d[a, b, o % 8] += w * ta * tb * m * (1 - (pos - o))
                    d[a, b, (o + 1) % 8] += w * ta * tb * m * (pos - o)
    d = d.ravel() / np.linalg.norm(d)
    d = np.minimum(d, 0.2)
    return d / np.linalg.norm(d)


def test_dense_sift_against_a_loop(camera):
    desc = B.dense_sift(camera, step=8, patch=16)
    corners = B.patch_corners(camera.shape, step=8, patch=16)
    assert desc.shape == (63 * 63, 128) and corners.shape == (63 * 63, 2)
    gray = camera / 255.0
    for index in [0, 63 * 20 + 31, len(desc) - 1]:
        top, left = corners[index]
        np.testing.assert_allclose(desc[index], _reference_sift(gray, top, left, 16), rtol=1e-10, atol=1e-14)
    twelve = B.dense_sift(camera[100:160, 200:300], step=10, patch=12)  # cells of 3 pixels
    assert twelve.shape == (5 * 9, 128)
    np.testing.assert_allclose(twelve[13], _reference_sift(camera[100:160, 200:300] / 255.0, 10, 40, 12),
                               rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("direction, bin_", [((0, 1), 0), ((1, 1), 1), ((1, 0), 2), ((0, -1), 4), ((-1, 0), 6)])
def test_a_linear_ramp_fills_one_orientation(direction, bin_):
    """Intensity growing along (row, column) = direction: the gradient has that
    angle everywhere (np.gradient is exact on a ramp, borders included), so all the
    mass is in its bin, in all 16 cells, and no other bin gets any."""
    rows, cols = np.mgrid[0:40, 0:48]
    ramp = direction[0] * rows + direction[1] * cols
    image = (ramp - ramp.min()) / (ramp.max() - ramp.min())
    desc = B.dense_sift(image, step=8, patch=16).reshape(-1, 4, 4, 8)
    assert desc.shape[0] == 4 * 5
    assert np.all(desc[..., bin_] > 0.1)
    others = np.delete(desc, bin_, axis=-1)
    assert np.abs(others).max() < 1e-12


def test_constant_image_gives_zero_descriptors():
    desc = B.dense_sift(np.full((32, 40), 0.4), step=4, patch=16)
    assert desc.shape == (5 * 7, 128)
    assert np.all(desc == 0.0)


def test_descriptor_normalisation(china):
    """Lowe's normalise, clip at 0.2, renormalise: rows of unit norm (zero where
    there is no gradient), no negative entry; renormalising makes clipped entries
    larger again, so entries above 0.2 do occur (here, for a real image), up to 1."""
    desc = B.dense_sift(china, step=12)
    norms = np.linalg.norm(desc, axis=1)
    assert np.all(np.isfinite(desc)) and desc.min() >= 0.0
    assert np.all(np.isclose(norms, 1.0, atol=1e-12) | (norms == 0.0))
    assert 0.2 < desc.max() <= 1.0


# --- codebook and bag of words -------------------------------------------------------------

def test_bag_of_words_shape_and_determinism(camera, china):
    images = [camera, data.coffee(), china[:200, :300]]
    first = B.bag_of_words(images, n_words=8, random_state=3, step=16)
    assert first.shape == (3, 8)
    np.testing.assert_allclose(first.sum(axis=1), 1.0, rtol=1e-12)
    assert first.min() >= 0.0 and (first > 0).sum() > 8  # not one word per image
    second = B.bag_of_words(images, n_words=8, random_state=3, step=16)
    assert first.tobytes() == second.tobytes()


def test_codebook_is_a_hard_assignment(camera, astronaut):
    descs = [B.dense_sift(camera, step=16), B.dense_sift(astronaut, step=16)]
    book = B.Codebook(n_words=6, random_state=0, max_descriptors=500).fit(descs)
    assert book.kmeans_.labels_.shape == (500,)  # fitted on the seeded subsample
    again = B.Codebook(n_words=6, random_state=0, max_descriptors=500).fit(descs)
    assert book.words_.tobytes() == again.words_.tobytes()
    # the subsample is the documented one: 500 rows of the pooled descriptors drawn
    # by default_rng(random_state).choice without replacement, kept in their order
    pooled = np.concatenate(descs)
    keep = np.sort(np.random.default_rng(0).choice(len(pooled), size=500, replace=False))
    assert keep.max() >= len(descs[0])  # it reaches into the second image
    direct = KMeans(n_clusters=6, n_init=1, random_state=0).fit(pooled[keep])
    np.testing.assert_array_equal(book.words_, direct.cluster_centers_)
    hist = book.transform(descs[1])
    nearest = np.argmin(((descs[1][:, None, :] - book.words_[None]) ** 2).sum(axis=2), axis=1)
    np.testing.assert_allclose(hist, np.bincount(nearest, minlength=6) / len(nearest), rtol=1e-12)
    assert hist.shape == (6,) and hist.sum() == pytest.approx(1.0)


# --- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: np.where(np.eye(16) > 0, np.nan, 0.5), "non-finite"),
    (lambda: np.zeros((16, 16, 3, 2)), "2-D .grey. or 3-D"),
    (lambda: data.logo(), "3 channels"),  # an RGBA image, (500, 500, 4)
    (lambda: np.zeros((5, 40)), "at least 8 pixels"),
    (lambda: np.full((16, 16), 1.5), r"\[0, 1\]"),
    (lambda: np.full((16, 16), "a"), "numbers"),
])
def test_bad_images_are_refused(make, message):
    image = make()
    for extract in (G.gist, lambda im: G.paper_gist(im, 352), B.dense_sift):
        with pytest.raises(ValueError, match=message):
            extract(image)


def test_bad_parameters_are_refused(camera):
    small = camera[::16, ::16]
    with pytest.raises(ValueError, match="orientations_per_scale"):
        G.gist(small, orientations_per_scale=(8, 0), image_size=32)
    with pytest.raises(ValueError, match="grid"):
        G.gist(small, grid=0, image_size=32)
    with pytest.raises(ValueError, match="image_size"):
        G.gist(small, image_size=4)
    with pytest.raises(ValueError, match="352 or 544"):
        G.paper_gist(small, 400)
    with pytest.raises(ValueError, match="20 Gabor filters"):
        G.paper_gist(small, 352, orientations_per_scale=(8, 8, 8, 8))
    with pytest.raises(ValueError, match="colour"):
        G.paper_gist(small, 544)
    with pytest.raises(ValueError, match="multiple of 4"):
        B.dense_sift(small, patch=10)
    with pytest.raises(ValueError, match="smaller than one patch"):
        B.dense_sift(small, patch=40)
    with pytest.raises(ValueError, match="not fitted"):
        B.Codebook(n_words=4).transform(np.zeros((3, 128)))
    with pytest.raises(ValueError, match="cannot make 50 words"):
        B.Codebook(n_words=50).fit([np.zeros((10, 128))])
    with pytest.raises(ValueError, match="non-finite"):
        B.Codebook(n_words=2).fit([np.full((10, 128), np.nan)])
