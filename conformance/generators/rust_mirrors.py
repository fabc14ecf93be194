"""Writes the Rust mirror of the struct and enum vectors.

For every group of ``conformance/groups.json`` with ``"rust_mirrors": true`` it reads the
group's file and writes ``conformance/src/mirrors/<group>_mirror.rs`` and
``<group>_borrowed.rs``, modules of the ``fury-conformance`` library (``src/mirrors/mod.rs``),
compiled once for the tests, the testee and fuzz/. From ``vectors/structs/structs.json`` it
writes ``structs_mirror.rs``, which holds:

* one Rust type per definition under ``"types"`` (``#[derive(fury::FuryObject)]`` with the
  registration, tag ids, renames and integer encodings of the definition);
* one ``expected_<name>()`` function per vector, building the expected value as a Rust
  literal from the vector's node;
* ``register_all`` (registers every type), ``cases()`` (one monomorphic check per vector)
  and ``STRUCT_HASHES`` (pyfory's field order, fingerprint and hash of every struct).

From ``vectors/compat/compat.json`` (compatible mode) it writes ``compat_mirror.rs``: the same kind of types (the versions of an
evolution type, ``alias_of_registration``, are distinct Rust types with one shared
registration attribute), ``value_<name>()`` (the writer's value) and ``expected_<name>()``
(what the reader gets) per vector, ``register_plain``/``fury_with`` (a compatible-mode Fury per
side, with the plain types plus the vector's ``writer_registers`` / ``reader_registers``),
``typedef_cases()`` (pyfory's TypeDef bytes per type) and ``cases()`` (one ``CompatCase`` per
vector). A struct or enum in an ``any`` position becomes ``fury::Value::Struct`` (fields in
TypeDef order) or ``fury::Value::Enum`` (with the enum's registration; without it for a field its TypeDef
declares an enum), which is what fury decodes there.

Beside each owned mirror it writes a borrowed one (``structs_borrowed.rs``,
``compat_borrowed.rs``; see ``BorrowedGen``): every struct again, with the same registration,
reading strings, bytes and numeric arrays in place (``&'a str``, ``Cow<'a, str>``, ``&'a [u8]``,
``fury::ArrayView``), its conversion to the owned mirror, and one ``BorrowedCase`` per vector
(``crate::borrowed``, used by ``tests/borrowed_mirrors.rs``).

Standard library and vectorlib only (no pyfory), and deterministic: the output depends only
on the input file.

``python conformance/generate.py [--check]`` runs it after the groups' generators (with
group names, when one of them has Rust mirrors).

Schema -> Rust type (``field`` = a struct field or root; ``elem`` = inside a container):

* ``int32``/``int64``/``uint32``/``uint64`` are ``i32``/``i64``/``u32``/``u64`` with
  ``#[fury(encoding = "fixed")]`` as fields, ``fury::Fixed<..>`` as elements;
  ``tagged_int64``/``tagged_uint64`` likewise with ``"tagged"`` / ``fury::Tagged<..>``; the
  varint kinds are the plain types.
* ``list<E>`` is ``fury::List<E'>`` when ``E`` is a primitive scalar (a plain ``Vec`` of one
  would be a dense array), otherwise ``Vec<E'>``; ``set<E>`` is ``fury::Set<E'>``,
  ``map<K,V>`` is ``fury::Map<K',V'>`` (a ``Vec`` of the elements or pairs, in the order
  pyfory wrote them, which they keep on the wire); ``option<T>`` is ``Option<T'>``; ``any`` is
  ``fury::Value``; dense arrays are ``Vec<..>`` (``fury::UInt8Array`` for ``uint8_array``).
* ``tuple<A,B,..>`` is the Rust tuple ``(A', B', ..)`` (elements as in a container).
* A field with a ``length`` N is ``[E; N]``, which fury writes as ``Vec<E>``: ``[i32; N]`` for
  ``int32_array`` (every dense array but ``uint8_array``), ``[u8; N]`` for ``binary``, ``[E'; N]``
  for ``list<E>`` of a non-primitive ``E``. ``list<int32>`` and the like have no such type.
* Structs with ``generic`` (instantiations of one generic type): the generic struct is written
  once, without a registration attribute, with the templates' field types (a parameter ``T``
  inside ``list<T>`` is ``Vec<T>``); each instantiation is ``pub type Name = G<args>;``,
  registered by ``register_all`` with ``register_by_id`` / ``register_by_name``. The generator
  checks that the generic's field types with the arguments put in are the Rust types of the
  instantiated schemas.
"""

import json
import re
import sys
from pathlib import Path

import vectorlib as VL
from vectorlib.naming import snake_case  # (pyfory's rule, shared with the Python side)

CONFORMANCE = Path(VL.CONFORMANCE_DIR)
GENERATED = CONFORMANCE / "src" / "mirrors"

CHECK_MOD = "crate::structs"


class GenError(Exception):
    pass


# ---- schema parsing ----


def parse_schema(s):
    """Parses a schema string into a tree: a str for a leaf, or (kind, args...)."""
    tree, rest = _parse(s, 0)
    if rest != len(s):
        raise GenError(f"trailing text in schema {s!r} at {rest}")
    return tree


def _parse(s, i):
    m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(s, i)
    if not m:
        raise GenError(f"bad schema {s!r} at {i}")
    word = m.group(0)
    i = m.end()
    if word in ("list", "set", "option", "map", "tuple") and i < len(s) and s[i] == "<":
        first, i = _parse(s, i + 1)
        if word == "map":
            if i >= len(s) or s[i] != ",":
                raise GenError(f"map without ',' in {s!r}")
            second, i = _parse(s, i + 1)
            args = (first, second)
        elif word == "tuple":
            args = [first]
            while i < len(s) and s[i] == ",":
                elem, i = _parse(s, i + 1)
                args.append(elem)
            if len(args) < 2:
                raise GenError(f"a tuple needs two elements or more in {s!r}")
            args = tuple(args)
        else:
            args = (first,)
        if i >= len(s) or s[i] != ">":
            raise GenError(f"missing '>' in {s!r}")
        return (word,) + args, i + 1
    return word, i


def schema_str(t):
    if isinstance(t, str):
        return t
    if t[0] in ("map", "tuple"):
        return f"{t[0]}<{','.join(schema_str(x) for x in t[1:])}>"
    return f"{t[0]}<{schema_str(t[1])}>"


def substitute(t, args):
    """Schema tree t with every parameter leaf replaced by its argument tree."""
    if isinstance(t, str):
        return args.get(t, t)
    return (t[0],) + tuple(substitute(x, args) for x in t[1:])


# ---- scalar tables ----

# schema -> (Rust type, encoding attribute or None, literal suffix, min, max)
INTS = {
    "int8": ("i8", None, -(2**7), 2**7 - 1),
    "int16": ("i16", None, -(2**15), 2**15 - 1),
    "varint32": ("i32", None, -(2**31), 2**31 - 1),
    "int32": ("i32", "fixed", -(2**31), 2**31 - 1),
    "varint64": ("i64", None, -(2**63), 2**63 - 1),
    "int64": ("i64", "fixed", -(2**63), 2**63 - 1),
    "tagged_int64": ("i64", "tagged", -(2**63), 2**63 - 1),
    "uint8": ("u8", None, 0, 2**8 - 1),
    "uint16": ("u16", None, 0, 2**16 - 1),
    "var_uint32": ("u32", None, 0, 2**32 - 1),
    "uint32": ("u32", "fixed", 0, 2**32 - 1),
    "var_uint64": ("u64", None, 0, 2**64 - 1),
    "uint64": ("u64", "fixed", 0, 2**64 - 1),
    "tagged_uint64": ("u64", "tagged", 0, 2**64 - 1),
}
WRAPPER = {"fixed": "fury::Fixed", "tagged": "fury::Tagged"}
# schema -> (Rust type, hex digits of the bit pattern)
FLOATS = {
    "float16": ("fury::F16", 4),
    "bfloat16": ("fury::BF16", 4),
    "float32": ("f32", 8),
    "float64": ("f64", 16),
}
PRIMITIVES = {"bool"} | set(INTS) | set(FLOATS)
OTHER_SCALARS = {
    "string": "String",
    "binary": "Vec<u8>",
    "date": "fury::Date",
    "timestamp": "fury::Timestamp",
    "duration": "fury::Duration",
    "any": "fury::Value",
}
# dense array schema -> (Rust type, element schema)
ARRAYS = {
    "bool_array": ("Vec<bool>", "bool"),
    "int8_array": ("Vec<i8>", "int8"),
    "int16_array": ("Vec<i16>", "int16"),
    "int32_array": ("Vec<i32>", "varint32"),
    "int64_array": ("Vec<i64>", "varint64"),
    "uint8_array": ("fury::UInt8Array", "uint8"),
    "uint16_array": ("Vec<u16>", "uint16"),
    "uint32_array": ("Vec<u32>", "var_uint32"),
    "uint64_array": ("Vec<u64>", "var_uint64"),
    "float16_array": ("Vec<fury::F16>", "float16"),
    "bfloat16_array": ("Vec<fury::BF16>", "bfloat16"),
    "float32_array": ("Vec<f32>", "float32"),
    "float64_array": ("Vec<f64>", "float64"),
}

# node type -> fury::Value variant
VALUE_VARIANTS = {
    "bool": "Bool",
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "varint32": "VarInt32",
    "int64": "Int64",
    "varint64": "VarInt64",
    "tagged_int64": "TaggedInt64",
    "uint8": "UInt8",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "var_uint32": "VarUInt32",
    "uint64": "UInt64",
    "var_uint64": "VarUInt64",
    "tagged_uint64": "TaggedUInt64",
    "float16": "Float16",
    "bfloat16": "BFloat16",
    "float32": "Float32",
    "float64": "Float64",
    "string": "String",
    "binary": "Binary",
    "duration": "Duration",
    "timestamp": "Timestamp",
    "date": "Date",
    "list": "List",
    "set": "Set",
    "map": "Map",
    "bool_array": "BoolArray",
    "int8_array": "Int8Array",
    "int16_array": "Int16Array",
    "int32_array": "Int32Array",
    "int64_array": "Int64Array",
    "uint8_array": "UInt8Array",
    "uint16_array": "UInt16Array",
    "uint32_array": "UInt32Array",
    "uint64_array": "UInt64Array",
    "float16_array": "Float16Array",
    "bfloat16_array": "BFloat16Array",
    "float32_array": "Float32Array",
    "float64_array": "Float64Array",
}

RUST_KEYWORDS = {
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
    "gen",
}
# Names the generated file uses unqualified; a type definition must not shadow them.
RESERVED_TYPE_NAMES = {"Option", "Some", "None", "Vec", "String", "Case", "Box", "Result"}


def camel_case(name):
    """RED -> Red, NOT_FOUND -> NotFound."""
    parts = [p for p in name.split("_") if p]
    ident = "".join(p[0].upper() + p[1:].lower() for p in parts)
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", ident):
        raise GenError(f"enum variant {name!r} gives no Rust identifier")
    return ident


def rust_ident(name):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise GenError(f"{name!r} is not an ASCII identifier")
    return f"r#{name}" if name in RUST_KEYWORDS else name


def rust_str(s):
    """A Rust string literal for s, with only ASCII in the source."""
    out = ['"']
    for c in s:
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif 0x20 <= o < 0x7F:
            out.append(c)
        else:
            out.append(f"\\u{{{o:x}}}")
    out.append('"')
    return "".join(out)


def sanitize(name):
    s = name
    if s.startswith("structs/"):
        s = s[len("structs/"):]
    s = re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_").lower()
    if not s:
        raise GenError(f"vector name {name!r} sanitises to nothing")
    return s


def node_key(node):
    """A key equal for equal value nodes (string encodings aside): finds duplicate set
    elements and map keys."""
    if isinstance(node, dict):
        return tuple(sorted((k, node_key(v)) for k, v in node.items() if k != "encoding"))
    if isinstance(node, list):
        return tuple(node_key(x) for x in node)
    return node


# ---- the generator ----


class Gen:
    def __init__(self, doc):
        self.doc = doc
        self.types = {}
        for t in doc["types"]:
            name = t["name"]
            if name in self.types:
                raise GenError(f"type {name} defined twice")
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name):
                raise GenError(f"type name {name!r} is not a CamelCase Rust identifier")
            if (name in PRIMITIVES or name in OTHER_SCALARS or name in ARRAYS
                    or name in RESERVED_TYPE_NAMES or name in ("list", "set", "map", "option", "tuple")):
                raise GenError(f"type name {name!r} clashes with a schema keyword or Rust name")
            if t["kind"] not in ("struct", "enum"):
                raise GenError(f"type {name}: unknown kind {t['kind']!r}")
            self.types[name] = t
        self.field_schemas = {}
        self.field_lengths = {}  # struct -> {field: its fixed "length"}: a Rust [T; N]
        for t in doc["types"]:
            if t["kind"] == "struct":
                self.field_schemas[t["name"]] = [
                    (f["name"], parse_schema(f["schema"])) for f in t["fields"]
                ]
                self.field_lengths[t["name"]] = {
                    f["name"]: int(f["length"]) for f in t["fields"] if "length" in f
                }
        self.params = ()  # the type parameters rust_type may meet (while writing a generic)
        self.init_generics()

    def init_generics(self):
        """Structs with "generic" are instantiations of one generic Rust struct: the struct
        is written once, each instantiation is a `pub type` alias of it, registered by
        `register_all` with the instantiation's own id or name. The fields of an
        instantiation take the schema of the template with the arguments put in (which
        may differ from the declared schema only where pyfory's fingerprint cannot see it;
        generators/structs.py checks that)."""
        self.generics = {}  # generic name -> {"params", "templates", "instances", "fields"}
        self.instance_args = {}  # instantiation -> {param: argument tree}
        for t in self.doc["types"]:
            g = t.get("generic")
            if g is None:
                continue
            name, gname = t["name"], g["name"]
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", gname) or gname in self.types \
                    or gname in RESERVED_TYPE_NAMES:
                raise GenError(f"{name}: generic name {gname!r} is not a free CamelCase identifier")
            params = sorted(g["args"])
            for p in params:
                if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", p) or p in self.types or p == gname \
                        or p in RESERVED_TYPE_NAMES:
                    raise GenError(f"{name}: type parameter {p!r} is not a free CamelCase identifier")
            templates = {f: parse_schema(x) for f, x in g["fields"].items()}
            fields = [(f["name"], f.get("tag_id"), f.get("length"),
                       g["fields"].get(f["name"], f["schema"])) for f in t["fields"]]
            shape = {"params": params, "templates": templates, "fields": fields}
            known = self.generics.get(gname)
            if known is None:
                self.generics[gname] = dict(shape, instances=[name])
            else:
                if {k: known[k] for k in shape} != shape:
                    raise GenError(f"{name} and {known['instances'][0]} instantiate {gname} with "
                                   "different definitions")
                known["instances"].append(name)
            args = {p: parse_schema(x) for p, x in g["args"].items()}
            self.instance_args[name] = args
            # the values of an instantiation are those of its Rust field types
            self.field_schemas[name] = [
                (f, substitute(templates[f], args) if f in templates else tree)
                for f, tree in self.field_schemas[name]
            ]

    def generic_of(self, name):
        """The generic struct an instantiation belongs to, or None."""
        g = self.types[name].get("generic")
        return g["name"] if g else None

    def instance_type(self, name):
        """`Page<Point>`: the Rust type an instantiation aliases."""
        gname = self.generic_of(name)
        args = self.instance_args[name]
        return f"{gname}<{', '.join(self.rust_type(args[p], True) for p in self.generics[gname]['params'])}>"

    # -- types --

    def is_primitive(self, t):
        return isinstance(t, str) and t in PRIMITIVES

    def rust_type(self, t, elem):
        """The Rust type of schema tree t, as a struct field/root (elem False) or inside a
        container (elem True)."""
        if isinstance(t, str):
            if t in self.params:
                return t
            if t in INTS:
                base, enc = INTS[t][0], INTS[t][1]
                if elem and enc:
                    return f"{WRAPPER[enc]}<{base}>"
                return base
            if t == "bool":
                return "bool"
            if t in FLOATS:
                return FLOATS[t][0]
            if t in OTHER_SCALARS:
                return OTHER_SCALARS[t]
            if t in ARRAYS:
                return ARRAYS[t][0]
            if t in self.types:
                return t
            raise GenError(f"unknown schema {t!r}")
        kind = t[0]
        if kind == "option":
            if t[1] == "any" or (not isinstance(t[1], str) and t[1][0] == "option"):
                raise GenError(f"{schema_str(t)} is not a valid schema")
            return f"Option<{self.rust_type(t[1], elem)}>"
        if kind == "list":
            inner = self.rust_type(t[1], True)
            if self.is_primitive(t[1]):
                return f"fury::List<{inner}>"
            return f"Vec<{inner}>"
        if kind == "tuple":
            # a Rust tuple is written as pyfory writes a Python tuple (a LIST of UNKNOWN)
            return f"({', '.join(self.rust_type(x, True) for x in t[1:])})"
        if kind == "set":
            return f"fury::Set<{self.rust_type(t[1], True)}>"
        if kind == "map":
            k = self.rust_type(t[1], True)
            v = self.rust_type(t[2], True)
            return f"fury::Map<{k}, {v}>"
        raise GenError(f"unknown schema {schema_str(t)}")

    def field_encoding(self, t):
        base = t[1] if not isinstance(t, str) and t[0] == "option" else t
        if isinstance(base, str) and base in INTS:
            return INTS[base][1]
        return None

    # -- definitions --

    def type_doc(self, t):
        """The `///` lines above a type definition."""
        if t.get("note"):
            note = " ".join(t["note"].split()).encode("ascii", "backslashreplace").decode()
            return [f"/// {note}"]
        return []

    @staticmethod
    def registration_attr(t):
        """The `#[fury(..)]` registration attribute of type definition t."""
        reg = t["register"]
        if "id" in reg:
            return f"#[fury(id = {int(reg['id'])})]"
        return (
            f"#[fury(namespace = {rust_str(reg['namespace'])}, "
            f"name = {rust_str(reg['typename'])})]"
        )

    @staticmethod
    def register_instance(t, rust_type):
        """The statement registering an instantiation of a generic struct on `fury` under its
        own id or name (a `fury::Result`)."""
        reg = t["register"]
        if "id" in reg:
            return f"fury.register_by_id::<{rust_type}>({int(reg['id'])})"
        return (
            f"fury.register_by_name::<{rust_type}>({rust_str(reg['namespace'])}, "
            f"{rust_str(reg['typename'])})"
        )

    def defaulted_field(self, t, tree):
        """Whether field `tree` of struct `t` gets `#[fury(default)]`: a field of an evolution
        version whose type is a struct or enum. Its Python mirror has that type's Rust default
        as its default, which pyfory gives when the peer lacks the field or sends a null; fury
        never invents a struct or enum value unless the field says so."""
        return (t.get("alias_of_registration") and isinstance(tree, str) and tree in self.types
                and self.types[tree].get("generic") is None)

    def needs_default(self):
        """The user types that implement `Default` for the `#[fury(default)]` fields: the
        types of those fields, and the struct and enum types their fields hold in turn."""
        if getattr(self, "_needs_default", None) is None:
            todo = []
            for t in self.doc["types"]:
                if t["kind"] == "struct" and t["name"] in self.field_schemas:
                    todo += [tree for _, tree in self.field_schemas[t["name"]]
                             if self.defaulted_field(t, tree)]
            seen = set()
            while todo:
                n = todo.pop()
                if n in seen:
                    continue
                seen.add(n)
                if self.types[n]["kind"] == "struct":
                    todo += [tree for _, tree in self.field_schemas[n]
                             if isinstance(tree, str) and tree in self.types]
            self._needs_default = seen
        return self._needs_default

    def gen_types(self, out):
        for t in self.doc["types"]:
            reg_attr = self.registration_attr(t)
            if t["kind"] == "struct" and self.generic_of(t["name"]) is not None:
                self.gen_instance(t, self.generic_of(t["name"]), out)
                continue
            out.extend(self.type_doc(t))
            if t["kind"] == "enum":
                default = t["name"] in self.needs_default()
                out.append(
                    "#[derive(fury::FuryObject, Debug, Clone, Copy, PartialEq, Eq, Hash, "
                    "PartialOrd, Ord" + (", Default" if default else "") + ")]"
                )
                out.append(reg_attr)
                out.append(f"pub enum {t['name']} {{")
                seen = set()
                for v in t["variants"]:
                    ident = camel_case(v["name"])
                    if ident in seen:
                        raise GenError(f"enum {t['name']}: two variants map to {ident}")
                    if default and not seen:
                        out.append("    #[default]")
                    seen.add(ident)
                    out.append(f"    #[fury(id = {int(v['id'])})]")
                    out.append(f"    {ident},")
                out.append("}")
            else:
                default = ", Default" if t["name"] in self.needs_default() else ""
                out.append(f"#[derive(fury::FuryObject, Debug, Clone, PartialEq{default})]")
                out.append(reg_attr)
                if not t["fields"]:
                    out.append(f"pub struct {t['name']} {{}}")
                    out.append("")
                    continue
                out.append(f"pub struct {t['name']} {{")
                self.gen_fields(t, [tree for _, tree in self.field_schemas[t["name"]]], out)
                out.append("}")
            out.append("")

    def gen_fields(self, t, trees, out, field_type=None):
        """The fields of struct definition t, with the given schema trees; `field_type(name,
        tree, length)` gives a field's Rust type (by default `self.field_type`)."""
        if field_type is None:
            field_type = lambda _name, tree, length: self.field_type(tree, length)  # noqa: E731
        idents = set()
        lengths = self.field_lengths[t["name"]]
        for f, tree in zip(t["fields"], trees):
            fname = f["name"]
            if fname.endswith("_"):
                raise GenError(f"{t['name']}.{fname}: field names never end in '_'")
            ident = rust_ident(snake_case(fname))
            if ident in idents:
                raise GenError(f"{t['name']}: two fields map to the Rust ident {ident}")
            idents.add(ident)
            attrs = []
            if ident.removeprefix("r#") != fname:
                attrs.append(f"rename = {rust_str(fname)}")
            if "tag_id" in f:
                attrs.append(f"id = {int(f['tag_id'])}")
            enc = self.field_encoding(tree)
            if enc:
                attrs.append(f'encoding = "{enc}"')
            if self.defaulted_field(t, tree):
                attrs.append("default")
            if attrs:
                out.append(f"    #[fury({', '.join(attrs)})]")
            out.append(f"    pub {ident}: {field_type(fname, tree, lengths.get(fname))},")

    def field_type(self, tree, length):
        """The Rust type of a struct field: a fixed-size array where the field has a length."""
        return self.rust_type(tree, False) if length is None else self.sized_type(tree, length)

    def sized_type(self, tree, n):
        """`[T; N]` for a field of a fixed length. fury writes `[T; N]` as `Vec<T>`: a dense
        array for a primitive `T` (so `int32_array` is `[i32; N]`, `binary` is `[u8; N]`), a
        LIST otherwise (`list<string>` is `[String; N]`)."""
        if not isinstance(tree, str) and tree[0] == "option":
            return f"Option<{self.sized_type(tree[1], n)}>"
        if tree == "binary":
            return f"[u8; {n}]"
        if tree == "uint8_array":
            raise GenError("a Rust [u8; N] is binary, not uint8_array")
        if isinstance(tree, str) and tree in ARRAYS:
            elem = self.rust_type(ARRAYS[tree][1], True)
            if f"Vec<{elem}>" != ARRAYS[tree][0]:
                raise GenError(f"no fixed-size Rust array for {tree}")
            return f"[{elem}; {n}]"
        if not isinstance(tree, str) and tree[0] == "list":
            if self.is_primitive(tree[1]):
                raise GenError(
                    f"{schema_str(tree)} has no fixed-size Rust type: a [T; N] of a primitive T is a "
                    "dense array"
                )
            return f"[{self.rust_type(tree[1], True)}; {n}]"
        raise GenError(f"a length on {schema_str(tree)}, which is no list, binary or dense array")

    def gen_instance(self, t, gname, out):
        """An instantiation of a generic struct: the generic struct itself before its first
        instantiation, then `pub type <name> = <generic><args>;`."""
        g = self.generics[gname]
        name = t["name"]
        templates = g["templates"]
        trees = [templates.get(f, tree) for f, tree in self.field_schemas[name]]
        if name == g["instances"][0]:
            names = ", ".join(f"`{n}`" for n in g["instances"])
            out.append(
                f"/// The generic struct of {names}. It has no registration attribute: "
                "`register_all` registers each instantiation under its own id or name."
            )
            out.append("#[derive(fury::FuryObject, Debug, Clone, PartialEq)]")
            out.append(f"pub struct {gname}<{', '.join(g['params'])}> {{")
            self.params = tuple(g["params"])
            try:
                self.gen_fields(t, trees, out)
            finally:
                self.params = ()
            out.append("}")
            out.append("")
        # the generic's field types with this instantiation's arguments must be the Rust types
        # of the instantiated schemas
        lengths = self.field_lengths[name]
        args = {p: self.rust_type(a, True) for p, a in self.instance_args[name].items()}
        declared = dict((f["name"], f["schema"]) for f in t["fields"])
        for (fname, eff), template in zip(self.field_schemas[name], trees):
            if fname not in templates:
                continue
            self.params = tuple(g["params"])
            try:
                generic = self.field_type(template, lengths.get(fname))
            finally:
                self.params = ()
            inst = re.sub(r"\b[A-Z][A-Za-z0-9]*\b", lambda m: args.get(m.group(0), m.group(0)), generic)
            want = self.field_type(eff, lengths.get(fname))
            if inst != want:
                raise GenError(
                    f"{name}.{fname}: {self.instance_type(name)} has the field type {inst}, but the "
                    f"Rust type of {schema_str(eff)} (pyfory's {declared[fname]}) is {want}"
                )
        out.extend(self.type_doc(t))
        out.append(f"pub type {name} = {self.instance_type(name)};")
        out.append("")

    # -- values --

    def int_lit(self, t, node, path):
        if node.get("type") != t:
            raise GenError(f"{path}: node type {node.get('type')!r}, schema {t}")
        base, _enc, lo, hi = INTS[t]
        v = int(node["value"])
        if not lo <= v <= hi:
            raise GenError(f"{path}: {v} out of range for {t}")
        return f"{v}{base}"

    def float_lit(self, t, bits, path):
        rty, digits = FLOATS[t]
        if not re.fullmatch(r"[0-9a-f]{%d}" % digits, bits):
            raise GenError(f"{path}: bad {t} bits {bits!r}")
        if t in ("float16", "bfloat16"):
            return f"{rty}(0x{bits})"
        return f"{rty}::from_bits(0x{bits})"

    @staticmethod
    def is_nan(t, bits):
        v = int(bits, 16)
        if t == "float32":
            return (v >> 23) & 0xFF == 0xFF and v & 0x7FFFFF != 0
        if t == "float64":
            return (v >> 52) & 0x7FF == 0x7FF and v & ((1 << 52) - 1) != 0
        return False

    def expect_type(self, node, want, path):
        if not isinstance(node, dict) or node.get("type") != want:
            got = node.get("type") if isinstance(node, dict) else node
            raise GenError(f"{path}: node type {got!r}, schema wants {want}")

    def value(self, t, node, elem, path, st):
        """The Rust expression of node as schema tree t."""
        if isinstance(t, str):
            if t == "any":
                return self.dyn_value(node, path, st)
            if t in self.types:
                return self.user_value(t, node, path, st)
            if t in INTS:
                lit = self.int_lit(t, node, path)
                enc = INTS[t][1]
                if elem and enc:
                    return f"{WRAPPER[enc]}({lit})"
                return lit
            if t == "bool":
                self.expect_type(node, "bool", path)
                if not isinstance(node["value"], bool):
                    raise GenError(f"{path}: bool value {node['value']!r}")
                return "true" if node["value"] else "false"
            if t in FLOATS:
                self.expect_type(node, t, path)
                if self.is_nan(t, node["bits"]):
                    st["nan"] = True
                return self.float_lit(t, node["bits"], path)
            if t == "string":
                self.expect_type(node, "string", path)
                return f"String::from({rust_str(node['value'])})"
            if t == "binary":
                self.expect_type(node, "binary", path)
                return self.bytes_lit(node["hex"], path)
            if t == "date":
                self.expect_type(node, "date", path)
                return f"fury::Date::from_days({int(node['days'])})"
            if t in ("timestamp", "duration"):
                self.expect_type(node, t, path)
                nanos = int(node["nanos"])
                if not 0 <= nanos < 1_000_000_000:
                    raise GenError(f"{path}: nanos {nanos} out of range")
                rty = OTHER_SCALARS[t]
                return f"{rty}::new({int(node['seconds'])}, {nanos}).unwrap()"
            if t in ARRAYS:
                self.expect_type(node, t, path)
                return self.array_value(t, node, path, st)
            raise GenError(f"{path}: unknown schema {t!r}")
        kind = t[0]
        if kind == "option":
            if node.get("type") == "null":
                return "None"
            return f"Some({self.value(t[1], node, elem, path, st)})"
        if node.get("type") == "null":
            raise GenError(f"{path}: null for the non-nullable {schema_str(t)}")
        if kind == "list":
            self.expect_type(node, "list", path)
            items = [
                self.value(t[1], x, True, f"{path}[{i}]", st) for i, x in enumerate(node["items"])
            ]
            body = f"vec![{', '.join(items)}]" if items else "Vec::new()"
            return f"fury::List({body})" if self.is_primitive(t[1]) else body
        if kind == "tuple":
            # a tuple node is the list pyfory writes
            self.expect_type(node, "list", path)
            if len(node["items"]) != len(t) - 1:
                raise GenError(f"{path}: {len(node['items'])} elements for {schema_str(t)}")
            items = [
                self.value(sub, x, True, f"{path}[{i}]", st)
                for i, (sub, x) in enumerate(zip(t[1:], node["items"]))
            ]
            return f"({', '.join(items)})"
        if kind == "set":
            self.expect_type(node, "set", path)
            items = node["items"]
            keys = [node_key(x) for x in items]
            if len(set(keys)) != len(keys):
                raise GenError(f"{path}: duplicate set elements")
            lits = [self.value(t[1], x, True, f"{path}[{i}]", st) for i, x in enumerate(items)]
            return f"fury::Set(vec![{', '.join(lits)}])" if lits else "fury::Set(Vec::new())"
        if kind == "map":
            self.expect_type(node, "map", path)
            entries = node["entries"]
            keys = [node_key(k) for k, _ in entries]
            if len(set(keys)) != len(keys):
                raise GenError(f"{path}: duplicate map keys")
            lits = []
            for i, (k, v) in enumerate(entries):
                kl = self.value(t[1], k, True, f"{path}{{key {i}}}", st)
                vl = self.value(t[2], v, True, f"{path}{{value {i}}}", st)
                lits.append(f"({kl}, {vl})")
            return f"fury::Map(vec![{', '.join(lits)}])" if lits else "fury::Map(Vec::new())"
        raise GenError(f"{path}: unknown schema {schema_str(t)}")

    def bytes_lit(self, hexs, path):
        if not re.fullmatch(r"(?:[0-9a-f]{2})*", hexs):
            raise GenError(f"{path}: bad hex {hexs!r}")
        bs = [f"0x{hexs[i:i + 2]}u8" for i in range(0, len(hexs), 2)]
        return f"vec![{', '.join(bs)}]" if bs else "Vec::<u8>::new()"

    def sized_value(self, t, node, n, path, st):
        """The `[a, b, ..]` literal of a field of fixed length n (see sized_type)."""
        if not isinstance(t, str) and t[0] == "option":
            if node.get("type") == "null":
                return "None"
            return f"Some({self.sized_value(t[1], node, n, path, st)})"
        if t == "binary":
            self.expect_type(node, "binary", path)
            hexs = node["hex"]
            items = [f"0x{hexs[i:i + 2]}u8" for i in range(0, len(hexs), 2)]
        elif isinstance(t, str) and t in ARRAYS:
            self.expect_type(node, t, path)
            items = self.array_items(t, node, path, st)
        else:
            self.expect_type(node, "list", path)
            items = [
                self.value(t[1], x, True, f"{path}[{i}]", st) for i, x in enumerate(node["items"])
            ]
        if len(items) != n:
            raise GenError(f"{path}: {len(items)} elements in a field of length {n}")
        return f"[{', '.join(items)}]"

    def array_value(self, t, node, path, st):
        items = self.array_items(t, node, path, st)
        rty = ARRAYS[t][0]
        body = f"vec![{', '.join(items)}]" if items else f"{rty.split('<')[0]}::new()"
        if t == "uint8_array":
            body = f"vec![{', '.join(items)}]" if items else "Vec::new()"
            return f"fury::UInt8Array({body})"
        return body

    def array_items(self, t, node, path, st):
        """The element literals of a dense array node."""
        rty, elem_schema = ARRAYS[t]
        if elem_schema in FLOATS:
            bits = node["bits"]
            for b in bits:
                if self.is_nan(elem_schema, b):
                    st["nan"] = True
            items = [self.float_lit(elem_schema, b, path) for b in bits]
        elif elem_schema == "bool":
            vals = node["values"]
            if not all(isinstance(b, bool) for b in vals):
                raise GenError(f"{path}: bool_array values {vals!r}")
            items = ["true" if b else "false" for b in vals]
        else:
            items = [
                self.int_lit(elem_schema, {"type": elem_schema, "value": v}, path)
                for v in node["values"]
            ]
        return items

    def user_value(self, name, node, path, st, top=False):
        td = self.types[name]
        if td["kind"] == "enum":
            self.expect_type(node, "enum", path)
            if node.get("name") != name:
                raise GenError(f"{path}: enum node of {node.get('name')!r}, schema {name}")
            for v in td["variants"]:
                if v["name"] == node["variant"]:
                    if int(node["id"]) != int(v["id"]):
                        raise GenError(f"{path}: {name}.{v['name']} has id {v['id']}, node {node['id']}")
                    return f"{name}::{camel_case(v['name'])}"
            raise GenError(f"{path}: {name} has no variant {node['variant']!r}")
        self.expect_type(node, "struct", path)
        if node.get("name") != name:
            raise GenError(f"{path}: struct node of {node.get('name')!r}, schema {name}")
        fields = node["fields"]
        schemas = self.field_schemas[name]
        if list(fields) != [f for f, _ in schemas]:
            raise GenError(
                f"{path}: fields {list(fields)} differ from the definition of {name} "
                f"{[f for f, _ in schemas]}"
            )
        if not schemas:
            return f"{name} {{}}"
        parts = []
        lengths = self.field_lengths[name]
        for fname, tree in schemas:
            ident = rust_ident(snake_case(fname))
            fpath = f"{path}.{fname}"
            if fname in lengths:
                lit = self.sized_value(tree, fields[fname], lengths[fname], fpath, st)
            else:
                lit = self.value(tree, fields[fname], False, fpath, st)
            parts.append(f"{ident}: {lit}")
        if top:
            # The root struct gets one field per line, for readable diffs.
            body = "".join(f"        {p},\n" for p in parts)
            return f"{name} {{\n{body}    }}"
        return f"{name} {{ {', '.join(parts)} }}"

    def dyn_value(self, node, path, st):
        """A fury::Value for a node in an `any` position (built-in wire types only)."""
        ty = node.get("type")
        if ty == "null":
            return "fury::Value::Null"
        if ty in ("struct", "enum"):
            raise GenError(
                f"{path}: a {ty} in an `any` position has no fury::Value representation"
            )
        variant = VALUE_VARIANTS.get(ty)
        if variant is None:
            raise GenError(f"{path}: unknown node type {ty!r}")
        head = f"fury::Value::{variant}"
        if ty == "list" or ty == "set":
            items = [self.dyn_value(x, f"{path}[{i}]", st) for i, x in enumerate(node["items"])]
            return f"{head}(vec![{', '.join(items)}])" if items else f"{head}(Vec::new())"
        if ty == "map":
            pairs = [
                f"({self.dyn_value(k, f'{path}{{key {i}}}', st)}, "
                f"{self.dyn_value(v, f'{path}{{value {i}}}', st)})"
                for i, (k, v) in enumerate(node["entries"])
            ]
            return f"{head}(vec![{', '.join(pairs)}])" if pairs else f"{head}(Vec::new())"
        if ty == "uint8_array":
            return f"{head}({self.array_value(ty, node, path, st)}.0)"
        # Every other wire type: the typed literal of the same schema.
        return f"{head}({self.value(ty, node, False, path, st)})"

    # -- the whole file --

    def generate(self, source_name):
        out = [
            f"// @generated by conformance/generators/rust_mirrors.py from {source_name}.",
            "// Do not edit: run `python conformance/generate.py` instead.",
            "//",
            "// Rust mirrors of the struct and enum vectors: one type per definition, the",
            "// expected value of every vector, and one monomorphic check per vector.",
            "",
            "#![allow(dead_code, clippy::all, clippy::pedantic)]",
            "",
            f"use {CHECK_MOD}::Case;",
            "",
        ]
        self.gen_types(out)

        out.append("/// Registers every mirrored type on `fury` (by its id or name).")
        out.append("pub fn register_all(fury: &mut fury::Fury) {")
        for t in self.doc["types"]:
            if self.generic_of(t["name"]) is None:
                out.append(f"    fury.register::<{t['name']}>().unwrap();")
                continue
            # an instantiation of a generic struct: registered under its own id or name
            out.append(f"    {self.register_instance(t, t['name'])}.unwrap();")
        out.append("}")
        out.append("")

        out.append("/// The registration of a mirrored type, by type name: what its `#[fury(..)]` attribute")
        out.append("/// names, or for an instantiation of a generic struct what `register_all` gives it.")
        out.append("pub fn registration_of(type_name: &str) -> Option<fury::registry::Registration> {")
        out.append("    match type_name {")
        for t in self.doc["types"]:
            if self.generic_of(t["name"]) is None:
                out.append(f"        {rust_str(t['name'])} => fury::registry::Registration::of::<{t['name']}>(),")
                continue
            reg = t["register"]
            if "id" in reg:
                what = f"fury::registry::Registration::Id({int(reg['id'])})"
            else:
                what = (
                    f"fury::registry::Registration::Name {{ namespace: String::from({rust_str(reg['namespace'])}), "
                    f"type_name: String::from({rust_str(reg['typename'])}) }}"
                )
            out.append(f"        {rust_str(t['name'])} => Some({what}),")
        out.append("        _ => None,")
        out.append("    }")
        out.append("}")
        out.append("")

        out.append("/// `(type, field_order, fingerprint, hash)` of every struct, as pyfory computed them.")
        out.append("pub const STRUCT_HASHES: &[(&str, &[&str], &str, i32)] = &[")
        for t in self.doc["types"]:
            if t["kind"] != "struct":
                continue
            order = ", ".join(rust_str(f) for f in t["field_order"])
            if sorted(t["field_order"]) != sorted(f["name"] for f in t["fields"]):
                raise GenError(f"{t['name']}: field_order does not name every field once")
            out.append(
                f"    ({rust_str(t['name'])}, &[{order}], {rust_str(t['fingerprint'])}, "
                f"{int(t['hash'])}),"
            )
        out.append("];")
        out.append("")

        cases = []
        fn_names = {}
        for v in self.doc["vectors"]:
            name = v["name"]
            fn = "expected_" + sanitize(name)
            if fn in fn_names:
                raise GenError(f"vectors {fn_names[fn]!r} and {name!r} both give {fn}")
            fn_names[fn] = name
            settings = v.get("settings", {})
            if settings != {"xlang": True, "ref": False, "compatible": False}:
                raise GenError(f"{name}: unsupported settings {settings}")
            tree = parse_schema(v["schema"])
            rty = self.rust_type(tree, False)
            st = {"nan": False}
            try:
                if isinstance(tree, str) and tree in self.types:
                    expr = self.user_value(tree, v["value"], "$", st, top=True)
                else:
                    expr = self.value(tree, v["value"], False, "$", st)
            except GenError as e:
                raise GenError(f"{name}: {e}") from None
            out.append(f"/// `{name}` ({v['schema']})")
            out.append(f"pub fn {fn}() -> {rty} {{")
            out.append(f"    {expr}")
            out.append("}")
            out.append("")
            cases.append((name, fn, rty, st))

        out.append("/// One case per vector, in file order.")
        out.append("pub fn cases() -> Vec<Case> {")
        out.append("    vec![")
        for name, fn, rty, st in cases:
            check = "check_bitwise" if st["nan"] else "check"
            out.append("        Case {")
            out.append(f"            name: {rust_str(name)},")
            out.append(f"            rust_type: {rust_str(rty)},")
            out.append(
                f"            check: |fury, bytes, writer_same| {CHECK_MOD}::{check}::<{rty}>"
                f"(fury, bytes, writer_same, {fn}()),"
            )
            out.append(f"            decode: |fury, bytes| {CHECK_MOD}::decode::<{rty}>(fury, bytes),")
            out.append(f"            encode: |fury| {CHECK_MOD}::encode::<{rty}>(fury, &{fn}()),")
            out.append(f"            transcode: {CHECK_MOD}::transcode::<{rty}>,")
            out.append(f"            has_nan: {'true' if st['nan'] else 'false'},")
            out.append("        },")
        out.append("    ]")
        out.append("}")
        return "\n".join(out) + "\n"


# ---- compatible mode (vectors/compat/compat.json) ----


def compat_sanitize(name):
    s = name
    if s.startswith("compat/"):
        s = s[len("compat/"):]
    s = re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_").lower()
    if not s:
        raise GenError(f"vector name {name!r} sanitises to nothing")
    return s


COMPAT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
# Names the compat mirror uses unqualified, besides RESERVED_TYPE_NAMES.
COMPAT_RESERVED = {"CompatCase", "CompatKind", "TypeDefCase", "RegisterFn", "Value", "StructValue"}


class CompatGen(Gen):
    """The mirror of the compatible-mode vectors.

    Differences from the struct vectors:

    * evolution types (``alias_of_registration``) are ordinary Rust types with the same
      ``#[fury(..)]`` registration as their other versions; no Fury registers two of them;
    * every case builds its own Fury instances (``compatible(true)``, the plain types, and the
      evolution types of ``writer_registers`` / ``reader_registers``);
    * an evolution case checks the writer's ``value`` as ``writer_type`` and the reader's
      ``expected`` as ``reader_type``;
    * a struct or enum in an ``any`` position is a ``fury::Value::Struct`` (registration, then
      the fields in TypeDef order under their declared names, ``#<tag>`` for a tag id) or a
      ``fury::Value::Enum`` with the enum's registration (without it in a field its TypeDef
      declares an enum): what fury decodes there, and writes back.
    """

    def __init__(self, doc):
        super().__init__(doc)
        for name, t in self.types.items():
            if name in COMPAT_RESERVED:
                raise GenError(f"type name {name!r} clashes with a name the mirror uses")
            if t["kind"] == "struct":
                order = t.get("field_order")
                if order is None or sorted(order) != sorted(f["name"] for f in t["fields"]):
                    raise GenError(f"{name}: field_order does not name every field once")
        self.evolution = {n for n, t in self.types.items() if t.get("alias_of_registration")}
        self.plain = [t["name"] for t in doc["types"] if t["name"] not in self.evolution]
        regs = {}
        for n in self.plain:
            key = json.dumps(self.types[n]["register"], sort_keys=True)
            if key in regs:
                raise GenError(f"plain types {regs[key]} and {n} share a registration")
            regs[key] = n
        for n in sorted(self.evolution):
            key = json.dumps(self.types[n]["register"], sort_keys=True)
            if key in regs:
                raise GenError(f"evolution type {n} shares the registration of plain type {regs[key]}")

    def type_doc(self, t):
        lines = super().type_doc(t)
        if t.get("alias_of_registration"):
            reg = t["register"]
            if "id" in reg:
                what = f"id {int(reg['id'])}"
            else:
                what = f"{reg['namespace']}.{reg['typename']}" if reg["namespace"] else reg["typename"]
            what = what.encode("ascii", "backslashreplace").decode()
            lines.append(
                f"/// Evolution type, version {t.get('version')} of registration `{what}` "
                "(registered only where a vector lists it)."
            )
        return lines

    # -- reachability --

    def schema_names(self, tree):
        """The user type names a schema tree mentions."""
        if isinstance(tree, str):
            return [tree] if tree in self.types else []
        return [n for sub in tree[1:] for n in self.schema_names(sub)]

    def evolution_closure(self, name):
        """The evolution types registering `name` needs: itself (if it is one) and the ones
        its fields reach, sorted."""
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if self.types[n]["kind"] == "struct":
                for _, tree in self.field_schemas[n]:
                    todo.extend(self.schema_names(tree))
        return sorted(n for n in seen if n in self.evolution)

    # -- dynamic values --

    def registration_name(self, t):
        """How fury's `StructValue::type_name` names a registration."""
        reg = t["register"]
        if "id" in reg:
            return f"#{int(reg['id'])}"
        return f"{reg['namespace']}.{reg['typename']}" if reg["namespace"] else reg["typename"]

    def dyn_value(self, node, path, st):
        ty = node.get("type") if isinstance(node, dict) else None
        if ty == "enum":
            name = node.get("name")
            td = self.types.get(name)
            if td is None or td["kind"] != "enum":
                raise GenError(f"{path}: enum node of unknown enum {name!r}")
            ids = {v["name"]: int(v["id"]) for v in td["variants"]}
            if ids.get(node.get("variant")) != int(node["id"]):
                raise GenError(f"{path}: {name}.{node.get('variant')} does not have id {node['id']}")
            st["dyn_user"] = True
            return (
                f"fury::Value::Enum(fury::EnumValue::named("
                f"{rust_str(self.registration_name(td))}, {int(node['id'])}))"
            )
        if ty == "struct":
            name = node.get("name")
            td = self.types.get(name)
            if td is None or td["kind"] != "struct":
                raise GenError(f"{path}: struct node of unknown struct {name!r}")
            fields = node["fields"]
            defs = {f["name"]: f for f in td["fields"]}
            if list(fields) != [f["name"] for f in td["fields"]]:
                raise GenError(f"{path}: fields {list(fields)} differ from the definition of {name}")
            st["dyn_user"] = True
            parts = []
            trees = dict(self.field_schemas[name])
            for fname in td["field_order"]:
                f = defs[fname]
                label = f"#{int(f['tag_id'])}" if "tag_id" in f else fname
                inner = self.declared_dyn(fields[fname], trees[fname], f"{path}.{fname}", st)
                parts.append(f"(String::from({rust_str(label)}), {inner})")
            body = f"vec![{', '.join(parts)}]" if parts else "Vec::new()"
            return (
                "fury::Value::Struct(Box::new(fury::StructValue::new("
                f"{rust_str(self.registration_name(td))}, {body})))"
            )
        return super().dyn_value(node, path, st)

    def declared_dyn(self, node, tree, path, st):
        """A field value of a struct held in a ``Value``: an enum the TypeDef declares has
        no type info of its own, so it reads as an ``EnumValue`` without its type."""
        if isinstance(tree, str) and self.types.get(tree, {}).get("kind") == "enum":
            self.dyn_value(node, path, st)  # checks the node
            return f"fury::Value::Enum(fury::EnumValue::new({int(node['id'])}))"
        if not isinstance(tree, str) and any(
            self.types[n]["kind"] == "enum" for n in self.schema_names(tree)
        ):
            raise GenError(f"{path}: a declared container of enums inside a dynamic struct")
        return self.dyn_value(node, path, st)

    def root_value(self, tree, node, st):
        if isinstance(tree, str) and tree in self.types:
            return self.user_value(tree, node, "$", st, top=True)
        return self.value(tree, node, False, "$", st)

    # -- the whole file --

    def registers(self, v, key, side_type):
        names = v[key]
        if not isinstance(names, list) or names != sorted(set(names)):
            raise GenError(f"{v['name']}: {key} is not a sorted list of distinct names")
        for n in names:
            if n not in self.evolution:
                raise GenError(f"{v['name']}: {key} names {n!r}, which is not an evolution type")
        if side_type in self.evolution and side_type not in names:
            raise GenError(f"{v['name']}: {key} lacks its own type {side_type}")
        missing = set(self.evolution_closure(side_type)) - set(names)
        if missing:
            raise GenError(f"{v['name']}: {key} lacks {sorted(missing)}, which {side_type} reaches")
        return names

    def fury_call(self, names):
        regs = ", ".join(f"{CHECK_MOD}::register::<{n}>" for n in names)
        return f"fury_with(&[{regs}])"

    def fury_expr(self, names):
        return f"|| {self.fury_call(names)}"

    def generate(self, source_name):
        out = [
            f"// @generated by conformance/generators/rust_mirrors.py from {source_name}.",
            "// Do not edit: run `python conformance/generate.py` instead.",
            "//",
            "// Rust mirrors of the compatible-mode vectors: one type per definition (evolution",
            "// versions are distinct types sharing a registration), the values of every vector,",
            "// one monomorphic check per vector with its own Fury instances, and the TypeDef of",
            "// every type as pyfory writes it.",
            "",
            "#![allow(dead_code, clippy::all, clippy::pedantic)]",
            "",
            f"use {CHECK_MOD}::{{CompatCase, CompatKind, RegisterFn, TypeDefCase}};",
            "",
        ]
        self.gen_types(out)

        out.append("/// Registers every plain type (every type that is not an evolution version).")
        out.append("pub fn register_plain(fury: &mut fury::Fury) -> Result<(), String> {")
        for n in self.plain:
            out.append(f"    {CHECK_MOD}::register::<{n}>(fury)?;")
        out.append("    Ok(())")
        out.append("}")
        out.append("")
        out.append("/// A compatible-mode Fury with the plain types and then `extra` registered.")
        out.append("pub fn fury_with(extra: &[RegisterFn]) -> Result<fury::Fury, String> {")
        out.append("    let mut fury = fury::Fury::builder().compatible(true).build();")
        out.append("    register_plain(&mut fury)?;")
        out.append("    for register in extra {")
        out.append("        register(&mut fury)?;")
        out.append("    }")
        out.append("    Ok(fury)")
        out.append("}")
        out.append("")

        out.append("/// The TypeDef pyfory writes for every type that has one, and ours.")
        out.append("pub fn typedef_cases() -> Vec<TypeDefCase> {")
        out.append("    vec![")
        for t in self.doc["types"]:
            if "typedef_hex" not in t:
                continue
            hexs = t["typedef_hex"]
            if not re.fullmatch(r"(?:[0-9a-f]{2})+", hexs):
                raise GenError(f"{t['name']}: bad typedef_hex")
            out.append("        TypeDefCase {")
            out.append(f"            type_name: {rust_str(t['name'])},")
            out.append(f"            typedef_hex: {rust_str(hexs)},")
            out.append(
                f"            local: || {CHECK_MOD}::local_typedef::<{t['name']}>"
                f"(&{self.fury_call(self.evolution_closure(t['name']))}?),"
            )
            out.append("        },")
        out.append("    ]")
        out.append("}")
        out.append("")
        out.append("/// Types pyfory 1.7.7 cannot describe in a TypeDef, with its error.")
        out.append("pub const TYPEDEF_ERRORS: &[(&str, &str)] = &[")
        for t in self.doc["types"]:
            if "typedef_error" in t:
                err = t["typedef_error"].encode("ascii", "backslashreplace").decode()
                out.append(f"    ({rust_str(t['name'])}, {rust_str(err)}),")
        out.append("];")
        out.append("")

        cases = []
        fn_names = {}
        for v in self.doc["vectors"]:
            name = v["name"]
            s = compat_sanitize(name)
            if s in fn_names:
                raise GenError(f"vectors {fn_names[s]!r} and {name!r} both give {s}")
            fn_names[s] = name
            if v.get("settings") != COMPAT_SETTINGS:
                raise GenError(f"{name}: unsupported settings {v.get('settings')}")
            try:
                cases.append(self.gen_case(v, s, out))
            except GenError as e:
                raise GenError(f"{name}: {e}") from None

        out.append("/// One case per vector, in file order.")
        out.append("pub fn cases() -> Vec<CompatCase> {")
        out.append("    vec![")
        for c in cases:
            out.append("        CompatCase {")
            for line in c:
                out.append(f"            {line}")
            out.append("        },")
        out.append("    ]")
        out.append("}")
        return "\n".join(out) + "\n"

    def gen_case(self, v, s, out):
        """Writes the value functions of vector v and returns the lines of its CompatCase."""
        name = v["name"]
        tree = parse_schema(v["schema"])
        wst = {"nan": False, "dyn_user": False}
        rst = {"nan": False, "dyn_user": False}
        evolution = "writer_type" in v
        if evolution:
            wty, rty = v["writer_type"], v["reader_type"]
            for t in (wty, rty):
                if t not in self.types or self.types[t]["kind"] != "struct":
                    raise GenError(f"writer/reader type {t!r} is not a struct of the file")
            if v["schema"] != wty:
                raise GenError(f"schema {v['schema']!r} is not the writer type {wty}")
            wregs = self.registers(v, "writer_registers", wty)
            rregs = self.registers(v, "reader_registers", rty)
            if v.get("expected_error"):
                if "expected" in v:
                    raise GenError("an expected_error vector with an expected value")
                kind = "ExpectedError"
            else:
                kind = "PyforyReaderError" if v.get("pyfory_reader_error") else "Evolution"
        else:
            for k in ("reader_type", "expected", "expected_error", "writer_registers",
                      "reader_registers", "pyfory_reader_error"):
                if k in v:
                    raise GenError(f"'{k}' without 'writer_type'")
            wty = rty = self.rust_type(tree, False)
            wregs = rregs = []
            kind = "Plain"

        value_fn = f"value_{s}"
        out.append(f"/// `{v['name']}`: the writer's value ({v['schema']})")
        out.append(f"pub fn {value_fn}() -> {wty} {{")
        out.append(f"    {self.root_value(tree, v['value'], wst)}")
        out.append("}")
        out.append("")
        expected_fn = None
        if kind in ("Evolution", "PyforyReaderError"):
            expected_fn = f"expected_{s}"
            out.append(f"/// `{v['name']}`: what the reader ({rty}) gets")
            out.append(f"pub fn {expected_fn}() -> {rty} {{")
            out.append(f"    {self.root_value(rty, v['expected'], rst)}")
            out.append("}")
            out.append("")

        nan = wst["nan"] or rst["nan"]
        bitwise = "true" if nan else "false"
        m = CHECK_MOD
        if kind == "Plain":
            check = "check_bitwise" if nan else "check"
            check_line = (
                f"check: |writer, _reader, bytes, writer_same| {m}::{check}::<{wty}>"
                f"(writer, bytes, writer_same, {value_fn}()),"
            )
        elif kind == "ExpectedError":
            check_line = (
                f"check: |writer, reader, bytes, writer_same| {m}::check_expected_error::<{wty}, "
                f"{rty}>(writer, reader, bytes, writer_same, {value_fn}(), {bitwise}),"
            )
        else:
            check_line = (
                f"check: |writer, reader, bytes, writer_same| {m}::check_evolution::<{wty}, {rty}>"
                f"(writer, reader, bytes, writer_same, {value_fn}(), {expected_fn}(), {bitwise}),"
            )
        dyn_user = wst["dyn_user"] or rst["dyn_user"]
        return [
            f"name: {rust_str(name)},",
            f"kind: CompatKind::{kind},",
            f"writer_type: {rust_str(wty)},",
            f"reader_type: {rust_str(rty)},",
            f"writer_fury: {self.fury_expr(wregs)},",
            f"reader_fury: {self.fury_expr(rregs)},",
            check_line,
            f"decode: |reader, bytes| {m}::decode::<{rty}>(reader, bytes),",
            f"encode: |writer| {m}::encode::<{wty}>(writer, &{value_fn}()),",
            f"transcode_writer: {m}::transcode::<{wty}>,",
            f"transcode_reader: {m}::transcode::<{rty}>,",
            f"has_nan: {'true' if nan else 'false'},",
            f"dynamic_user_values: {'true' if dyn_user else 'false'},",
        ]


# ---- borrowed mirrors (structs_borrowed.rs, compat_borrowed.rs) ----

# Dense arrays an `fury::ArrayView` reads in place (its elements are the little-endian
# numbers, half floats among them); bool arrays stay owned (their bytes must be checked), and
# uint8_array borrows as `fury::UInt8Array<&'a [u8]>` (a view of u8 would declare BINARY).
VIEW_ARRAYS = {
    "int8_array", "int16_array", "int32_array", "int64_array", "uint16_array",
    "uint32_array", "uint64_array", "float32_array", "float64_array", "float16_array",
    "bfloat16_array",
}
LIFETIME = "'a"
BORROWED_MOD = "crate::borrowed"


class BorrowedGen:
    """The borrowed mirror of a vector file, beside its owned mirror (Gen or CompatGen `g`).

    Every struct again, in a module of its own with the same names, fields, attributes and
    registration as the owned one, but borrowing from the input where the wire allows:

    * ``string`` is ``&'a str``, or ``Cow<'a, str>`` for a field where a vector holds text
      that is no UTF-8 in the input (LATIN1 beyond ASCII, UTF-16: ``encoding`` of the nodes);
      such text inside a container is an error of the generator (it would be owned anyway);
    * ``binary`` (also a ``[u8; N]`` field) is ``&'a [u8]``;
    * the dense arrays of ``VIEW_ARRAYS`` (also ``[T; N]`` fields) are
      ``fury::ArrayView<'a, T>``; ``uint8_array`` is ``fury::UInt8Array<&'a [u8]>``;
    * a struct whose fields borrow takes the lifetime ``'a``; structs nest their borrowed
      mirrors; enums are the owned ones (``pub use``); ``any`` stays ``fury::Value``;
    * a generic struct is generic again; its type arguments must not borrow (the derive
      bounds a type parameter by ``DeserializeOwned``).

    Each struct implements ``OwnedMirror<owned::T>`` (field by field) and ``Borrows``; one
    ``BorrowedCase`` per vector names the owned and borrowed types of each side, the number of
    strings a ``Cow`` must own (``owned_texts``, from the nodes), and whether values hold a
    NaN (compared by their ``Debug`` text).
    """

    def __init__(self, g, owned_mod):
        self.g = g
        self.compat = isinstance(g, CompatGen)
        self.owned_mod = owned_mod
        self.cow_sites = set()  # (struct, field) whose string needs a Cow
        for v in g.doc["vectors"]:
            for tree, node in self.sides(v):
                try:
                    self.texts(tree, node, None, [])
                except GenError as e:
                    raise GenError(f"{v['name']}: {e}") from None
        self.borrowing = {}
        self.generic_borrows = {}
        for gname, gd in g.generics.items():
            g.params = tuple(gd["params"])
            try:
                trees = [gd["templates"].get(f, tree) for f, tree in g.field_schemas[gd["instances"][0]]]
                self.generic_borrows[gname] = any(self.borrows(t) for t in trees)
            finally:
                g.params = ()
            for inst in gd["instances"]:
                for p, arg in g.instance_args[inst].items():
                    if self.borrows(arg):
                        raise GenError(f"{inst}: the type argument {p} = {schema_str(arg)} borrows")
                for f, _ in g.field_schemas[inst]:
                    if (inst, f) in self.cow_sites:
                        raise GenError(f"{inst}.{f}: a Cow field in a generic struct")

    # -- what the vectors hold --

    def sides(self, v):
        """(schema tree, node) of each value of vector v: the writer's, then the reader's."""
        out = [(parse_schema(v["schema"]), v["value"])]
        if "expected" in v:
            out.append((v["reader_type"], v["expected"]))
        return out

    @staticmethod
    def borrowable(node, path):
        """Whether the input holds a string node's text as UTF-8 (so a `&str` can lend it)."""
        enc = node.get("encoding")
        if enc == "utf8":
            return True
        if enc == "latin1":
            return all(ord(c) < 0x80 for c in node["value"])
        if enc == "utf16":
            return False
        raise GenError(f"{path}: a string node without a known encoding ({enc!r})")

    def texts(self, tree, node, site, out, path="$"):
        """Walks node as schema tree; appends to `out` every string node in a typed position
        that the input cannot lend, and records its field in `cow_sites`. `site` is
        (struct, field, inside a container) or None at the root."""
        if isinstance(node, dict) and node.get("type") == "null":
            return
        if isinstance(tree, str):
            if tree == "string":
                if not self.borrowable(node, path):
                    if site is None or site[2]:
                        raise GenError(f"{path}: unborrowable text inside a container "
                                       "(a Cow there is always owned)")
                    self.cow_sites.add(site[:2])
                    out.append(path)
            elif tree in self.g.types and self.g.types[tree]["kind"] == "struct":
                fields = node["fields"]
                for fname, ftree in self.g.field_schemas[tree]:
                    self.texts(ftree, fields[fname], (tree, fname, False), out, f"{path}.{fname}")
            return
        inner = None if site is None else (site[0], site[1], True)
        kind = tree[0]
        if kind == "option":
            self.texts(tree[1], node, site, out, path)
        elif kind in ("list", "set"):
            for i, x in enumerate(node["items"]):
                self.texts(tree[1], x, inner, out, f"{path}[{i}]")
        elif kind == "tuple":
            for i, (sub, x) in enumerate(zip(tree[1:], node["items"])):
                self.texts(sub, x, inner, out, f"{path}[{i}]")
        elif kind == "map":
            for i, (k, x) in enumerate(node["entries"]):
                self.texts(tree[1], k, inner, out, f"{path}{{key {i}}}")
                self.texts(tree[2], x, inner, out, f"{path}{{value {i}}}")

    def owned_texts(self, tree, node):
        out = []
        self.texts(tree, node, None, out)
        return len(out)

    def has_nan(self, tree, node):
        st = {"nan": False, "dyn_user": False}
        if self.compat:
            self.g.root_value(tree, node, st)
        elif isinstance(tree, str) and tree in self.g.types:
            self.g.user_value(tree, node, "$", st, top=True)
        else:
            self.g.value(tree, node, False, "$", st)
        return st["nan"]

    # -- types --

    def type_borrows(self, name):
        t = self.g.types[name]
        if t["kind"] == "enum":
            return False
        if name not in self.borrowing:
            self.borrowing[name] = False  # no recursive struct borrows through itself
            gname = self.g.generic_of(name)
            if gname is not None:
                self.borrowing[name] = self.generic_borrows[gname]
            else:
                self.borrowing[name] = any(self.borrows(tr) for _, tr in self.g.field_schemas[name])
        return self.borrowing[name]

    def borrows(self, t):
        """Whether the borrowed Rust type of schema tree t holds the lifetime."""
        if isinstance(t, str):
            if t in self.g.params:
                return False
            if t in ("string", "binary", "uint8_array") or t in VIEW_ARRAYS:
                return True
            if t in self.g.types:
                return self.type_borrows(t)
            return False
        return any(self.borrows(x) for x in t[1:])

    def user_type(self, name):
        """The borrowed Rust type of a user type (with `'a` where it borrows)."""
        return f"{name}<{LIFETIME}>" if self.type_borrows(name) else name

    def static_type(self, name):
        """The `'static` form of the borrowed type of `name` (what is registered)."""
        return f"{name}<'static>" if self.type_borrows(name) else name

    def rust_type(self, t, elem, site=None):
        """The borrowed Rust type of schema tree t (see `Gen.rust_type`); `site` is the
        (struct, field) of a struct field."""
        g = self.g
        if isinstance(t, str):
            if t in g.params:
                return t
            if t == "string":
                if not elem and site in self.cow_sites:
                    return f"std::borrow::Cow<{LIFETIME}, str>"
                return f"&{LIFETIME} str"
            if t == "binary":
                return f"&{LIFETIME} [u8]"
            if t == "uint8_array":
                return f"fury::UInt8Array<&{LIFETIME} [u8]>"
            if t in VIEW_ARRAYS:
                return f"fury::ArrayView<{LIFETIME}, {g.rust_type(ARRAYS[t][1], False)}>"
            if t in g.types:
                return self.user_type(t)
            return g.rust_type(t, elem)
        kind = t[0]
        if kind == "option":
            return f"Option<{self.rust_type(t[1], elem, site)}>"
        if kind == "list":
            inner = self.rust_type(t[1], True)
            return f"fury::List<{inner}>" if g.is_primitive(t[1]) else f"Vec<{inner}>"
        if kind == "tuple":
            return f"({', '.join(self.rust_type(x, True) for x in t[1:])})"
        if kind == "set":
            return f"fury::Set<{self.rust_type(t[1], True)}>"
        if kind == "map":
            return f"fury::Map<{self.rust_type(t[1], True)}, {self.rust_type(t[2], True)}>"
        raise GenError(f"unknown schema {schema_str(t)}")

    def sized_type(self, t, n, site):
        """The borrowed type of a field of fixed length n (see `Gen.sized_type`)."""
        if not isinstance(t, str) and t[0] == "option":
            return f"Option<{self.sized_type(t[1], n, site)}>"
        if t == "binary" or t in VIEW_ARRAYS:
            return self.rust_type(t, False, site)
        if isinstance(t, str) and t in ARRAYS:
            return self.g.sized_type(t, n)
        if not isinstance(t, str) and t[0] == "list":
            return f"[{self.rust_type(t[1], True)}; {n}]"
        return self.g.sized_type(t, n)  # its error

    def field_type_fn(self, struct):
        def field_type(fname, tree, length):
            site = (struct, fname)
            if length is None:
                return self.rust_type(tree, False, site)
            return self.sized_type(tree, length, site)
        return field_type

    def owned_path(self, rust_type):
        """`rust_type` (an owned mirror type) with every user type qualified by the owned
        mirror's module."""
        names = set(self.g.types) | set(self.g.generics)
        return re.sub(
            r"(?<![\w:])([A-Z][A-Za-z0-9]*)\b",
            lambda m: f"owned::{m.group(1)}" if m.group(1) in names else m.group(1),
            rust_type,
        )

    def root_types(self, tree):
        """(borrowed, owned) Rust types of a vector's root schema tree."""
        if isinstance(tree, str) and tree in self.g.types:
            return self.user_type(tree).replace(LIFETIME, "'_"), f"owned::{tree}"
        b = self.rust_type(tree, False).replace(LIFETIME, "'_")
        return b, self.owned_path(self.g.rust_type(tree, False))

    # -- definitions --

    def gen_struct_impls(self, name, params, fields, out):
        """`OwnedMirror` and `Borrows` of struct `name` (`params`: its type parameters)."""
        lt = ["'_"] if (self.generic_borrows.get(name) if params else self.type_borrows(name)) else []
        args = lt + list(params)
        self_ty = f"{name}<{', '.join(args)}>" if args else name
        owned_params = [f"{p}Owned" for p in params]
        for p in owned_params:
            if p in params or p in self.g.types:
                raise GenError(f"{name}: the parameter name {p} is taken")
        owned_ty = f"owned::{name}" + (f"<{', '.join(owned_params)}>" if params else "")
        if params:
            bounds = ", ".join(
                f"{p}: {BORROWED_MOD}::OwnedMirror<{q}>, {q}" for p, q in zip(params, owned_params)
            )
            head = f"impl<{bounds}>"
        else:
            head = "impl"
        idents = [rust_ident(snake_case(f)) for f in fields]
        out.append(f"{head} {BORROWED_MOD}::OwnedMirror<{owned_ty}> for {self_ty} {{")
        out.append(f"    fn to_owned_mirror(&self) -> {owned_ty} {{")
        if idents:
            out.append(f"        owned::{name} {{")
            for i in idents:
                out.append(f"            {i}: self.{i}.to_owned_mirror(),")
            out.append("        }")
        else:
            out.append(f"        owned::{name} {{}}")
        out.append("    }")
        out.append("}")
        out.append("")
        if params:
            head = f"impl<{', '.join(f'{p}: {BORROWED_MOD}::Borrows' for p in params)}>"
        if not idents:
            out.append(f"{head} {BORROWED_MOD}::Borrows for {self_ty} {{}}")
            out.append("")
            return
        out.append(f"{head} {BORROWED_MOD}::Borrows for {self_ty} {{")
        out.append(f"    fn parts<'s>(&'s self, out: &mut {BORROWED_MOD}::Parts<'s>) {{")
        for i in idents:
            out.append(f"        self.{i}.parts(out);")
        out.append("    }")
        out.append("}")
        out.append("")

    def gen_types(self, out):
        g = self.g
        for t in g.doc["types"]:
            name = t["name"]
            if t["kind"] == "enum":
                out.append(f"pub use owned::{name};")
                out.append("")
                out.append(f"impl {BORROWED_MOD}::OwnedMirror<{name}> for {name} {{")
                out.append(f"    fn to_owned_mirror(&self) -> {name} {{")
                out.append("        *self")
                out.append("    }")
                out.append("}")
                out.append("")
                out.append(f"impl {BORROWED_MOD}::Borrows for {name} {{}}")
                out.append("")
                continue
            gname = g.generic_of(name)
            if gname is not None:
                gd = g.generics[gname]
                if name == gd["instances"][0]:
                    lt = [LIFETIME] if self.generic_borrows[gname] else []
                    out.append(f"/// The borrowed mirror of the generic `owned::{gname}`.")
                    out.append("#[derive(fury::FuryObject, Debug, Clone)]")
                    out.append(f"pub struct {gname}<{', '.join(lt + gd['params'])}> {{")
                    trees = [gd["templates"].get(f, tree) for f, tree in g.field_schemas[name]]
                    g.params = tuple(gd["params"])
                    try:
                        g.gen_fields(t, trees, out, self.field_type_fn(name))
                    finally:
                        g.params = ()
                    out.append("}")
                    out.append("")
                    self.gen_struct_impls(gname, gd["params"], [f["name"] for f in t["fields"]], out)
                lt = f"{LIFETIME}, " if self.generic_borrows[gname] else ""
                alias = f"{name}<{LIFETIME}>" if self.generic_borrows[gname] else name
                out.append(f"/// The borrowed mirror of `owned::{name}`.")
                out.append(f"pub type {alias} = {gname}<{lt}{self.borrowed_args(gname, name)}>;")
                out.append("")
                continue
            out.append(f"/// The borrowed mirror of `owned::{name}`.")
            default = ", Default" if name in g.needs_default() else ""
            out.append(f"#[derive(fury::FuryObject, Debug, Clone{default})]")
            out.append(g.registration_attr(t))
            if not t["fields"]:
                out.append(f"pub struct {name} {{}}")
            else:
                out.append(f"pub struct {self.user_type(name)} {{")
                g.gen_fields(t, [tree for _, tree in g.field_schemas[name]], out,
                             self.field_type_fn(name))
                out.append("}")
            out.append("")
            self.gen_struct_impls(name, [], [f["name"] for f in t["fields"]], out)

    def borrowed_args(self, gname, name):
        """The borrowed type arguments of instantiation `name` (they never borrow)."""
        gd = self.g.generics[gname]
        return ", ".join(self.rust_type(self.g.instance_args[name][p], True) for p in gd["params"])

    def register_lines(self, names, indent):
        """Statements registering the borrowed mirrors of `names` on `fury`."""
        lines = []
        for n in names:
            t = self.g.types[n]
            if self.g.generic_of(n) is not None:
                lines.append(f"{indent}{self.g.register_instance(t, self.static_type(n))}"
                             ".map_err(|e| e.to_string())?;")
            else:
                lines.append(f"{indent}{CHECK_MOD}::register::<{self.static_type(n)}>(fury)?;")
        return lines

    def type_cases(self, out, typedefs):
        """`type_cases()`: one `MirrorTypeCase` per struct; `typedefs(name)` gives the
        expression of its (owned, borrowed) TypeDefs."""
        out.append("/// One case per struct type: its owned and borrowed mirror.")
        out.append(f"pub fn type_cases() -> Vec<{BORROWED_MOD}::MirrorTypeCase> {{")
        out.append("    vec![")
        for t in self.g.doc["types"]:
            if t["kind"] != "struct":
                continue
            name = t["name"]
            out.append(f"        {BORROWED_MOD}::MirrorTypeCase {{")
            out.append(f"            type_name: {rust_str(name)},")
            out.append(
                f"            fingerprints: || ({BORROWED_MOD}::fingerprints::<owned::{name}>(), "
                f"{BORROWED_MOD}::fingerprints::<{self.static_type(name)}>()),"
            )
            out.append(f"            typedefs: || {typedefs(name)},")
            if "fingerprint" in t and not self.compat:
                pair = f"{rust_str(t['fingerprint'])}, {int(t['hash'])}"
                out.append(f"            pyfory_hash: Some(({pair})),")
            else:
                out.append("            pyfory_hash: None,")
            if "typedef_hex" in t:
                out.append(f"            pyfory_typedef_hex: Some({rust_str(t['typedef_hex'])}),")
            else:
                out.append("            pyfory_typedef_hex: None,")
            out.append("        },")
        out.append("    ]")
        out.append("}")
        out.append("")

    def local_typedefs(self, owned_fury, borrowed_fury, name):
        return (
            f"Ok(({CHECK_MOD}::local_typedef::<owned::{name}>(&{owned_fury})?, "
            f"{CHECK_MOD}::local_typedef::<{self.static_type(name)}>(&{borrowed_fury})?))"
        )

    # -- the whole file --

    def header(self, source_name, what):
        return [
            f"// @generated by conformance/generators/rust_mirrors.py from {source_name}.",
            "// Do not edit: run `python conformance/generate.py` instead.",
            "//",
            f"// The borrowed mirrors of the {what}: every struct of",
            f"// `{self.owned_mod}` again, with the same registration, reading strings, bytes",
            "// and numeric arrays in place; its conversion to the owned mirror; and one case per",
            f"// vector. A sibling module of the owned mirror, `{self.owned_mod}`.",
            "",
            "#![allow(dead_code, clippy::all, clippy::pedantic)]",
            "",
            f"use super::{self.owned_mod} as owned;",
            "",
        ]

    def case_lines(self, v, wty, rty, kind, furies):
        """The fields of one vector's `BorrowedCase`; wty/rty: the writer's and reader's
        schema trees."""
        (bw, ow), (br, orr) = self.root_types(wty), self.root_types(rty)
        tw = self.owned_texts(wty, v["value"])
        nan = self.has_nan(wty, v["value"])
        m = BORROWED_MOD
        if kind in ("Evolution", "PyforyReaderError"):
            tr = self.owned_texts(rty, v["expected"])
            nan = nan or self.has_nan(rty, v["expected"])
            check = (f"{m}::check_evolution::<{bw}, {ow}, {br}, {orr}>(f, bytes, writer_same, "
                     f"{tw}, {tr}, {'true' if nan else 'false'})")
        elif kind == "ExpectedError":
            check = (f"{m}::check_expected_error::<{bw}, {ow}, {br}, {orr}>(f, bytes, writer_same, "
                     f"{tw}, {'true' if nan else 'false'})")
        else:
            check = (f"{m}::check_plain::<{bw}, {ow}>(f, bytes, writer_same, {tw}, "
                     f"{'true' if nan else 'false'})")
        return [
            f"name: {rust_str(v['name'])},",
            f"kind: {CHECK_MOD}::CompatKind::{kind},",
            f"writer_type: {rust_str(bw)},",
            f"reader_type: {rust_str(br)},",
            f"furies: {furies},",
            f"check: |f, bytes, writer_same| {check},",
            f"decode_writer: |fury, bytes| {m}::decode_borrowed::<{bw}>(fury, bytes),",
            f"decode_reader: |fury, bytes| {m}::decode_borrowed::<{br}>(fury, bytes),",
        ]

    def emit_cases(self, cases, out):
        out.append("/// One case per vector, in file order.")
        out.append(f"pub fn cases() -> Vec<{BORROWED_MOD}::BorrowedCase> {{")
        out.append("    vec![")
        for c in cases:
            out.append(f"        {BORROWED_MOD}::BorrowedCase {{")
            for line in c:
                out.append(f"            {line}")
            out.append("        },")
        out.append("    ]")
        out.append("}")

    def generate(self, source_name):
        if self.compat:
            return self.generate_compat(source_name)
        out = self.header(source_name, "struct and enum vectors")
        self.gen_types(out)
        g = self.g
        out.append("/// Registers every borrowed mirror on `fury` (the enums are the owned ones).")
        out.append("pub fn register_all(fury: &mut fury::Fury) -> Result<(), String> {")
        out.extend(self.register_lines([t["name"] for t in g.doc["types"]], "    "))
        out.append("    Ok(())")
        out.append("}")
        out.append("")
        out.append("/// A Fury with every owned mirror and one with every borrowed mirror.")
        out.append("fn mirror_furies(compatible: bool) -> Result<(fury::Fury, fury::Fury), String> {")
        out.append("    let mut o = fury::Fury::builder().compatible(compatible).build();")
        out.append("    owned::register_all(&mut o);")
        out.append("    let mut b = fury::Fury::builder().compatible(compatible).build();")
        out.append("    register_all(&mut b)?;")
        out.append("    Ok((o, b))")
        out.append("}")
        out.append("")
        out.append("/// The Fury instances of every struct vector (same-schema mode).")
        out.append(f"pub fn furies() -> Result<{BORROWED_MOD}::Furies, String> {{")
        out.append("    let (owned_writer, borrowed_writer) = mirror_furies(false)?;")
        out.append("    let (owned_reader, borrowed_reader) = mirror_furies(false)?;")
        out.append(f"    Ok({BORROWED_MOD}::Furies {{")
        out.append("        owned_writer, owned_reader, borrowed_writer, borrowed_reader,")
        out.append("    })")
        out.append("}")
        out.append("")
        self.type_cases(out, lambda n: "mirror_furies(true).and_then(|(o, b)| "
                        + self.local_typedefs("o", "b", n) + ")")
        cases = []
        for v in g.doc["vectors"]:
            tree = parse_schema(v["schema"])
            try:
                cases.append(self.case_lines(v, tree, tree, "Plain", "furies"))
            except GenError as e:
                raise GenError(f"{v['name']}: {e}") from None
        self.emit_cases(cases, out)
        return "\n".join(out) + "\n"

    def fury_pair(self, names):
        """The expression of (owned, borrowed) compatible-mode Furies with the plain types
        and the evolution types `names`."""
        oregs = ", ".join(f"{CHECK_MOD}::register::<owned::{n}>" for n in names)
        bregs = ", ".join(f"{CHECK_MOD}::register::<{self.static_type(n)}>" for n in names)
        return f"owned::fury_with(&[{oregs}])", f"fury_with(&[{bregs}])"

    def generate_compat(self, source_name):
        g = self.g
        out = self.header(source_name, "compatible-mode vectors")
        self.gen_types(out)
        out.append("/// Registers the borrowed mirror of every plain type (every type that is not an")
        out.append("/// evolution version).")
        out.append("pub fn register_plain(fury: &mut fury::Fury) -> Result<(), String> {")
        out.extend(self.register_lines(g.plain, "    "))
        out.append("    Ok(())")
        out.append("}")
        out.append("")
        out.append("/// A compatible-mode Fury with the borrowed plain types and then `extra` registered.")
        out.append(f"pub fn fury_with(extra: &[{CHECK_MOD}::RegisterFn]) -> Result<fury::Fury, String> {{")
        out.append("    let mut fury = fury::Fury::builder().compatible(true).build();")
        out.append("    register_plain(&mut fury)?;")
        out.append("    for register in extra {")
        out.append("        register(&mut fury)?;")
        out.append("    }")
        out.append("    Ok(fury)")
        out.append("}")
        out.append("")

        def typedefs(name):
            o, b = self.fury_pair(g.evolution_closure(name))
            return self.local_typedefs(f"{o}?", f"{b}?", name)
        self.type_cases(out, typedefs)

        cases = []
        for v in g.doc["vectors"]:
            try:
                tree = parse_schema(v["schema"])
                if "writer_type" in v:
                    wty, rty = v["writer_type"], v["reader_type"]
                    wregs = g.registers(v, "writer_registers", wty)
                    rregs = g.registers(v, "reader_registers", rty)
                    if v.get("expected_error"):
                        kind = "ExpectedError"
                    else:
                        kind = "PyforyReaderError" if v.get("pyfory_reader_error") else "Evolution"
                else:
                    wty = rty = tree
                    wregs = rregs = []
                    kind = "Plain"
                ow, bw = self.fury_pair(wregs)
                orr, br = self.fury_pair(rregs)
                furies = (
                    f"|| Ok({BORROWED_MOD}::Furies {{ owned_writer: {ow}?, owned_reader: {orr}?, "
                    f"borrowed_writer: {bw}?, borrowed_reader: {br}? }})"
                )
                cases.append(self.case_lines(v, wty, rty, kind, furies))
            except GenError as e:
                raise GenError(f"{v['name']}: {e}") from None
        self.emit_cases(cases, out)
        return "\n".join(out) + "\n"


def jobs(names=None):
    """(input, owned mirror, borrowed mirror) of every group with Rust mirrors (of those
    named, if names are given); the borrowed mirror names its owned mirror's module (the
    file's stem)."""
    out = []
    for row in VL.groups():
        if row.get("rust_mirrors") and (names is None or row["name"] in names):
            out.append((Path(VL.group_file(row["name"])), GENERATED / (row["name"] + "_mirror.rs"),
                        GENERATED / (row["name"] + "_borrowed.rs")))
    return out


def generator_for(doc):
    """The generator for a vector file: by its group (and settings)."""
    if doc.get("group") == "compat":
        return CompatGen(doc)
    return Gen(doc)


def shown(path):
    """A path as the repository names it."""
    try:
        return path.resolve().relative_to(CONFORMANCE.parent).as_posix()
    except ValueError:
        return str(path)


def write_or_check(outp, text, check, what):
    """Writes text to outp (or, with check, compares); returns False when stale."""
    if check:
        current = outp.read_text(encoding="utf-8") if outp.exists() else None
        if current != text:
            print(f"{shown(outp)} is stale: run python conformance/generate.py", file=sys.stderr)
            return False
        print(f"{shown(outp)} is up to date")
        return True
    outp.parent.mkdir(parents=True, exist_ok=True)
    outp.write_text(text, encoding="utf-8")
    print(f"wrote {shown(outp)} ({what})")
    return True


def run_job(inp, outp, borrowed_outp, check):
    """Generates outp (and borrowed_outp, if not None) from inp, or with check compares;
    returns False when one is stale."""
    doc = json.loads(inp.read_text(encoding="utf-8"))
    if doc.get("format") != "fury-conformance/1":
        sys.exit(f"{inp}: unknown format {doc.get('format')!r}")
    try:
        source = inp.resolve().relative_to(CONFORMANCE.parent).as_posix()
    except ValueError:
        source = inp.name
    what = f"{len(doc['types'])} types, {len(doc['vectors'])} vectors"
    try:
        gen = generator_for(doc)
        text = gen.generate(source)
        borrowed = None
        if borrowed_outp is not None:
            borrowed = BorrowedGen(gen, outp.stem).generate(source)
    except GenError as e:
        sys.exit(f"generators/rust_mirrors.py: {inp.name}: {e}")
    ok = write_or_check(outp, text, check, what)
    if borrowed_outp is not None:
        ok = write_or_check(borrowed_outp, borrowed, check, f"borrowed, {what}") and ok
    return ok


def run(check, names=None):
    """Writes (or with check compares) the mirrors of the groups ``names`` (default: all);
    returns the exit status."""
    ok = True
    for inp, outp, borrowed_outp in jobs(names):
        ok = run_job(inp, outp, borrowed_outp, check) and ok
    return 0 if ok else 1
