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

    # An enum with data of every shape (fury-rs's derive on a Rust enum; spec/10 §10.5): the
    # variants with several fields carry case structs, registered with ids derived from the
    # union's (case_struct_id) or, by name, under the union's qualified name.
    @dataclasses.dataclass
    class Loc:
        warehouse: str = ""
        aisle: pyfory.Int32 = 0

    @dataclasses.dataclass
    class EventReceived:
        sku: str = ""
        qty: pyfory.Int32 = 0
        at: Loc = None

    @dataclasses.dataclass
    class EventMoved:
        origin: Loc = None
        dest: Loc = None

    @dataclasses.dataclass
    class EventAdjusted:  # a tuple variant: fields named by position
        _0: str = ""
        _1: pyfory.Int32 = 0

    class Event(Union):
        CASES = {1: EventReceived, 2: EventMoved, 3: EventAdjusted, 4: str, 5: str}

        @classmethod
        def _from_case_id(cls, case_id, value):
            return cls(case_id, value)

        def __eq__(self, other):
            return isinstance(other, Event) and (self.case_id(), self.value()) == (other.case_id(), other.value())

    class EventSerializer(UnionSerializer):
        def __init__(self, type_resolver):
            super().__init__(type_resolver, Event, dict(Event.CASES))

    @dataclasses.dataclass
    class Ledger:
        events: List[Event] = dataclasses.field(default_factory=list)
        last: Optional[Event] = pyfory.field(default=None, nullable=True)

    return {"Dog": Dog, "Cat": Cat, "Animal": Animal, "AnimalSerializer": AnimalSerializer, "Zoo": Zoo,
            "Loc": Loc, "EventReceived": EventReceived, "EventMoved": EventMoved, "EventAdjusted": EventAdjusted,
            "Event": Event, "EventSerializer": EventSerializer, "Ledger": Ledger}


def case_struct_id(union_id, variant):
    """The user type id of a case struct of the union registered by id ``union_id``: the id
    foryc 1.7.7 gives a type whose qualified name is "{union_id}.{variant}"."""
    from fory_compiler.ir.type_id import compute_registered_type_id

    return compute_registered_type_id("{}.{}".format(union_id, variant))


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
    f.register_type(c["Loc"], type_id=311)
    f.register_type(c["Ledger"], type_id=312)
    serializer = c["EventSerializer"](f.type_resolver)
    if named:
        f.register_union(c["Event"], name="inventory.Event", serializer=serializer)
        for v in ("Received", "Moved", "Adjusted"):
            f.register_type(c["Event" + v], name="inventory.Event." + v)
    else:
        f.register_union(c["Event"], type_id=310, serializer=serializer)
        for v in ("Received", "Moved", "Adjusted"):
            f.register_type(c["Event" + v], type_id=case_struct_id(310, v))
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
TYPES += [
    {"name": "Loc", "kind": "struct", "register": {"id": 311},
     "fields": [{"name": "warehouse", "schema": "string"}, {"name": "aisle", "schema": "varint32"}]},
    {"name": "Event", "kind": "union", "register": {"id": 310},
     "cases": [{"name": "received", "id": 1, "schema": "EventReceived"}, {"name": "moved", "id": 2, "schema": "EventMoved"},
               {"name": "adjusted", "id": 3, "schema": "EventAdjusted"}, {"name": "note", "id": 4, "schema": "string"},
               {"name": "audited", "id": 5, "schema": "string"}]},
    {"name": "EventReceived", "kind": "struct", "register": {"id": 3946252467},
     "fields": [{"name": "sku", "schema": "string"}, {"name": "qty", "schema": "varint32"}, {"name": "at", "schema": "Loc"}]},
    {"name": "EventMoved", "kind": "struct", "register": {"id": 2281892897},
     "fields": [{"name": "origin", "schema": "Loc"}, {"name": "dest", "schema": "Loc"}]},
    {"name": "EventAdjusted", "kind": "struct", "register": {"id": 738060571},
     "fields": [{"name": "_0", "schema": "string"}, {"name": "_1", "schema": "varint32"}]},
    {"name": "Ledger", "kind": "struct", "register": {"id": 312},
     "fields": [{"name": "events", "schema": "list<Event>"}, {"name": "last", "schema": "option<Event>"}]},
]
NAMED_REGISTRATION = {"Animal": {"namespace": "demo", "typename": "Animal"},
                      "Event": {"namespace": "inventory", "typename": "Event"},
                      "EventReceived": {"namespace": "inventory.Event", "typename": "Received"},
                      "EventMoved": {"namespace": "inventory.Event", "typename": "Moved"},
                      "EventAdjusted": {"namespace": "inventory.Event", "typename": "Adjusted"}}

SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}
REFS = {"xlang": True, "ref": True, "compatible": False}

LEDGER = ('Ledger([Event(1, EventReceived("A-1", 5, Loc("north", 3))), Event(2, EventMoved(Loc("n", 1), Loc("s", 2))), '
          'Event(3, EventAdjusted("B", 7)), Event(4, "n"), Event(5, None)], Event(3, EventAdjusted("C", -1)))')

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
    # An enum with data of every shape: case structs for the variants with several fields.
    ("union/same_schema/event/received", SAME, False, "Event", 'Event(1, EventReceived("A-1", 5, Loc("north", 3)))'),
    ("union/same_schema/event/moved", SAME, False, "Event", 'Event(2, EventMoved(Loc("north", 3), Loc("south", -1)))'),
    ("union/same_schema/event/adjusted", SAME, False, "Event", 'Event(3, EventAdjusted("A-1", -2))'),
    ("union/same_schema/event/note", SAME, False, "Event", 'Event(4, "checked")'),
    ("union/same_schema/event/audited", SAME, False, "Event", "Event(5, None)"),
    ("union/same_schema/ledger", SAME, False, "Ledger", LEDGER),
    ("union/same_schema/named_event/moved", SAME, True, "Event", 'Event(2, EventMoved(Loc("n", 1), Loc("s", 2)))'),
    ("union/same_schema/named_ledger", SAME, True, "Ledger", LEDGER),
    ("union/compatible/event/received", COMPAT, False, "Event", 'Event(1, EventReceived("A-1", 5, Loc("north", 3)))'),
    ("union/compatible/event/adjusted", COMPAT, False, "Event", 'Event(3, EventAdjusted("A-1", -2))'),
    ("union/compatible/ledger", COMPAT, False, "Ledger", LEDGER),
    ("union/refs/ledger", REFS, False, "Ledger", LEDGER),
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
