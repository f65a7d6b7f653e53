"""The NESVM paper's image-feature matrices, built from the published archives (issue 28).

For each of the paper's four image sets (Sec. IV-B to IV-E) :func:`build` takes the
verified archive(s) of the registry (:mod:`repro.datasets.image_archives` says where
they come from and how they are laid out), draws the paper's subset with a fixed seed,
computes the features the paper describes and writes ``X``, ``y`` and the source of
every row atomically to the cache, ``<REPRO_DATA_DIR>/features/<name>.npz``:

==================  ==========================================================  ======
set                 rows (drawn with seed ``zlib.crc32(name)``)                  X
==================  ==========================================================  ======
indoor67-gist       1,000 images from each of the 5 groups of Indoor-67          Gist 544
scene13-gist        every image of the 13 classes, grey                          Gist 352
uiuc-sports-bow     every image of the 8 events                                  BoW 300
nuswide-bow500      10,000 'scene' and 10,000 'other' images                     BoW 500
==================  ==========================================================  ======

* Gist: :func:`repro.datasets.gist.paper_gist` (our reading of the paper's 544 and 352
  values). Indoor images are read in colour (a grey JPEG is repeated over the three
  channels, an alpha channel dropped); the natural scenes are grey (the paper: "to
  represent grayscale images"), a colour file made grey by luminance.
* BoW 300: dense SIFT of the grey image (:func:`repro.datasets.bag_of_words.dense_sift`,
  16-pixel patches every 8 pixels, the full-size image) and a 300-word k-means
  :class:`~repro.datasets.bag_of_words.Codebook` (seeded), fitted on all the set's
  images (transductive, as the paper gives no split for it). Two passes over the
  archive, so that memory stays bounded: the first keeps a seeded subsample of
  ``ceil(max_descriptors / n_images)`` descriptors of each image for the codebook, the
  second computes each image's word histogram.
* BoW 500: NUS-WIDE's own published 500-dimensional SIFT bag of words, read as
  published (word counts), the rows of the drawn images only.

An image that cannot be decoded is skipped and named in the file's ``meta``
(``skipped``); where the set draws a fixed number per class, the next image of that
class in the seeded order replaces it, so the draw stays the paper's size and
repeatable.

Cost, estimated from the per-image times on this project's 2-core machine (not measured
on the real archives, which cannot be had here): Gist 544 0.11 s and Gist 352 0.06 s an
image (256-pixel square), dense SIFT 0.16 s for an 800 x 600 image; so about 10 minutes
for Indoor-67's 5,000 images, 5 for the 13 scenes, 10-15 for the sports events (two
passes and the k-means), besides the downloads (2.4 GB for Indoor-67, about 1 GB for
NUS-WIDE's features) and their hashing.

A feature file is used (availability 'cached') while its ``meta`` matches this
module's :data:`VERSION`, the set's :data:`RECIPES` entry and seed, and, for each
archive whose hash the cache has recorded (its stamp), that hash; otherwise it is
built again. Building logs its progress (every ``progress_every`` images) to stdout,
which the workflow's ``image_features`` rule sends to its log.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .. import _io
from . import image_archives as A
from . import sources
from .registry import get_spec

#: Bump when what a recipe computes changes, so that feature files of the old code
#: are built again rather than read.
VERSION = 1


@dataclass(frozen=True)
class ImageRecipe:
    """How one set's feature matrix is made from its archive(s).

    ``kind``: 'gist' (folders of images -> :func:`~repro.datasets.gist.paper_gist`),
    'bow' (folders of images -> dense SIFT + codebook) or 'nuswide' (published BoW
    and concept labels). ``per_class``: images drawn from each class (None: all).
    ``n_classes``: how many classes the archive must give (its layout is checked)."""
    kind: str
    n_classes: int
    per_class: int | None
    gist_dims: int = 0          # 544 (colour) or 352 (grey), kind 'gist'
    image_size: int = 256       # Gist: the square an image is resized to (LMgist's 256)
    n_words: int = 300          # BoW: the paper's 300 words
    max_descriptors: int = 100_000
    step: int = 8               # dense SIFT: patch spacing and size (pixels)
    patch: int = 16
    # ((class, (folder, ...)), ...): the archive's folders gathered into the paper's
    # classes (Indoor-67's groups); () = each folder is a class
    groups: tuple = ()

    @property
    def dims(self) -> int:
        return {"gist": self.gist_dims, "bow": self.n_words, "nuswide": A.NUSWIDE_BOW_DIM}[self.kind]


RECIPES = {
    "indoor67-gist": ImageRecipe("gist", 5, 1000, gist_dims=544, groups=A.INDOOR67_GROUPS),
    "scene13-gist": ImageRecipe("gist", 13, None, gist_dims=352),
    "uiuc-sports-bow": ImageRecipe("bow", 8, None),
    "nuswide-bow500": ImageRecipe("nuswide", 2, 10_000),
}


def seed_of(name: str) -> int:
    """The set's draw seed: ``zlib.crc32`` of its registry name (as the stand-ins')."""
    return zlib.crc32(name.encode("ascii"))


def features_path(name: str) -> Path:
    """Where the set's feature file lives in the cache."""
    return sources.data_dir() / "features" / f"{name}.npz"


def _recipe(name: str) -> ImageRecipe:
    if name not in RECIPES:
        raise KeyError(f"{name!r} is not an image-feature set; image sets: {sorted(RECIPES)}")
    return RECIPES[name]


# ---------------------------------------------------------------- the cached file
def read_meta(path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        return json.loads(str(z["meta"]))


def _stale(name: str, meta: dict) -> str:
    """Why a feature file's ``meta`` does not fit the current code and archives ('' if it does)."""
    if meta.get("version") != VERSION:
        return f"made by version {meta.get('version')} of the builder, this is {VERSION}"
    # through JSON, as stored: the groups' tuples are lists there
    if meta.get("recipe") != json.loads(json.dumps(asdict(_recipe(name)))) or meta.get("seed") != seed_of(name):
        return "made with another recipe or seed"
    for path, sha in meta.get("archives", {}).items():
        stamp = sources._read_stamp(path)
        if stamp and stamp.get("sha256") != sha:
            return f"made from another copy of {path} (sha256 {sha}, the cache's is {stamp.get('sha256')})"
    return ""


def cached_features(name: str) -> Path | None:
    """The set's feature file if it is in the cache and up to date, else None."""
    path = features_path(name)
    if not path.is_file():
        return None
    try:
        meta = read_meta(path)
    except (OSError, ValueError, KeyError):
        return None
    return None if _stale(name, meta) else path


def _write(name, X, y, rows, meta) -> Path:
    path = features_path(name)
    with _io.atomic_path(path) as tmp, open(tmp, "wb") as f:  # a handle: savez would add .npz
        np.savez(f, X=np.ascontiguousarray(X, dtype=np.float64), y=np.asarray(y, dtype=str),
                 rows=np.asarray(rows, dtype=str), meta=np.asarray(json.dumps(meta, sort_keys=True)))
    return path


def load_features(name: str, *, download: bool = True, progress_every: int = 100):
    """``(X, y, source, got)`` of a set: the cached file, else built from its
    archives (fetched first, downloaded only if ``download``). ``source``: 'cache'
    for a cached file, else where the archives came from; ``got``: (archive path,
    sha256) of each archive the features were made from."""
    path = cached_features(name)
    source = "cache"
    if path is None:
        path, source = build(name, download=download, progress_every=progress_every)
    with np.load(path, allow_pickle=False) as z:
        X, y = z["X"].astype(np.float64), z["y"]
        meta = json.loads(str(z["meta"]))
    got = [(sources.data_dir() / f.path, meta["archives"][f.path]) for f in get_spec(name).all_files()]
    return np.ascontiguousarray(X), y, source, got


# ---------------------------------------------------------------- building
def _archives(name: str, download: bool):
    """Each archive of the set in the cache, verified: (path, rel path, sha256, origin)."""
    out = []
    for fs in get_spec(name).all_files():
        path, origin = sources.ensure_file(fs, download=download,
                                           reason="" if download else "downloads not allowed")
        sha, _verified = sources.verified_hash(path)
        out.append((path, fs.path, sha, origin))
    return out


def build(name: str, *, download: bool = True, progress_every: int = 100, log=None) -> tuple[Path, str]:
    """Fetch and verify the set's archives, build its feature matrix and write it
    to :func:`features_path` (atomically); returns ``(path, origin)``, origin being
    where the archives came from ('cache', 'mirror' or 'download')."""
    recipe = _recipe(name)
    log = log or (lambda text: print(text, flush=True))
    start = time.perf_counter()
    archives = _archives(name, download)
    for path, rel, sha, origin in archives:
        log(f"{name}: archive {rel} ({origin}, sha256 {sha})")
    seed = seed_of(name)
    if recipe.kind == "nuswide":
        X, y, rows, skipped = _build_nuswide(archives, recipe, seed, log)
    else:
        X, y, rows, skipped = _build_images(name, archives[0][0], recipe, seed, log, progress_every)
    if X.shape[1] != recipe.dims or len(np.unique(y)) != recipe.n_classes:
        raise A.ArchiveLayoutError(f"{name}: built {X.shape} with {len(np.unique(y))} classes, "
                                   f"expected {recipe.dims} features and {recipe.n_classes} classes")
    meta = {"version": VERSION, "name": name, "recipe": asdict(recipe), "seed": seed,
            "archives": {rel: sha for _, rel, sha, _ in archives}, "skipped": skipped,
            "seconds": round(time.perf_counter() - start, 1)}
    path = _write(name, X, y, rows, meta)
    labels, counts = np.unique(y, return_counts=True)
    log(f"{name}: wrote {path} ({X.shape[0]} x {X.shape[1]}, classes "
        f"{dict(zip(labels.tolist(), counts.tolist()))}, {meta['seconds']} s)")
    origins = [o for *_, o in archives]
    return path, "download" if "download" in origins else "mirror" if "mirror" in origins else "cache"


def decode_image(data: bytes, name: str, colour: bool) -> np.ndarray:
    """An archive member's image (scikit-image ``io.imread``): (H, W, 3) if
    ``colour`` (grey repeated, alpha dropped), else (H, W) grey by luminance."""
    import warnings

    from skimage import color, io as skio

    with warnings.catch_warnings():  # imageio's plugins, tried in turn on a bad file, warn of themselves
        warnings.simplefilter("ignore", DeprecationWarning)
        img = skio.imread(io.BytesIO(data))
    if img.ndim == 4:  # an animated GIF: its first frame
        img = img[0]
    if img.ndim == 3 and img.shape[2] in (2, 4):  # grey + alpha, RGB + alpha
        img = img[..., :1] if img.shape[2] == 2 else img[..., :3]
        img = img[..., 0] if img.shape[2] == 1 else img
    if img.ndim != 2 and not (img.ndim == 3 and img.shape[2] == 3):
        raise ValueError(f"{name}: image of shape {img.shape}")
    if colour:
        return np.repeat(img[..., None], 3, axis=2) if img.ndim == 2 else img
    return color.rgb2gray(img) if img.ndim == 3 else img


def draw(classes: dict[str, list[str]], per_class: int | None, seed: int) -> dict[str, list[str]]:
    """Class -> its images in the order they are taken: every image (sorted) when
    ``per_class`` is None, else a seeded permutation of the class (its first
    ``per_class`` are the draw, the rest replace undecodable ones in turn). One
    generator ``numpy.random.default_rng(seed)``, classes in sorted order."""
    rng = np.random.default_rng(seed)
    out = {}
    for c in sorted(classes):
        pool = sorted(classes[c])
        if per_class is None:
            out[c] = pool
            continue
        if len(pool) < per_class:
            raise A.ArchiveLayoutError(f"class {c!r} has {len(pool)} images, {per_class} are to be drawn")
        out[c] = [pool[i] for i in rng.permutation(len(pool))]
    return out


def _decode_drawn(archive, order, per_class, colour, fn, log, every, label):
    """Decode the drawn images of ``order`` (class -> candidates) and apply ``fn``;
    returns (name -> (class, fn value), skipped names). One pass over the archive
    for the draw, one more for each round of replacements."""
    class_of = {n: c for c, names in order.items() for n in names}
    take = {c: (names if per_class is None else names[:per_class]) for c, names in order.items()}
    nxt = {c: len(v) for c, v in take.items()}
    pending = {n for v in take.values() for n in v}
    total = len(pending)
    done, skipped = {}, []
    t0 = time.perf_counter()
    while pending:
        failed = []
        for member, data in A.read_members(archive, pending):
            try:
                value = fn(decode_image(data, member, colour), member)
            except (ValueError, OSError, SyntaxError) as e:  # imageio / Pillow on a bad file
                log(f"{label}: skipped {member}: {type(e).__name__}: {e}")
                failed.append(member)
                continue
            done[member] = (class_of[member], value)
            if len(done) % every == 0:
                log(f"{label}: {len(done)}/{total} images ({time.perf_counter() - t0:.0f} s)")
        skipped += failed
        pending = set()
        for member in failed:
            c = class_of[member]
            if per_class is not None:
                if nxt[c] >= len(order[c]):
                    raise A.ArchiveLayoutError(f"class {c!r}: fewer than {per_class} decodable images")
                pending.add(order[c][nxt[c]])
                nxt[c] += 1
    return done, sorted(skipped)


def _build_images(name, archive, recipe, seed, log, every):
    from .bag_of_words import Codebook, dense_sift
    from .gist import paper_gist

    classes = A.image_classes(A.list_members(archive))
    if recipe.groups:
        classes = A.group_classes(classes, recipe.groups)
    if len(classes) != recipe.n_classes:
        raise A.ArchiveLayoutError(f"{archive}: {len(classes)} class folders {sorted(classes)[:20]}, "
                                   f"expected {recipe.n_classes}")
    log(f"{name}: classes " + ", ".join(f"{c} ({len(v)})" for c, v in classes.items()))
    order = draw(classes, recipe.per_class, seed)
    colour = recipe.kind == "gist" and recipe.gist_dims == 544
    if recipe.kind == "gist":
        done, skipped = _decode_drawn(
            archive, order, recipe.per_class, colour,
            lambda img, _m: paper_gist(img, recipe.gist_dims, image_size=recipe.image_size),
            log, every, name)
        names = sorted(done)
        X = np.stack([done[n][1] for n in names])
        return X, [done[n][0] for n in names], names, skipped

    n_images = sum(len(v) if recipe.per_class is None else recipe.per_class for v in order.values())
    keep = max(1, math.ceil(recipe.max_descriptors / n_images))

    def sample(img, member):  # pass 1: a seeded subsample of each image's descriptors
        d = dense_sift(img, step=recipe.step, patch=recipe.patch)
        rng = np.random.default_rng([seed, zlib.crc32(member.encode())])
        return d[np.sort(rng.choice(len(d), size=min(keep, len(d)), replace=False))]

    done, skipped = _decode_drawn(archive, order, recipe.per_class, False, sample, log, every,
                                  f"{name} (descriptors for the codebook)")
    names = sorted(done)
    book = Codebook(recipe.n_words, random_state=seed,
                    max_descriptors=recipe.max_descriptors).fit([done[n][1] for n in names])
    log(f"{name}: codebook of {recipe.n_words} words fitted on "
        f"{sum(len(done[n][1]) for n in names)} descriptors")
    hist = {}
    for member, data in A.read_members(archive, names):  # pass 2: every image's histogram
        hist[member] = book.transform(dense_sift(decode_image(data, member, False),
                                                 step=recipe.step, patch=recipe.patch))
        if len(hist) % every == 0:
            log(f"{name} (histograms): {len(hist)}/{len(names)} images")
    X = np.stack([hist[n] for n in names])
    return X, [done[n][0] for n in names], names, skipped


def _build_nuswide(archives, recipe, seed, log):
    by_name = {Path(rel).name: path for path, rel, _, _ in archives}
    truth, feats = by_name["Groundtruth.zip"], by_name["NUS_WID_Low_Level_Features.rar"]
    files = A.nuswide_label_files(A.list_members(truth))
    raw = dict(A.read_members(truth, files.values()))
    labels, sizes = {}, {}
    for concept in A.NUSWIDE_CONCEPTS:
        labels[concept] = []
        for part, _, _ in A.NUSWIDE_PARTS:
            flags = A.parse_labels(raw[files[concept, part]], files[concept, part])
            if sizes.setdefault(part, len(flags)) != len(flags):
                raise A.ArchiveLayoutError(f"{files[concept, part]}: {len(flags)} images, "
                                           f"the other {part} label files {sizes[part]}")
            labels[concept] += flags
    classes = np.array([c or "" for c in A.nuswide_classes(labels)])
    log("nuswide-bow500: " + ", ".join(f"{p} {n} images" for p, n in sizes.items())
        + f"; scene {int((classes == 'scene').sum())}, other {int((classes == 'other').sum())}, "
          f"no concept {int((classes == '').sum())}")
    rng = np.random.default_rng(seed)
    rows = []
    for c in ("other", "scene"):  # sorted, as draw() takes classes
        pool = np.flatnonzero(classes == c)
        if len(pool) < recipe.per_class:
            raise A.ArchiveLayoutError(f"NUS-WIDE has {len(pool)} {c!r} images, "
                                       f"{recipe.per_class} are to be drawn")
        rows.append(rng.choice(pool, size=recipe.per_class, replace=False))
    rows = np.sort(np.concatenate(rows))
    members = A.list_members(feats)
    bow = {A.member_by_basename(members, fname): part for part, fname, _ in A.NUSWIDE_PARTS}
    start = dict(zip(sizes, np.cumsum([0] + list(sizes.values()))[:-1].tolist()))
    parsed = {}
    for member, blob in A.read_members(feats, bow):  # one file at a time: ~200 MB of text each
        part = bow[member]
        local = [int(r) - start[part] for r in rows if start[part] <= r < start[part] + sizes[part]]
        parsed[part], lines = A.parse_bow_rows(blob, local, member)
        if lines != sizes[part]:
            raise A.ArchiveLayoutError(f"{member}: {lines} lines, the {part} labels {sizes[part]} images")
        log(f"nuswide-bow500: read {member} ({lines} lines)")
        del blob
    X = np.empty((len(rows), A.NUSWIDE_BOW_DIM))
    ids = []
    for k, r in enumerate(rows):  # rows are sorted: the Train part's first
        part = next(p for p, _, _ in A.NUSWIDE_PARTS if start[p] <= r < start[p] + sizes[p])
        X[k] = parsed[part][int(r) - start[part]]
        ids.append(f"{part}:{int(r) - start[part]}")
    return X, classes[rows].tolist(), ids, []


# ---------------------------------------------------------------- the workflow's step
def build_summary(name: str, *, download: bool = True, progress_every: int = 100) -> dict:
    """Make sure the set's feature file is in the cache (built if needed) and return
    the record the workflow's ``image_features`` step writes: shape, class counts,
    the archives' and the file's sha256. Nothing in it names this machine's paths."""
    built = cached_features(name) is None
    if built:
        build(name, download=download, progress_every=progress_every)
    path = features_path(name)
    with np.load(path, allow_pickle=False) as z:
        X, y, meta = z["X"], z["y"], json.loads(str(z["meta"]))
    labels, counts = np.unique(y, return_counts=True)
    with open(path, "rb") as f:
        sha = hashlib.file_digest(f, "sha256").hexdigest()
    return {"name": name, "rows": int(X.shape[0]), "features": int(X.shape[1]),
            "classes": {str(k): int(v) for k, v in zip(labels, counts)},
            "archives": meta["archives"], "skipped": meta["skipped"], "features_sha256": sha,
            "built_now": built, "build_seconds": meta["seconds"]}


if __name__ == "__main__":  # pragma: no cover - python -m repro.datasets.image_features NAME
    for arg in sys.argv[1:]:
        print(json.dumps(build_summary(arg), indent=1))
