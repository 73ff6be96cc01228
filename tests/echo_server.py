"""The serve benchmark's baseline (issue 41): a bare Starlette WebSocket echo under uvicorn, on loopback.

python -m tests.echo_server     # prints "at http://127.0.0.1:PORT", then echoes every text message back
"""

from __future__ import annotations

import socket

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


def main() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(2048)  # connections wait in the kernel's queue until uvicorn takes them
    print(f"at http://127.0.0.1:{listener.getsockname()[1]}", flush=True)
    app = Starlette(routes=[WebSocketRoute("/echo", echo)])
    # no compression, as serve; the WebSocket protocol is uvicorn's own (the baseline is the standard stack:
    # serve's streams run on cmdraft's own protocol, part of what is measured against it)
    config = uvicorn.Config(app, log_level="warning", server_header=False, ws_per_message_deflate=False)
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    main()
