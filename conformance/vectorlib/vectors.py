"""Loading vector files (README, "Vector file format")."""

import json
import os

from .errors import VectorError
from .formats import VECTOR_FORMAT
from .group import group_dir
from .typetable import TypeTable

__all__ = ["load_vector_file", "load_vectors", "load_vector_dirs", "is_ref_vector"]


def load_vector_file(path):
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != VECTOR_FORMAT:
        raise VectorError("{}: format is {!r}, expected {!r}".format(path, doc.get("format"), VECTOR_FORMAT))
    if not isinstance(doc.get("vectors"), list):
        raise VectorError("{}: no vector list".format(path))
    return doc


def load_vectors(directory=None):
    """All vectors of all groups in the directory, in file then vector order.
    Checks that names are unique."""
    directory = directory or group_dir("builtins")
    files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    if not files:
        raise VectorError("no vector files in {}".format(directory))
    vectors = []
    seen = {}
    for fname in files:
        doc = load_vector_file(os.path.join(directory, fname))
        table = None
        if "types" in doc:  # struct/enum vectors: the file's own type definitions
            table = TypeTable(doc["types"])
            problems = table.own_facts_errors()
            if problems:
                raise VectorError("{}: {}".format(fname, "; ".join(problems[:5])))
        for vec in doc["vectors"]:
            name = vec.get("name")
            if not name:
                raise VectorError("{}: vector without a name".format(fname))
            if name in seen:
                raise VectorError("duplicate vector name {!r} in {} and {}".format(name, seen[name], fname))
            seen[name] = fname
            for key in ("settings", "schema", "value", "hex", "writer_same"):
                if key not in vec:
                    raise VectorError("{}: vector {!r} lacks {!r}".format(fname, name, key))
            if vec["writer_same"] is False and not vec.get("note"):
                raise VectorError("{}: vector {!r} has writer_same=false without a note".format(fname, name))
            vec = dict(vec)
            vec["_group"] = doc.get("group")
            if table is not None:
                vec["_types"] = table
            vectors.append(vec)
    return vectors


def load_vector_dirs(directories):
    """load_vectors() for each directory; names must be unique across all."""
    vectors = []
    seen = {}
    for directory in directories:
        for vec in load_vectors(directory):
            if vec["name"] in seen:
                raise VectorError("duplicate vector name {!r} in {} and {}".format(vec["name"], seen[vec["name"]], directory))
            seen[vec["name"]] = directory
            vectors.append(vec)
    return vectors


def is_ref_vector(vec):
    """A vector written with Fory(ref=True) (the group refs)."""
    return bool((vec.get("settings") or {}).get("ref"))
