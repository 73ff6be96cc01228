"""``cmdraft serve EVENT_ID``: the players' own devices — the event's page and API on this machine (uvicorn),
over the same database the desk and terminals use."""

from __future__ import annotations

import contextlib
import errno
import io
import socket
import sys
from typing import Annotated

import segno
import typer
import uvicorn

from events.cli.common import DbOption
from events.cli.event.shared import EventArg, core
from events.night.drafting import Drafting
from events.web.app import create_app
from sets.errors import InputError

SWITCH_INTERVAL = 0.001  # seconds a thread runs before another may take the interpreter (sys.setswitchinterval)

PortOption = Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port).")]
LanOption = Annotated[
    bool,
    typer.Option("--lan", help="Listen on this machine's address in the local network (else on 127.0.0.1 only)."),
]


def lan_address() -> str:
    """This machine's address in the local network: the one its route out would use (nothing is sent)."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            raise InputError(
                "this machine has no local network address for --lan; connect it to the store's network"
            ) from None


def listening(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise InputError(
                f"port {port} is in use on {host}: choose another with --port N (0: any free port)"
            ) from None
        raise InputError(f"can't listen on {host}:{port}: {error.strerror or error}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def qr_text(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def serve(
    event_id: EventArg,
    db: DbOption = None,
    port: PortOption = 8000,
    lan: LanOption = False,
) -> None:
    """Let players join, draft and register decks from their own phones, over this event's database.

    Prints the page's address with a QR code, and the desk's address with its token; Ctrl-C stops."""
    events = core(db, Drafting)
    app = create_app(events.store.path, event_id)  # an event players can't join from a browser is refused here
    host = lan_address() if lan else "127.0.0.1"
    sock = listening(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}"
    name = events.event(event_id).name
    print(f"Serving event {event_id} ({name!r}) at {url}", flush=True)
    if not lan:
        print("Only this machine can open it; add --lan for the players' phones on the store's network.")
    print(qr_text(url), end="")
    print(f"Players open {url} (or scan the code) and type the seat code from their slip.")
    print(f"The desk: {url}/desk?token={app.state.desk_token}  (keep it to yourself)")
    print("Ctrl-C stops the server; everything is saved as it happens.", flush=True)
    # The event loop answers the phones while worker threads read and write the files: let it have the
    # interpreter back within a millisecond (the default 5 ms is a wait on every answer behind a busy worker).
    sys.setswitchinterval(SWITCH_INTERVAL)
    config = uvicorn.Config(
        app,
        log_level="warning",
        server_header=False,
        proxy_headers=False,
        lifespan="on",
        ws_per_message_deflate=False,  # states are small: compressing them costs more than it saves on a LAN
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("Stopped serving. Every pick and deck is saved; 'cmdraft serve' again picks up where it was.")
    sys.stdout.flush()
