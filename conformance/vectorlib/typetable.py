"""The struct and enum definitions of a vector file (README, "Struct and
enum vectors") and what follows from them: the field wire order, the schema
fingerprint and its 32-bit hash, the meta strings of name-registered types,
and the registration of the Python mirrors with a Fory.  The rules are our
own reading of pyfory 1.7.7; generators/structs.py checks each of them
against pyfory and refuses to write a file otherwise."""

from .errors import VectorError
from .formats import STRUCT_SETTINGS
from .hashing import murmur3_x64_128, to_signed
from .meta_string import META_ENCODING_NAMES, meta_string_encode, meta_string_first_write
from .mirrors import build_python_classes
from .naming import is_ascii_identifier, snake_case
from .peer import make_fory
from .schema import format_schema, named_refs, parse_schema, schema_errors
from .typedef import typedef_facts_errors
from .types import ARRAY_KINDS, COMPRESSED_KINDS, PRIMITIVE_SIZES, SCALAR_NAMES, TYPE_IDS, UNKNOWN_TYPE_ID

__all__ = ["TypeTable", "RegisteredTypes"]

_STRUCT_DEF_KEYS = {"name", "kind", "register", "fields", "field_order", "fingerprint", "hash", "meta_strings", "note",
                    "generic"}
_ENUM_DEF_KEYS = {"name", "kind", "register", "variants", "meta_strings", "note"}
# keys of the compatible-mode vector files (vectors/compat/): the TypeDef pyfory
# writes for the type, and evolution types that share one registration
_COMPAT_DEF_KEYS = {"typedef_hex", "typedef", "typedef_error", "alias_of_registration", "version"}
_RESERVED_TYPE_NAMES = set(SCALAR_NAMES) | {"none", "any", "list", "set", "map", "option", "tuple", "null", "struct",
                                            "enum"}
# scalar schemas a field "length" may constrain besides list<T>: what a port
# models as a fixed-size array
_SIZED_KINDS = ("binary",) + tuple(ARRAY_KINDS)


class TypeTable:
    """The struct and enum definitions of one vector file."""

    def __init__(self, defs):
        if not isinstance(defs, list):
            raise VectorError("'types' must be a list")
        self._defs = {}
        self._by_id = {}
        self._by_reg_name = {}
        self._alias_regs = {}  # registration key -> alias types sharing it
        for d in defs:
            self._add(d)
        self._fields = {}
        self._ref_fields = {}  # struct name -> names of its "ref": true fields (vectors/refs/)
        self._lengths = {}  # struct name -> {field name: its fixed "length"}
        for name, d in self._defs.items():
            if d["kind"] == "struct":
                self._fields[name] = self._parse_fields(d)
                self._ref_fields[name] = frozenset(f["name"] for f in d["fields"] if f.get("ref"))
                self._lengths[name] = {f["name"]: f["length"] for f in d["fields"] if "length" in f}
        self._check_acyclic()
        self._check_generics()
        self._order_cache = {}
        self._classes = None
        self._check_defaults()

    # validation ----------------------------------------------------------------
    def _add(self, d):
        if not isinstance(d, dict):
            raise VectorError("type definition is not an object: {!r}".format(d))
        name = d.get("name")
        if not is_ascii_identifier(name) or name in _RESERVED_TYPE_NAMES:
            raise VectorError("bad type name {!r}".format(name))
        if name in self._defs:
            raise VectorError("type {} defined twice".format(name))
        kind = d.get("kind")
        if kind not in ("struct", "enum"):
            raise VectorError("type {}: kind must be struct or enum".format(name))
        extra = set(d) - (_STRUCT_DEF_KEYS if kind == "struct" else _ENUM_DEF_KEYS) - _COMPAT_DEF_KEYS
        if extra:
            raise VectorError("type {}: unknown keys {}".format(name, sorted(extra)))
        alias = d.get("alias_of_registration", False)
        if alias is not False and alias is not True:
            raise VectorError("type {}: alias_of_registration must be a boolean".format(name))
        if "version" in d and (type(d["version"]) is not int or not alias):
            raise VectorError("type {}: 'version' must be an integer, on an alias_of_registration type".format(name))
        reg = d.get("register")
        if not isinstance(reg, dict):
            raise VectorError("type {}: no 'register'".format(name))
        if set(reg) == {"id"}:
            uid = reg["id"]
            if type(uid) is not int or not 1 <= uid <= 0xFFFFFFFE:
                raise VectorError("type {}: bad id {!r}".format(name, uid))
            if alias:
                self._add_alias(name, kind, ("id", uid), self._by_id.get(uid))
            else:
                if uid in self._by_id or ("id", uid) in self._alias_regs:
                    raise VectorError("type {}: id {} already used by {}".format(name, uid, self._by_id.get(uid, "an alias type")))
                self._by_id[uid] = name
        elif set(reg) == {"namespace", "typename"}:
            ns, tn = reg["namespace"], reg["typename"]
            if not isinstance(ns, str) or not isinstance(tn, str) or not tn or "." in tn or ns.endswith("."):
                raise VectorError("type {}: bad namespace/typename {!r}".format(name, reg))
            if alias:
                self._add_alias(name, kind, ("name", ns, tn), self._by_reg_name.get((ns, tn)))
            else:
                if (ns, tn) in self._by_reg_name or ("name", ns, tn) in self._alias_regs:
                    raise VectorError("type {}: name {!r} already used".format(name, reg))
                self._by_reg_name[(ns, tn)] = name
        else:
            raise VectorError("type {}: 'register' needs 'id' or 'namespace'+'typename'".format(name))
        if kind == "enum":
            variants = d.get("variants")
            if not isinstance(variants, list) or not variants:
                raise VectorError("enum {}: no variants".format(name))
            names, ids = set(), set()
            for v in variants:
                if not isinstance(v, dict) or set(v) - {"name", "id", "py_value"} or not is_ascii_identifier(v.get("name")):
                    raise VectorError("enum {}: bad variant {!r}".format(name, v))
                if type(v.get("id")) is not int or not 0 <= v["id"] <= 0xFFFFFFFF:
                    raise VectorError("enum {}: bad variant id {!r}".format(name, v))
                if v["name"] in names or v["id"] in ids:
                    raise VectorError("enum {}: duplicate variant {!r}".format(name, v))
                names.add(v["name"])
                ids.add(v["id"])
        else:
            if not isinstance(d.get("fields"), list):
                raise VectorError("struct {}: no field list".format(name))
        self._defs[name] = d

    def _add_alias(self, name, kind, key, plain_owner):
        """An evolution type (alias_of_registration): it may share its
        registration with other alias types of the same kind, never with a
        plain type, and it is registered only on request (register_with)."""
        if plain_owner is not None:
            raise VectorError("type {}: registration {} already used by the plain type {}".format(name, key[1:], plain_owner))
        owners = self._alias_regs.setdefault(key, [])
        if owners and self._defs[owners[0]]["kind"] != kind:
            raise VectorError("type {}: shares registration {} with {} of another kind".format(name, key[1:], owners[0]))
        owners.append(name)

    def _parse_fields(self, d):
        out = []
        seen, snakes, tags = set(), set(), set()
        for f in d["fields"]:
            if not isinstance(f, dict) or set(f) - {"name", "schema", "tag_id", "default", "ref", "length"}:
                raise VectorError("struct {}: bad field {!r}".format(d["name"], f))
            if "ref" in f and f["ref"] is not True and f["ref"] is not False:
                raise VectorError("struct {}: field {}: 'ref' must be a boolean".format(d["name"], f.get("name")))
            fname = f.get("name")
            if not is_ascii_identifier(fname) or fname.endswith("_"):
                raise VectorError("struct {}: bad field name {!r}".format(d["name"], fname))
            if fname in seen or snake_case(fname) in snakes:
                raise VectorError("struct {}: field {} clashes with another".format(d["name"], fname))
            seen.add(fname)
            snakes.add(snake_case(fname))
            tree = parse_schema(f.get("schema", ""), self)
            if tree[0] == "none" or ("option" == tree[0] and tree[1][0] in ("any", "none")):
                raise VectorError("struct {}: field {}: schema {} not allowed".format(d["name"], fname, f["schema"]))
            if "length" in f:
                # a fixed element count (a port's fixed-size array); the wire is
                # that of the schema, the length only constrains the values
                inner = tree[1] if tree[0] == "option" else tree
                n = f["length"]
                sized = inner[0] == "list" or (inner[0] == "scalar" and inner[1] in _SIZED_KINDS)
                if type(n) is not int or n < 1 or not sized:
                    raise VectorError("struct {}: field {}: 'length' {!r} needs a positive count and a list, binary or "
                                      "dense array schema, not {}".format(d["name"], fname, n, f["schema"]))
            tag = f.get("tag_id")
            if tag is not None:
                if type(tag) is not int or not 0 <= tag < (1 << 29) or tag in tags:
                    raise VectorError("struct {}: field {}: bad tag_id {!r}".format(d["name"], fname, tag))
                tags.add(tag)
            out.append((fname, tree, tag))
        return out

    def _check_acyclic(self):
        """Struct definitions must not be recursive, except through a field
        with "ref": true (reference tracking, vectors/refs/): such a field
        is not followed here."""
        state = {}

        def visit(name, stack):
            if state.get(name) == "done":
                return
            if state.get(name) == "active":
                raise VectorError("recursive struct definitions are not supported: {}".format(" -> ".join(stack + [name])))
            state[name] = "active"
            for fname, tree, _tag in self._fields.get(name, ()):
                if fname in self._ref_fields.get(name, ()):
                    continue
                for ref in named_refs(tree):
                    visit(ref, stack + [name])
            state[name] = "done"

        for name in self._defs:
            visit(name, [])

    def _check_generics(self):
        """A struct with "generic": {"name": G, "args": {P: schema}, "fields":
        {field: template}} is one instantiation of a generic type G (Rust
        ``G<P..>``, Java ``G<P..>``): each templated field's schema is the
        template with every parameter replaced by its argument.  pyfory has no
        generics, so each instantiation is a type of its own with its own
        registration.  The argument may differ from the declared schema only
        where the fingerprint does not see it (the nullability of container
        elements), so the instantiated field must have the declared field's
        fingerprint.  All instantiations of G share its parameters, field
        names, tag ids, templates and the schemas of the other fields."""
        shapes = {}  # generic name -> (instance, shape)
        for name, d in self._defs.items():
            g = d.get("generic")
            if g is None:
                continue
            if d["kind"] != "struct" or not isinstance(g, dict) or set(g) != {"name", "args", "fields"}:
                raise VectorError("type {}: 'generic' needs a struct and exactly name, args, fields".format(name))
            gname, args, templates = g["name"], g["args"], g["fields"]
            if not is_ascii_identifier(gname) or gname in self._defs or gname in _RESERVED_TYPE_NAMES:
                raise VectorError("type {}: bad generic name {!r}".format(name, gname))
            if not isinstance(args, dict) or not args or not isinstance(templates, dict) or not templates:
                raise VectorError("type {}: generic args and fields must be non-empty objects".format(name))
            for p in args:
                if not is_ascii_identifier(p) or p in self._defs or p in _RESERVED_TYPE_NAMES or p == gname:
                    raise VectorError("type {}: bad generic parameter {!r}".format(name, p))
            arg_trees = {p: parse_schema(a, self) for p, a in args.items()}
            names = set(self._defs) | set(args)
            declared = {f: tree for f, tree, _tag in self._fields[name]}
            for fname, text in templates.items():
                if fname not in declared:
                    raise VectorError("type {}: generic template for the unknown field {!r}".format(name, fname))
                template = parse_schema(text, names)
                if not set(named_refs(template)) & set(args):
                    raise VectorError("type {}: template {} of {} uses no parameter".format(name, text, fname))
                tree = _substitute(template, arg_trees)
                if self._fp_type(tree, True) != self._fp_type(declared[fname], True):
                    raise VectorError("type {}: field {}: {} with {} is {}, whose fingerprint is not that of the "
                                      "declared {}".format(name, fname, text, args, format_schema(tree),
                                                           format_schema(declared[fname])))
            shape = (sorted(args), [(f["name"], f.get("tag_id"), f.get("length"), templates.get(f["name"], f["schema"]))
                                    for f in d["fields"]])
            if gname in shapes and shapes[gname][1] != shape:
                raise VectorError("types {} and {}: two instantiations of {} with different definitions".format(
                    shapes[gname][0], name, gname))
            shapes.setdefault(gname, (name, shape))

    def _check_defaults(self):
        """A field "default" (a value node) is the value the Python mirror
        gets when the field is missing from the data (compatible mode).
        Once a field of a struct has one, every later field needs one."""
        self._defaults = {}
        for name, d in self._defs.items():
            if d["kind"] != "struct":
                continue
            seen_default = False
            for f, (fname, tree, _tag) in zip(d["fields"], self._fields[name]):
                if "default" in f:
                    seen_default = True
                    errs = schema_errors(tree, f["default"], "{}.{}<default>".format(name, fname), self)
                    if errs:
                        raise VectorError("struct {}: field {}: bad default: {}".format(name, fname, "; ".join(errs[:3])))
                    self._defaults.setdefault(name, {})[fname] = f["default"]
                elif seen_default:
                    raise VectorError("struct {}: field {} needs a default (an earlier field has one)".format(name, fname))

    def field_default(self, name, fname):
        """The default node of a field, or None."""
        return self._defaults.get(name, {}).get(fname)

    # lookups -------------------------------------------------------------------
    def __contains__(self, name):
        return name in self._defs

    def __iter__(self):
        return iter(self._defs)

    def get(self, name):
        return self._defs[name]

    def kind(self, name):
        return self._defs[name]["kind"]

    def type_key(self, name):
        return (self._defs[name]["kind"], name)

    def is_named(self, name):
        return "typename" in self._defs[name]["register"]

    def is_alias(self, name):
        """True for an evolution type (alias_of_registration): not registered
        by register()/make_fory(), only by register_with()."""
        return bool(self._defs[name].get("alias_of_registration", False))

    def alias_closure(self, name):
        """The alias types a value of type ``name`` may contain (itself
        included when it is one), sorted."""
        out, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n in out:
                continue
            out.add(n)
            for _f, tree, _t in self._fields.get(n, ()):
                todo.extend(named_refs(tree))
        return sorted(n for n in out if self.is_alias(n))

    def registered_view(self, alias_names=()):
        """The types one Fory registers: every plain type plus the given alias
        types (see register_with); by_id / by_reg_name resolve among those."""
        return RegisteredTypes(self, alias_names)

    def by_id(self, uid):
        return self._by_id.get(uid)

    def by_reg_name(self, namespace, typename):
        return self._by_reg_name.get((namespace, typename))

    def fields(self, name):
        """[(field name, schema tree, tag id or None)] in definition order."""
        return self._fields[name]

    def field_length(self, name, fname):
        """The fixed element count of a field declared with "length", or None."""
        return self._lengths.get(name, {}).get(fname)

    def field_ref(self, name, fname):
        """True for a field declared with "ref": true (pyfory.field(ref=True))."""
        return fname in self._ref_fields.get(name, ())

    def field_tree(self, name, fname):
        for f, tree, _tag in self._fields[name]:
            if f == fname:
                return tree
        raise KeyError(fname)

    def variant_by_id(self, name, vid):
        for v in self._defs[name]["variants"]:
            if v["id"] == vid:
                return v["name"]
        return None

    def variant_id(self, name, variant):
        for v in self._defs[name]["variants"]:
            if v["name"] == variant:
                return v["id"]
        return None

    # the rules ---------------------------------------------------------------------
    @staticmethod
    def _sort_key(fname, tag):
        return (0, tag, "") if tag is not None else (1, snake_case(fname), fname)

    def wire_order(self, name):
        """Field names in the order their values are written:
        1. non-nullable primitives, 2. nullable primitives, each sorted by
        (fixed-width before varint/tagged, larger size first, lower type id,
        then tag id / snake_case name); 3. every other field sorted by tag id
        (tagged fields first) and then snake_case name."""
        if name in self._order_cache:
            return self._order_cache[name]
        plain, nullable, other = [], [], []
        for fname, tree, tag in self._fields[name]:
            is_null = tree[0] == "option"
            inner = tree[1] if is_null else tree
            key = self._sort_key(fname, tag)
            if inner[0] == "scalar" and inner[1] in PRIMITIVE_SIZES:
                kind = inner[1]
                pkey = (kind in COMPRESSED_KINDS, -PRIMITIVE_SIZES[kind], TYPE_IDS[kind], key)
                (nullable if is_null else plain).append((pkey, fname))
            else:
                other.append((key, fname))
        order = [f for _k, f in sorted(plain)] + [f for _k, f in sorted(nullable)] + [f for _k, f in sorted(other)]
        self._order_cache[name] = order
        return order

    def _fp_type(self, tree, top, ref=False):
        nullable = "0"
        if tree[0] == "option":
            nullable = "1" if top else "0"
            tree = tree[1]
        # only a top-level field carries its "ref"; children always write 0
        r = "1" if (top and ref) else "0"
        k = tree[0]
        if k == "tuple":
            # a heterogeneous Tuple[...] is a list of UNKNOWN (pyfory/struct.py,
            # _build_schema_fingerprint_type); parse_schema refuses the others
            return "{},{},{}[{},0,0]".format(TYPE_IDS["list"], r, nullable, UNKNOWN_TYPE_ID)
        if k in ("list", "set"):
            return "{},{},{}[{}]".format(TYPE_IDS[k], r, nullable, self._fp_type(tree[1], False))
        if k == "map":
            return "{},{},{}[{}|{}]".format(TYPE_IDS[k], r, nullable, self._fp_type(tree[1], False), self._fp_type(tree[2], False))
        if k == "scalar":
            tid = TYPE_IDS[tree[1]]
        else:  # struct and enum names, any: pyfory writes TypeId.UNKNOWN
            tid = UNKNOWN_TYPE_ID
        return "{},{},{}".format(tid, r, nullable)

    def fingerprint(self, name):
        """'<tag id or snake_case name>,<type id>,<ref>,<nullable>[children];'
        per field, sorted like the non-primitive field group.  <ref> is 1 for
        a field with "ref": true (never for its children)."""
        parts = []
        for fname, tree, tag in self._fields[name]:
            ident = str(tag) if tag is not None else snake_case(fname)
            fp = self._fp_type(tree, True, self.field_ref(name, fname))
            parts.append((self._sort_key(fname, tag), "{},{};".format(ident, fp)))
        return "".join(p for _k, p in sorted(parts))

    def struct_hash(self, name):
        """Signed low 32 bits of MurmurHash3_x64_128(fingerprint, 47)[0]; 47
        when the fingerprint is empty."""
        fp = self.fingerprint(name).encode("utf-8")
        if not fp:
            return 47
        return to_signed(murmur3_x64_128(fp, 47)[0], 32)

    def meta_strings(self, name):
        """Own encoding of the namespace and type name of a named type."""
        reg = self._defs[name]["register"]
        out = {}
        for role in ("namespace", "typename"):
            enc, data = meta_string_encode(reg[role], role)
            entry = {"text": reg[role], "encoding": META_ENCODING_NAMES[enc], "hex": data.hex(),
                     "first_write_hex": meta_string_first_write(enc, data).hex()}
            out[role] = entry
        return out

    def own_facts_errors(self):
        """Compare the facts stored in the definitions (if any) with our own
        computation of them."""
        problems = []
        for name, d in self._defs.items():
            if d["kind"] == "struct":
                for key, own in (("field_order", self.wire_order(name)), ("fingerprint", self.fingerprint(name)),
                                 ("hash", self.struct_hash(name))):
                    if key in d and d[key] != own:
                        problems.append("type {}: stored {} {!r} differs from the computed {!r}".format(name, key, d[key], own))
            if "meta_strings" in d:
                if not self.is_named(name):
                    problems.append("type {}: meta_strings on a type registered by id".format(name))
                elif d["meta_strings"] != self.meta_strings(name):
                    problems.append("type {}: stored meta_strings differ from the computed ones".format(name))
        problems.extend(typedef_facts_errors(self))  # compatible-mode files only (typedef_* keys)
        return problems

    # Python mirrors (need pyfory) ----------------------------------------------------
    def python_classes(self):
        """name -> Python class: an enum.Enum per enum, a dataclass per struct."""
        if self._classes is None:
            self._classes = build_python_classes(self)
        return self._classes

    def python_class(self, name):
        return self.python_classes()[name]

    def register(self, fory):
        self.register_with(fory, ())

    def register_with(self, fory, alias_names):
        """Register every plain type, and of the alias types only ``alias_names``
        (which must not share a registration)."""
        alias_names = set(alias_names)
        for a in alias_names:
            if a not in self._defs or not self.is_alias(a):
                raise VectorError("{} is not an alias_of_registration type".format(a))
        RegisteredTypes(self, alias_names)  # checks for clashes
        classes = self.python_classes()
        for name, d in self._defs.items():
            if self.is_alias(name) and name not in alias_names:
                continue
            reg = d["register"]
            if "id" in reg:
                fory.register_type(classes[name], type_id=reg["id"])
            else:
                full = reg["typename"] if not reg["namespace"] else reg["namespace"] + "." + reg["typename"]
                fory.register_type(classes[name], name=full)

    def make_fory(self, settings=None):
        fory = make_fory(settings or STRUCT_SETTINGS)
        self.register(fory)
        return fory

    def make_fory_with(self, settings, alias_names):
        fory = make_fory(settings)
        self.register_with(fory, alias_names)
        return fory


def _substitute(tree, args):
    """The schema tree with every ("named", parameter) replaced by its argument tree."""
    if tree[0] == "named" and tree[1] in args:
        return args[tree[1]]
    return (tree[0],) + tuple(_substitute(t, args) if isinstance(t, tuple) else t for t in tree[1:])


class RegisteredTypes:
    """A view of a TypeTable as one Fory sees it: the plain types plus some
    alias types.  Registration lookups resolve among those; everything else
    is the table's."""

    def __init__(self, table, alias_names):
        self._table = table
        self._ids = dict(table._by_id)
        self._names = dict(table._by_reg_name)
        self.alias_names = tuple(sorted(set(alias_names)))
        for a in self.alias_names:
            reg = table.get(a)["register"]
            if "id" in reg:
                if reg["id"] in self._ids:
                    raise VectorError("{} and {} are both registered with id {}".format(self._ids[reg["id"]], a, reg["id"]))
                self._ids[reg["id"]] = a
            else:
                key = (reg["namespace"], reg["typename"])
                if key in self._names:
                    raise VectorError("{} and {} are both registered as {!r}".format(self._names[key], a, key))
                self._names[key] = a

    def by_id(self, uid):
        return self._ids.get(uid)

    def by_reg_name(self, namespace, typename):
        return self._names.get((namespace, typename))

    def __contains__(self, name):
        return name in self._table

    def __iter__(self):
        return iter(self._table)

    def __getattr__(self, attr):
        return getattr(self._table, attr)
