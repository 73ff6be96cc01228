"""Every limit and address of ``cmdraft serve`` in one frozen object (``WebSettings``): where it listens, what the
door holds back, how long a request may take, what a client may send, how often the server looks at the files, the
cookies' lives; and the figures a whole process shares (``CARDS_KEPT``, ``PACKS_KEPT``).

``create_app`` takes one; ``cmdraft serve`` builds it from its options (their defaults are ``DEFAULT``'s), tests
with their own figures.  Nothing else in ``events/web`` or ``events/cli`` keeps a limit or an address of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DAY = 86_400

# This machine's loopback addresses: connections from them (and from the address ``serve`` listens on) are the
# desk's own machine, held to no cap of one address (``from_elsewhere`` below, asked by ``guard.GuardedHttp`` and ``auth``).
LOOPBACK_ADDRESSES = frozenset({"127.0.0.1", "::1"})


def from_elsewhere(address: str, own: str | None) -> bool:
    """Whether ``address`` is another machine's: not this one's loopback, nor ``own`` (the address this server
    was reached at, or listens at: the desk's own machine asking there)."""
    return address not in LOOPBACK_ADDRESSES and address != own


# Cards whose page facts (``cards_shown.card_json``) one process keeps worked out, every app in it together: past
# this the cache is emptied and filled again as cards are shown.  A night's packs hold a few thousand printings at
# most (a set's cards, foils apart); the cap only bounds a process that serves many sets or many sets read again.
CARDS_KEPT = 16_384
# The packs whose cards are kept encoded (``cards_shown.pack_json``): a live pack is shown on each pick of it, so a
# room of 256 phones holds a few hundred at once; past this the cache is emptied and filled again.
PACKS_KEPT = 4_096
# The printings in packs whose card's encoding is kept found (``cards_shown.pack_json``): a room of 256 opens 15,360
# in a draft; past this the cache is emptied and filled again.
PRINTINGS_KEPT = 65_536


@dataclass(frozen=True)
class WebSettings:
    """The figures the web face runs by (each default is what ``cmdraft serve`` uses)."""

    # where it listens: the address without ``--lan`` (loopback: only this machine reaches it) and the port
    # (``cmdraft serve --port``; 0 any free one)
    address: str = "127.0.0.1"
    port: int = 8000
    # where it answers: the names a request's ``Host`` may give (``guard.HostCheck``; any when None, as in-process
    # tests send their own), and whether cookies go only over HTTPS
    hosts: Sequence[str] | None = None
    secure_cookies: bool = False
    # the door (``guard.GuardedHttp``): seconds a connection has to send a request (its headers and its body),
    # connections at once, and from one address (a phone's page holds one or two, a browser at most 6 and its
    # streams; this machine's own, the desk's, have no cap of their own)
    header_timeout: float = 10.0
    max_connections: int = 200
    max_per_address: int = 16
    max_head: int = 32 * 1024  # bytes of a request's head, its line and headers (a browser's are a few KiB)
    keep_alive: int = 5  # seconds an idle kept-alive connection stays open
    # what a client may send: a request's body, a message on the stream (bytes; one over ``max_message`` is
    # answered ``too-large``), and the most a stream's message may reach, its fragments together, before the
    # stream is closed (1009): a client's messages held while they arrive never grow past it
    max_body: int = 16 * 1024
    max_message: int = 1024
    max_stream_message: int = 64 * 1024
    # what one request may hold: past these it is refused (400 ``bad-field``/``bad-pick``, 401 ``no-seat`` for a
    # token) before the core is asked; ranges that are rules (a life total, a final table's size) are the core's
    max_token: int = 200  # characters of a seat token
    max_code: int = 40  # characters of a seat code typed to join
    max_name: int = 200  # characters of a player's name (joining) or a commander's (the tracker)
    max_player_number: int = 1_000_000  # the highest player number (``#4``) a request may name
    max_player_id: int = 10**9  # the highest player id (in an order, on the tracker)
    max_pick_cards: int = 20  # cards one pick may name
    max_pack_number: int = 100  # the highest pack and pick number a pick may name
    max_card_position: int = 100  # the highest position in a pack a pick may name
    max_deck_cards: int = 200  # cards one deck change may name
    max_card_count: int = 100  # copies of a card one deck change may add or remove
    max_places: int = 64  # places in a finishing order
    max_place_size: int = 64  # players sharing one place (a draw)
    max_order_text: int = 4000  # characters of an order the desk types ("Ann > Bo = Cy > Di")
    max_round_number: int = 10**6  # the highest round and table number
    max_report: int = 10**9  # the highest report number
    max_whole: int = 10**15  # any number the tracker takes (life, damage: their ranges are the core's)
    # per-client limits (``auth.Limits``): requests a second, bursts, clients whose limits are kept; and joins of
    # one seat from one address of the network (each binds the seat anew: a write of the database and of the draft's file, a
    # line of history), a second and at once
    rate: float = 20.0
    burst: float = 60.0
    join_rate: float = 0.2
    join_burst: float = 20.0
    # a seat's changes written to the database (a registration, a result's report, the tracker: each a record or a
    # line of history), a second and at once
    write_rate: float = 1.0
    write_burst: float = 30.0
    max_clients: int = 10_000
    # the cookies' lives (seconds)
    seat_cookie_age: int = 3 * DAY
    desk_cookie_age: int = 7 * DAY
    # a card's image doesn't change: a week in the browser's cache
    image_cache: str = "public, max-age=604800"
    # the work with the files: worker threads, the fewest and the most (``api_common.workers_for``: one a live pod,
    # whose writes wait on the disk without the interpreter lock, and one more), the watcher's look at the files
    # (seconds), how long a finished pod's pools may wait for a quiet moment (seconds)
    workers: int = 2
    max_workers: int = 32
    watch: bool = True
    poll: float = 0.25
    settle_wait: float = 2.0
    # seconds a pod must go without a pick before the server compacts its draft file after a pack's end (a pod
    # picking on is never held up for it; ``pick_writer.PickWriter``)
    compact_idle: float = 1.0
    # seconds a write's sync may take before the server's log says the disk holds a pod's picks up (once a write;
    # a failing or hung disk: the pod's players wait for it)
    slow_sync: float = 10.0
    # the picks' fsyncs made by a helper process of the server's own (Linux; ``syncer.HelperSyncer``), so the
    # event loop never waits for the interpreter while they are made; False: by a thread (``syncer.Syncer``)
    sync_helper: bool = True


DEFAULT = WebSettings()
