"""Fetch one dataset into the cache, verify it, and record what was obtained."""
import json

import numpy as np
import scipy.sparse as sp

from repro import datasets
from repro._io import log_to, write_text_atomic

with log_to(snakemake.log[0]):  # noqa: F821 (the snakemake object)
    name = snakemake.wildcards.dataset  # noqa: F821

    datasets.fetch(name, download=bool(snakemake.params.download))  # noqa: F821
    splits = {}
    for split in datasets.get_spec(name).used_splits():
        X, y, info = datasets.load(name, split=split, return_info=True)
        labels, counts = np.unique(y, return_counts=True)
        splits[split] = {
            "rows": X.shape[0], "features": X.shape[1], "sparse": sp.issparse(X),
            "classes": {str(k): int(v) for k, v in zip(labels, counts)},
            "source": info.source, "standin": info.standin,
            "files": list(info.files), "sha256": list(info.sha256),
        }
    write_text_atomic(snakemake.output[0], json.dumps({"name": name, "splits": splits}, indent=1))  # noqa: F821
