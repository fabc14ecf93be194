"""A pyfory 1.7.7 client of fury-rs/examples/rpc_server.rs over the same frames: a 4-byte
little-endian length, then one xlang stream. Usage: rpc_client.py HOST:PORT [--shutdown]"""
import socket, struct, sys
from dataclasses import dataclass
from typing import List, Optional
import pyfory

@dataclass
class Request:
    id: int
    method: str
    key: str
    body: List[str]

@dataclass
class Response:
    id: int
    ok: bool
    value: Optional[str]
    body: List[str]

fory = pyfory.Fory(xlang=True)  # compatible mode, as fury-rs's default
fory.register(Request, type_id=600)
fory.register(Response, type_id=601)

def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError(f"the server closed the connection after {len(data)} of {n} bytes")
        data += chunk
    return data

def recv_frame(sock):
    (n,) = struct.unpack("<I", recv_exact(sock, 4))
    return fory.deserialize(recv_exact(sock, n))

def call(sock, req):
    body = fory.serialize(req)
    sock.sendall(struct.pack("<I", len(body)) + body)  # one write: header and body
    resp = recv_frame(sock)
    assert resp.id == req.id, (resp, req)
    return resp

host, port = sys.argv[1].rsplit(":", 1)
with socket.create_connection((host, int(port)), timeout=10) as sock:
    r = call(sock, Request(1, "echo", "", ["hello", "wörld", "😀"]))
    assert r.ok and r.body == ["hello", "wörld", "😀"], r
    r = call(sock, Request(2, "lookup", "grace", []))
    assert r.ok and r.value == "Hopper", r
    r = call(sock, Request(3, "lookup", "nobody", []))
    assert not r.ok and "nobody" in r.value, r
    sock.sendall(struct.pack("<I", 2) + b"\x01\x00")  # a bad frame: an error, the connection goes on
    r = recv_frame(sock)
    assert r.id == -1 and r.value.startswith("frame 3 (2 bytes)"), r
    assert call(sock, Request(5, "echo", "", ["again"])).body == ["again"]
    if "--shutdown" in sys.argv:
        call(sock, Request(4, "shutdown", "", []))
print("python client: 4 calls and a bad frame round-tripped through the Rust server")
