#!/usr/bin/env python3
"""Check bytes written by another Fory port against the conformance vectors.

Usage:
    python conformance/check_peer.py --group NAME [PEER_BYTES.json]
    python conformance/check_peer.py --list
    python conformance/check_peer.py PEER_BYTES.json [--vectors DIR ...]
                                     [--allow-skipped] [--no-wire-check] [--skip-list FILE]
    python conformance/check_peer.py --make-reference OUT.json [--vectors DIR ...]

--group NAME checks the bytes fury-rs wrote for a group of conformance/groups.json (by
default the group's "peer_bytes" under target/conformance/): with the group's own check when
its generator (generators/NAME.py) has a check_peer(path), otherwise as below with the
group's folder as --vectors and its "peer_skips" as --skip-list. --list prints the groups
that have a peer check, with what they are about, one a line (tab-separated).

--vectors may be given several times (default: conformance/vectors/builtins only),
e.g. --vectors conformance/vectors/builtins --vectors conformance/vectors/structs.
Vector files with a "types" list (struct and enum vectors) are decoded with
Python dataclasses and Enums built from those definitions and registered
with the same ids / names; before any bytes are checked, pyfory's field
order, fingerprint and hash of every struct must equal the ones stored in
the file.

PEER_BYTES.json ("fury-peer-bytes/1", see README.md) holds, for vector
names, the hex of the bytes the port wrote when it encoded the vector's
value.  Each (name, path) entry is decoded with pyfory 1.7.7 using the
vector's settings and compared with the vector's expected value (floats by
bit pattern, NaN included).  In addition the bytes are decoded by an
independent decoder and the wire types are compared with the vector
(a VARINT64 where the vector has FLOAT32 is a failure even though pyfory
hands back a Python number either way); string encodings are not compared.

Every vector needs at least one entry with bytes; a vector whose entries
are all "skipped" fails ("no bytes from peer") unless --allow-skipped is
given, in which case it is only listed as skipped, or it is named in the
--skip-list FILE (one name a line), where a listed vector that does have
bytes fails too, so the list cannot go stale.

Output: one line per failure, then a last line "N passed, M failed".
Exit status 0 iff M == 0 and N > 0.

--make-reference writes a peer-bytes file holding the vectors' own hex
(path "reference"); checking it must pass, which tests this checker.

Compatible-mode struct files (--vectors conformance/vectors/compat, settings
compatible=true) are checked with the TypeDef-driven independent decoder;
before any bytes are checked pyfory must encode the stored TypeDef of every
type.  Evolution vectors (those with "writer_type") are checked three ways:
pyfory with the writer's registrations must decode the peer's bytes to
"value", the independent decoder must agree, and pyfory with only the
reader's registrations must decode them to "expected" -- or fail, for an
"expected_error" vector.  An expected-error vector may also be answered with
a "skipped" entry: that is not a failure.  A vector with
"pyfory_reader_error" (pyfory's reader is known to fail on valid bytes)
skips the reader step.

Reference-tracking files (--vectors conformance/vectors/refs, settings
ref=true; one file may mix compatible=false and compatible=true) are decoded
with a pyfory Fory(xlang=True, ref=True, compatible=<the vector's>) that
registers the file's types.  Before any bytes are checked, pyfory's field
order, fingerprint, hash and TypeDef of every type must equal the stored
ones.  pyfory's result must equal the node *as an object graph*: a
{"type": "ref", "id": N} must be the very object (``is``) found where
"ref_id" N is, and no other list / dict / set / struct may be shared.  The
wire check decodes the bytes with vectorlib.decode_wire_refs and compares the
graphs: same values, same wire kinds, same sharing (ids may be renumbered,
for example when a port writes map entries in another order).
"""

import argparse
import importlib
import json
import os
import sys

# the row format's check reads timestamps as local times (pyfory.format): run in UTC, and with
# the hash seed of the generators
if os.environ.get("PYTHONHASHSEED") != "0" or os.environ.get("TZ") != "UTC":
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED="0", TZ="UTC"))

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as VL  # noqa: E402


def is_compat_vector(vec):
    """A vector of a compatible-mode struct file (TypeDef meta on the wire)."""
    return vec.get("_types") is not None and bool(vec["settings"].get("compatible"))


def check_entry(vec, data, fory, wire_check, reader_fory=None):
    """Problems found in one peer byte string (empty list: pass)."""
    types = vec.get("_types")  # struct/enum definitions of the vector's file, if any
    if VL.is_ref_vector(vec):
        return check_ref_entry(vec, data, fory, wire_check)
    if is_compat_vector(vec):
        return check_compat_entry(vec, data, fory, wire_check, reader_fory)
    problems = []
    try:
        decoded, unread = VL.deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - anything pyfory raises is a failure
        return ["pyfory could not decode the bytes: {}: {}".format(type(exc).__name__, exc)]
    if unread:
        problems.append("{} trailing bytes after the root value".format(unread))
    problems.extend(VL.compare(vec["value"], decoded, types=types))
    if wire_check:
        try:
            node = VL.decode_wire(data, vec["schema"], types)
        except VL.WireError as exc:
            problems.append("wire check: {}".format(exc))
        else:
            problems.extend("wire check: " + d for d in VL.nodes_equal_wire(vec["value"], node))
    return problems


def check_ref_entry(vec, data, fory, wire_check):
    """A reference-tracking vector (settings ref=true): compare object graphs,
    identity included."""
    types = vec.get("_types")
    problems = []
    try:
        decoded, unread = VL.deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - anything pyfory raises is a failure
        return ["pyfory could not decode the bytes: {}: {}".format(type(exc).__name__, exc)]
    if unread:
        problems.append("{} trailing bytes after the root value".format(unread))
    problems.extend(VL.compare_ref_graph(vec["value"], decoded, types, strict=True))
    if wire_check:
        try:
            node = VL.decode_wire_refs(data, vec["schema"], types, bool(vec["settings"].get("compatible")))
        except (VL.WireError, VL.VectorError) as exc:
            problems.append("wire check: {}".format(exc))
        else:
            problems.extend("wire check: " + d for d in VL.ref_graph_diff(vec["value"], node))
    return problems


def make_ref_forys(vectors):
    """One Fory per (vector file, settings) for the reference-tracking
    vectors, with the file's types registered.  Checks the stored type facts
    against pyfory first."""
    forys = {}
    checked = set()
    for vec in vectors:
        if not VL.is_ref_vector(vec):
            continue
        types = vec.get("_types")
        if types is not None and id(types) not in checked:
            problems = VL.refs_facts_errors(types)
            if problems:
                raise VL.VectorError("type definitions disagree with pyfory: " + "; ".join(problems[:5]))
            checked.add(id(types))
        key = ref_fory_key(vec)
        if key not in forys:
            forys[key] = types.make_fory(vec["settings"]) if types is not None else VL.make_fory(vec["settings"])
    return forys


def ref_fory_key(vec):
    return (id(vec.get("_types")), json.dumps(vec["settings"], sort_keys=True))


def check_compat_entry(vec, data, fory, wire_check, reader_fory):
    """A compatible-mode vector: ``fory`` registers the writer's types (the
    plain types, plus the vector's writer_registers), ``reader_fory`` the
    reader's (evolution vectors only)."""
    types = vec["_types"]
    problems = []
    try:
        decoded, unread = VL.deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - anything pyfory raises is a failure
        return ["pyfory could not decode the bytes: {}: {}".format(type(exc).__name__, exc)]
    if unread:
        problems.append("{} trailing bytes after the root value".format(unread))
    problems.extend(VL.compare(vec["value"], decoded, types=types))
    if wire_check:
        try:
            node, _typedefs = VL.decode_wire_compat(data, vec["schema"], types, vec.get("writer_registers", ()))
        except VL.WireError as exc:
            problems.append("wire check: {}".format(exc))
        else:
            problems.extend("wire check: " + d for d in VL.nodes_equal_wire(vec["value"], node))
    if reader_fory is None or "pyfory_reader_error" in vec:
        return problems
    try:
        got, unread = VL.deserialize_all(reader_fory, data)
    except Exception as exc:  # noqa: BLE001
        if not vec.get("expected_error"):
            problems.append("reader {}: pyfory could not decode the bytes: {}: {}".format(
                vec["reader_type"], type(exc).__name__, exc))
        return problems
    if vec.get("expected_error"):
        problems.append("reader {}: pyfory decoded the bytes, but the vector expects an error ({})".format(
            vec["reader_type"], vec.get("error")))
        return problems
    if unread:
        problems.append("reader {}: {} trailing bytes after the root value".format(vec["reader_type"], unread))
    problems.extend("reader {}: {}".format(vec["reader_type"], d) for d in VL.compare(vec["expected"], got, types=types))
    return problems


def load_peer(path):
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if not isinstance(doc, dict) or doc.get("format") != VL.PEER_BYTES_FORMAT:
        raise VL.VectorError(
            "{}: format is {!r}, expected {!r}".format(
                path, doc.get("format") if isinstance(doc, dict) else None, VL.PEER_BYTES_FORMAT
            )
        )
    results = doc.get("results")
    if not isinstance(results, list):
        raise VL.VectorError("{}: 'results' must be a list".format(path))
    return doc, results


def make_type_forys(vectors):
    """One Fory per struct/enum vector file and settings (the group any mixes same-schema and
    compatible vectors), with that file's types registered.  Checks that pyfory computes the
    stored field order, fingerprint and hash (and TypeDefs, for compatible vectors); the
    facts of a file that also has reference-tracking vectors are checked by make_ref_forys
    (its TypeDefs are stored as a Fory(ref=True) writes them)."""
    forys = {}
    with_refs = {id(v["_types"]) for v in vectors if v.get("_types") is not None and VL.is_ref_vector(v)}
    for vec in vectors:
        types = vec.get("_types")
        if types is None or VL.is_ref_vector(vec):
            continue  # reference-tracking vectors: make_ref_forys
        key = type_fory_key(vec)
        if key in forys:
            continue
        settings = vec["settings"]
        fory = types.make_fory(settings)
        if id(types) in with_refs:
            problems = []
        elif is_compat_vector(vec):
            problems = VL.pyfory_compat_facts_errors(types, settings)
        else:
            problems = VL.pyfory_facts_errors(types, fory)
        if problems:
            raise VL.VectorError("type definitions disagree with pyfory: " + "; ".join(problems[:5]))
        forys[key] = fory
    return forys


def type_fory_key(vec):
    return (id(vec["_types"]), json.dumps(vec["settings"], sort_keys=True))


def make_reference(vectors, out_path):
    doc = {
        "format": VL.PEER_BYTES_FORMAT,
        "producer": "{} (reference bytes from the vector files)".format(VL.PEER),
        "results": [{"name": v["name"], "path": "reference", "hex": v["hex"]} for v in vectors],
    }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print("wrote {} entries to {}".format(len(doc["results"]), out_path))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description="Check a port's bytes against the conformance vectors.")
    parser.add_argument("peer_bytes", nargs="?", help="peer-bytes JSON file written by the port")
    parser.add_argument(
        "--vectors",
        action="append",
        metavar="DIR",
        help="vector directory; may be repeated (default: conformance/vectors/builtins)",
    )
    parser.add_argument("--allow-skipped", action="store_true", help="a vector with only skipped entries is not a failure")
    parser.add_argument(
        "--skip-list",
        metavar="FILE",
        help="the vectors that may have only skipped entries, one name a line (# comments); an "
        "unlisted one fails, and so does a listed one that has bytes",
    )
    parser.add_argument("--no-wire-check", action="store_true", help="only compare pyfory's decoded value")
    parser.add_argument("--make-reference", metavar="OUT", help="write the vectors' own hex as a peer-bytes file and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print passing entries")
    parser.add_argument("--group", metavar="NAME", help="check fury-rs's bytes of a group of groups.json")
    parser.add_argument("--list", action="store_true", help="print the groups with a peer check and exit")
    args = parser.parse_args(argv)
    if args.list:
        for row in VL.groups():
            if row.get("peer_bytes"):
                print("{}\t{}".format(row["name"], row["about"]))
        return 0
    if args.group:
        row = VL.group(args.group)
        if not row.get("peer_bytes"):
            parser.error("group {} has no peer check (no \"peer_bytes\" in groups.json)".format(args.group))
        if args.vectors or args.skip_list or args.make_reference:
            parser.error("--group takes its vectors and skip list from groups.json")
        args.peer_bytes = args.peer_bytes or os.path.join(os.path.dirname(VL.CONFORMANCE_DIR), "target",
                                                          "conformance", row["peer_bytes"])
        generator = importlib.import_module("generators." + args.group)
        if hasattr(generator, "check_peer"):
            return generator.check_peer(args.peer_bytes)
        args.vectors = [VL.group_dir(args.group)]
        if row.get("peer_skips"):
            args.skip_list = os.path.join(VL.CONFORMANCE_DIR, row["peer_skips"])

    VL.require_pyfory()
    try:
        vectors = VL.load_vector_dirs(args.vectors or [VL.group_dir("builtins")])
        type_fory = make_type_forys(vectors)
        ref_fory = make_ref_forys(vectors)
    except (OSError, ValueError, VL.VectorError) as exc:
        print("cannot load vectors: {}".format(exc))
        print("0 passed, 1 failed")
        return 1
    if args.make_reference:
        return make_reference(vectors, args.make_reference)
    if not args.peer_bytes:
        parser.error("PEER_BYTES.json is required")

    passed = 0
    failed = 0

    def fail(name, path, what):
        nonlocal failed
        failed += 1
        print("FAIL {} [{}]: {}".format(name, path, what))

    try:
        peer_doc, results = load_peer(args.peer_bytes)
    except (OSError, ValueError, VL.VectorError) as exc:
        print("cannot load peer bytes: {}".format(exc))
        print("0 passed, 1 failed")
        return 1

    by_name = {v["name"]: v for v in vectors}
    fory_cache = {}
    alias_fory_cache = {}  # (file, alias types) -> Fory of a compatible-mode file

    def alias_fory(vec, names):
        key = (id(vec["_types"]), tuple(names))
        if key not in alias_fory_cache:
            alias_fory_cache[key] = vec["_types"].make_fory_with(vec["settings"], names)
        return alias_fory_cache[key]

    with_bytes = set()
    skipped = {}
    seen = set()
    skip_list = None
    if args.skip_list:
        with open(args.skip_list, "r", encoding="utf-8") as fh:
            skip_list = {ln.split("#", 1)[0].strip() for ln in fh} - {""}
        for name in sorted(skip_list - set(by_name)):
            fail(name, "-", "listed in {} but no vector of this name".format(args.skip_list))

    for index, entry in enumerate(results):
        if not isinstance(entry, dict):
            fail("?", "?", "results[{}] is not an object".format(index))
            continue
        name = entry.get("name")
        path = entry.get("path")
        if not isinstance(name, str) or not isinstance(path, str):
            fail(name, path, "results[{}] needs string 'name' and 'path'".format(index))
            continue
        if (name, path) in seen:
            fail(name, path, "duplicate entry")
            continue
        seen.add((name, path))
        vec = by_name.get(name)
        if vec is None:
            fail(name, path, "no vector of this name")
            continue
        if "skipped" in entry:
            reason = entry["skipped"]
            if "hex" in entry or not isinstance(reason, str) or not reason.strip():
                fail(name, path, "a skipped entry needs a non-empty reason and no hex")
            else:
                skipped.setdefault(name, []).append("{}: {}".format(path, reason))
            continue
        hex_text = entry.get("hex")
        if not isinstance(hex_text, str):
            fail(name, path, "entry has neither 'hex' nor 'skipped'")
            continue
        try:
            data = bytes.fromhex(hex_text)
        except ValueError as exc:
            fail(name, path, "bad hex: {}".format(exc))
            continue
        with_bytes.add(name)
        reader_fory = None
        if VL.is_ref_vector(vec):
            fory = ref_fory[ref_fory_key(vec)]
        elif "_types" in vec and "writer_type" in vec:
            fory = alias_fory(vec, vec["writer_registers"])
            reader_fory = alias_fory(vec, vec["reader_registers"])
        elif "_types" in vec:
            fory = type_fory[type_fory_key(vec)]
        else:
            key = json.dumps(vec["settings"], sort_keys=True)
            if key not in fory_cache:
                fory_cache[key] = VL.make_fory(vec["settings"])
            fory = fory_cache[key]
        problems = check_entry(vec, data, fory, not args.no_wire_check, reader_fory)
        if problems:
            shown = problems[:8]
            if len(problems) > len(shown):
                shown.append("... {} more".format(len(problems) - len(shown)))
            fail(name, path, "; ".join(shown) + " (peer hex {}{})".format(hex_text[:80], "..." if len(hex_text) > 80 else ""))
        else:
            passed += 1
            if args.verbose:
                print("ok   {} [{}]".format(name, path))

    only_skipped = 0
    for vec in vectors:
        name = vec["name"]
        if name in with_bytes:
            if skip_list is not None and name in skip_list:
                fail(name, "-", "listed in {} as skipped, but the peer wrote bytes: remove the line".format(args.skip_list))
            continue
        if name in skipped:
            if args.allow_skipped or vec.get("expected_error") or (skip_list is not None and name in skip_list):
                only_skipped += 1
                if args.verbose:
                    print("skip {} ({})".format(name, "; ".join(skipped[name])))
                continue
            fail(name, "-", "no bytes from peer (skipped: {})".format("; ".join(skipped[name])))
        else:
            fail(name, "-", "no bytes from peer (no entry)")

    producer = peer_doc.get("producer", "?")
    skipped_entries = sum(len(v) for v in skipped.values())
    print(
        "producer {}: {} vectors, {} result entries ({} skipped), {} vectors with only skipped entries".format(
            producer, len(vectors), len(results), skipped_entries, only_skipped
        )
    )
    print("{} passed, {} failed".format(passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
