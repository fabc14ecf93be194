#!/usr/bin/env python3
"""Counts the items of crate `fury` that a user can reach: everything that has a public path
from the crate root (through public modules and `pub use` re-exports), with the variants, the
public fields, the methods and associated items of inherent impls, and the items of traits.
Trait impls add no names and are not counted. Items under `#[doc(hidden)]` (`__private`) are
left out unless --hidden is given.

Needs the nightly toolchain (rustdoc's JSON output is unstable):
    python3 scripts/public-items.py [--hidden] [--list] [--root]
--root counts only what the crate root itself names (its modules and re-exports)."""
import collections
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
hidden = "--hidden" in sys.argv
target = os.path.join(root, "target", "public-items-hidden" if hidden else "public-items")
args = ["-Z", "unstable-options", "--output-format", "json"]
if hidden:
    args.append("--document-hidden-items")
subprocess.run(["cargo", "+nightly", "rustdoc", "-q", "-p", "fury", "--lib", "--target-dir", target,
                "--"] + args, check=True, cwd=root)
doc = json.load(open(os.path.join(target, "doc", "fury.json")))
index = doc["index"]


def item(i):
    return index.get(str(i))


seen = set()
names = []  # (kind, path)


def count(it, path):
    kind = next(iter(it["inner"]))
    names.append((kind, path))


def walk(i, path):
    """Counts item `i`, reached as `path`, and what it makes reachable."""
    it = item(i)
    if it is None or it["id"] in seen:
        return  # another crate's item (a re-exported derive's crate, std), or counted already
    inner = it["inner"]
    kind = next(iter(inner))
    if kind == "use":
        use = inner["use"]
        target_item = item(use["id"]) if use["id"] is not None else None
        if target_item is None:
            return
        if use["is_glob"]:
            for c in target_item["inner"].get("module", {}).get("items", []):
                if item(c) and item(c)["visibility"] == "public":
                    walk(c, path)
        else:
            walk(use["id"], path)
        return
    seen.add(it["id"])
    name = it.get("name") or "?"
    here = f"{path}::{name}" if path else name
    count(it, here)
    body = inner[kind]
    if kind == "module":
        for c in body["items"]:
            ci = item(c)
            if ci is not None and ci["visibility"] == "public":
                walk(c, here)
    elif kind in ("struct", "enum", "union"):
        if kind == "struct":
            shape = body["kind"]
            fields = []
            if isinstance(shape, dict):
                v = next(iter(shape.values()))
                fields = v.get("fields", []) if isinstance(v, dict) else [f for f in v if f is not None]
            for f in fields:
                fi = item(f)
                if fi is not None and fi["visibility"] == "public":
                    seen.add(fi["id"])
                    count(fi, f"{here}.{fi['name']}")
        if kind == "enum":
            for v in body["variants"]:
                vi = item(v)
                if vi is not None:
                    seen.add(vi["id"])
                    count(vi, f"{here}::{vi['name']}")
        for imp in body.get("impls", []):
            ii = item(imp)
            if ii is None or ii["inner"]["impl"]["trait"] is not None:
                continue
            if ii["inner"]["impl"]["is_synthetic"] or ii["inner"]["impl"]["blanket_impl"]:
                continue
            for m in ii["inner"]["impl"]["items"]:
                mi = item(m)
                if mi is not None and mi["visibility"] == "public" and mi["id"] not in seen:
                    seen.add(mi["id"])
                    count(mi, f"{here}::{mi['name']}")
    elif kind == "trait":
        for m in body["items"]:
            mi = item(m)
            if mi is not None and mi["id"] not in seen:
                seen.add(mi["id"])
                count(mi, f"{here}::{mi['name']}")


top = item(doc["root"])
root_names = 0
for c in top["inner"]["module"]["items"]:
    ci = item(c)
    if ci is not None and ci["visibility"] == "public":
        root_names += 1
        walk(c, "")

by_kind = collections.Counter(k for k, _ in names)
if "--root" in sys.argv:
    print(root_names, "names at the crate root")
else:
    print(len(names), dict(sorted(by_kind.items())), f"({root_names} names at the crate root)")
if "--list" in sys.argv:
    for k, n in sorted(names, key=lambda x: x[1]):
        print(k, n)
