"""WebSocket frames as the server writes them and the client's masking undone (RFC 6455 5), for the streams' own
protocol (``stream_socket.StreamSocket``), and the HTTP head it answers a handshake with."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

Headers = list[tuple[bytes, bytes]]


def python_mask(data: bytes | bytearray, mask: bytes) -> bytes:
    """``data`` XOR ``mask`` repeated (RFC 6455 5.3), as one big integer: the fallback without ``websockets``."""
    size = len(data)
    return (int.from_bytes(data, "big") ^ int.from_bytes((mask * (size // 4 + 1))[:size], "big")).to_bytes(size, "big")


apply_mask: Callable[[bytes | bytearray, bytes], bytes]
try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets comes with uvicorn[standard]
    apply_mask = python_mask

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 1.3: what the client's key is hashed with
CONT, TEXT, BINARY, CLOSE, PING, PONG = 0, 1, 2, 8, 9, 10
# close codes a client may send (RFC 6455 7.4.1 and IANA's registry; 3000-4999 are the applications')
CLIENT_CODES = frozenset((1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, *range(3000, 5000)))
PHRASES = {status.value: status.phrase.encode() for status in HTTPStatus}


def frame(opcode: int, payload: bytes) -> bytes:
    """One whole, unmasked frame as the server sends it (RFC 6455 5.2)."""
    size = len(payload)
    if size < 126:
        return bytes((0x80 | opcode, size)) + payload
    if size < 65536:
        return bytes((0x80 | opcode, 126)) + size.to_bytes(2, "big") + payload
    return bytes((0x80 | opcode, 127)) + size.to_bytes(8, "big") + payload


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame: ``code`` and as much of ``reason`` as fits in 123 bytes (whole characters); 1005 (no code
    was given) has no payload."""
    if code == 1005:
        return frame(CLOSE, b"")
    return frame(CLOSE, code.to_bytes(2, "big") + reason.encode()[:123].decode(errors="ignore").encode())


def http_head(status: int, headers: Headers) -> bytes:
    """A response's status line and headers; a header with a line break or a NUL in it is refused."""
    lines = [b"HTTP/1.1 %d %s" % (status, PHRASES.get(status, b""))]
    for name, value in headers:
        if any(c in name + value for c in b"\r\n\0") or b":" in name:
            raise RuntimeError("a response header has a line break, a NUL or a colon in its name")
        lines.append(name + b": " + value)
    return b"\r\n".join(lines) + b"\r\n\r\n"
