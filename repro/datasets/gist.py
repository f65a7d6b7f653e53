"""Gist descriptors for the NESVM paper's image data sets (issue 28).

The NESVM paper (Zhou, Tao, Wu 2010, Sec. IV-B and IV-C) describes the indoor
scenes (Quattoni & Torralba 2009) and the 13 natural scenes (Fei-Fei & Perona
2005) by "Gist features". The Gist (Oliva & Torralba 2001) is the energy of a
bank of Gabor filters (scales x orientations) averaged over a coarse grid of
image blocks. :func:`gist` follows the reference implementation, Torralba's
LMgist (``LMgist.m``, ``createGabor.m``, ``prefilt.m`` of the LabelMe toolbox),
step by step:

1. pixels to float in [0, 1] (scikit-image's convention: integers divided by their
   dtype's maximum; floats must already lie in [0, 1]);
2. a square of ``image_size`` pixels: the short side is resized to ``image_size``
   (``skimage.transform.resize``, bilinear, ``anti_aliasing=True``), then the long
   side is centre-cropped (LMgist's ``imresizecrop``); an image that already is
   that square is used as it is;
3. ``prefilter=True``: LMgist's intensity scaling to [0, 255] (min-max over all
   pixels and channels) and ``prefilt`` (log, whitening, local contrast
   normalisation; :func:`prefilter`);
4. the Gabor bank (:func:`filter_bank`) applied by FFT to the image padded by
   :data:`BOUNDARY_EXTENSION` pixels (symmetric), the magnitude of each complex
   response cropped back and averaged over ``grid x grid`` blocks (block edges
   ``floor(linspace(0, image_size, grid + 1))``, LMgist's ``downN``).

A colour (H, W, 3) image gives one Gist per channel, concatenated (LMgist itself
averages the channels to grey first). The length is
``channels * sum(orientations_per_scale) * grid**2``: 4 * 8 * 16 = 512 per
channel by default, 1536 for colour. Within a channel the values are ordered
(filter, block row, block column), C order; the filters scale by scale, finest
first, orientation ``theta = pi * j / n`` for j = 0..n-1 within a scale.

Where this differs from LMgist
------------------------------
* The transfer function is set to 0 at zero frequency, and for an even size the
  Nyquist row and column hold the mean of the formula over the frequencies +N/2
  and -N/2 that the DFT cannot tell apart (:func:`filter_bank`). LMgist evaluates
  the formula at ``angle(0) = 0`` (a DC gain of up to exp(-3.5) ~ 0.03 that
  depends on the orientation) and at -N/2 only; both break the mirror symmetry of
  the bank. Measured on scikit-image's camera (256-pixel square, default bank): a
  horizontally flipped image's Gist differs from the mirrored Gist by up to 11 %
  of an energy with LMgist's bank and by 5e-14 with this one
  (``tests/test_image_features.py`` checks the latter). The energies move by at
  most 0.5 % of the largest one, but the small energies of the near-horizontal
  frequency filters (theta = 0, pi/8) in flat blocks (the sky) move by up to
  43 %: there LMgist's DC gain passes the prefiltered image's local mean.
* A constant image, which LMgist's min-max scaling divides by zero, gives zeros.
* Colour is kept per channel (see above); :func:`prefilter`'s contrast
  normalisation uses the channel mean, as ``prefilt.m`` does for several channels.

The paper's 544 and 352 dimensions
----------------------------------
The paper gives the sizes and the ingredients ("color, texture and intensity",
544 values, indoor; "texture and intensity", 352 values, natural scenes) but no
construction. These are *our readings*, not the paper's stated method:

* 352 = 22 x 16: on the 4 x 4 grid, per block 20 Gabor energies (texture) and the
  mean and standard deviation of the grey image (intensity). 20 filters are
  LMgist's 3 scales with 8, 8, 4 orientations, the 320-value grey Gist of Douze et
  al. 2009 (whose colour version is the 960-value GIST1M descriptor); 4 scales x 5
  orientations gives the same count.
* 544 = 352 + 192 = 34 x 16: the same, plus per block a 4-bin histogram of each
  RGB channel (colour, 3 x 4 = 12 per block). 192 = 3 x 64 would also be an 8 x 8
  colour thumbnail; 544 = 512 + 32 (the default 4 x 8 Gist plus intensity) has no
  colour, so we did not take it.

:func:`paper_gist` builds these readings.

References: A. Oliva, A. Torralba, Modeling the shape of the scene: a holistic
representation of the spatial envelope, IJCV 42(3):145-175, 2001. A. Torralba,
LMgist, http://people.csail.mit.edu/torralba/code/spatialenvelope/. M. Douze et
al., Evaluation of GIST descriptors for web-scale image search, CIVR 2009.
A. Quattoni, A. Torralba, Recognizing indoor scenes, CVPR 2009. L. Fei-Fei,
P. Perona, A Bayesian hierarchical model for learning natural scene categories,
CVPR 2005. T. Zhou, D. Tao, X. Wu, NESVM: a fast gradient method for support
vector machines, ICDM 2010.
"""
from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
from skimage import color, transform, util

#: LMgist's padding (pixels, symmetric) before the Gabor filtering, against wrap-around.
BOUNDARY_EXTENSION = 32
#: LMgist's ``fc_prefilt``: width of the prefilter's Gaussian, cycles per image.
PREFILTER_FC = 4
#: Pixels on the shorter side below which an image is refused.
MIN_SIDE = 8
#: Orientations per scale of :func:`paper_gist`'s texture part (20 filters).
PAPER_ORIENTATIONS = (8, 8, 4)
#: Bins per RGB channel of :func:`paper_gist`'s colour part (544 only).
COLOUR_BINS = 4


# --- input ------------------------------------------------------------------

def as_float_image(image) -> np.ndarray:
    """``image`` as float64 in [0, 1], checked: (H, W) grey or (H, W, 3) colour,
    at least :data:`MIN_SIDE` pixels on a side, finite. Integers are divided by
    their dtype's maximum (``skimage.util.img_as_float64``); floats are kept and
    must lie in [0, 1]."""
    a = np.asarray(image)
    if a.dtype.kind not in "buif":
        raise ValueError(f"image must hold numbers, got dtype {a.dtype}")
    if a.ndim not in (2, 3):
        raise ValueError(f"image must be 2-D (grey) or 3-D (H, W, 3) colour, "
                         f"got {a.ndim} dimensions (shape {a.shape})")
    if a.ndim == 3 and a.shape[2] != 3:
        raise ValueError(f"a colour image must have 3 channels (RGB), got {a.shape[2]} "
                         f"(shape {a.shape}); drop an alpha channel with image[..., :3]")
    if min(a.shape[:2]) < MIN_SIDE:
        raise ValueError(f"image must be at least {MIN_SIDE} pixels on a side, got {a.shape[:2]}")
    if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
        raise ValueError("image has non-finite pixels (NaN or inf)")
    if a.dtype.kind == "i" and a.min() < 0:
        raise ValueError("integer image with negative pixels: expected values in [0, dtype max]")
    a = util.img_as_float64(a)
    lo, hi = float(a.min()), float(a.max())
    if lo < 0.0 or hi > 1.0:
        raise ValueError(f"float pixels must lie in [0, 1] (scikit-image's convention), "
                         f"got [{lo:g}, {hi:g}]")
    return a


def to_gray(image: np.ndarray) -> np.ndarray:
    """Grey version of a checked float image (luminance, ``skimage.color.rgb2gray``;
    clipped to [0, 1], which its weights, summing to 1, can pass by a rounding error)."""
    return np.clip(color.rgb2gray(image), 0.0, 1.0) if image.ndim == 3 else image


def square(image: np.ndarray, size: int) -> np.ndarray:
    """Resize the short side to ``size`` (bilinear, anti-aliased), then centre-crop
    the long side to ``size`` (start ``(long - size) // 2``); channels kept."""
    h, w = image.shape[:2]
    if (h, w) == (size, size):
        return image
    scale = size / min(h, w)
    # the short side exactly `size`; the long one never below it after rounding
    shape = (max(size, round(h * scale)), max(size, round(w * scale)))
    out = transform.resize(image, shape, order=1, mode="reflect", anti_aliasing=True)
    top, left = (shape[0] - size) // 2, (shape[1] - size) // 2
    return out[top:top + size, left:left + size]


def _check_orientations(orientations_per_scale) -> tuple:
    if (not isinstance(orientations_per_scale, Sequence) or len(orientations_per_scale) == 0
            or not all(isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 1
                       for n in orientations_per_scale)):
        raise ValueError(f"orientations_per_scale must be a non-empty sequence of positive "
                         f"integers, got {orientations_per_scale!r}")
    return tuple(int(n) for n in orientations_per_scale)


def _check_int(name: str, value, low: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


# --- the filters ------------------------------------------------------------

def _gabor_formula(fx, fy, size: int, scale: int, n_orientations: int, j: int):
    """LMgist's ``createGabor`` transfer function at frequencies (fx, fy) (cycles
    per ``size`` pixels); see :func:`filter_bank` for the formula."""
    b = 0.3 / 1.85 ** scale
    c = 16 * n_orientations ** 2 / 32 ** 2
    t = np.arctan2(fy, fx) + np.pi * j / n_orientations
    t = t + 2 * np.pi * (t < -np.pi) - 2 * np.pi * (t > np.pi)  # wrap into [-pi, pi]
    return np.exp(-10 * 0.35 * (np.hypot(fx, fy) / size / b - 1) ** 2 - 2 * c * np.pi * t ** 2)


def filter_bank(size: int, orientations_per_scale=(8, 8, 8, 8)) -> np.ndarray:
    """The Gabor transfer functions, shape (n_filters, size, size), in DFT order:
    entry ``[k, u, v]`` is filter k at the frequency ``(fy, fx) = (F[u], F[v])``,
    ``F = numpy.fft.fftfreq(size) * size`` (integers, cycles per ``size`` pixels).

    Filter k is scale ``s`` (0 = finest) and orientation ``j`` of that scale's
    ``n = orientations_per_scale[s]``; from LMgist's ``createGabor.m``::

        g(f) = exp(-10 a (|f| / (size b_s) - 1)**2  -  2 c_s pi t**2)
        a = 0.35,   b_s = 0.3 / 1.85**s,   c_s = 16 n**2 / 32**2,
        t = wrap(atan2(fy, fx) + pi j / n)   (wrapped into [-pi, pi] by +-2 pi)

    a Gaussian in radial frequency around ``b_s`` cycles per pixel times
    an angular Gaussian around the angle ``-pi j / n`` (one-sided: the response is
    complex and its magnitude is the local energy). Two changes (module docstring,
    "Where this differs from LMgist"): ``G(0, 0) = 0``; for an even ``size`` the
    Nyquist row/column entries are the mean of ``g`` over the aliases
    ``fx in {-size/2, +size/2}`` (and/or ``fy``), i.e. ``G(k)`` is the mean of ``g``
    over the frequencies in ``[-size/2, size/2]**2`` that fall on DFT bin k.
    """
    size = _check_int("size", size, 2)
    orientations = _check_orientations(orientations_per_scale)
    freq = np.fft.fftfreq(size) * size
    fx, fy = np.meshgrid(freq, freq)  # fx along columns, fy along rows
    half = size // 2 if size % 2 == 0 else None
    bank = []
    for scale, n in enumerate(orientations):
        for j in range(n):
            g = _gabor_formula(fx, fy, size, scale, n, j)
            if half is not None:  # the Nyquist bins: average the two (four) aliases
                g[:, half] = (_gabor_formula(-half, freq, size, scale, n, j)
                              + _gabor_formula(half, freq, size, scale, n, j)) / 2
                g[half, :] = (_gabor_formula(freq, -half, size, scale, n, j)
                              + _gabor_formula(freq, half, size, scale, n, j)) / 2
                g[half, half] = np.mean([_gabor_formula(sx * half, sy * half, size, scale, n, j)
                                         for sx in (-1, 1) for sy in (-1, 1)])
            g[0, 0] = 0.0  # a band-pass filter passes no mean (the angle at 0 is undefined)
            bank.append(g)
    return np.array(bank)


# --- the steps ----------------------------------------------------------------

def prefilter(image: np.ndarray, fc: float = PREFILTER_FC) -> np.ndarray:
    """LMgist's ``prefilt.m`` on an (n, m, c) float image on a 0..255 scale::

        x  = log(1 + image), padded by 5 pixels (symmetric), then to an even square
        h  = exp(-|f|**2 / s**2),  s = fc / sqrt(log 2)   (a Gaussian low-pass, DFT)
        w  = x - ifft(fft(x) h)                          (whitening: low frequencies out)
        sd = sqrt(|ifft(fft(mean_c(w)**2) h)|)           (local standard deviation)
        out = w / (0.2 + sd), cropped back to (n, m, c)

    ``h(0) = 1``, so the whitening removes the mean exactly: a constant image
    gives zeros.
    """
    pad = 5
    s1 = fc / np.sqrt(np.log(2))
    x = np.pad(np.log1p(image), ((pad, pad), (pad, pad), (0, 0)), mode="symmetric")
    sn, sm = x.shape[:2]
    n = max(sn, sm)
    n += n % 2
    x = np.pad(x, ((0, n - sn), (0, n - sm), (0, 0)), mode="symmetric")
    freq = np.fft.fftfreq(n) * n
    h = np.exp(-(freq[:, None] ** 2 + freq[None, :] ** 2) / s1 ** 2)
    whitened = x - np.real(np.fft.ifft2(np.fft.fft2(x, axes=(0, 1)) * h[:, :, None], axes=(0, 1)))
    local_sd = np.sqrt(np.abs(np.fft.ifft2(np.fft.fft2(whitened.mean(axis=2) ** 2) * h)))
    out = whitened / (0.2 + local_sd[:, :, None])
    return out[pad:sn - pad, pad:sm - pad]


def _to_255(image: np.ndarray) -> np.ndarray:
    """LMgist's ``255 * (x - min) / (max - min)`` over all pixels and channels; a
    constant image (which LMgist divides by zero) gives zeros."""
    span = image.max() - image.min()
    return (image - image.min()) * (255.0 / span) if span > 0 else np.zeros_like(image)


def block_means(values: np.ndarray, grid: int) -> np.ndarray:
    """Means of (n, m, ...) ``values`` over ``grid x grid`` blocks with edges
    ``floor(linspace(0, side, grid + 1))`` (LMgist's ``downN``): (grid, grid, ...)."""
    rows = np.linspace(0, values.shape[0], grid + 1).astype(int)
    cols = np.linspace(0, values.shape[1], grid + 1).astype(int)
    sums = np.add.reduceat(np.add.reduceat(values, rows[:-1], axis=0), cols[:-1], axis=1)
    area = np.outer(np.diff(rows), np.diff(cols)).reshape((grid, grid) + (1,) * (values.ndim - 2))
    return sums / area


def gabor_energies(image: np.ndarray, orientations_per_scale, grid: int) -> np.ndarray:
    """Block means of ``|ifft(fft(padded image) G_k)|`` for every filter k of
    :func:`filter_bank`: (n_filters, grid, grid, channels) for an (n, n, channels)
    image, padded by :data:`BOUNDARY_EXTENSION` pixels (symmetric) and cropped back."""
    be = BOUNDARY_EXTENSION
    n = image.shape[0]
    spectrum = np.fft.fft2(np.pad(image, ((be, be), (be, be), (0, 0)), mode="symmetric"), axes=(0, 1))
    bank = filter_bank(n + 2 * be, orientations_per_scale)
    out = np.empty((len(bank), grid, grid, image.shape[2]))
    for k, g in enumerate(bank):  # one filter at a time: the whole bank at once is ~100 MB
        response = np.abs(np.fft.ifft2(spectrum * g[:, :, None], axes=(0, 1)))[be:be + n, be:be + n]
        out[k] = block_means(response, grid)
    return out


def _gist_of_square(a: np.ndarray, orientations: tuple, grid: int, prefilter_: bool) -> np.ndarray:
    """Steps 3-4 of the module docstring on a checked square (n, n) or (n, n, 3)
    image in [0, 1]; flattened (channel, filter, block row, block column)."""
    a = a[:, :, None] if a.ndim == 2 else a
    if prefilter_:
        a = prefilter(_to_255(a))
    energies = gabor_energies(a, orientations, grid)  # (filters, grid, grid, channels)
    return np.ascontiguousarray(np.moveaxis(energies, -1, 0)).ravel()


def gist(image, *, orientations_per_scale=(8, 8, 8, 8), grid=4, image_size=256,
         prefilter=True) -> np.ndarray:
    """The Gist of a grey (H, W) or colour (H, W, 3) image: a 1-D float64 array of
    ``channels * sum(orientations_per_scale) * grid**2`` values (512 grey, 1536
    colour by default), ordered (channel, filter, block row, block column).

    See the module docstring for the steps and :func:`filter_bank` for the filters.
    ``prefilter=False`` skips step 3 (the [0, 255] scaling and ``prefilt``): the
    energies are then those of the [0, 1] image itself, linear in its intensity.
    """
    orientations = _check_orientations(orientations_per_scale)
    image_size = _check_int("image_size", image_size, MIN_SIDE)
    grid = _check_int("grid", grid, 1)
    if grid > image_size:
        raise ValueError(f"grid ({grid}) cannot exceed image_size ({image_size})")
    return _gist_of_square(square(as_float_image(image), image_size), orientations, grid, bool(prefilter))


# --- the paper's sizes (our reading) -------------------------------------------

def _block_statistics(image: np.ndarray, grid: int) -> np.ndarray:
    """Intensity part: per block the mean, then the standard deviation (ddof 0)
    of a (n, n) grey image: (2, grid, grid)."""
    mean = block_means(image, grid)
    var = block_means(image ** 2, grid) - mean ** 2
    return np.stack([mean, np.sqrt(np.clip(var, 0.0, None))])


def _block_colour_histograms(image: np.ndarray, grid: int) -> np.ndarray:
    """Colour part: per block and RGB channel the fraction of pixels in each of
    :data:`COLOUR_BINS` equal bins of [0, 1] (the last bin includes 1):
    (3, COLOUR_BINS, grid, grid)."""
    bins = np.minimum((image * COLOUR_BINS).astype(int), COLOUR_BINS - 1)  # (n, n, 3)
    onehot = (bins[..., None] == np.arange(COLOUR_BINS)).astype(float)  # (n, n, 3, bins)
    return np.moveaxis(block_means(onehot, grid), (0, 1), (-2, -1))


def paper_gist(image, dims: int, *, orientations_per_scale=PAPER_ORIENTATIONS,
               image_size=256) -> np.ndarray:
    """Our reading of the paper's Gist of ``dims`` in {352, 544} values (module
    docstring, "The paper's 544 and 352 dimensions"); the paper gives no
    construction. On a 4 x 4 grid of the ``image_size`` square, in this order:

    * texture: :func:`gist` (prefiltered) of the grey image with
      ``orientations_per_scale`` (20 filters: 320 values), ordered (filter, row, column);
    * intensity: the block mean and standard deviation of the grey [0, 1] image
      (32 values), ordered (statistic, row, column);
    * 544 only, colour: per block a :data:`COLOUR_BINS`-bin histogram of each RGB
      channel, as fractions of the block's pixels (192 values), ordered
      (channel, bin, row, column). Needs a colour image.

    A colour image is made grey by luminance (``skimage.color.rgb2gray``).
    """
    if dims not in (352, 544):
        raise ValueError(f"dims must be 352 or 544 (the paper's Gist sizes), got {dims!r}")
    orientations = _check_orientations(orientations_per_scale)
    if sum(orientations) != 20:
        raise ValueError(f"the readings of 352 and 544 need 20 Gabor filters, "
                         f"orientations_per_scale {orientations} gives {sum(orientations)}")
    image_size = _check_int("image_size", image_size, MIN_SIDE)
    a = square(as_float_image(image), image_size)
    if dims == 544 and a.ndim != 3:
        raise ValueError("dims=544 has a colour part: it needs a colour (H, W, 3) image")
    grey = to_gray(a)
    parts = [_gist_of_square(grey, orientations, 4, True), _block_statistics(grey, 4).ravel()]
    if dims == 544:
        parts.append(_block_colour_histograms(a, 4).ravel())
    out = np.concatenate(parts)
    assert out.size == dims, out.size  # the reading adds up (20 + 2 [+ 12]) x 16
    return out
