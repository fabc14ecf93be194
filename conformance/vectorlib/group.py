"""The command line of the small vector-group generators (generate_oob.py, generate_union.py,
generate_decimal.py, generate_ext.py, generate_any.py): write the group's file, compare it with the file on
disk (--check), or have pyfory read another writer's bytes back (--check-peer)."""

import argparse
import json
import os

from .formats import PYFORY_VERSION

__all__ = ["group_main", "peer_report"]


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


def group_main(script, doc, out, document, check_peer):
    """The generator's command line; ``document()`` builds the file's JSON document and
    ``check_peer(path)`` runs --check-peer."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the file on disk")
    ap.add_argument("--check-peer", metavar="FILE", help="pyfory reads another writer's bytes")
    args = ap.parse_args()
    if args.check_peer:
        return check_peer(args.check_peer)
    doc_json = document()
    text = json.dumps(doc_json, indent=2, ensure_ascii=False) + "\n"
    if args.check:
        with open(out, encoding="utf-8") as fh:
            if fh.read() != text:
                print("{}: {} is not what pinned pyfory writes; rerun without --check".format(script, out))
                return 1
        print("{}: {} is current".format(script, os.path.relpath(out)))
        return 0
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("wrote {} vectors to {}".format(len(doc_json["vectors"]), os.path.relpath(out)))
    return 0
