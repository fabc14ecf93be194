"""The live check of fury-build against foryc 1.7.7 and pyfory 1.7.7 (issue 30 item 3).

foryc compiles conformance/schemas to Python (in a temporary folder); fury-build compiled the
same schemas to Rust (conformance/schema-check/build.rs). For each mode (compatible and
same-schema, reference tracking on as foryc's generated code has it), pyfory writes every
value below with foryc's types, the Rust binary `schema-check` reads each into the type
fury-build generated and writes it back, and pyfory reads those bytes: the value must equal
the one written. So fury-rs reads every value pyfory writes and pyfory reads every value
fury-rs writes (a value the Rust side misread would not come back equal). The bytes fury-rs
writes are also compared with pyfory's: they must be identical, except for the values listed
in BYTE_DIFFERENCES with the reason.

Usage: python conformance/schema_check.py target/debug/schema-check
"""

import copy
import datetime
import decimal
import importlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "schemas")
FORYC = os.path.join(os.path.dirname(sys.executable), "foryc")


def compile_python(out):
    """foryc's Python output for the schemas fury-build compiles."""
    runs = [
        (["everything.fdl", "orders.fdl", "named.fdl"], SCHEMAS),
        (["proto/shop.proto"], os.path.join(SCHEMAS, "proto")),
    ]
    for files, include in runs:
        cmd = [FORYC, *[os.path.join(SCHEMAS, f) for f in files], "-I", include, "--python_out", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def values(m):
    """(qualified type name, value) pairs covering every construct of the schemas."""
    a, o, s, pc = m["check_all"], m["check_orders"], m["check_shop"], m["check_pcommon"]
    c = m["check_common"]
    utc = datetime.timezone.utc
    out = []
    point = a.Point(x=-3, y=4)
    out.append(("check.all.Point", point))
    out.append(("check.all.Color", a.Color.BLUE))
    out.append(("check.all.Shape", a.Shape.point(copy.copy(point))))
    out.append(("check.all.Shape", a.Shape.label("round")))
    out.append(("check.all.Shape", a.Shape.code(-(2**40))))
    out.append(("check.all.Shape", a.Shape.words(["a", "b"])))
    out.append(
        (
            "check.all.Scalars",
            a.Scalars(
                b=True, i8=-8, i16=-1600, i32=-320000, i64=-(2**40), u8=200, u16=60000, u32=4000000000,
                u64=2**63 + 5, f32=1.5, f64=-2.25, s="héllo", raw=b"\x00\x01\xff", fi32=-7, fi64=2**50,
                fu32=7, fu64=2**64 - 1, ti64=-(2**31) - 1, tu64=2**40, vi32=300,
                day=datetime.date(2024, 2, 29),
                at=datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=utc),
                took=datetime.timedelta(seconds=90, microseconds=5),
                price=decimal.Decimal("-12.345"),
            ),
        )
    )
    out.append(("check.all.Scalars", a.Scalars(
        day=datetime.date(1970, 1, 1), at=datetime.datetime(1970, 1, 1, tzinfo=utc),
        took=datetime.timedelta(0), price=decimal.Decimal("0"))))
    out.append(("check.all.Optionals", a.Optionals()))
    out.append(
        (
            "check.all.Optionals",
            a.Optionals(a=5, b="b", c=-9, d=a.Color.GREEN, e=a.Shape.label("x"), f=["p", "q"], g=False,
                        h=datetime.datetime(2001, 9, 9, 1, 46, 40, tzinfo=utc), p=copy.copy(point)),
        )
    )
    out.append(
        (
            "check.all.Collections",
            a.Collections(
                ints=[1, -2, 300], names=["x", "y"], points=[copy.copy(point), a.Point(x=1, y=1)], holes=[1, None, 3],
                dense=[1, 2, -3], dense_f=[0.5, -1.0], dense_i16=[7, -7], flags=[True, False, True],
                counts={"a": 1, "b": -(2**40)}, by_id={7: copy.copy(point)}, maybe={"k": "v"},
                colors=[a.Color.RED, a.Color.BLUE], shapes=[a.Shape.code(1), a.Shape.label("l")],
                fixed_ints=[5, -5], tags=["t"],
            ),
        )
    )
    out.append(("check.all.Collections", a.Collections(dense=[], dense_f=[], dense_i16=[], flags=[])))
    inner = a.Outer.Inner(name="in", kind=a.Outer.Inner.Kind.B)
    out.append(("check.all.Outer.Inner", inner))
    out.append(
        (
            "check.all.Outer",
            # Distinct objects: pyfory writes a second occurrence of one object as a back
            # reference, which fury-rs reads only into an Rc/Arc (not a plain struct field).
            a.Outer(inner=inner, inners=[copy.copy(inner), a.Outer.Inner(name="two", kind=a.Outer.Inner.Kind.A)],
                    kind=a.Outer.Inner.Kind.B, shape=a.Shape.point(copy.copy(point)), color=a.Color.GREEN,
                    choice=a.Outer.Choice.inner(copy.copy(inner)), size=a.Size.LARGE),
        )
    )
    out.append(("check.all.Outer", a.Outer(kind=a.Outer.Inner.Kind.A, shape=a.Shape.code(0), color=a.Color.RED,
                                           choice=a.Outer.Choice.n(-1), size=a.Size.SMALL)))
    leaf = a.Node(name="leaf", children=[])
    out.append(("check.all.Node", a.Node(name="root", next=leaf, children=[leaf, leaf], plain=a.Node(name="p", children=[]))))
    out.append(("check.all.Holder", a.Holder(value="text", tag="s")))
    out.append(("check.all.Holder", a.Holder(value=42, tag="i")))
    out.append(("check.all.Holder", a.Holder(value=copy.copy(point), tag="struct")))
    out.append(("check.all.Holder", a.Holder(value=None, tag="none")))
    money = c.Money(units=-5, currency="EUR")
    line = o.Line(sku="A-1", price=money, unit=c.Unit.KILO)
    out.append(("check.orders.Line", line))
    out.append(("check.orders.Order", o.Order(id="o1", lines=[line], fees={"ship": copy.copy(money)})))
    amount = pc.Amount(units=-250, currency="GBP")
    order = s.Order(
        id="p1", count=7, big=2**40, delta=-3, wide=-(2**40), f32=9, f64=2**60, sf32=-9, sf64=-(2**60),
        ratio=0.25, precise=1e-3, paid=True, blob=b"\x01", counts=[1, 2], tags=["x"],
        lines=[s.Order.Line(sku="s", qty=3)], prices={"a": copy.copy(amount)}, total=amount, note="n",
        at=datetime.datetime(2020, 5, 6, 7, 8, 9, tzinfo=utc), took=datetime.timedelta(days=1, seconds=2),
        status=s.Order.Status.SHIPPED, payment=s.Order.Payment.card("visa"), tagged_id=-(2**35),
    )
    out.append(("check.shop.Order", order))
    out.append(("check.shop.Envelope", s.Envelope(body="any text", order=order)))
    out.append(("check.shop.Envelope", s.Envelope(body=None, order=None)))
    nm = m["check_named"]
    out.append(("check.named.Outer", nm.Outer(inner=nm.Outer.Inner(note="a"), inners=[nm.Outer.Inner(note="b")],
                                             mood=nm.Mood.BUSY)))
    return out


# The values whose bytes differ from pyfory's although both sides read each other's: "mode
# type #n" (the n-th value of that type, from 0) and why. An unlisted difference fails, and
# so does a listed value whose bytes have become identical.
MAP_OPTIONAL = ("map<string, optional string>: foryc's Python drops the value's optional (TypeDef "
                "field type 0x54, fury-rs 0x56); spec/DISAGREEMENTS.md")
BYTE_DIFFERENCES = {
    "check.all.Scalars #0": "'héllo': pyfory writes LATIN1, fury-rs UTF-8",
    "compatible check.all.Collections #0": MAP_OPTIONAL,
    "compatible check.all.Collections #1": MAP_OPTIONAL,
    "compatible check.all.Node #0": "list<ref Node>: pyfory sets the ref bit of the field in the TypeDef",
}


def known_difference(mode, ty, n):
    key = f"{ty} #{n}"
    return BYTE_DIFFERENCES.get(f"{mode} {key}") or BYTE_DIFFERENCES.get(key)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    import pyfory

    tmp = tempfile.mkdtemp(prefix="fury-schema-check-")
    compile_python(tmp)
    sys.path.insert(0, tmp)
    names = ["check_common", "check_all", "check_orders", "check_pcommon", "check_shop", "check_named"]
    mods = {n: importlib.import_module(n) for n in names}
    cases = values(mods)
    passed = failed = identical = 0
    for compatible in (True, False):
        fory = pyfory.Fory(xlang=True, ref=True, compatible=compatible)
        for n in names:
            getattr(mods[n], f"register_{n}_types")(fory)
        mode = "compatible" if compatible else "same-schema"
        lines = []
        for ty, v in cases:
            lines.append(f"{ty} {fory.serialize(v).hex()}")
        proc = subprocess.run(
            [binary, "--compatible", "true" if compatible else "false"],
            input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120,
        )
        if proc.returncode != 0:
            print(proc.stderr)
            sys.exit(f"{binary} failed with exit code {proc.returncode}")
        answers = proc.stdout.splitlines()
        if len(answers) != len(cases):
            sys.exit(f"{binary} answered {len(answers)} lines for {len(cases)} values")
        seen = {}
        for (ty, v), sent, answer in zip(cases, lines, answers):
            n = seen[ty] = seen.get(ty, -1) + 1
            known = known_difference(mode, ty, n)
            got_ty, _, payload = answer.partition(" ")
            where = f"[{mode}] {ty} {v!r}"
            if got_ty != ty or payload.startswith("ERROR"):
                print(f"FAIL {where}: fury-rs could not read pyfory's bytes: {payload}")
                failed += 1
                continue
            try:
                back = fory.deserialize(bytes.fromhex(payload))
            except Exception as e:  # noqa: BLE001 - every failure is reported with its value
                print(f"FAIL {where}: pyfory could not read fury-rs's bytes {payload}: {e!r}")
                failed += 1
                continue
            if back != v:
                print(f"FAIL {where}: pyfory read back {back!r}")
                failed += 1
                continue
            same = payload == sent.partition(" ")[2]
            if not same and not known:
                print(f"FAIL {where}: fury-rs wrote\n  {payload}\n pyfory wrote\n  {sent.partition(' ')[2]}")
                failed += 1
                continue
            if same and known:
                print(f"FAIL {where}: now byte-identical; remove it from BYTE_DIFFERENCES ({known})")
                failed += 1
                continue
            identical += same
            passed += 1
    print(f"{identical} of {passed} values read both ways are byte-identical to pyfory's (the others: "
          f"BYTE_DIFFERENCES)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
