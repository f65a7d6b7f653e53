"""The NESVM paper's four image sets as their publishers distribute them (issue 28).

The paper (Zhou, Tao, Wu 2010, Sec. IV-B to IV-E) computes its own features from four
public image collections and publishes none of them. This module says where each
collection is distributed, how its archive is laid out, and how the paper's classes
are formed from it; :mod:`repro.datasets.image_features` turns an archive into the
feature matrix, :mod:`repro.datasets.sources` downloads and verifies it.

Sources (what each was established from; "not established" where no source we could
read says it, with the reading we chose instead):

* Indoor scenes, Quattoni & Torralba 2009 (Sec. IV-B): ``indoorCVPR_09.tar`` (2.4 GB)
  from ``groups.csail.mit.edu/vision/LabelMe/NewImages/``, linked from the dataset's
  page https://web.mit.edu/torralba/www/indoor.html ("67 Indoor categories, and a
  total of 15620 images ... All images are in jpg format"). Layout ``Images/<category>/
  *.jpg``, the 67 category folder names listed in :data:`INDOOR67_GROUPS`: both as
  used by public install scripts (microsoft/archai ``scripts/datasets/mit67_install.py``
  extracts the tar and reads ``Images/<class>/``; several scene-recognition
  repositories list the same 67 folder names). The five groups (store, home, public
  spaces, leisure, working place) are the paper's Fig. 2; *which category is in which
  group was not established here* (the figure could not be read from any stored
  copy): :data:`INDOOR67_GROUPS` is our reading, by the function of the place.
* 13 natural scene categories, Fei-Fei & Perona 2005 (Sec. IV-C): ``SceneClass13.rar``
  from ``vision.stanford.edu/Datasets/`` (the URL public scripts download it from;
  folders ``SceneClass13/MITcoast``, ``SceneClass13/MITforest``, ... as one of them
  reads it). The 13 are the 15-scene set of Lazebnik et al. 2006
  (``scene_categories.zip``) without the two classes Lazebnik added (industrial,
  store). The folder names are not relied on: each folder holding images is a class,
  and the archive must have 13 (:data:`SCENE13_CLASSES` says which we expect).
* UIUC sports events, Li & Fei-Fei 2007 (Sec. IV-D): ``event_dataset.rar`` from
  http://vision.stanford.edu/lijiali/event_dataset/ (microsoft/archai
  ``scripts/datasets/sport8_install.py`` downloads it and reads ``event_img/<class>/``;
  1,579 images). Each folder holding images is a class; the archive must have 8.
* NUS-WIDE, Chua et al. 2009 (Sec. IV-E): the published low-level features
  ``NUS_WID_Low_Level_Features.rar`` and the ground truth ``Groundtruth.zip`` from
  ``lms.comp.nus.edu.sg/wp-content/uploads/2019/research/nuswide/`` (the dataset's page
  https://lms.comp.nus.edu.sg/wp-content/uploads/2019/research/nuswide/NUS-WIDE.html;
  a public download script fetches both from there). Inside: ``Low_Level_Features/
  BoW_Train_int.dat`` and ``BoW_Test_int.dat`` (the 500-dimensional SIFT bag of words,
  one image a line, 500 integers separated by spaces, the official 161,789 training
  and 107,859 test images in order), and ``TrainTestLabels/Labels_<concept>_Train.txt``
  / ``_Test.txt`` (one 0/1 a line, the same images in the same order) for the 81
  concepts of ``Concepts81.txt`` (:data:`NUSWIDE_CONCEPTS`, as public loaders list them).
  (Several public loaders read the BoW and labels so; some read a single ``BoW_int.dat``
  of all 269,648 images instead. If the archive holds only that, the build stops
  naming the file it did not find: read that layout then.)
  The NUS-WIDE paper groups its concepts into six categories (event/activities,
  program, scene/location, people, objects, graphics), from which NESVM draws "10000
  samples from the scene class and 10000 samples from the other classes"; *which
  concept is in which category was not established here*: :data:`NUSWIDE_SCENE_CONCEPTS`
  is our reading of scene/location (places, landforms, water, sky and light), and
  :func:`nuswide_classes` states how an image with several concepts is classed.

No sha256 of any of these archives could be established (no copy is reachable from
here): their :class:`~repro.datasets.registry.FileSpec` records the hash of the
first download and holds every later copy to it (``record_first_hash``).

Reading archives: tar and zip with the standard library; RAR (three of the five
archives) with libarchive through its Python binding ``libarchive-c`` (a dependency
in pyproject.toml) and the shared library ``libarchive`` (Debian package
``libarchive13``); :class:`ArchiveReaderMissing` names both when either is absent.
"""
from __future__ import annotations

import io
import posixpath
import tarfile
import zipfile
from collections.abc import Iterable, Iterator

#: What to install to read RAR archives, in the error raised when it is missing.
RAR_HINT = ("reading RAR archives needs libarchive: the Python package libarchive-c "
            "(pip install libarchive-c; a dependency of this package, so `pip install -e .` "
            "installs it) and the shared library it loads (Debian: apt-get install libarchive13)")

#: File name endings read as images (lower case).
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".pgm", ".ppm")


class ArchiveReaderMissing(RuntimeError):
    """An archive cannot be read here: the reader it needs is not installed."""


class ArchiveLayoutError(ValueError):
    """An archive is not laid out as its publisher's (a wrong or changed file)."""


# ---------------------------------------------------------------- reading any archive
def archive_format(path) -> str:
    """'tar', 'zip' or 'rar', from the file's first bytes (not its name: a download
    may be saved under any name). Raises :class:`ArchiveLayoutError` otherwise."""
    with open(path, "rb") as f:
        head = f.read(512)
    if head.startswith(b"Rar!\x1a\x07"):
        return "rar"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    raise ArchiveLayoutError(f"{path}: not a tar, zip or RAR archive (first bytes {head[:8]!r})")


def _libarchive():
    """The libarchive-c module, or :class:`ArchiveReaderMissing` saying what to install.
    Without the shared library libarchive-c fails at import with OSError or, where
    ctypes finds no library at all, AttributeError."""
    try:
        import libarchive
    except (ImportError, OSError, AttributeError) as e:
        raise ArchiveReaderMissing(f"{RAR_HINT} ({type(e).__name__}: {e})") from e
    return libarchive


def _normal(name: str) -> str:
    """A member name with '/' separators and no leading './' or '/'."""
    name = name.replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return name.lstrip("/")


def list_members(path) -> list[str]:
    """The names of the regular files in an archive, in archive order."""
    kind = archive_format(path)
    if kind == "tar":
        with tarfile.open(path) as t:
            return [_normal(m.name) for m in t.getmembers() if m.isfile()]
    if kind == "zip":
        with zipfile.ZipFile(path) as z:
            return [_normal(i.filename) for i in z.infolist() if not i.is_dir()]
    la = _libarchive()
    with la.file_reader(str(path)) as a:
        return [_normal(e.pathname) for e in a if e.isfile]


def read_members(path, names: Iterable[str]) -> Iterator[tuple[str, bytes]]:
    """``(name, bytes)`` of the named regular files, in archive order (one pass; a
    RAR can only be read in order). A name not in the archive is an error."""
    wanted = set(names)
    seen = set()
    kind = archive_format(path)
    if kind == "tar":
        with tarfile.open(path) as t:
            for m in t.getmembers():
                name = _normal(m.name)
                if m.isfile() and name in wanted:
                    seen.add(name)
                    yield name, t.extractfile(m).read()
    elif kind == "zip":
        with zipfile.ZipFile(path) as z:
            for i in z.infolist():
                name = _normal(i.filename)
                if not i.is_dir() and name in wanted:
                    seen.add(name)
                    yield name, z.read(i)
    else:
        la = _libarchive()
        with la.file_reader(str(path)) as a:
            for e in a:
                name = _normal(e.pathname)
                if e.isfile and name in wanted:
                    seen.add(name)
                    yield name, b"".join(e.get_blocks())
    missing = wanted - seen
    if missing:
        raise ArchiveLayoutError(f"{path}: no member(s) {sorted(missing)[:5]} "
                                 f"({len(missing)} missing)")


# ---------------------------------------------------------------- folders of images
def image_classes(members: Iterable[str]) -> dict[str, list[str]]:
    """Class folder -> its image files (sorted), for an archive of
    ``<root>/<class>/<image>``: every image file's parent folder is its class, and
    all class folders must sit in one root folder (else the archive is not laid out
    as expected, and the error lists the roots found). Other files are ignored."""
    classes: dict[str, list[str]] = {}
    roots = set()
    for name in members:
        if not name.lower().endswith(IMAGE_EXTENSIONS):
            continue
        parent = posixpath.dirname(name)
        if not parent:
            raise ArchiveLayoutError(f"image {name!r} is in no class folder")
        roots.add(posixpath.dirname(parent))
        classes.setdefault(posixpath.basename(parent), []).append(name)
    if len(roots) > 1:
        raise ArchiveLayoutError(f"class folders in {len(roots)} different places: {sorted(roots)[:5]}")
    return {c: sorted(v) for c, v in sorted(classes.items())}


# ---------------------------------------------------------------- Indoor-67 (Sec. IV-B)
#: The five groups of Quattoni & Torralba's Fig. 2 (the paper's "store, home, public
#: spaces, leisure and working place") -> the category folders of ``Images/``.
#: The 67 folder names are the archive's; the assignment to groups is OUR READING (the
#: figure could not be read here), by what the place is for; check it against Fig. 2 of
#: A. Quattoni, A. Torralba, Recognizing indoor scenes, CVPR 2009.
INDOOR67_GROUPS = (
    ("store", ("bakery", "bookstore", "clothingstore", "deli", "florist", "grocerystore",
               "jewelleryshop", "laundromat", "mall", "shoeshop", "toystore", "videostore")),
    ("home", ("bathroom", "bedroom", "children_room", "closet", "corridor", "dining_room", "garage",
              "kitchen", "livingroom", "nursery", "pantry", "stairscase", "winecellar")),
    ("public spaces", ("airport_inside", "church_inside", "cloister", "elevator", "inside_bus",
                       "inside_subway", "library", "lobby", "locker_room", "museum", "prisoncell",
                       "subway", "trainstation", "waitingroom")),
    ("leisure", ("bar", "bowling", "buffet", "casino", "concert_hall", "fastfood_restaurant",
                 "gameroom", "gym", "hairsalon", "movietheater", "poolinside", "restaurant")),
    ("working place", ("artstudio", "auditorium", "classroom", "computerroom", "dentaloffice",
                       "greenhouse", "hospitalroom", "kindergarden", "laboratorywet", "meeting_room",
                       "office", "operating_room", "restaurant_kitchen", "studiomusic", "tv_studio",
                       "warehouse")),
)
INDOOR67_CATEGORIES = tuple(sorted(c for _, cs in INDOOR67_GROUPS for c in cs))
assert len(INDOOR67_CATEGORIES) == len(set(INDOOR67_CATEGORIES)) == 67


def group_classes(classes: dict[str, list[str]], groups) -> dict[str, list[str]]:
    """Category folder -> images, gathered into ``groups`` ((group, (folder, ...)), ...).
    Every folder of the archive must be in exactly one group and every group's folder
    in the archive: a missing or unknown folder means another archive than the one the
    groups were written for, and is an error naming it."""
    known = {c for _, cs in groups for c in cs}
    unknown, missing = sorted(set(classes) - known), sorted(known - set(classes))
    if unknown or missing:
        raise ArchiveLayoutError(f"category folders not as expected: unknown {unknown}, missing {missing}")
    return {g: sorted(p for c in cs for p in classes[c]) for g, cs in groups}


# ---------------------------------------------------------------- Scene-13 (Sec. IV-C)
#: The 13 classes of Fei-Fei & Perona 2005, as the 15-scene set names its folders (its
#: 15 less Lazebnik's industrial and store); SceneClass13's own folder names are read
#: from the archive (:func:`image_classes`), these document what to expect.
SCENE13_CLASSES = ("bedroom", "CALsuburb", "kitchen", "livingroom", "MITcoast", "MITforest",
                   "MIThighway", "MITinsidecity", "MITmountain", "MITopencountry", "MITstreet",
                   "MITtallbuilding", "PARoffice")

# ---------------------------------------------------------------- UIUC sports (Sec. IV-D)
#: The 8 events of Li & Fei-Fei 2007, as the paper names them; the class labels are
#: the archive's folder names (:func:`image_classes`), whatever their spelling.
SPORTS8_CLASSES = ("badminton", "bocce", "croquet", "polo", "rock climbing", "rowing", "sailing",
                   "snowboarding")


# ---------------------------------------------------------------- NUS-WIDE (Sec. IV-E)
#: The 81 concepts of NUS-WIDE's ConceptsList/Concepts81.txt, in its (alphabetical) order.
NUSWIDE_CONCEPTS = (
    "airport", "animal", "beach", "bear", "birds", "boats", "book", "bridge", "buildings", "cars",
    "castle", "cat", "cityscape", "clouds", "computer", "coral", "cow", "dancing", "dog",
    "earthquake", "elk", "fire", "fish", "flags", "flowers", "food", "fox", "frost", "garden",
    "glacier", "grass", "harbor", "horses", "house", "lake", "leaf", "map", "military", "moon",
    "mountain", "nighttime", "ocean", "person", "plane", "plants", "police", "protest", "railroad",
    "rainbow", "reflection", "road", "rocks", "running", "sand", "sign", "sky", "snow", "soccer",
    "sports", "statue", "street", "sun", "sunset", "surf", "swimmers", "tattoo", "temple", "tiger",
    "tower", "town", "toy", "train", "tree", "valley", "vehicle", "water", "waterfall", "wedding",
    "whales", "window", "zebra")
assert len(NUSWIDE_CONCEPTS) == 81

#: OUR READING of the NUS-WIDE paper's scene/location category (its concept lists could
#: not be read here): the concepts that name a place, a landform, a body of water, the
#: sky or the light of a scene. Check against T.-S. Chua et al., NUS-WIDE: a real-world
#: web image database from National University of Singapore, CIVR 2009.
NUSWIDE_SCENE_CONCEPTS = (
    "airport", "beach", "bridge", "buildings", "castle", "cityscape", "clouds", "frost", "garden",
    "glacier", "grass", "harbor", "house", "lake", "moon", "mountain", "nighttime", "ocean",
    "railroad", "rainbow", "reflection", "road", "rocks", "sand", "sky", "snow", "street", "sun",
    "sunset", "temple", "tower", "town", "valley", "water", "waterfall")
assert set(NUSWIDE_SCENE_CONCEPTS) < set(NUSWIDE_CONCEPTS)

#: The parts of NUS-WIDE in the order their rows are joined: (part, BoW file, label suffix).
NUSWIDE_PARTS = (("Train", "BoW_Train_int.dat", "_Train.txt"), ("Test", "BoW_Test_int.dat", "_Test.txt"))
NUSWIDE_BOW_DIM = 500


def member_by_basename(members: Iterable[str], basename: str, folder: str | None = None) -> str:
    """The one member called ``basename`` (inside a folder called ``folder`` when
    given), wherever the archive puts its top folder; an error when there is none
    or more than one."""
    hits = [m for m in members if posixpath.basename(m) == basename
            and (folder is None or posixpath.basename(posixpath.dirname(m)) == folder)]
    if len(hits) != 1:
        where = f" in a folder {folder!r}" if folder else ""
        raise ArchiveLayoutError(f"expected one {basename!r}{where} in the archive, found {len(hits)}: {hits[:3]}")
    return hits[0]


def nuswide_label_files(members: Iterable[str]) -> dict[tuple[str, str], str]:
    """(concept, part) -> the member ``TrainTestLabels/Labels_<concept>_<part>.txt``,
    for all 81 concepts and both parts (an error otherwise)."""
    members = list(members)
    out = {}
    for concept in NUSWIDE_CONCEPTS:
        for part, _, suffix in NUSWIDE_PARTS:
            out[concept, part] = member_by_basename(members, f"Labels_{concept}{suffix}", "TrainTestLabels")
    return out


def parse_labels(data: bytes, name: str = "") -> list[bool]:
    """A ``Labels_*.txt``: one 0 or 1 a line."""
    out = []
    for i, line in enumerate(data.split(b"\n"), 1):
        tok = line.strip()
        if not tok:
            continue
        if tok not in (b"0", b"1"):
            raise ArchiveLayoutError(f"{name}: line {i} is {tok[:20]!r}, not 0 or 1")
        out.append(tok == b"1")
    return out


def nuswide_classes(labels: dict[str, list[bool]]) -> list[str | None]:
    """Each image's class for Sec. IV-E: 'scene' when it has a scene/location concept
    (:data:`NUSWIDE_SCENE_CONCEPTS`); 'other' when it has a concept, none of them a
    scene one (it belongs to the other five categories only); None when it has no
    concept (it is in no category, so in neither class). An image with a scene
    concept and others counts as 'scene': it is in the scene class, as the
    multi-label ground truth has it. ``labels``: concept -> one bool per image."""
    n = {len(v) for v in labels.values()}
    if len(n) != 1:
        raise ArchiveLayoutError(f"label files of different lengths: {sorted(n)}")
    (n,) = n
    scene = [False] * n
    other = [False] * n
    for concept, flags in labels.items():
        target = scene if concept in NUSWIDE_SCENE_CONCEPTS else other
        for i, f in enumerate(flags):
            if f:
                target[i] = True
    return ["scene" if s else "other" if o else None for s, o in zip(scene, other)]


def parse_bow_rows(data: bytes, rows, name: str = "") -> tuple[dict[int, list[int]], int]:
    """``(row index -> its 500 integers, number of lines)`` of a ``BoW_*_int.dat``:
    only the wanted ``rows`` are parsed (the files have 161,789 and 107,859 lines), the
    lines are counted (a last line without a newline counts)."""
    wanted = set(rows)
    out = {}
    count = 0
    for i, line in enumerate(io.BytesIO(data)):
        count = i + 1
        if i in wanted:
            values = line.split()
            if len(values) != NUSWIDE_BOW_DIM:
                raise ArchiveLayoutError(f"{name}: line {i + 1} has {len(values)} values, not {NUSWIDE_BOW_DIM}")
            out[i] = [int(v) for v in values]
    if len(out) != len(wanted):
        raise ArchiveLayoutError(f"{name}: {count} lines, rows up to {max(wanted) + 1} asked")
    return out, count


__all__ = ["ArchiveLayoutError", "ArchiveReaderMissing", "INDOOR67_GROUPS", "NUSWIDE_CONCEPTS",
           "NUSWIDE_SCENE_CONCEPTS", "SCENE13_CLASSES", "SPORTS8_CLASSES", "archive_format",
           "group_classes", "image_classes", "list_members", "read_members"]
