"""``cmdraft serve EVENT_ID``: the players' own devices — the event's page and API on this machine (uvicorn),
over the same database the desk and terminals use."""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import ipaddress
import socket
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Annotated, Any

import segno
import typer
import uvicorn

from events.cli.common import DbOption
from events.cli.event.shared import EventArg, core
from events.night import desk_link
from events.night.drafting import Drafting
from events.night.serving import serving, stopped_before
from events.web.app import create_app
from events.web.guard import GuardedHttp, loopback_names, stream_options
from events.web.settings import DEFAULT, WebSettings
from sets.errors import InputError
from sets.visible import quoted

SWITCH_INTERVAL = 0.001  # seconds a thread runs before another may take the interpreter (sys.setswitchinterval)
# Python's garbage collector while serving (gc.set_threshold): a pass over the young objects every 20,000 new ones
# instead of 700, over the middle ones every 20 of those, over all every 100 of these (and, as always, only once the
# old objects grew by a quarter).  A pick makes short-lived objects by the hundred (a state, a
# message, a journal line), nearly all freed at once when done; at the default the collector ran some 200 passes over
# them in a 256-phone draft, 10-15 % of the server's CPU and stalls of up to 50 ms (``python -m tests.benchmarks
# serve``: 0.29-0.39 ms of CPU a pick at the default, 0.23-0.26 with these).  Cycles are still collected, later.
COLLECTOR_THRESHOLDS = (20_000, 20, 100)

PortOption = Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port).")]
NewDeskOption = Annotated[
    bool,
    typer.Option(
        "--new-desk-link",
        help="Make a new desk link and print it; the old link and every desk page opened with it stop working.",
    ),
]
ConnectionsOption = Annotated[
    int,
    typer.Option(
        "--max-connections",
        min=1,
        help="Connections open at once (a phone holds one or two); more are answered 503. Raise it for a big room.",
    ),
]
PerAddressOption = Annotated[
    int,
    typer.Option(
        "--max-per-address",
        min=1,
        help="Connections open at once from one address of the network (a phone holds one or two); more are "
        "answered 429. Raise it where the phones reach this machine through one router's address.",
    ),
]
LanOption = Annotated[
    bool,
    typer.Option(
        "--lan", help=f"Listen on this machine's address in the local network (else on {DEFAULT.address} only)."
    ),
]


# The private-use ranges of RFC 1918: where a store's network lives.
PRIVATE_NETWORKS = tuple(ipaddress.IPv4Network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))


def pick_lan_address(candidates: Sequence[str]) -> str:
    """The address ``--lan`` listens on, from this machine's IPv4 addresses (the route out's first): the first in a
    private-use range (RFC 1918: 10/8, 172.16/12, 192.168/16), else the first other usable one; loopback,
    link-local (169.254/16), unspecified, multicast, IPv6 and unreadable entries are never chosen."""
    usable = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not isinstance(address, ipaddress.IPv4Address):
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
            continue
        usable.append(address)
    for address in usable:
        if any(address in net for net in PRIVATE_NETWORKS):
            return str(address)
    if usable:
        return str(usable[0])
    raise InputError("this machine has no local network address for --lan; connect it to the store's network")


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses: first the one its route out would use (a UDP socket is connected, nothing is
    sent), then those its host name resolves to."""
    found: list[str] = []
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if address not in found:
            found.append(address)
    return found


def listen_address(lan: bool, addresses: Sequence[str] | None = None) -> str:
    """Where ``serve`` listens and what it prints: the settings' loopback address (``WebSettings.address``) unless
    ``--lan``; with it, the LAN address picked from ``addresses`` (this machine's when not given)."""
    if not lan:
        return DEFAULT.address
    return pick_lan_address(machine_addresses() if addresses is None else addresses)


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


def allowed_hosts(host: str) -> tuple[str, ...]:
    """The names a request may give as its ``Host``: the address ``serve`` listens on and prints, and this
    machine's loopback names (a page of another site pointed at this machine by its DNS is refused)."""
    return (host, *loopback_names())


def server_config(app: Any, settings: WebSettings = DEFAULT) -> uvicorn.Config:
    """How uvicorn runs the app: quiet (warnings only), no server header, requests that must arrive within the
    settings' ``header_timeout`` seconds, heads of at most ``max_head`` bytes, and at most ``max_connections``
    connections at once, ``max_per_address`` from one address (``guard.GuardedHttp``)."""
    return uvicorn.Config(
        app,
        http=GuardedHttp.guarded(settings),
        log_level="warning",
        server_header=False,
        proxy_headers=False,
        lifespan="on",
        timeout_keep_alive=settings.keep_alive,  # an idle kept-alive connection is closed after a few seconds
        ws_per_message_deflate=False,  # states are small: compressing them costs more than it saves on a LAN
        **stream_options(settings),  # the streams' own lean WebSocket protocol (issue 41) and their limit
    )


class StoppingServer(uvicorn.Server):
    """uvicorn's server that says the event's server stopped (``serving``'s call) at the first Ctrl-C or SIGTERM,
    before it closes the phones' streams: from that moment no phone can pick, so no other party may time their seats
    out (``phone_clocks``), however long the shutdown takes."""

    def __init__(self, config: uvicorn.Config, stopping: Callable[[], None]) -> None:
        super().__init__(config)
        self.stopping = stopping

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if not self.should_exit:
            self.stopping()
        super().handle_exit(sig, frame)


def qr_text(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def serve(
    event_id: EventArg,
    db: DbOption = None,
    port: PortOption = DEFAULT.port,
    lan: LanOption = False,
    new_desk_link: NewDeskOption = False,
    max_connections: ConnectionsOption = DEFAULT.max_connections,
    max_per_address: PerAddressOption = DEFAULT.max_per_address,
) -> None:
    """Let players join, draft and register decks from their own phones, over this event's database.

    Prints the page's address with a QR code, and the desk's link the first time (it works through restarts
    until --new-desk-link makes a new one); Ctrl-C stops."""
    events = core(db, Drafting)
    host = listen_address(lan)
    # an event players can't join from a browser is refused here; the app answers only to the printed address
    settings = WebSettings(hosts=allowed_hosts(host), max_connections=max_connections, max_per_address=max_per_address)
    app = create_app(events.path, event_id, settings, make_desk_link=False)  # made once it listens, to be printed
    restarted = stopped_before(events.path, event_id)  # a server served the event and stopped: phones couldn't pick
    sock = listening(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}"
    # The drafts read before the first phone asks, and the phones' clocks started over before the server says it
    # serves the event (no other party times them out: ``phone_clocks``).
    app.state.server.served.warm(restart_clocks=restarted)
    announced = contextlib.ExitStack()  # from now until it stops, 'event seat' puts this address in its slips command
    said_stopped = announced.enter_context(serving(events.path, event_id, url))
    name = events.event(event_id).name
    print(f"Serving event {event_id} ({quoted(name)}) at {url}", flush=True)
    if not lan:
        print("Only this machine can open it; add --lan for the players' phones on the store's network.")
    print(qr_text(url), end="")
    print(f"Players open {url} (or scan the code) and type the seat code from their slip.")
    # once it listens: a start that failed before (a port in use) made no link it never printed
    desk = desk_link.renew(events, event_id) if new_desk_link else desk_link.ensure(events, event_id)
    if desk:
        print(
            f"The desk: {url}/desk?token={desk}  (keep it to yourself; it works until you make a "
            f"new one with: cmdraft serve {event_id} --new-desk-link)"
        )
    else:
        print(
            "The desk: the desk link printed before still works (and so does a desk page already open); "
            f"lost it? 'cmdraft serve {event_id} --new-desk-link' makes a new one and ends the old"
        )
    print("Ctrl-C stops the server; everything is saved as it happens.", flush=True)
    # The event loop answers the phones while worker threads read and write the files: let it have the
    # interpreter back within a millisecond (the default 5 ms is a wait on every answer behind a busy worker).
    sys.setswitchinterval(SWITCH_INTERVAL)
    # Everything read so far (card sets, packs, the event) is set aside from Python's garbage collector, whose full
    # passes over it stopped the server for 30-60 ms at a time in the middle of a round (``python -m
    # tests.benchmarks serve``).  What is made later is still collected.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    served = app.state.server.served

    def stopping() -> None:  # said before the streams close: their phones can't pick from then on
        served.stop_clocks()
        said_stopped()

    server = StoppingServer(server_config(app, settings), stopping)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        announced.close()
    print("Stopped serving. Every pick and deck is saved; 'cmdraft serve' again picks up where it was.")
    sys.stdout.flush()
