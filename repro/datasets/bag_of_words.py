"""Bag-of-visual-words features for the NESVM paper's UIUC sports events (issue 28).

The NESVM paper (Zhou, Tao, Wu 2010, Sec. IV-D) describes the UIUC sports event
images (Li & Fei-Fei 2007) by "bag of words features of 300 dimensions ...
extracted according to [20]" (Li & Fei-Fei 2007): SIFT descriptors of patches on
a dense grid, a k-means codebook, and each image as the histogram of its
patches' nearest codewords. Here:

* :func:`dense_sift`: SIFT descriptors (Lowe 2004) of ``patch x patch`` squares
  every ``step`` pixels of the grey image, without orientation normalisation (the
  patches are upright, as in dense SIFT). scikit-image's ``feature.SIFT`` only
  describes the keypoints it detects and keeps its descriptor code private, so the
  descriptor is written here in NumPy (vectorised; :func:`dense_sift` has the
  formulas). Defaults 16-pixel patches every 8 pixels, the common dense-SIFT
  setting; Li & Fei-Fei's own patch size and spacing may differ (check [20]).
* :class:`Codebook`: scikit-learn's ``KMeans`` with a fixed seed on at most
  ``max_descriptors`` descriptors (a seeded subsample), 300 words by default (the
  paper's size); ``transform`` gives the normalised histogram of hard assignments.
* :func:`bag_of_words`: both at once, for a list of images.

References: D. G. Lowe, Distinctive image features from scale-invariant
keypoints, IJCV 60(2):91-110, 2004. L.-J. Li, L. Fei-Fei, What, where and who?
Classifying events by scene and object recognition, ICCV 2007. T. Zhou, D. Tao,
X. Wu, NESVM: a fast gradient method for support vector machines, ICDM 2010.
"""
from __future__ import annotations

import numbers

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .gist import as_float_image, to_gray

#: Spatial cells per side of a SIFT descriptor (4 x 4 cells).
CELLS = 4
#: Orientation bins per cell.
ORIENTATION_BINS = 8
#: Lowe's clipping threshold of the normalised descriptor.
CLIP = 0.2
#: Length of a descriptor: 4 * 4 * 8.
DESCRIPTOR_SIZE = CELLS * CELLS * ORIENTATION_BINS


def _check_int(name: str, value, low: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _check_grid(step, patch) -> tuple:
    step = _check_int("step", step, 1)
    patch = _check_int("patch", patch, CELLS)
    if patch % CELLS:
        raise ValueError(f"patch must be a multiple of {CELLS} (its {CELLS} x {CELLS} cells), got {patch}")
    return step, patch


# --- dense SIFT ----------------------------------------------------------------

def patch_corners(shape, *, step=8, patch=16) -> np.ndarray:
    """Top-left (row, column) of every patch of :func:`dense_sift` on an image of
    ``shape``, in its row order: rows 0, step, ... while the patch fits, then columns."""
    step, patch = _check_grid(step, patch)
    rows = np.arange(0, shape[0] - patch + 1, step)
    cols = np.arange(0, shape[1] - patch + 1, step)
    return np.stack(np.meshgrid(rows, cols, indexing="ij"), axis=-1).reshape(-1, 2)


def orientation_maps(gray: np.ndarray) -> np.ndarray:
    """(ORIENTATION_BINS, H, W): each pixel's gradient magnitude shared linearly
    between the two orientation bins nearest its angle (Lowe's interpolation in
    orientation). Gradient ``(dy, dx) = numpy.gradient(gray)`` (central
    differences, one-sided on the border); angle ``atan2(dy, dx)`` in [0, 2 pi),
    from the column axis towards the row axis (image rows point down); bin o is
    centred on ``2 pi o / 8``, so a gradient along +x (intensity growing to the
    right) falls in bin 0 and along -x in bin 4."""
    dy, dx = np.gradient(gray)
    magnitude = np.hypot(dx, dy)
    position = np.mod(np.arctan2(dy, dx), 2 * np.pi) * (ORIENTATION_BINS / (2 * np.pi))
    low = np.floor(position)
    upper_share = position - low
    low = low.astype(int) % ORIENTATION_BINS  # position 8.0 (angle 2 pi after rounding) is bin 0
    high = (low + 1) % ORIENTATION_BINS
    bins = np.arange(ORIENTATION_BINS)[:, None, None]
    return magnitude * ((low == bins) * (1 - upper_share) + (high == bins) * upper_share)


def cell_weights(patch: int) -> np.ndarray:
    """(CELLS, patch): the weight of pixel i of a patch (along one axis) in cell a,
    ``A[a, i] = g(i) * max(0, 1 - |(i + 1/2) - (a + 1/2) c| / c)``, ``c = patch / 4``:
    Lowe's Gaussian window ``g(i) = exp(-(i + 1/2 - patch/2)**2 / (2 sigma**2))``,
    ``sigma = patch / 2`` (half the window), times bilinear (triangular) sharing
    between neighbouring cell centres. A pixel's weight in cell (a, b) is
    ``A[a, i] * A[b, j]``: both factors are separable."""
    centre_of = np.arange(patch) + 0.5
    c = patch / CELLS
    gauss = np.exp(-(centre_of - patch / 2) ** 2 / (2 * (patch / 2) ** 2))
    cell_centres = (np.arange(CELLS) + 0.5) * c
    tent = np.clip(1 - np.abs(centre_of[None, :] - cell_centres[:, None]) / c, 0.0, None)
    return gauss[None, :] * tent


def normalise(descriptors: np.ndarray) -> np.ndarray:
    """Lowe's normalisation, row by row: to unit length, entries clipped at
    :data:`CLIP`, to unit length again. All-zero rows (no gradient) stay zero."""
    def unit(d):
        norm = np.linalg.norm(d, axis=1, keepdims=True)
        return np.divide(d, norm, out=np.zeros_like(d), where=norm > 0)
    return unit(np.minimum(unit(descriptors), CLIP))


def dense_sift(image, *, step=8, patch=16) -> np.ndarray:
    """SIFT descriptors of ``patch x patch`` squares every ``step`` pixels of the
    grey image: (n_patches, 128), patches in :func:`patch_corners` order.

    For the patch with top-left (r, c) and orientation maps ``M_o``
    (:func:`orientation_maps`) the raw descriptor is::

        d[a, b, o] = sum_{i, j} A[a, i] A[b, j] M_o[r + i, c + j]

    (:func:`cell_weights`; a = cell row, b = cell column, o = orientation, flattened
    in that order), then :func:`normalise`. The sum is separable, so it is two
    contractions of strided windows, not a loop over patches. A colour image is
    made grey by luminance; pixels follow :func:`repro.datasets.gist.as_float_image`.
    """
    step, patch = _check_grid(step, patch)
    gray = to_gray(as_float_image(image))
    if min(gray.shape) < patch:
        raise ValueError(f"image {gray.shape} is smaller than one patch ({patch} pixels)")
    maps = orientation_maps(gray)  # (o, H, W)
    weights = cell_weights(patch)  # (a, i)
    rows = sliding_window_view(maps, patch, axis=1)[:, ::step]  # (o, y, W, i)
    by_row = np.einsum("oywi,ai->oywa", rows, weights)
    cols = sliding_window_view(by_row, patch, axis=2)[:, :, ::step]  # (o, y, x, a, j)
    raw = np.einsum("oyxaj,bj->yxabo", cols, weights)
    return normalise(raw.reshape(-1, DESCRIPTOR_SIZE))


# --- the codebook ----------------------------------------------------------------

def _descriptor_sets(descriptors) -> list:
    """A list of 2-D finite float arrays of one width (one 2-D array counts as one set)."""
    if isinstance(descriptors, np.ndarray) and descriptors.ndim == 2:
        descriptors = [descriptors]
    sets = [np.asarray(d, dtype=np.float64) for d in descriptors]
    if not sets:
        raise ValueError("no descriptor arrays given")
    for d in sets:
        if d.ndim != 2:
            raise ValueError(f"descriptors must be 2-D (n, dimension), got shape {d.shape}")
        if not np.all(np.isfinite(d)):
            raise ValueError("descriptors hold non-finite values (NaN or inf)")
    if len({d.shape[1] for d in sets}) > 1:
        raise ValueError(f"descriptor arrays of different widths: {sorted({d.shape[1] for d in sets})}")
    return sets


class Codebook:
    """A k-means codebook of visual words, and histograms of words.

    ``fit`` pools the descriptor arrays (one per image), keeps a seeded subsample
    of ``max_descriptors`` rows if there are more (``numpy.random.default_rng(
    random_state).choice`` without replacement, in their original order), and runs
    scikit-learn's ``KMeans(n_words, n_init=1, random_state=random_state)`` (Lloyd,
    k-means++ start). ``transform`` assigns each descriptor to its nearest word and
    returns the word counts divided by their sum. For a train/test split fit on the
    training images only.
    """

    def __init__(self, n_words=300, random_state=0, max_descriptors=100_000):
        self.n_words = _check_int("n_words", n_words, 1)
        self.random_state = random_state
        self.max_descriptors = _check_int("max_descriptors", max_descriptors, 1)
        if self.max_descriptors < self.n_words:
            raise ValueError(f"max_descriptors ({max_descriptors}) must be at least n_words ({n_words})")

    def fit(self, descriptors) -> Codebook:
        """Learn the words from a list of (n_i, d) descriptor arrays."""
        from sklearn.cluster import KMeans  # scikit-learn is slow to import: only when fitting

        pooled = np.concatenate(_descriptor_sets(descriptors))
        if len(pooled) < self.n_words:
            raise ValueError(f"{len(pooled)} descriptors cannot make {self.n_words} words")
        if len(pooled) > self.max_descriptors:
            keep = np.random.default_rng(self.random_state).choice(
                len(pooled), size=self.max_descriptors, replace=False)
            pooled = pooled[np.sort(keep)]
        self.kmeans_ = KMeans(n_clusters=self.n_words, n_init=1, random_state=self.random_state).fit(pooled)
        self.words_ = self.kmeans_.cluster_centers_
        return self

    def transform(self, descriptors) -> np.ndarray:
        """The (n_words,) histogram of one image's (n, d) descriptors, summing to 1."""
        if not hasattr(self, "kmeans_"):
            raise ValueError("the codebook is not fitted: call fit first")
        (d,) = _descriptor_sets([descriptors])
        if d.shape[1] != self.words_.shape[1]:
            raise ValueError(f"descriptors have {d.shape[1]} columns, the words {self.words_.shape[1]}")
        if len(d) == 0:
            raise ValueError("no descriptors: an empty image has no histogram")
        counts = np.bincount(self.kmeans_.predict(d), minlength=self.n_words)
        return counts / counts.sum()


def bag_of_words(images, n_words=300, random_state=0, *, step=8, patch=16,
                 max_descriptors=100_000) -> np.ndarray:
    """(n_images, n_words): each image's word histogram, the codebook fitted on
    the dense SIFT of all of ``images`` (transductive: for a train/test split use
    :class:`Codebook` on the training images)."""
    images = list(images)
    if not images:
        raise ValueError("no images given")
    descriptors = [dense_sift(image, step=step, patch=patch) for image in images]
    book = Codebook(n_words, random_state, max_descriptors).fit(descriptors)
    return np.stack([book.transform(d) for d in descriptors])
