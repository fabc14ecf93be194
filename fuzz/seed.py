#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from the conformance vectors.

    python3 fuzz/seed.py            # adds the seeds to fuzz/corpus/<target>/ (keeps the rest)

Every vector's bytes (the `hex` field of conformance/vectors/builtins/*.json, vectors/structs,
vectors/compat, vectors/refs, and the `bytes` of the meta-string streams of vectors/meta) go
to the Value targets and prefix_stream. The derived targets get the bytes behind the selector
byte of the entry the vector's schema names (the tables of fuzz/src/checks.rs), the typedef
target the TypeDef body of each compatible-mode struct vector, in its own input layout.
Files are named by the first 16 hex digits of their SHA-1, so running it twice adds nothing.
Standard library only.
"""

import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
VALUE_TARGETS = ["value_plain", "value_compat", "value_ref", "value_compat_ref"]


ENTRY = r'(?:eq|graph|evo)!\(\s*"([^"]+)"'


def entry_names(source, table):
    """The entry names of a table in checks.rs, in table order: the entries before the
    reference entries, those, then the entries appended after them."""
    begin = source.index(f"// seed.py: {table} begin")
    end = source.index(f"// seed.py: {table} end")
    before, after = source[begin:end].split("ref_entries!(", 1)
    refs = source[source.index("macro_rules! ref_entries") : source.index("// seed.py: SAME_SCHEMA begin")]
    return re.findall(ENTRY, before) + re.findall(ENTRY, refs) + re.findall(ENTRY, after)


def borrowed_names():
    """The entry names of the borrowed table (fuzz/src/borrowed.rs), once: the table holds
    them in same-schema mode, then again in compatible mode."""
    with open(os.path.join(ROOT, "fuzz", "src", "borrowed.rs")) as f:
        src = f.read()
    body = src[src.index("macro_rules! entries") : src.index("// seed.py: BORROWED begin")]
    return re.findall(r'bor!\(\s*"([^"]+)"', body)


def load_vectors():
    """(group file, vector dict) for every vector with bytes."""
    out = []
    for pattern in ["vectors/builtins/*.json", "vectors/structs/*.json", "vectors/compat/*.json", "vectors/refs/*.json"]:
        for path in sorted(glob.glob(os.path.join(ROOT, "conformance", pattern))):
            with open(path) as f:
                for v in json.load(f)["vectors"]:
                    out.append(v)
    return out


def meta_streams():
    path = os.path.join(ROOT, "conformance", "vectors", "meta", "meta_strings.json")
    with open(path) as f:
        return [bytes.fromhex(s["bytes"]) for s in json.load(f)["streams"]]


def settings(v):
    s = v.get("settings", {})
    return s if isinstance(s, dict) else {}


def write(target, data, written):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    p = os.path.join(d, name)
    if not os.path.exists(p):
        with open(p, "wb") as f:
            f.write(data)
        written[target] = written.get(target, 0) + 1


def typedef_input(raw, target_index):
    """The typedef target's layout for a stream `01 ff <kind> 00 <TypeDef> <rest>`, or None."""
    kinds = {28: 0, 30: 1, 26: 2}
    if len(raw) < 12 or raw[0] != 0x01 or raw[1] != 0xFF or raw[2] not in kinds or raw[3] != 0:
        return None
    header = int.from_bytes(raw[4:12], "little")
    size, at = header & 0xFF, 12
    if size == 0xFF:  # varuint32 extension
        ext, shift = 0, 0
        while True:
            b = raw[at]
            at += 1
            ext |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        size += ext
    body, rest = raw[at : at + size], raw[at + size :]
    if len(body) != size or size > 0xFFFF:
        return None
    return bytes([target_index, kinds[raw[2]]]) + size.to_bytes(2, "little") + body + rest


def kinds_seeds(source, written):
    """The `kinds` target: each later vector group under the selector of its decoder (the
    KINDS table of fuzz/src/kinds.rs)."""
    with open(os.path.join(ROOT, "fuzz", "src", "kinds.rs")) as f:
        kinds_src = f.read()
    table = kinds_src[kinds_src.index("pub const KINDS"):]
    kinds = re.findall(r'"([a-z_]+)"', table[: table.index("];")])
    pick = {k: i for i, k in enumerate(kinds)}

    def group(name):
        path = os.path.join(ROOT, "conformance", name)
        with open(path) as f:
            return json.load(f)["vectors"]

    for v in group("vectors/oob/oob.json"):
        bufs = [bytes.fromhex(b) for b in v["buffers"]]
        head = bytes([pick["oob"], len(bufs)]) + b"".join(len(b).to_bytes(2, "little") + b for b in bufs)
        write("kinds", head + bytes.fromhex(v["hex"]), written)
    for v in group("vectors/union/union.json"):
        s = settings(v)
        k = "union_refs" if s.get("ref") else ("union_compatible" if s.get("compatible") else "union_same_schema")
        write("kinds", bytes([pick[k]]) + bytes.fromhex(v["hex"]), written)
    for v in group("vectors/ext/ext.json"):
        k = "ext_compatible" if settings(v).get("compatible") else "ext_same_schema"
        write("kinds", bytes([pick[k]]) + bytes.fromhex(v["hex"]), written)
    for v in group("vectors/decimal/decimal.json"):
        write("kinds", bytes([pick["decimal"]]) + bytes.fromhex(v["hex"]), written)
    for v in group("vectors/rows/rows.json"):
        write("kinds", bytes([pick["row"]]) + bytes.fromhex(v["hex"]), written)


def main():
    with open(os.path.join(ROOT, "fuzz", "src", "checks.rs")) as f:
        source = f.read()
    same = entry_names(source, "SAME_SCHEMA")
    compat = entry_names(source, "COMPAT")
    assert len(same) < 256 and len(compat) < 255, "a selector is one byte"
    written = {}
    vectors = load_vectors()
    streams = [bytes.fromhex(v["hex"]) for v in vectors] + meta_streams()

    for raw in streams:
        for t in VALUE_TARGETS + ["prefix_stream"]:
            write(t, raw, written)
    # A few concatenations: message boundaries and TypeDefs shared across messages.
    for i in range(0, len(streams) - 3, 3):
        write("prefix_stream", b"".join(streams[i : i + 3]), written)

    for v in vectors:
        raw = bytes.fromhex(v["hex"])
        names = {v.get("schema"), v.get("reader_type"), v.get("writer_type")} - {None}
        table = compat if settings(v).get("compatible", True) else same
        target = "derived_compat" if table is compat else "derived_same_schema"
        for i, entry in enumerate(table):
            if entry in names or entry.removeprefix("rc:") in names:
                write(target, bytes([i]) + raw, written)
                if target == "derived_compat":
                    seed = typedef_input(raw, i + 1)
                    if seed is not None:
                        write("typedef", seed, written)
        seed = typedef_input(raw, 0)  # target 0: as Value
        if seed is not None:
            write("typedef", seed, written)

    kinds_seeds(source, written)

    # borrowed: struct vectors under the entry of their schema in their own mode; the root
    # vectors (conformance/vectors/builtins, all compatible) under both modes' entries.
    names = borrowed_names()
    for v in vectors:
        raw = bytes.fromhex(v["hex"])
        schema = v.get("schema")
        struct = v["name"].startswith(("structs/", "compat/"))
        modes = [settings(v).get("compatible", True)] if struct else [False, True]
        for i, entry in enumerate(names):
            if entry == schema:
                for compatible in modes:
                    write("borrowed", bytes([i + len(names) * compatible]) + raw, written)

    for t in sorted(written):
        print(f"{t}: {written[t]} new seed files")
    if not written:
        print("no new seed files", file=sys.stderr)


if __name__ == "__main__":
    main()
