"""The NESVM image sets from archive to feature matrix, offline (issue 28).

Each test builds, in tmp_path, a small archive laid out like the publisher's (a tar
like indoorCVPR_09.tar, RAR archives like SceneClass13.rar, event_dataset.rar and
NUS_WID_Low_Level_Features.rar, a zip like NUS-WIDE's Groundtruth.zip), from crops of
the sample images scikit-image ships, and points the registry's URL at it (file://):
the real download, hash recording, archive reading, seeded draw, feature extraction
and cache run end to end. RAR archives are written by :func:`write_rar`, a minimal
RAR 4 writer (stored members), so that the reader (libarchive) is the real one.
"""
from __future__ import annotations

import io
import json
import struct
import tarfile
import zipfile
import zlib
from dataclasses import replace

import numpy as np
import pytest

import repro.datasets as D
from repro.datasets import image_archives as A
from repro.datasets import image_features as F
from repro.datasets import loader, registry, report, sources
from repro.datasets.errors import ChecksumError, DatasetUnavailableError

IMAGE_SETS = ("indoor67-gist", "scene13-gist", "uiuc-sports-bow", "nuswide-bow500")


# ---------------------------------------------------------------- archives
def _rar_block(head_type: int, flags: int, body: bytes) -> bytes:
    rest = struct.pack("<BHH", head_type, flags, 7 + len(body)) + body
    return struct.pack("<H", zlib.crc32(rest) & 0xFFFF) + rest


def write_rar(path, members):
    """A RAR 4 archive of ``(name, bytes)`` members, stored (method 0x30, no
    compression): marker, archive header, one file header + data each (Unix host,
    '/' separators), end of archive; header CRCs are CRC32's low 16 bits."""
    out = [b"Rar!\x1a\x07\x00", _rar_block(0x73, 0, b"\0" * 6)]
    dos_time = (2009 - 1980) << 25 | 1 << 21 | 1 << 16  # 2009-01-01 00:00
    for name, data in members:
        n = name.encode()
        body = struct.pack("<IIBIIBBHI", len(data), len(data), 3, zlib.crc32(data), dos_time,
                           20, 0x30, len(n), 0o100644) + n
        out.append(_rar_block(0x74, 0x8000, body) + data)
    out.append(_rar_block(0x7B, 0x4000, b""))
    path.write_bytes(b"".join(out))


def write_tar(path, members):
    with tarfile.open(path, "w") as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def write_zip(path, members):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members:
            z.writestr(name, data)


def _samples():
    from skimage import data

    return [data.astronaut(), data.coffee(), data.chelsea(), data.rocket(), data.camera(), data.coins()]


SAMPLES = None


def jpeg(k: int, size=(40, 56)) -> bytes:
    """The k-th small test image: a crop of one of scikit-image's sample images (the
    k-th in turn, at an offset that depends on k), JPEG-encoded."""
    import imageio.v3 as iio

    global SAMPLES
    SAMPLES = SAMPLES or _samples()
    img = SAMPLES[k % len(SAMPLES)]
    r, c = 7 * (k // len(SAMPLES)) % 150, 11 * (k // len(SAMPLES)) % 150
    return iio.imwrite("<bytes>", np.ascontiguousarray(img[r:r + size[0], c:c + size[1]]), extension=".jpg")


def image_folders(root, classes, per_class, start=0):
    """Members ``root/<class>/img<i>.jpg``, ``per_class`` distinct images each."""
    out, k = [], start
    for c in classes:
        for i in range(per_class):
            out.append((f"{root}/{c}/img{i:03d}.jpg", jpeg(k)))
            k += 1
    return out


N_TRAIN, N_TEST = 40, 30


def nuswide_members(seed=0):
    """(features members, ground-truth members, labels, bow) of a small NUS-WIDE."""
    rng = np.random.default_rng(seed)
    n = N_TRAIN + N_TEST
    labels = {c: np.zeros(n, dtype=bool) for c in A.NUSWIDE_CONCEPTS}
    kinds = rng.permutation(np.repeat(["scene", "other", "both", "none"], [20, 25, 15, 10]))
    for i, kind in enumerate(kinds):
        if kind in ("scene", "both"):
            labels[rng.choice(A.NUSWIDE_SCENE_CONCEPTS)][i] = True
        if kind in ("other", "both"):
            labels[rng.choice(sorted(set(A.NUSWIDE_CONCEPTS) - set(A.NUSWIDE_SCENE_CONCEPTS)))][i] = True
    bow = rng.integers(0, 30, size=(n, 500))
    lines = [" ".join(map(str, row)) + " \n" for row in bow]  # the published files end rows in a space
    feats = [("Low_Level_Features/Normalized_CH.dat", b"0.1 0.2\n" * n),
             ("Low_Level_Features/BoW_Train_int.dat", "".join(lines[:N_TRAIN]).encode()),
             ("Low_Level_Features/BoW_Test_int.dat", "".join(lines[N_TRAIN:]).encode())]
    truth = []
    for c in A.NUSWIDE_CONCEPTS:
        for part, rows in (("Train", slice(0, N_TRAIN)), ("Test", slice(N_TRAIN, n))):
            text = "".join(f"{int(v)}\n" for v in labels[c][rows])
            truth.append((f"Groundtruth/TrainTestLabels/Labels_{c}_{part}.txt", text.encode()))
            if part == "Train":
                truth.append((f"Groundtruth/AllLabels/Labels_{c}.txt", b""))
    return feats, truth, labels, bow


SMALL = {  # the recipes cut to a few small images (the paper's sizes: test_the_defaults_are_the_papers)
    "indoor67-gist": dict(per_class=3, image_size=32),
    "scene13-gist": dict(image_size=32),
    "uiuc-sports-bow": dict(n_words=12, max_descriptors=400),
    "nuswide-bow500": dict(per_class=6),
}


def build_archives(folder, name, variant=0):
    """The set's archives in ``folder``: {registry path: local file}."""
    folder.mkdir(parents=True, exist_ok=True)
    if name == "indoor67-gist":
        members = image_folders("Images", A.INDOOR67_CATEGORIES, 1, start=variant)
        members.append(("Images/bakery/broken.jpg", b"\xff\xd8not a jpeg at all"))
        members.append(("Images/README.txt", b"not an image"))
        path = folder / "indoor.tar"
        write_tar(path, members)
        return {"images/indoorCVPR_09.tar": path}
    if name == "scene13-gist":
        path = folder / "scenes.rar"
        write_rar(path, image_folders("SceneClass13", A.SCENE13_CLASSES, 2, start=variant))
        return {"images/SceneClass13.rar": path}
    if name == "uiuc-sports-bow":
        path = folder / "events.rar"
        write_rar(path, image_folders("event_img", ["badminton", "bocce", "croquet", "polo", "RockClimbing",
                                                     "Rowing", "sailing", "snowboarding"], 2, start=variant))
        return {"images/event_dataset.rar": path}
    feats, truth, _, _ = nuswide_members(seed=variant)
    write_rar(folder / "features.rar", feats)
    write_zip(folder / "truth.zip", truth)
    return {"images/nuswide/NUS_WID_Low_Level_Features.rar": folder / "features.rar",
            "images/nuswide/Groundtruth.zip": folder / "truth.zip"}


@pytest.fixture
def offline(tmp_path, monkeypatch):
    """A fresh cache, no mirror, no network (every host probe says no)."""
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("REPRO_DATA_MIRROR", "")
    monkeypatch.delenv("REPRO_ALLOW_UNVERIFIED", raising=False)
    monkeypatch.setattr(loader, "_host_answers", lambda url: False)
    D.clear_memo()
    yield tmp_path
    D.clear_memo()


def serve(monkeypatch, name, archives):
    """Point the set's registry URLs at the local archives (file://) and cut its
    recipe to :data:`SMALL`."""
    spec = registry.REGISTRY[name]
    files = tuple(replace(f, url=archives[f.path].as_uri()) for f in spec.files("train"))
    monkeypatch.setitem(registry.REGISTRY, name, replace(spec, splits=(("train", files),)))
    monkeypatch.setitem(F.RECIPES, name, replace(F.RECIPES[name], **SMALL[name]))


# ---------------------------------------------------------------- the registry and the recipes
def test_the_defaults_are_the_papers():
    """The recipes the workflow uses draw and describe as Sec. IV says."""
    r = F.RECIPES
    assert (r["indoor67-gist"].dims, r["indoor67-gist"].per_class, r["indoor67-gist"].n_classes) == (544, 1000, 5)
    assert (r["scene13-gist"].dims, r["scene13-gist"].per_class, r["scene13-gist"].n_classes) == (352, None, 13)
    assert (r["uiuc-sports-bow"].dims, r["uiuc-sports-bow"].n_words, r["uiuc-sports-bow"].n_classes) == (300, 300, 8)
    assert (r["nuswide-bow500"].dims, r["nuswide-bow500"].per_class, r["nuswide-bow500"].n_classes) == (500, 10_000, 2)
    assert r["indoor67-gist"].image_size == r["scene13-gist"].image_size == 256
    for name in IMAGE_SETS:
        spec = D.get_spec(name)
        ref = spec.papers[0]
        assert spec.format == "image" and ref.dim == r[name].dims and ref.classes == r[name].n_classes
        assert spec.files("train") and all(f.record_first_hash and f.url and f.sha256 is None
                                           for f in spec.files("train"))
        assert F.seed_of(name) == zlib.crc32(name.encode())


def test_the_layouts_cover_the_published_classes():
    assert [g for g, _ in A.INDOOR67_GROUPS] == ["store", "home", "public spaces", "leisure", "working place"]
    assert len(A.INDOOR67_CATEGORIES) == 67 and len(A.SCENE13_CLASSES) == 13
    assert "industrial" not in A.SCENE13_CLASSES and "store" not in A.SCENE13_CLASSES
    assert len(A.NUSWIDE_CONCEPTS) == 81 and list(A.NUSWIDE_CONCEPTS) == sorted(A.NUSWIDE_CONCEPTS)
    assert "person" not in A.NUSWIDE_SCENE_CONCEPTS and "sky" in A.NUSWIDE_SCENE_CONCEPTS


def test_the_dataset_table_says_the_hash_is_recorded_at_first_download():
    t = report.dataset_table([]).set_index("dataset")
    for name in IMAGE_SETS:
        status = t.loc[name, "status"]
        assert status.startswith("download only") and registry.FIRST_HASH in status, status
        assert "image_features" in status


# ---------------------------------------------------------------- reading archives
def test_tar_zip_and_rar_are_read_alike(tmp_path):
    members = [("top/a/one.jpg", jpeg(0)), ("top/b/two.jpg", b"\x00" * 70000), ("top/c.txt", b"x")]
    for kind, write in (("tar", write_tar), ("zip", write_zip), ("rar", write_rar)):
        path = tmp_path / f"archive.{kind}.bin"  # the format is read from the bytes, not the name
        write(path, members)
        assert A.archive_format(path) == kind
        assert A.list_members(path) == [m for m, _ in members]
        assert dict(A.read_members(path, ["top/b/two.jpg", "top/a/one.jpg"])) == dict(members[:2])
        with pytest.raises(A.ArchiveLayoutError, match="no member"):
            list(A.read_members(path, ["top/none.jpg"]))
    (tmp_path / "plain").write_bytes(b"hello")
    with pytest.raises(A.ArchiveLayoutError, match="not a tar, zip or RAR"):
        A.archive_format(tmp_path / "plain")


def _failing_import(monkeypatch, error):
    """Make ``import libarchive`` raise ``error`` (everything else imports as usual)."""
    import builtins

    real = builtins.__import__

    def fail(name, *args, **kw):
        if name == "libarchive":
            raise error
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", fail)


@pytest.mark.parametrize("error", [ImportError("No module named 'libarchive'"),
                                   AttributeError("python: undefined symbol: archive_read_new")],
                         ids=["no binding", "no shared library"])
def test_a_missing_rar_reader_stops_only_the_archive_step(tmp_path, monkeypatch, error):
    """Without libarchive-c, or without the shared library it loads (ctypes then
    fails at import with AttributeError or OSError), reading a RAR archive names
    what to install; tar and zip need neither, and the workflow's preflight lets
    every other step run when only the system library is missing."""
    from repro import preflight

    write_rar(tmp_path / "a.rar", [("x/y.jpg", b"1")])
    write_tar(tmp_path / "a.tar", [("x/y.jpg", b"1")])
    _failing_import(monkeypatch, error)
    with pytest.raises(A.ArchiveReaderMissing, match="libarchive-c.*apt-get install libarchive13"):
        A.list_members(tmp_path / "a.rar")
    assert A.list_members(tmp_path / "a.tar") == ["x/y.jpg"]
    if isinstance(error, AttributeError):
        real = preflight.importlib.import_module

        def broken(name, *args, **kw):
            if name == "libarchive":
                raise error
            return real(name, *args, **kw)

        monkeypatch.setattr(preflight.importlib, "import_module", broken)
        assert preflight.problems() == []


def test_class_folders_must_sit_in_one_place():
    assert A.image_classes(["r/a/1.jpg", "r/b/2.JPG", "r/a/0.png", "r/notes.txt"]) == {
        "a": ["r/a/0.png", "r/a/1.jpg"], "b": ["r/b/2.JPG"]}
    with pytest.raises(A.ArchiveLayoutError, match="different places"):
        A.image_classes(["r/a/1.jpg", "s/b/2.jpg"])
    with pytest.raises(A.ArchiveLayoutError, match="unknown \\['extra'\\], missing \\['bakery'\\]"):
        A.group_classes({c: [f"{c}.jpg"] for c in A.INDOOR67_CATEGORIES if c != "bakery"} | {"extra": []},
                        A.INDOOR67_GROUPS)


def test_the_draw_is_seeded():
    classes = {"a": [f"a{i}" for i in range(20)], "b": [f"b{i}" for i in range(30)]}
    one, two, other = F.draw(classes, 5, 1), F.draw(classes, 5, 1), F.draw(classes, 5, 2)
    assert one == two and one != other
    assert sorted(one["a"]) == sorted(classes["a"])  # a permutation: the rest are replacements
    assert F.draw(classes, None, 1) == {c: sorted(v) for c, v in classes.items()}
    with pytest.raises(A.ArchiveLayoutError, match="has 20 images, 25"):
        F.draw(classes, 25, 1)


def test_nuswide_classes_follow_the_scene_category():
    labels = {"sky": [True, True, False, False], "person": [False, True, True, False], "dog": [False] * 4}
    assert A.nuswide_classes(labels) == ["scene", "scene", "other", None]


# ---------------------------------------------------------------- archive to matrix, end to end
EXPECTED = {  # rows, classes of the small archives
    "indoor67-gist": (15, {"store", "home", "public spaces", "leisure", "working place"}),
    "scene13-gist": (26, set(A.SCENE13_CLASSES)),
    "uiuc-sports-bow": (16, {"badminton", "bocce", "croquet", "polo", "RockClimbing", "Rowing", "sailing",
                             "snowboarding"}),
    "nuswide-bow500": (12, {"scene", "other"}),
}


@pytest.mark.parametrize("name", IMAGE_SETS)
def test_archive_to_feature_matrix(offline, monkeypatch, name):
    archives = build_archives(offline / "published", name)
    serve(monkeypatch, name, archives)
    # before: nothing here; a download would be possible (the first one records the hash)
    assert D.availability(name) == "download"
    assert not D.obtainable(name)  # no host answers
    with pytest.raises(DatasetUnavailableError, match="not attempted"):
        D.load(name, split="all", download=False)

    with pytest.warns(UserWarning, match="first download"):
        X, y, info = D.load(name, split="all", return_info=True)
    rows, classes = EXPECTED[name]
    assert X.shape == (rows, F.RECIPES[name].dims) and X.dtype == np.float64 and np.isfinite(X).all()
    assert set(y.tolist()) == classes and info.source == "download"
    for rel, local in archives.items():  # the first download's hash is recorded
        stamp = sources._read_stamp(rel)
        assert stamp == {"sha256": sources.sha256_file(local), "verified": False, "origin": "download"}
    assert info.sha256 == tuple(sources.sha256_file(p) for p in archives.values())

    # after: the cached matrix, the same on every load
    assert D.availability(name) == "cached" and D.obtainable(name)
    X2, y2, info2 = D.load(name, split="train", return_info=True)
    assert info2.source == "cache" and np.array_equal(X, X2) and np.array_equal(y, y2)

    # built again from the cached archive (verified against the recorded hash): the
    # seeded draw and the features are repeatable
    first = np.load(F.features_path(name))
    F.features_path(name).unlink()
    D.clear_memo()
    assert D.availability(name) == "cached"  # the archives are in the cache
    X3, y3 = D.load(name, split="all")
    again = np.load(F.features_path(name))
    assert np.array_equal(X, X3) and np.array_equal(y, y3)
    assert np.array_equal(first["rows"], again["rows"])


def test_a_changed_archive_is_refused(offline, monkeypatch):
    name = "scene13-gist"
    archives = build_archives(offline / "published", name)
    serve(monkeypatch, name, archives)
    with pytest.warns(UserWarning, match="first download"):
        D.load(name, split="all")
    rel, local = next(iter(archives.items()))
    recorded = sources.sha256_file(local)

    # the same archive downloaded again is verified against the recorded hash
    (sources.data_dir() / rel).unlink()
    F.features_path(name).unlink()
    D.clear_memo()
    D.load(name, split="all")
    assert sources._read_stamp(rel)["sha256"] == recorded

    # a different archive at the URL is refused, and the stamp is kept
    build_archives(offline / "published", name, variant=1)
    assert sources.sha256_file(local) != recorded
    (sources.data_dir() / rel).unlink()
    F.features_path(name).unlink()
    D.clear_memo()
    with pytest.raises(ChecksumError, match="recorded when a copy was first accepted") as e:
        D.load(name, split="all")
    assert e.value.expected == recorded and e.value.actual == sources.sha256_file(local)
    assert sources._read_stamp(rel)["sha256"] == recorded and not F.features_path(name).exists()

    # a cached copy edited in place is refused too (moved aside), with no good copy to replace it
    (sources.data_dir() / rel).write_bytes(local.read_bytes())
    D.clear_memo()
    with pytest.raises(ChecksumError):
        D.load(name, split="all")


def test_indoor_draws_per_group_and_replaces_an_undecodable_image(offline, monkeypatch):
    name = "indoor67-gist"
    archives = build_archives(offline / "published", name)
    serve(monkeypatch, name, archives)
    # the store group holds 12 images and bakery's broken file; draw as many per group
    # as puts the broken file last among store's drawn: it must be replaced by the
    # next store image of the seeded order
    tar = archives["images/indoorCVPR_09.tar"]
    groups = A.group_classes(A.image_classes(A.list_members(tar)), A.INDOOR67_GROUPS)
    position = F.draw(groups, 1, F.seed_of(name))["store"].index("Images/bakery/broken.jpg")
    assert position < 12, "the seed puts the broken file last: use another layout"
    per_class = position + 1
    monkeypatch.setitem(F.RECIPES, name, replace(F.RECIPES[name], per_class=per_class, image_size=32))
    with pytest.warns(UserWarning, match="first download"):
        X, y = D.load(name, split="all")
    meta = F.read_meta(F.features_path(name))
    assert meta["skipped"] == ["Images/bakery/broken.jpg"]
    assert dict(zip(*np.unique(y, return_counts=True))) == {g: per_class for g, _ in A.INDOOR67_GROUPS}
    rows = np.load(F.features_path(name))["rows"]
    assert len(set(rows)) == len(rows) and all(r.startswith("Images/") for r in rows)


def test_nuswide_rows_are_the_published_bag_of_words(offline, monkeypatch):
    name = "nuswide-bow500"
    serve(monkeypatch, name, build_archives(offline / "published", name))
    with pytest.warns(UserWarning, match="first download"):
        X, y = D.load(name, split="all")
    _, _, labels, bow = nuswide_members(seed=0)
    rows = np.load(F.features_path(name))["rows"]
    classes = A.nuswide_classes({c: list(v) for c, v in labels.items()})
    for x, label, row in zip(X, y, rows):
        part, i = row.split(":")
        k = int(i) + (N_TRAIN if part == "Test" else 0)
        assert np.array_equal(x, bow[k]) and label == classes[k]
    assert dict(zip(*np.unique(y, return_counts=True))) == {"scene": 6, "other": 6}


def test_a_stale_feature_file_is_built_again(offline, monkeypatch):
    name = "uiuc-sports-bow"
    serve(monkeypatch, name, build_archives(offline / "published", name))
    with pytest.warns(UserWarning, match="first download"):
        D.load(name, split="all")
    assert F.cached_features(name) is not None
    monkeypatch.setitem(F.RECIPES, name, replace(F.RECIPES[name], n_words=10))
    assert F.cached_features(name) is None and D.availability(name) == "cached"  # the archive is
    X, _ = D.load(name, split="all")
    assert X.shape[1] == 10 and np.allclose(X.sum(axis=1), 1.0)
    summary = F.build_summary(name)
    assert summary["features"] == 10 and not summary["built_now"] and summary["rows"] == 16
    assert str(offline) not in json.dumps(summary)
