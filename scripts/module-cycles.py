#!/usr/bin/env python3
"""Fails when the files of a Rust crate import each other in a cycle.

    python3 scripts/module-cycles.py [SRC_DIR]        (default: fury-rs/src)

Every file is a module (`a/b.rs` is `a::b`, `a/mod.rs` is `a`). File A depends on file B when
A names an item that B defines: through a private `use` or a `crate::`/`super::`/`self::` path
in its code. A `pub use` (of any visibility) is a re-export, not a dependency: a path through
it is followed to the file that defines the item. A file naming what its own module's root
(the `mod.rs` above it, or an ancestor's) defines is not a dependency either: the root is the
module's interface, which its parts implement; the reverse (a root using a part) is one. Test code (`#[cfg(test)]` modules and the
files they load) is left out. The check prints every cycle as the files that close it, with
the names that make each step, and exits 1 when there is one; with --graph it also prints the
dependencies of the top-level modules.
"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "fury-rs/src"
src = os.path.abspath(src)


def module_of(path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return tuple(rel)


def strip(text):
    """Removes comments, string and char literals (keeping line breaks)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            out.append('""')
            i = n if end < 0 else end + 1 + len(m.group(1))
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 12]) or c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12]):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_modules(text):
    """Removes `#[cfg(test)] mod x { ... }` blocks and returns the text and the names of
    `#[cfg(test)] mod x;` declarations (files that hold only tests)."""
    test_files = set(re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text))
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
        if not m:
            break
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        text = text[:m.start()] + "\n" * text[m.start():j].count("\n") + text[j:]
    # `#[cfg(test)] use ...;` is test code too
    text = re.sub(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?use\s[^;]*;", "", text)
    return text, test_files


def expand_use_tree(tree):
    """`a::{b, c::{d, e as f}, self}` -> [(["a","b"], "b"), ...]: (path, local name)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    tree = re.sub(r"\s*(::|\{|\}|,)\s*", r"\1", tree)
    out = []

    def go(prefix, s):
        depth, parts, cur = 0, [], ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            if "{" in p:
                head, rest = p.split("{", 1)
                head = [x for x in head.split("::") if x]
                go(prefix + head, rest[:-1])
            else:
                alias = None
                if " as " in p:
                    p, alias = p.split(" as ", 1)
                segs = [x for x in p.split("::") if x]
                if segs == ["self"]:
                    segs = []
                path = prefix + segs
                name = alias or (path[-1] if path else None)
                out.append((path, name))

    go([], tree)
    return out


files = {}
for dirpath, _, names in os.walk(src):
    for name in names:
        if name.endswith(".rs"):
            files[module_of(os.path.join(dirpath, name))] = os.path.join(dirpath, name)

# pass 1: parse each file: its re-exports, its private uses, its inline paths, test-only children
parsed = {}
test_only = set()
for mod, path in files.items():
    text, test_children = drop_test_modules(strip(open(path).read()))
    for child in test_children:
        test_only.add(mod + (child,))
    reexports, uses, inline = {}, [], []
    for m in re.finditer(r"(?:^|[;{}\]\s])((pub(?:\([^)]*\))?\s+)?use\s+([^;]+);)", text):
        is_pub = bool(m.group(2))
        for segs, name in expand_use_tree(m.group(3)):
            line = text.count("\n", 0, m.start(1)) + 1
            if is_pub:
                if segs and segs[-1] == "*":
                    reexports.setdefault("*", []).append(segs[:-1])
                else:
                    reexports[name] = segs
            else:
                uses.append((segs, line))
    body = re.sub(r"(pub(\([^)]*\))?\s+)?use\s+[^;]+;", lambda m: "\n" * m.group(0).count("\n"), text)
    for m in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", body):
        inline.append((m.group(1).split("::"), body.count("\n", 0, m.start()) + 1))
    parsed[mod] = (reexports, uses, inline)

# files loaded only by test modules are test code
for t in list(test_only):
    for mod in list(files):
        if mod[:len(t)] == t:
            test_only.add(mod)


def absolute(mod, segs):
    """Resolves a path written in file `mod` to an absolute path (a tuple of segments)."""
    segs = list(segs)
    base = list(mod)
    if not segs:
        return tuple(base)
    if segs[0] == "crate":
        return tuple(segs[1:])
    if segs[0] == "self":
        return tuple(base + segs[1:])
    if segs[0] == "super":
        while segs and segs[0] == "super":
            base = base[:-1]
            segs = segs[1:]
        return tuple(base + segs)
    if segs[0] in ("std", "core", "alloc") or segs[0][0].isupper():
        return None
    # a bare path: a child module of this file, else another crate
    if tuple(base + [segs[0]]) in files:
        return tuple(base + segs)
    return None


def defining_file(path, depth=0):
    """The file that defines the item `path` names (following re-exports)."""
    if path is None or depth > 20:
        return None
    # the longest prefix that is a file
    for k in range(len(path), -1, -1):
        if path[:k] in files:
            fmod, rest = path[:k], path[k:]
            break
    else:
        return None
    if not rest:
        return fmod
    reexports = parsed[fmod][0]
    if rest[0] in reexports:
        target = absolute(fmod, reexports[rest[0]])
        if target is None:
            return None  # another crate's item
        return defining_file(target + tuple(rest[1:]), depth + 1)
    for glob in reexports.get("*", []):
        target = absolute(fmod, glob)
        if target is not None and target != fmod:
            d = defining_file(target + tuple(rest), depth + 1)
            if d is not None and d != target:
                return d
    return fmod


edges = {}  # (a, b) -> [(name, line)]
for mod, (reexports, uses, inline) in parsed.items():
    if mod in test_only:
        continue
    for segs, line in uses + inline:
        if segs and segs[-1] == "*":
            segs = segs[:-1]
        target = absolute(mod, segs)
        d = defining_file(target)
        if d is None or d == mod or d in test_only:
            continue
        if mod[:len(d)] == d:
            # a part of a module naming what the module's own root (its `mod.rs`, or an
            # ancestor's) defines: the module's interface, not a dependency between parts
            continue
        edges.setdefault((mod, d), []).append(("::".join(segs), line))


def name(mod):
    return "::".join(mod) if mod else "crate root"


def sccs(nodes, succ):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            strong(v)
    return out


def shortest_cycle(comp, succ):
    """A shortest cycle through the component's first node, as a list of nodes."""
    comp_set = set(comp)
    best = None
    for start in sorted(comp):
        prev, frontier, seen = {}, [start], {start}
        found = None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(succ.get(v, ())):
                    if w not in comp_set:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in seen:
                        seen.add(w)
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        if found is not None:
            path = [found]
            while path[-1] != start:
                path.append(prev[path[-1]])
            cyc = list(reversed(path))
            if best is None or len(cyc) < len(best):
                best = cyc
    return best


def report(level, edge_map):
    succ = {}
    for (a, b) in edge_map:
        succ.setdefault(a, set()).add(b)
    nodes = sorted(set(x for e in edge_map for x in e))
    bad = [c for c in sccs(nodes, succ) if len(c) > 1]
    for comp in bad:
        cyc = shortest_cycle(comp, succ)
        print(f"cycle between {level}: " + " -> ".join(name(m) for m in cyc + [cyc[0]]))
        for a, b in zip(cyc, cyc[1:] + [cyc[0]]):
            why = edge_map[(a, b)]
            shown = ", ".join(f"{n} (line {l})" for n, l in why[:3])
            more = f" and {len(why) - 3} more" if len(why) > 3 else ""
            print(f"  {name(a)} uses {shown}{more}")
        if len(comp) > len(cyc):
            print(f"  (the cycle is part of a knot of {len(comp)}: {', '.join(sorted(name(m) for m in comp))})")
    return len(bad)


# the top-level modules (a module and all its files)
top_edges = {}
for (a, b), why in edges.items():
    ta, tb = a[:1], b[:1]
    if ta != tb and ta and tb:
        top_edges.setdefault((ta, tb), []).extend((f"{n} in {name(a)}", l) for n, l in why)
n_top = report("top-level modules", top_edges)
n_files = report("files", edges)
if "--graph" in sys.argv:
    for (a, b) in sorted(top_edges):
        print(f"{name(a)} -> {name(b)}")
if n_top or n_files:
    print(f"{n_top} cycle(s) between top-level modules, {n_files} between files of {os.path.relpath(src)}")
    sys.exit(1)
print(f"no import cycles between the {len(files) - len(test_only)} files of {os.path.relpath(src)}")
