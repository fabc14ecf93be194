"""The vector groups: the table conformance/groups.json (also read by the Rust runner and by
scripts/test-all.sh), the one writer of a group's files (write or --check), and the report of
a peer check.

A group NAME has its vectors in vectors/NAME/ (one file per entry of "files") and its
generator in generators/NAME.py, a module with:

* ``documents()``: {file base name: JSON document, or the file's whole text}, one entry per
  file of the table's row;
* optionally ``check_peer(path)``: pyfory reads another writer's bytes (an exit status);
  without it check_peer.py checks the bytes against the group's vectors.
"""

import json
import os
import sys

from .errors import VectorError
from .formats import CONFORMANCE_DIR, PYFORY_VERSION
from .nodes import compare, contains_set, node_to_py
from .peer import deserialize_all

__all__ = [
    "GROUP_TABLE", "GROUP_TABLE_FORMAT", "groups", "group", "group_dir", "group_file", "group_files",
    "protocol_2_groups", "render_document", "write_group", "peer_report", "die", "confirm_read_back", "peer_check", "plain_read_back",
]

GROUP_TABLE = os.path.join(CONFORMANCE_DIR, "groups.json")
GROUP_TABLE_FORMAT = "fury-conformance-groups/1"
_TABLE = None


def groups():
    """The rows of groups.json, in order (dicts: name, about, files, protocol, and the
    optional rust_mirrors, peer_bytes, peer_skips)."""
    global _TABLE
    if _TABLE is None:
        with open(GROUP_TABLE, encoding="utf-8") as fh:
            doc = json.load(fh)
        if doc.get("format") != GROUP_TABLE_FORMAT:
            raise VectorError("{}: format is {!r}, expected {!r}".format(GROUP_TABLE, doc.get("format"),
                                                                          GROUP_TABLE_FORMAT))
        _TABLE = doc["groups"]
    return _TABLE


def group(name):
    for row in groups():
        if row["name"] == name:
            return row
    raise VectorError("no group {!r} in {}".format(name, GROUP_TABLE))


def group_dir(name):
    """vectors/NAME/ (checks that NAME is a group)."""
    return os.path.join(CONFORMANCE_DIR, "vectors", group(name)["name"])


def group_files(name):
    """The paths of the group's files, in table order."""
    return [os.path.join(group_dir(name), f + ".json") for f in group(name)["files"]]


def group_file(name):
    """The path of a one-file group's file."""
    files = group_files(name)
    if len(files) != 1:
        raise VectorError("group {!r} has {} files".format(name, len(files)))
    return files[0]


def protocol_2_groups():
    """The groups whose requests carry fury-testee/2 (PROTOCOL.md, section 9)."""
    return tuple(row["name"] for row in groups() if row["protocol"] == 2)


def render_document(doc):
    """A vector file's text: 2-space indented JSON, not ASCII-escaped, a final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_group(name, documents, check):
    """Writes the group's files from ``documents`` (see the module doc), or with ``check``
    compares them with the files on disk. Prints one line per file; returns the exit status."""
    row = group(name)
    if sorted(documents) != sorted(row["files"]):
        raise VectorError("generators/{}.py makes the files {}, groups.json lists {}".format(
            name, sorted(documents), sorted(row["files"])))
    stale = []
    for base in row["files"]:
        doc = documents[base]
        text = doc if isinstance(doc, str) else render_document(doc)
        path = os.path.join(group_dir(name), base + ".json")
        shown = os.path.relpath(path, os.path.dirname(CONFORMANCE_DIR))
        what = "{} vectors".format(len(doc["vectors"])) if isinstance(doc, dict) and "vectors" in doc else "written"
        if check:
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                stale.append(shown)
            print("{:9s} {:40s} {}".format(name, shown, "current" if same else "OUT OF DATE"))
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        print("{:9s} {:40s} {}".format(name, shown, what))
    if stale:
        print("not what pinned pyfory writes (run python conformance/generate.py {}): {}".format(
            name, ", ".join(stale)))
        return 1
    return 0


def die(name, msg):
    """Stops a generator that cannot confirm a vector (or its types): says which and why on
    stderr, exits with status 1, and so nothing is written."""
    sys.stderr.write("{}: {}\n".format(name, msg))
    raise SystemExit(1)


def confirm_read_back(name, fory, data, node, py_value, types=None, read_failure_ok=False):
    """The checks of a generator after the independent decoder has read ``data`` to ``node``:
    pyfory reads ``data`` back, using every byte, to ``node``; the input ``py_value`` equals
    ``node``; and, unless the node holds a set (whose rebuilt order may differ), the value
    rebuilt from the node serializes to ``data`` again. Stops the generator (``die``) on a
    difference. When pyfory cannot read the bytes at all, ``read_failure_ok`` returns
    "ExceptionType: message" instead of stopping; otherwise the result is None."""
    try:
        decoded, unread = deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - report anything pyfory raises
        if read_failure_ok:
            return "{}: {}".format(type(exc).__name__, exc)
        die(name, "pyfory could not read its own bytes: {!r}".format(exc))
    if unread:
        die(name, "pyfory left {} bytes unread".format(unread))
    diffs = compare(node, decoded, types=types)
    if diffs:
        die(name, "pyfory.deserialize differs from the expected value: " + "; ".join(diffs[:5]))
    diffs = compare(node, py_value, types=types)
    if diffs:
        die(name, "the input value differs from the node: " + "; ".join(diffs[:5]))
    if not contains_set(node):
        again = fory.serialize(node_to_py(node, types))
        if again != data:
            die(name, "node_to_py(value) serializes to {} instead of {}".format(again.hex()[:200], data.hex()[:200]))
    return None


def peer_check(group, what, path, read_back, vectors=None):
    """A generator's check_peer: pyfory reads another writer's streams of a one-file group.
    ``path`` is that writer's list of {"name", "hex", ...}; ``vectors`` default to the
    group's file as stored; ``read_back`` is as for peer_report. Returns the exit status."""
    if vectors is None:
        with open(group_file(group), encoding="utf-8") as fh:
            vectors = json.load(fh)["vectors"]
    with open(path, encoding="utf-8") as fh:
        written = json.load(fh)
    return peer_report(what, vectors, written, read_back)


def plain_read_back(read):
    """A read_back for vectors whose "value" is the plain form of what pyfory reads:
    ``read(vector, data)`` returns that form for the bytes ``data``."""
    def read_back(vec, w):
        got = read(vec, bytes.fromhex(w["hex"]))
        return None if got == vec["value"] else "pyfory read {}, expected {}".format(got, vec["value"])

    return read_back


def peer_report(what, vectors, written, read_back):
    """Check another writer's streams: ``written`` is its list of {"name", "hex", ...};
    ``read_back(vector, entry)`` returns None when pyfory reads the entry to the vector's
    value, else a failure message (it may raise). Prints the failures and a summary line;
    returns the exit status."""
    by_name = {v["name"]: v for v in vectors}
    failures, seen = [], set()
    for w in written:
        vec = by_name.get(w["name"])
        if vec is None:
            failures.append("{}: not a vector".format(w["name"]))
            continue
        seen.add(w["name"])
        try:
            problem = read_back(vec, w)
        except Exception as exc:  # noqa: BLE001 - a peer error is a finding, reported
            problem = "pyfory could not read it: {!r}".format(exc)
        if problem:
            failures.append("{}: {}".format(w["name"], problem))
    missing = sorted(set(by_name) - seen)
    if missing:
        failures.append("no bytes for: " + ", ".join(missing))
    for f in failures:
        print("FAIL", f)
    print("{} of {} {} vectors read by pyfory {}".format(len(seen) - len(failures), len(by_name), what,
                                                       PYFORY_VERSION))
    return 1 if failures else 0
