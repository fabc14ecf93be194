#!/usr/bin/env python3
"""Counts the items of crate `fury` that a user can name: every item that rustdoc's JSON
lists with a public path, less those under `#[doc(hidden)]` (pass --hidden to count them too).
Needs the nightly toolchain (rustdoc's JSON output is unstable):
    python3 scripts/public-items.py [--list]"""
import json, subprocess, sys, os, collections
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
target = os.path.join(root, "target", "public-items")
subprocess.run(["cargo", "+nightly", "rustdoc", "-q", "-p", "fury", "--lib", "--target-dir", target,
                "--", "-Z", "unstable-options", "--output-format", "json"], check=True, cwd=root)
doc = json.load(open(os.path.join(target, "doc", "fury.json")))
index, paths = doc["index"], doc["paths"]
hidden = set()
def walk_hidden(i, parent_hidden):
    item = index.get(str(i)) or index.get(i)
    if item is None:
        return
    h = parent_hidden or any("hidden" in str(a) for a in item.get("attrs", []))
    if h:
        hidden.add(item["id"])
    inner = item.get("inner", {})
    for kind in ("module", "struct", "enum", "trait", "impl"):
        body = inner.get(kind)
        if isinstance(body, dict):
            for key in ("items", "variants", "impls"):
                for c in body.get(key, []) or []:
                    walk_hidden(c, h)
            kind_s = body.get("kind")
            if isinstance(kind_s, dict):
                for v in kind_s.values():
                    if isinstance(v, dict):
                        for c in v.get("fields", []) or []:
                            walk_hidden(c, h)
                    elif isinstance(v, list):
                        for c in v:
                            if isinstance(c, int):
                                walk_hidden(c, h)
walk_hidden(doc["root"], False)
count = collections.Counter()
names = []
for i, item in index.items():
    if item.get("crate_id") != 0 or item.get("visibility") != "public":
        continue
    if item["id"] in hidden and "--hidden" not in sys.argv:
        continue
    kind = next(iter(item.get("inner", {"?": 0})))
    if kind in ("impl", "use"):
        continue
    count[kind] += 1
    names.append((kind, item.get("name")))
print(sum(count.values()), dict(count))
if "--list" in sys.argv:
    for k, n in sorted(names):
        print(k, n)
