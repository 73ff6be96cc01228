"""The app under uvicorn as ``cmdraft serve`` runs it (``server_config``: its guard, its own stream protocol), in a
thread of the test's own process on a free loopback port, so what the server calls can be watched from the test."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from events.cli.serve import listening, server_config
from events.web.settings import DEFAULT, WebSettings


@contextlib.contextmanager
def serve_in_thread(app: Any, settings: WebSettings = DEFAULT) -> Iterator[str]:
    """``app`` served until the block ends; its address (``127.0.0.1:PORT``)."""
    sock = listening("127.0.0.1", 0)
    server = uvicorn.Server(server_config(app, settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
