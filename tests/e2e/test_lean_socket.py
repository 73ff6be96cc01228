"""The serve benchmark's own WebSocket client (``tests.lean_socket``) against the bare echo it is measured by, over real
sockets and a real uvicorn process."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
import subprocess
import sys

import pytest

from tests.lean_socket import LeanSocket, frame


def test_a_client_frame_is_masked_with_the_zero_key_and_sized_in_the_three_widths() -> None:
    assert frame(0x1, b"hi") == b"\x81\x82\0\0\0\0hi"
    assert frame(0x1, b"x" * 126)[:4] == b"\x81\xfe\x00\x7e"
    assert frame(0x1, b"x" * 70_000)[:10] == b"\x81\xff" + (70_000).to_bytes(8, "big")


@pytest.fixture(scope="module")
def echo_url():
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.echo_server"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        found = re.search(r"at http://(127\.0\.0\.1:\d+)", process.stdout.readline())
        assert found, process.stderr.read()
        yield f"ws://{found.group(1)}/echo"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_messages_of_every_frame_width_come_back_whole_and_in_order(echo_url: str) -> None:
    sizes = [0, 1, 125, 126, 65_535, 65_536, 200_000]

    async def run() -> list[bytes]:
        socket = await LeanSocket.connect(echo_url)
        try:
            for size in sizes:
                socket.send(("é" * size).encode()[:size].decode(errors="ignore"))
            return [await socket.recv() for _ in sizes]
        finally:
            socket.close()

    back = asyncio.run(run())
    assert back == [("é" * size).encode()[:size].decode(errors="ignore").encode() for size in sizes]


def test_a_refused_upgrade_is_a_connection_error_naming_the_status(echo_url: str) -> None:
    async def run() -> None:
        await LeanSocket.connect(echo_url.replace("/echo", "/nowhere"))

    with pytest.raises(ConnectionError, match="refused the stream: HTTP/1.1 403"):
        asyncio.run(run())


def test_a_ping_is_answered_with_its_pong_and_a_close_ends_the_stream() -> None:
    """A server of a few lines: it answers the upgrade, pings, sends a text, and closes once the pong came."""
    heard: list[bytes] = []

    async def server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        key = re.search(rb"sec-websocket-key: (\S+)", head).group(1)
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        writer.write(b"HTTP/1.1 101 Switching Protocols\r\nsec-websocket-accept: " + accept + b"\r\n\r\n")
        writer.write(b"\x89\x04ping" + b"\x81\x05hello")
        heard.append(await reader.readexactly(2 + 4 + 4))  # the pong: header, zero key, payload
        writer.write(b"\x88\x02\x03\xe8")
        await writer.drain()
        writer.close()

    async def run() -> tuple[bytes, type[BaseException] | None]:
        listening = await asyncio.start_server(server, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        socket = await LeanSocket.connect(f"ws://127.0.0.1:{port}/x")
        first = await socket.recv()
        try:
            await socket.recv()
            ended = None
        except ConnectionError as error:
            ended = type(error)
        listening.close()
        return first, ended

    first, ended = asyncio.run(run())
    assert first == b"hello"
    assert heard == [b"\x8a\x84\0\0\0\0ping"]
    assert ended is ConnectionError
