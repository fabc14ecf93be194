"""Prints pyfory 1.7.7's bytes that fury-rs/examples/uuid_ext.rs checks: uuid.UUID through a
custom serializer registered as EXT 410, at the root and in a dataclass registered as 411,
same-schema then compatible mode.  Run: .venv/bin/python conformance/examples/uuid_ext.py"""
import uuid, pyfory
from pyfory.serializer import Serializer
class UuidSerializer(Serializer):
    def write(self, write_context, value):
        write_context.write_bytes(value.bytes)
    def read(self, read_context):
        return uuid.UUID(bytes=read_context.read_bytes(16))
    xwrite = write
    xread = read
from dataclasses import dataclass
@dataclass
class Order:
    id: uuid.UUID
    note: str
for compatible in [False, True]:
    f = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    f.register_type(uuid.UUID, type_id=410, serializer=UuidSerializer(f.type_resolver, uuid.UUID))
    u = uuid.UUID("12345678-9abc-def0-1234-56789abcdef0")
    b = f.serialize(u)
    print(compatible, "root", b.hex(), f.deserialize(b) == u)

    f.register_type(Order, type_id=411)
    o = Order(u, "n")
    b = f.serialize(o)
    print(compatible, "order", b.hex(), f.deserialize(b) == o)
