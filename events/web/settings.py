"""Every limit and address of ``cmdraft serve`` in one frozen object (``WebSettings``): what the door holds back,
how long a request may take, what a client may send, how often the server looks at the files, the cookies' lives.

``create_app`` takes one; ``cmdraft serve`` builds it from its options, tests with their own figures.  Nothing else
in ``events/web`` keeps a limit of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DAY = 86_400


@dataclass(frozen=True)
class WebSettings:
    """The figures the web face runs by (each default is what ``cmdraft serve`` uses)."""

    # where it answers: the names a request's ``Host`` may give (``guard.HostCheck``; any when None, as in-process
    # tests send their own), and whether cookies go only over HTTPS
    hosts: Sequence[str] | None = None
    secure_cookies: bool = False
    # the door (``guard.GuardedHttp``): seconds a connection has to send a request's headers, connections at once
    header_timeout: float = 10.0
    max_connections: int = 200
    keep_alive: int = 5  # seconds an idle kept-alive connection stays open
    # what a client may send: a request's body, a message on the stream (bytes)
    max_body: int = 16 * 1024
    max_message: int = 1024
    # per-client limits (``auth.Limits``): requests a second, bursts, clients whose limits are kept
    rate: float = 20.0
    burst: float = 60.0
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


DEFAULT = WebSettings()
