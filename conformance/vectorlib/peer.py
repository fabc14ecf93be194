"""pyfory access: the pinned version, Fory instances, the typed-root writer,
and the facts pyfory computes (struct field order / fingerprint / hash,
meta strings, TypeDefs) that the vector files store and our code must
reproduce.  pyfory is imported lazily, by the functions that need it."""

import os

from .formats import COMPAT_SETTINGS, PYFORY_VERSION, REFS_SETTINGS_COMPAT, REFS_SETTINGS_SAME
from .errors import VectorError
from .meta_string import META_ENCODING_NAMES, meta_string_first_write
from .typedef import typedef_describe, typedef_encode
from .types import ANNOTATION_FOR_KIND, ARRAY_CLASS_NAMES

__all__ = [
    "require_pyfory", "make_fory", "array_class", "write_typed_root", "deserialize_all", "pyfory_struct_facts",
    "pyfory_meta_strings", "pyfory_facts_errors", "pyfory_typedef", "pyfory_compat_facts_errors",
    "refs_facts_errors", "pyfory_type_docs",
]


def require_pyfory():
    """Import pyfory and insist on the pinned version."""
    try:
        import pyfory
    except ImportError as exc:  # pragma: no cover - environment problem
        raise SystemExit(
            "pyfory is not installed; run: pip install -r conformance/requirements.txt ({})".format(exc)
        )
    # scripts/canary.sh runs everything with the newest pyfory on purpose, to see what changed
    if pyfory.__version__ != PYFORY_VERSION and os.environ.get("FURY_CANARY") != "1":
        raise SystemExit(
            "pyfory {} is required, found {} (pip install pyfory=={})".format(
                PYFORY_VERSION, pyfory.__version__, PYFORY_VERSION
            )
        )
    return pyfory


def make_fory(settings):
    pyfory = require_pyfory()
    return pyfory.Fory(
        xlang=bool(settings["xlang"]),
        ref=bool(settings["ref"]),
        compatible=bool(settings["compatible"]),
    )


def array_class(kind):
    from pyfory import serialization

    return getattr(serialization, ARRAY_CLASS_NAMES[kind])


def write_typed_root(fory, kind, value):
    """Serialize ``value`` as a root of the scalar wire type ``kind``.

    pyfory has no Python class for most fixed-width scalar types, so the
    stream is put together from pyfory's own pieces: the header byte, the
    not-null ref flag, the type info of the annotated type and the
    payload written by that type's serializer.
    """
    pyfory = require_pyfory()
    from pyfory import annotation

    ann = getattr(annotation, ANNOTATION_FOR_KIND[kind])
    buf = pyfory.Buffer.allocate(64)
    wc = fory.write_context
    wc.prepare(buf)
    try:
        header = 0x01 if fory.xlang else 0x00
        buf.write_int8(header)
        wc.write_int8(-1)  # not-null flag, no reference tracking for scalars
        type_info = fory.type_resolver.get_type_info(ann)
        fory.type_resolver.write_type_info(wc, type_info)
        type_info.serializer.write(wc, value)
        return buf.to_bytes(0, buf.get_writer_index())
    finally:
        fory.reset_write()


def deserialize_all(fory, data):
    """Deserialize ``data`` and return (value, unread byte count)."""
    pyfory = require_pyfory()
    buf = pyfory.Buffer(bytes(data))
    value = fory.deserialize(buf)
    return value, len(data) - buf.get_reader_index()


def pyfory_struct_facts(fory, cls):
    """field_order / fingerprint / hash as pyfory 1.7.7 computes them."""
    from pyfory.struct import compute_struct_fingerprint

    ser = fory.type_resolver.get_type_info(cls).serializer
    if type(ser).__name__ == "DataClassStubSerializer":
        ser = ser._replace()
    fp = compute_struct_fingerprint(ser.type_resolver, ser._field_names, ser._serializers, ser._nullable_fields, ser._field_infos)
    return {"field_order": list(ser._field_names), "fingerprint": fp, "hash": int(ser._hash)}


def pyfory_meta_strings(fory, cls):
    """Namespace and type name of a name-registered type, as pyfory encoded them."""
    ti = fory.type_resolver.get_type_info(cls)
    out = {}
    for role, ems, text in (("namespace", ti.namespace_bytes, ti.decode_namespace()), ("typename", ti.typename_bytes, ti.decode_typename())):
        data = bytes(ems.data)
        enc = ems.encoding if data else 0
        first = meta_string_first_write(enc, data, ems.hashcode)  # pyfory's hash, not ours
        out[role] = {"text": text, "encoding": META_ENCODING_NAMES[enc], "hex": data.hex(), "first_write_hex": first.hex()}
    return out


def pyfory_facts_errors(types, fory):
    """Compare stored and own facts with what pyfory computes for the Python
    mirrors registered in ``fory``."""
    problems = list(types.own_facts_errors())
    classes = types.python_classes()
    for name in types:
        d = types.get(name)
        if d["kind"] == "struct":
            facts = pyfory_struct_facts(fory, classes[name])
            own = {"field_order": types.wire_order(name), "fingerprint": types.fingerprint(name), "hash": types.struct_hash(name)}
            for key, value in facts.items():
                if own[key] != value:
                    problems.append("type {}: pyfory {} {!r}, computed {!r}".format(name, key, value, own[key]))
        if types.is_named(name):
            pm = pyfory_meta_strings(fory, classes[name])
            if pm != types.meta_strings(name):
                problems.append("type {}: pyfory meta strings {!r}, computed {!r}".format(name, pm, types.meta_strings(name)))
    return problems


def pyfory_typedef(fory, cls):
    """The TypeDef bytes pyfory 1.7.7 encodes for a registered class."""
    from pyfory.meta.typedef_encoder import encode_typedef

    return bytes(encode_typedef(fory.type_resolver, cls).encoded)


def pyfory_compat_facts_errors(types, settings=None):
    """For each type with typedef_hex / typedef_error: pyfory must encode the
    same TypeDef bytes (or fail the same way).  Alias types are encoded in a
    Fory that registers them (and their alias closure)."""
    settings = settings or COMPAT_SETTINGS
    problems = list(types.own_facts_errors())
    cache = {}
    for name in types:
        d = types.get(name)
        if "typedef_hex" not in d and "typedef_error" not in d:
            continue
        key = tuple(types.alias_closure(name))
        if key not in cache:
            cache[key] = types.make_fory_with(settings, key)
        fory = cache[key]
        try:
            got = pyfory_typedef(fory, types.python_class(name)).hex()
            err = None
        except Exception as exc:  # noqa: BLE001 - pyfory's own failure is the fact
            got, err = None, "{}: {}".format(type(exc).__name__, exc)
        if "typedef_hex" in d and got != d["typedef_hex"]:
            problems.append("type {}: pyfory TypeDef {} ({}), stored {}".format(name, got, err, d["typedef_hex"]))
        if "typedef_error" in d and err is None:
            problems.append("type {}: stored typedef_error, but pyfory encodes {}".format(name, got))
    return problems


def refs_facts_errors(types):
    """The stored facts of a vectors/refs/ type table against our own
    computation and against pyfory: field order, fingerprint and hash with
    Fory(ref=True, compatible=False), and the TypeDef with
    Fory(ref=True, compatible=True)."""
    fory = types.make_fory(REFS_SETTINGS_SAME)
    problems = pyfory_facts_errors(types, fory)
    for p in pyfory_compat_facts_errors(types, REFS_SETTINGS_COMPAT):
        if p not in problems:
            problems.append(p)
    return problems


def pyfory_type_docs(defs, types, fory_same, fory_compat, stream_typedefs):
    """The type definitions ``defs`` of a file whose vectors come in both modes, with the
    facts pyfory computes stored beside them: a struct's field order, fingerprint and hash
    (``fory_same``), a name-registered type's meta strings, and the TypeDef of every struct
    and named type (``fory_compat``).  Each fact must equal our own computation, and each
    TypeDef the one the compatible streams carried (``stream_typedefs``: type name -> bytes);
    otherwise VectorError names the type and the difference."""
    docs = []
    for d in defs:
        d = dict(d)
        name = d["name"]
        cls = types.python_class(name)
        if d["kind"] == "struct":
            facts = pyfory_struct_facts(fory_same, cls)
            own = {"field_order": types.wire_order(name), "fingerprint": types.fingerprint(name),
                   "hash": types.struct_hash(name)}
            if facts != own:
                raise VectorError("{}: pyfory computes {} but we compute {}".format(name, facts, own))
            d.update(own)
        if types.is_named(name):
            pm = pyfory_meta_strings(fory_same, cls)
            if pm != types.meta_strings(name):
                raise VectorError("{}: pyfory meta strings {} differ from ours {}".format(name, pm, types.meta_strings(name)))
            d["meta_strings"] = pm
        if d["kind"] == "struct" or types.is_named(name):
            py_td = pyfory_typedef(fory_compat, cls)
            own_td = typedef_encode(types, name)
            if py_td != own_td:
                raise VectorError("{}: pyfory's TypeDef {} differs from ours {}".format(name, py_td.hex(), own_td.hex()))
            written = stream_typedefs.get(name)
            if written is None:
                raise VectorError("{}: no compatible vector writes this type's TypeDef".format(name))
            if written != py_td:
                raise VectorError("{}: the TypeDef in the streams {} differs from encode_typedef {}".format(
                    name, written.hex(), py_td.hex()))
            d["typedef_hex"] = py_td.hex()
            d["typedef"] = typedef_describe(py_td)
        docs.append(d)
    return docs
