"""The Python side of the gRPC example: a grpc.aio client and server of the Inventory service
of ../proto/inventory.fdl, on the types and stubs foryc 1.7.7 generates with --grpc (into a
temporary folder, at start). They behave as the Rust binaries of the example do, so that each
client can call either server.

    inventory.py client HOST:PORT [--stop] [--hostile]
    inventory.py server [--addr 127.0.0.1:0] [--max-seconds N]

The client checks every answer and exits non-zero on the first unexpected one; --hostile also
sends a message that is not a valid xlang stream and expects INVALID_ARGUMENT (fury-rs's
codec), and calls a method the service does not have (UNIMPLEMENTED). The server prints `listening on HOST:PORT`, serves until a client calls Stop or the
time is up, and prints `shutting down: REASON`."""
import asyncio
import os
import subprocess
import sys
import tempfile

import grpc
import grpc.aio

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "proto", "inventory.fdl")
FORYC = os.path.join(os.path.dirname(sys.executable), "foryc")


def generate():
    """foryc's Python types and grpc.aio stubs for the schema, imported from a temporary folder."""
    out = tempfile.mkdtemp(prefix="grpc-inventory-")
    cmd = [FORYC] if os.path.exists(FORYC) else [sys.executable, "-m", "fory_compiler"]
    cmd += ["--grpc", "--python_out", out, SCHEMA]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, out)
    import demo_inventory
    import demo_inventory_grpc
    return demo_inventory, demo_inventory_grpc


inv, inv_grpc = generate()


def starting_stock():
    """The stock a server starts with: the same as the Rust side's (src/lib.rs)."""
    return [
        inv.Item(sku="A-1", name="anvil", kind=inv.Kind.TOOL, count=3, tags=["heavy", "iron"], note=None),
        inv.Item(sku="B-2", name="bolt", kind=inv.Kind.PART, count=250, tags=["m8"], note="zinc plated, ü"),
        inv.Item(sku="C-3", name="chisel", kind=inv.Kind.TOOL, count=0, tags=[], note=None),
    ]


def check(ok, what):
    if not ok:
        raise SystemExit(f"unexpected answer: {what}")
    print(f"  ok: {what}", flush=True)


async def run_client(addr, stop, hostile):
    stock = starting_stock()
    async with grpc.aio.insecure_channel(addr) as channel:
        await asyncio.wait_for(channel.channel_ready(), 10)
        stub = inv_grpc.InventoryStub(channel)
        item = await stub.get_item(inv.ItemQuery(sku="B-2"), timeout=20)
        check(item == stock[1], "GetItem B-2 is the bolt, note and tags included")
        try:
            await stub.get_item(inv.ItemQuery(sku="Z-9"), timeout=20)
            check(False, "GetItem Z-9 is NOT_FOUND")
        except grpc.aio.AioRpcError as e:
            check(e.code() == grpc.StatusCode.NOT_FOUND, "GetItem Z-9 is NOT_FOUND")

        listed = [i async for i in stub.list_items(inv.ListQuery(min_count=1), timeout=20)]
        check(listed == stock[:2], "ListItems min_count=1 streams A-1, B-2")

        restocks = [inv.Restock(sku="A-1", added=2), inv.Restock(sku="C-3", added=5), inv.Restock(sku="A-1", added=1)]
        summary = await stub.restock_items(iter(restocks), timeout=20)
        counts = [(i.sku, i.count) for i in summary.items]
        check(summary.messages == 3 and summary.units == 8 and counts == [("A-1", 5), ("C-3", 5), ("A-1", 6)],
              "RestockItems: 3 messages, 8 units, running counts 5, 5, 6")

        queries = [inv.ItemQuery(sku="C-3"), inv.ItemQuery(sku="A-1")]
        watched = [(i.sku, i.kind, i.count) async for i in stub.watch_items(iter(queries), timeout=20)]
        check(watched == [("C-3", inv.Kind.TOOL, 5), ("A-1", inv.Kind.TOOL, 6)],
              "WatchItems answers C-3 then A-1, restocked")

        if hostile:
            # Raw bytes on the unary path: a stream header without the xlang bit.
            raw = channel.unary_unary("/demo.inventory.Inventory/GetItem")
            try:
                await raw(b"\x00\xff\xff", timeout=20)
                check(False, "a message that is not an xlang stream is INVALID_ARGUMENT")
            except grpc.aio.AioRpcError as e:
                check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and "fury" in (e.details() or ""),
                      "a message that is not an xlang stream is INVALID_ARGUMENT")
            # A path the service does not have.
            raw = channel.unary_unary("/demo.inventory.Inventory/Nope")
            try:
                await raw(inv.ItemQuery(sku="A-1").to_bytes(), timeout=20)
                check(False, "an unknown method is UNIMPLEMENTED")
            except grpc.aio.AioRpcError as e:
                check(e.code() == grpc.StatusCode.UNIMPLEMENTED, "an unknown method is UNIMPLEMENTED")

        if stop:
            summary = await stub.stop(inv.Shutdown(reason="python client done"), timeout=20)
            check(summary.units == 6 + 250 + 5, "Stop reports 261 units in stock")
    print("grpc client: every answer as expected", flush=True)


class Store(inv_grpc.InventoryServicer):
    def __init__(self, stopped):
        self.items = {i.sku: i for i in starting_stock()}
        self.stopped = stopped
        self.reason = None

    async def get_item(self, request, context):
        item = self.items.get(request.sku)
        if item is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no item {request.sku}")
        return item

    async def list_items(self, request, context):
        for sku in sorted(self.items):
            if self.items[sku].count >= request.min_count:
                yield self.items[sku]

    async def restock_items(self, request_iterator, context):
        summary = inv.RestockSummary(messages=0, units=0, items=[])
        async for restock in request_iterator:
            item = self.items.get(restock.sku)
            if item is None:
                await context.abort(grpc.StatusCode.NOT_FOUND, f"no item {restock.sku}")
            item.count += restock.added
            summary.messages += 1
            summary.units += restock.added
            summary.items.append(inv.Item(sku=item.sku, name=item.name, kind=item.kind, count=item.count,
                                          tags=list(item.tags), note=item.note))
        return summary

    async def watch_items(self, request_iterator, context):
        async for query in request_iterator:
            item = self.items.get(query.sku)
            if item is None:
                await context.abort(grpc.StatusCode.NOT_FOUND, f"no item {query.sku}")
            yield item

    async def stop(self, request, context):
        items = [self.items[s] for s in sorted(self.items)]
        self.reason = request.reason
        self.stopped.set()
        return inv.RestockSummary(messages=0, units=sum(i.count for i in items), items=items)


async def run_server(addr, max_seconds):
    stopped = asyncio.Event()
    store = Store(stopped)
    server = grpc.aio.server()
    inv_grpc.add_servicer(store, server)
    host = addr.rsplit(":", 1)[0]
    port = server.add_insecure_port(addr)
    await server.start()
    print(f"listening on {host}:{port}", flush=True)
    try:
        await asyncio.wait_for(stopped.wait(), max_seconds)
        reason = store.reason
    except asyncio.TimeoutError:
        reason = f"--max-seconds {max_seconds} elapsed"
    # The grace period lets the answer to Stop reach the client.
    await server.stop(grace=5)
    print(f"shutting down: {reason}", flush=True)


def option(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def main(args):
    if args[:1] == ["client"] and len(args) >= 2:
        asyncio.run(run_client(args[1], "--stop" in args, "--hostile" in args))
    elif args[:1] == ["server"]:
        asyncio.run(run_server(option(args, "--addr", "127.0.0.1:0"), float(option(args, "--max-seconds", "300"))))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
