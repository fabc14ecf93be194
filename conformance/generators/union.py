"""Write the union vectors (conformance/vectors/union/union.json).

pyfory 1.7.7 writes a tagged union (a ``pyfory.union.Union`` subclass
registered with ``register_union`` and a ``UnionSerializer``, the shape the
IDL compiler ``foryc`` 1.7.7 generates for Python) as:

* type info TYPED_UNION (34) and the user type id (or NAMED_UNION (35) and
  the names, outside compatible mode), where a type is written;
* the case id (varuint32);
* the case value as a whole value: a flag, its type info and its payload
  (the NULL flag alone for an empty case).

A union *field* is declared UNION (33) in a TypeDef and has no type info.

The types below follow what foryc generates for this IDL::

    message Dog [id=301] { string name = 1; int32 age = 2; }
    message Cat [id=302] { string name = 1; int32 lives = 2; }
    union Animal [id=300] { Dog dog = 1; Cat cat = 2; string label = 3; string nothing = 4; }
    message Zoo [id=303] { Animal star = 1; list<Animal> animals = 2; optional Animal maybe = 3; }

(case 4 is written with no value: an empty case).  Each vector is confirmed
before it is stored: pyfory reads its bytes back to a value equal to the
input.  ``value`` is the input in a plain JSON form: a union is
``{"case": id, "value": ...}``, a struct an object of its fields, None null.

Usage:
    python conformance/generate.py union            # (re)write vectors/union/
    python conformance/generate.py --check union    # compare with the files on disk
        # pyfory reads another writer's streams ({"name", "hex"} list) to the values
"""

import dataclasses
import sys
from typing import List, Optional

import vectorlib as VL  # noqa: E402

GROUP = "union"


def classes():
    """The Python types, as foryc 1.7.7 would generate them (written out by hand)."""
    import pyfory
    from pyfory.union import Union, UnionSerializer

    @dataclasses.dataclass
    class Dog:
        name: str = pyfory.field(id=1, default="")
        age: pyfory.Int32 = pyfory.field(id=2, default=0)

    @dataclasses.dataclass
    class Cat:
        name: str = pyfory.field(id=1, default="")
        lives: pyfory.Int32 = pyfory.field(id=2, default=0)

    class Animal(Union):
        CASES = {1: Dog, 2: Cat, 3: str, 4: str}

        @classmethod
        def _from_case_id(cls, case_id, value):
            return cls(case_id, value)

        def __eq__(self, other):
            return isinstance(other, Animal) and (self.case_id(), self.value()) == (other.case_id(), other.value())

    class AnimalSerializer(UnionSerializer):
        def __init__(self, type_resolver):
            super().__init__(type_resolver, Animal, dict(Animal.CASES))

    @dataclasses.dataclass
    class Zoo:
        star: Animal = pyfory.field(id=1, default=None)
        animals: List[Animal] = pyfory.field(id=2, default_factory=list)
        maybe: Optional[Animal] = pyfory.field(id=3, default=None, nullable=True)

    return {"Dog": Dog, "Cat": Cat, "Animal": Animal, "AnimalSerializer": AnimalSerializer, "Zoo": Zoo}


def make_fory(settings, c, named=False):
    import pyfory

    f = pyfory.Fory(xlang=True, ref=settings["ref"], compatible=settings["compatible"])
    if named:
        f.register_union(c["Animal"], name="demo.Animal", serializer=c["AnimalSerializer"](f.type_resolver))
    else:
        f.register_union(c["Animal"], type_id=300, serializer=c["AnimalSerializer"](f.type_resolver))
    f.register_type(c["Dog"], type_id=301)
    f.register_type(c["Cat"], type_id=302)
    f.register_type(c["Zoo"], type_id=303)
    return f


# The same types as data, for other implementations (README, "Union, extension-type and
# decimal vectors"): the file's "types", and the registration by name that the vectors
# with "registered_by_name" use instead.
TYPES = [
    {"name": "Animal", "kind": "union", "register": {"id": 300},
     "cases": [{"name": "dog", "id": 1, "schema": "Dog"}, {"name": "cat", "id": 2, "schema": "Cat"},
               {"name": "label", "id": 3, "schema": "string"}, {"name": "nothing", "id": 4, "schema": "string"}]},
    {"name": "Dog", "kind": "struct", "register": {"id": 301},
     "fields": [{"name": "name", "schema": "string", "tag_id": 1}, {"name": "age", "schema": "varint32", "tag_id": 2}]},
    {"name": "Cat", "kind": "struct", "register": {"id": 302},
     "fields": [{"name": "name", "schema": "string", "tag_id": 1}, {"name": "lives", "schema": "varint32", "tag_id": 2}]},
    {"name": "Zoo", "kind": "struct", "register": {"id": 303},
     "fields": [{"name": "star", "schema": "Animal", "tag_id": 1}, {"name": "animals", "schema": "list<Animal>", "tag_id": 2},
                {"name": "maybe", "schema": "option<Animal>", "tag_id": 3}]},
]
NAMED_REGISTRATION = {"Animal": {"namespace": "demo", "typename": "Animal"}}

SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}
REFS = {"xlang": True, "ref": True, "compatible": False}

# (name, settings, registered by name, root type, python expression)
CASES = [
    ("union/same_schema/root/dog", SAME, False, "Animal", 'Animal(1, Dog("rex", 3))'),
    ("union/same_schema/root/cat", SAME, False, "Animal", 'Animal(2, Cat("tom", 9))'),
    ("union/same_schema/root/label", SAME, False, "Animal", 'Animal(3, "hi")'),
    ("union/same_schema/root/empty", SAME, False, "Animal", "Animal(4, None)"),
    ("union/same_schema/zoo", SAME, False, "Zoo",
     'Zoo(Animal(2, Cat("tom", 9)), [Animal(3, "a"), Animal(1, Dog("b", 1)), Animal(4, None)], Animal(3, "m"))'),
    ("union/same_schema/zoo_maybe_null", SAME, False, "Zoo", 'Zoo(Animal(3, "x"), [], None)'),
    ("union/same_schema/named_root", SAME, True, "Animal", 'Animal(3, "hi")'),
    ("union/same_schema/list_of_unions", SAME, False, "list<Animal>", '[Animal(3, "a"), Animal(1, Dog("d", 2))]'),
    ("union/compatible/root/dog", COMPAT, False, "Animal", 'Animal(1, Dog("rex", 3))'),
    ("union/compatible/root/label", COMPAT, False, "Animal", 'Animal(3, "hi")'),
    ("union/compatible/zoo", COMPAT, False, "Zoo",
     'Zoo(Animal(2, Cat("tom", 9)), [Animal(3, "a"), Animal(1, Dog("b", 1)), Animal(4, None)], Animal(3, "m"))'),
    ("union/refs/zoo", REFS, False, "Zoo", 'Zoo(Animal(1, Dog("rex", 3)), [Animal(3, "a")], None)'),
]


def plain(v):
    """A Python value in the vectors' JSON form."""
    from pyfory.union import Union

    if isinstance(v, Union):
        return {"case": v.case_id(), "value": plain(v.value())}
    if dataclasses.is_dataclass(v):
        return {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def document():
    VL.require_pyfory()
    c = classes()
    vectors = []
    for name, settings, named, root, python in CASES:
        fory = make_fory(settings, c, named)
        value = eval(python, dict(c))  # noqa: S307 - the expressions above
        data = fory.serialize(value)
        back = fory.deserialize(data)
        if plain(back) != plain(value):
            sys.exit("generators/union.py: {}: pyfory reads back {} for {}".format(name, plain(back), plain(value)))
        vectors.append({"name": name, "python": python, "settings": settings, "registered_by_name": named,
                        "schema": root, "value": plain(value), "hex": bytes(data).hex(), "writer_same": True})
    doc = {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": GROUP, "types": TYPES,
           "named_registration": NAMED_REGISTRATION, "vectors": vectors}
    problems = VL.confirm_kind_vectors(doc, VL.make_fory)
    if problems:
        sys.exit("generators/union.py: the types do not describe the classes: " + "; ".join(problems[:3]))
    return doc


def check_peer(path):
    c = classes()

    def read(vec, data):
        return plain(make_fory(vec["settings"], c, vec["registered_by_name"]).deserialize(data))

    return VL.peer_check(GROUP, "union", path, VL.plain_read_back(read))


def documents():
    return {"union": document()}
