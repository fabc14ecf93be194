"""Nodes with references (vectors/refs/): a value that carried REF_VALUE
has "ref_id" N, a back reference is {"type": "ref", "id": N}.  The node is
a tree; cycles and sharing are expressed only by "ref" nodes.  Here: their
structural check, the object graph they stand for, and the comparisons of
graphs (with a decoded Python graph, and of two nodes whatever their ids)."""

import dataclasses
import json

from .nodes import compare, container_shape_errors, iter_nodes, node_to_py, nodes_equal_wire, short_repr
from .schema import parse_schema, schema_errors

__all__ = ["ref_targets", "ref_node_errors", "ref_node_to_py", "compare_ref_graph", "ref_schema_errors", "ref_graph_diff"]


def ref_targets(node):
    """ref id -> the node that carries it."""
    out = {}
    for n in iter_nodes(node):
        if "ref_id" in n:
            out[n["ref_id"]] = n
    return out


def ref_node_errors(node):
    """Structural problems of the references in a node: ids 0..N-1 each
    given once, every "ref" naming one of them."""
    ids, refs = [], []
    for n in iter_nodes(node):
        if "ref_id" in n:
            ids.append(n["ref_id"])
        if n["type"] == "ref":
            refs.append(n.get("id"))
    problems = []
    if sorted(ids) != list(range(len(ids))) or any(type(i) is not int for i in ids):
        problems.append("ref ids {} are not 0..{} each once".format(sorted(ids, key=str), len(ids) - 1))
    for rid in refs:
        if rid not in ids:
            problems.append("reference to id {!r}, which no value carries".format(rid))
    return problems


def ref_node_to_py(node, types=None):
    """The Python object graph of a node: a value with "ref_id" N is one
    object, and every {"type": "ref", "id": N} is that same object (cycles
    included).  Lists, dicts, sets and structs are built as empty shells
    first, so a reference may appear before its target in node order."""
    objs = {}
    for n in iter_nodes(node):
        if "ref_id" not in n:
            continue
        t = n["type"]
        if t == "list":
            objs[n["ref_id"]] = []
        elif t == "map":
            objs[n["ref_id"]] = {}
        elif t == "set":
            objs[n["ref_id"]] = set()
        elif t == "struct":
            cls = types.python_class(n["name"])
            objs[n["ref_id"]] = cls.__new__(cls)
        else:
            objs[n["ref_id"]] = node_to_py(n, types)

    def build(n):
        t = n["type"]
        if t == "ref":
            return objs[n["id"]]
        rid = n.get("ref_id")
        if t == "list":
            obj = objs[rid] if rid is not None else []
            for item in n["items"]:
                obj.append(build(item))
            return obj
        if t == "set":
            obj = objs[rid] if rid is not None else set()
            for item in n["items"]:
                obj.add(build(item))
            return obj
        if t == "map":
            obj = objs[rid] if rid is not None else {}
            for k, v in n["entries"]:
                key = build(k)
                obj[key] = build(v)
            return obj
        if t == "struct":
            cls = types.python_class(n["name"])
            obj = objs[rid] if rid is not None else cls.__new__(cls)
            for fname, fnode in n["fields"].items():
                setattr(obj, fname, build(fnode))
            return obj
        return objs[rid] if rid is not None else node_to_py(n, types)

    return build(node)


def _is_mutable_graph_object(obj):
    return type(obj) in (list, dict, set) or (dataclasses.is_dataclass(obj) and not isinstance(obj, type))


def compare_ref_graph(node, actual, types=None, strict=True):
    """Compare a Python object graph with a node that has references.

    Values are compared as compare() does.  Every {"type": "ref", "id": N}
    must be the very object (``is``) found where "ref_id" N is.  With
    ``strict`` (a decoded graph) no two list / dict / set / struct positions
    of the node may hold the same object unless a "ref" says so; without it
    (the input value) the object graph may share more than the node."""
    objs, where, pending, seen, out = {}, {}, [], {}, []
    targets = ref_targets(node)

    def leaf_value(n):
        """Python value of a map key / set element node (a "ref" resolved)."""
        if n["type"] == "ref":
            n = targets.get(n.get("id"))
            if n is None:
                return None, "a reference to an id no value carries"
        if n["type"] in ("list", "set", "map", "struct"):
            return None, "a {} as a map key or set element cannot be checked".format(n["type"])
        return node_to_py(n, types), None

    def walk(n, a, path):
        t = n["type"]
        if t == "ref":
            pending.append((n["id"], a, path))
            return
        if "ref_id" in n:
            objs[n["ref_id"]] = a
            where[n["ref_id"]] = path
        if t in ("list", "map", "set", "struct"):
            if a is None:
                out.append("{}: expected {}, got null".format(path, t))
                return
            if strict and _is_mutable_graph_object(a):
                if id(a) in seen:
                    out.append("{}: is the same object as {}, but the node has no reference here".format(path, seen[id(a)]))
                else:
                    seen[id(a)] = path
        if t in ("list", "map", "set"):
            shape = container_shape_errors(n, a, path)
            if shape:
                out.extend(shape)
                return
        if t == "list":
            for i, (item, x) in enumerate(zip(n["items"], a)):
                walk(item, x, "{}[{}]".format(path, i))
        elif t == "map":
            stored = {k: k for k in a}
            for kn, vn in n["entries"]:
                key, err = leaf_value(kn)
                if err:
                    out.append("{}: {}".format(path, err))
                    continue
                kpath = "{}[{}]".format(path, short_repr(key, 40))
                if key not in stored:
                    out.append("{}: key missing".format(kpath))
                    continue
                walk(kn, stored[key], kpath + "<key>")
                walk(vn, a[key], kpath)
        elif t == "set":
            remaining = list(a)
            for i, item in enumerate(n["items"]):
                value, err = leaf_value(item)
                if err:
                    out.append("{}{{{}}}: {}".format(path, i, err))
                    continue
                leaf = targets[item["id"]] if item["type"] == "ref" else item
                for j, x in enumerate(remaining):
                    if not compare(leaf, x, types=types):
                        walk(item, x, "{}{{{}}}".format(path, i))
                        del remaining[j]
                        break
                else:
                    out.append("{}{{{}}}: no element equal to {}".format(path, i, short_repr(value)))
        elif t == "struct":
            if types is None or n.get("name") not in types:
                out.append("{}: no definition for struct {!r}".format(path, n.get("name")))
                return
            cls = types.python_class(n["name"])
            if type(a) is not cls:
                out.append("{}: expected struct {}, got {}".format(path, n["name"], type(a).__name__))
                return
            for fname, fnode in n["fields"].items():
                if not hasattr(a, fname):
                    out.append("{}.{}: field missing".format(path, fname))
                    continue
                walk(fnode, getattr(a, fname), "{}.{}".format(path, fname))
        else:
            out.extend(compare(n, a, path, types))

    walk(node, actual, "$")
    for rid, a, path in pending:
        if rid not in objs:
            out.append("{}: reference to id {}, which no value carries".format(path, rid))
        elif _is_leaf(targets.get(rid)) and not compare(targets[rid], a, types=types):
            # A shared number, string or enum may be written (and read) once or twice:
            # equal is enough (spec 09 §9.11; the exact-bytes checks still see the difference).
            continue
        elif a is not objs[rid]:
            out.append("{}: expected the same object as {} (ref id {}), got {}".format(path, where[rid], rid, short_repr(a)))
    return out


def _is_leaf(node):
    """A node of a value that is not a container or struct (its sharing is not checked)."""
    return node is not None and node.get("type") not in ("list", "map", "set", "struct", "ref")


def ref_schema_errors(schema, node, types=None):
    """schema_errors() for a node with references: a "ref" position must fit
    the schema with the kind (and struct / enum name) of its target."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    return ref_node_errors(node) + schema_errors(schema, node, "$", types, ref_targets(node))


def _strip_ref_keys(node, ignore):
    """A leaf node without "ref_id" and the informative keys (for comparison)."""
    return {k: v for k, v in node.items() if k != "ref_id" and k not in ignore}


def ref_graph_diff(expected, got, ignore=("approx", "encoding")):
    """Differences between two nodes with references, read as object graphs:
    the same values, and the same sharing, whatever ids each side uses (a
    bijection between the ids is built as the graphs are walked).  Set and
    map order carries no meaning (which also changes which occurrence of a
    shared value comes first on the wire: that is not a difference)."""
    e_targets, g_targets = ref_targets(expected), ref_targets(got)
    e2g, g2e, out = {}, {}, []

    def resolve(n, targets):
        if n["type"] == "ref":
            return targets.get(n.get("id")), n.get("id")
        return n, n.get("ref_id")

    def leaf_key(n, targets):
        n, _rid = resolve(n, targets)
        if n is None or n["type"] in ("list", "set", "map", "struct"):
            return None
        return json.dumps(_strip_ref_keys(n, ignore), sort_keys=True)

    def unordered(e_list, g_list, path, pairs):
        # pairs: True for map entries [k, v]; False for set items
        e_keys = [leaf_key(x[0] if pairs else x, e_targets) for x in e_list]
        g_keys = [leaf_key(x[0] if pairs else x, g_targets) for x in g_list]
        if None in e_keys or None in g_keys:
            return False  # not comparable without order: compare in order
        pool = {}
        for key, x in zip(g_keys, g_list):
            pool.setdefault(key, []).append(x)
        for i, (key, x) in enumerate(zip(e_keys, e_list)):
            candidates = pool.get(key)
            if not candidates:
                out.append("{}: no {} equal to expected {} {}".format(path, "key" if pairs else "element", i, key))
                continue
            y = candidates.pop(0)
            if pairs:
                eq(x[0], y[0], "{}[{}]<key>".format(path, i))
                eq(x[1], y[1], "{}[{}]".format(path, i))
            else:
                eq(x, y, "{}{{{}}}".format(path, i))
        return True

    def eq(e, g, path):
        e_node, e_id = resolve(e, e_targets)
        g_node, g_id = resolve(g, g_targets)
        if e_node is None or g_node is None:
            out.append("{}: reference to an id no value carries".format(path))
            return
        if _is_leaf(e_node) and _is_leaf(g_node) and e_id is not None and g_id is not None:
            # a shared leaf written once and referred to, or written again: both read as the
            # same value (spec 09 §9.11), so only the value counts here
            out.extend(nodes_equal_wire(_strip_ref_keys(e_node, ()), _strip_ref_keys(g_node, ()), path, ignore))
            return
        if (e_id is None) != (g_id is None):
            out.append("{}: expected {}, the peer wrote {}".format(
                path, "an untracked value" if e_id is None else "a tracked value (ref id {})".format(e_id),
                "an untracked value" if g_id is None else "a tracked value (ref id {})".format(g_id)))
            return
        if e_id is not None:
            if e_id in e2g or g_id in g2e:
                if e2g.get(e_id) != g_id or g2e.get(g_id) != e_id:
                    out.append("{}: expected the object of ref id {} (peer id {}), the peer refers to its id {}".format(
                        path, e_id, e2g.get(e_id), g_id))
                return  # compared where it was first met (also ends cycles)
            e2g[e_id], g2e[g_id] = g_id, e_id
        t = e_node["type"]
        if g_node["type"] != t:
            out.append("{}: wire type {} expected, peer wrote {}".format(path, t, g_node["type"]))
            return
        if t == "struct":
            if e_node.get("name") != g_node.get("name") or list(e_node["fields"]) != list(g_node["fields"]):
                out.append("{}: expected struct {} {}, got {} {}".format(
                    path, e_node.get("name"), list(e_node["fields"]), g_node.get("name"), list(g_node["fields"])))
                return
            for fname in e_node["fields"]:
                eq(e_node["fields"][fname], g_node["fields"][fname], "{}.{}".format(path, fname))
        elif t in ("list", "set", "map"):
            what = "entries" if t == "map" else "items"
            e_list, g_list = e_node[what], g_node[what]
            if len(e_list) != len(g_list):
                out.append("{}: expected {} {}, got {}".format(path, len(e_list), what, len(g_list)))
                return
            if t in ("set", "map") and unordered(e_list, g_list, path, t == "map"):
                return
            for i, (x, y) in enumerate(zip(e_list, g_list)):
                if t == "map":
                    eq(x[0], y[0], "{}[{}]<key>".format(path, i))
                    eq(x[1], y[1], "{}[{}]".format(path, i))
                else:
                    eq(x, y, "{}[{}]".format(path, i))
        else:
            out.extend(nodes_equal_wire(_strip_ref_keys(e_node, ()), _strip_ref_keys(g_node, ()), path, ignore))

    eq(expected, got, "$")
    return out
