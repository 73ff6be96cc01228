"""``cmdraft serve`` at the door (issue 38): the names it answers to (DNS rebinding), a client that hangs up in the
middle of its body, connections that never finish their headers (slowloris) and how many connections it keeps.

A real ``cmdraft serve`` process on loopback where the console and the printed address matter; uvicorn in a thread
of the test, with the server's own configuration (``serve.server_config``) and short timeouts, for the timings."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from events.cli.serve import allowed_hosts, server_config
from events.web.app import create_app
from events.web.guard import host_name
from events.web.settings import WebSettings
from tests.helpers.nights import codes_of
from tests.helpers.serve_process import raw, serve_process, stop
from tests.helpers.serve_thread import serve_in_thread
from tests.helpers.served import served_night


def test_a_client_that_hangs_up_mid_body_leaves_no_traceback_on_the_desks_console(tmp_path, cli):
    """Before: two tracebacks (the app's log and uvicorn's) for each such client."""
    db = tmp_path / "hangup.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with serve_process(db, event_id) as (process, url):
        for path in ("/api/join", "/api/pick", "/api/deck"):
            with raw(url) as sock:
                host = url.removeprefix("http://")
                sock.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                    f'Content-Length: 500\r\nOrigin: {url}\r\n\r\n{{"event": 1,'.encode()
                )
            time.sleep(0.3)  # the server reads what came and sees the connection gone
        with httpx.Client(base_url=url, timeout=10) as web:
            assert web.get("/api/seat").status_code == 401  # still answering
        err = stop(process)
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, err


def test_serve_answers_only_to_the_address_it_printed_and_localhost(tmp_path, cli):
    """Before: any Host was answered, so a page of another site pointed at this machine (DNS rebinding) passed
    the same-origin check."""
    db = tmp_path / "host.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with serve_process(db, event_id) as (process, url):
        port = url.rpartition(":")[2]
        with httpx.Client(base_url=url, timeout=10) as web:
            assert web.get("/api/seat").status_code == 401  # its own address: answered
            assert web.get("/api/seat", headers={"host": f"localhost:{port}"}).status_code == 401
            for name in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", ""):
                refused = web.get("/", headers={"host": name})
                assert refused.status_code == 421 and refused.json()["error"]["code"] == "wrong-host", name
                assert "address 'cmdraft serve' printed" in refused.json()["error"]["message"]
            rebound = web.post(
                "/api/join",
                json={"event": event_id, "player": "Ann", "code": "WRONG1"},
                headers={"host": f"evil.example:{port}", "origin": f"http://evil.example:{port}"},
            )
            assert rebound.status_code == 421
        stop(process)
    board = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)
    assert [p["wrong_codes"] for p in board["players"] if p["name"] == "Ann"] == [0]  # refused before it was read


def test_with_lan_only_the_printed_address_and_localhost_are_accepted_as_host(tmp_path, cli):
    db = tmp_path / "lanhost.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    hosts = allowed_hosts("192.168.1.20")
    assert set(hosts) == {"192.168.1.20", "127.0.0.1", "localhost", "[::1]"}
    app = create_app(db, event_id, WebSettings(hosts=hosts, watch=False))
    for base, status in (
        ("http://192.168.1.20:8000", 401),
        ("http://localhost:8000", 401),
        ("http://192.168.1.21:8000", 421),
        ("http://cmdraft.evil.example:8000", 421),
    ):
        assert TestClient(app, base_url=base).get("/api/seat").status_code == status, base
    assert [host_name(h) for h in ("192.168.1.20:8000", "[::1]:80", "LOCALHOST", "a:b:c")] == [
        "192.168.1.20",
        "[::1]",
        "localhost",
        "a:b:c",
    ]


@contextlib.contextmanager
def threaded_server(db: Path, event_id: int, **figures: float) -> Iterator[str]:
    """The app under uvicorn with ``serve``'s own configuration (``figures``: shorter timeouts), in a thread."""
    settings = WebSettings(hosts=allowed_hosts("127.0.0.1"), watch=False, **figures)
    with serve_in_thread(create_app(db, event_id, settings), settings) as address:
        yield f"http://{address}"


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds`` (reading what it sends)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_connection_that_never_finishes_its_headers_is_closed(tmp_path, cli):
    """Before: a connection that sent nothing, or trickled its headers, was kept open for ever (slowloris)."""
    db = tmp_path / "slow.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id, header_timeout=0.5) as url:
        with raw(url) as silent, raw(url) as trickling:
            trickling.sendall(b"GET /api/seat HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            began = time.monotonic()
            for _ in range(3):  # a header now and then: it still has to finish in time
                time.sleep(0.2)
                with contextlib.suppress(OSError):
                    trickling.sendall(b"X-Slow: 1\r\n")
            assert closed_within(trickling, 5) and closed_within(silent, 5)
            assert time.monotonic() - began < 5
        with httpx.Client(base_url=url, timeout=10) as web:  # a request that sends its headers is answered
            assert web.get("/api/seat").status_code == 401


def test_connections_beyond_the_limit_are_answered_503_and_closed(tmp_path, cli):
    db = tmp_path / "many.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id, max_connections=4, header_timeout=30) as url:
        held = [raw(url) for _ in range(4)]
        time.sleep(0.2)
        with raw(url) as extra:
            extra.settimeout(5)
            assert extra.recv(100).startswith(b"HTTP/1.1 503")
            assert closed_within(extra, 5)
        held.pop().close()
        time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=10) as web:  # room again
            assert web.get("/api/seat").status_code == 401
        for sock in held:
            sock.close()


@pytest.mark.parametrize("figure", ["header_timeout", "max_connections"])
def test_serve_runs_uvicorn_with_the_guard(figure):
    config = server_config(None)
    guard = config.http
    assert (
        isinstance(guard, type) and getattr(guard, figure) == {"header_timeout": 10.0, "max_connections": 200}[figure]
    )


def test_serve_max_connections_option_sets_how_many_connections_are_held_at_once(tmp_path, cli):
    """A big room raises the door's limit from the command line: with --max-connections 3 the fourth is turned away."""
    db = tmp_path / "room.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with serve_process(db, event_id, "--max-connections", "3") as (process, url):
        held = [raw(url) for _ in range(3)]
        time.sleep(0.2)
        with raw(url) as extra:
            extra.settimeout(5)
            assert extra.recv(100).startswith(b"HTTP/1.1 503")
        for sock in held:
            sock.close()
        stop(process)


def test_serve_max_per_address_option_lets_phones_behind_one_router_address_connect(tmp_path, cli):
    """Phones that reach the server through one router's address (NAT) share its cap: --max-per-address raises it."""
    db = tmp_path / "nat.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with serve_process(db, event_id, "--max-per-address", "2") as (process, url):
        held = [from_address(url, "127.0.0.2") for _ in range(2)]
        time.sleep(0.2)
        with from_address(url, "127.0.0.2") as extra:
            extra.settimeout(5)
            assert extra.recv(100).startswith(b"HTTP/1.1 429")
        for sock in held:
            sock.close()
        stop(process)
    refused = cli("serve", str(event_id), "--db", str(db), "--max-per-address", "0")
    assert refused.exit_code == 2 and "--max-per-address" in refused.stderr and "Traceback" not in refused.stderr


def test_serve_max_connections_below_one_is_refused_by_name(tmp_path, cli):
    db = tmp_path / "none.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    result = cli("serve", str(event_id), "--db", str(db), "--max-connections", "0")
    assert result.exit_code == 2 and "--max-connections" in result.stderr and "Traceback" not in result.stderr


def from_address(url: str, source: str) -> socket.socket:
    """A raw connection to the server from ``source``, another loopback address (as another phone's)."""
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))


def stalled_join(url: str, source: str) -> socket.socket:
    """A request whose head arrived and whose body never comes (it promises 500 bytes and sends one)."""
    sock = from_address(url, source)
    host = url.removeprefix("http://")
    sock.sendall(
        f"POST /api/join HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{".encode()
    )
    return sock


def test_one_phone_holding_stalled_requests_shuts_no_other_phone_out(tmp_path, cli):
    """Before: one address sending request heads whose bodies never came held every connection the server keeps,
    for ever: every other phone was answered 503 (docs/phones.md: nobody can shut another out by flooding)."""
    db = tmp_path / "stalled.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id, max_connections=40, header_timeout=30) as url:
        held = [stalled_join(url, "127.0.0.2") for _ in range(40)]
        with from_address(url, "127.0.0.2") as more:  # answered once the server has taken the 40 before it
            more.settimeout(5)
            answer = more.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429") and b'"too-many-connections"' in answer
        assert b"close other pages" in answer.partition(b"\r\n\r\n")[2]
        refused = [sock for sock in held if closed_within(sock, 0.05)]
        assert len(refused) == 40 - WebSettings().max_per_address  # each turned away at once, past the address's
        other = httpx.HTTPTransport(local_address="127.0.0.3")
        with httpx.Client(base_url=url, timeout=10, transport=other) as phone:
            assert phone.get("/api/standings").status_code == 200  # another phone is answered
        for sock in held:
            sock.close()


def test_a_request_whose_body_never_arrives_is_closed_and_a_stream_is_not(tmp_path, cli):
    """Before: the deadline held a request's headers only; a body promised and never sent kept its connection open
    for ever (slowloris on the body).  A stream's opening has no body: it stays open past the deadline."""
    db = tmp_path / "stalled_body.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id, header_timeout=0.5) as url:
        with httpx.Client(base_url=url, timeout=10) as web:
            token = web.post(
                "/api/join", json={"event": event_id, "player": "Ann", "code": codes_of(db, event_id)["Ann"]}
            )
        address = url.removeprefix("http://")
        with (
            stalled_join(url, "127.0.0.2") as stalled,
            connect(f"ws://{address}/api/stream?token={token.json()['token']}") as stream,
        ):
            began = time.monotonic()
            assert closed_within(stalled, 5) and time.monotonic() - began < 5
            time.sleep(0.6)
            stream.send('{"type": "ping"}')
            assert any(json.loads(stream.recv(timeout=5))["type"] == "pong" for _ in range(3))


def test_a_message_fragmented_past_64_kib_closes_its_stream_before_the_server_holds_more(tmp_path, cli):
    """Before: a stream took messages of up to 16 MiB, fragments together, although none over 1 KiB is ever
    taken: a phone's 15 streams, each sending a message's fragments and never its last, made the server hold
    240 MiB for as long as they liked (measured: 52 to 289 MiB)."""
    db = tmp_path / "fragments.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id) as url:
        with httpx.Client(base_url=url, timeout=10) as web:
            token = web.post(
                "/api/join", json={"event": event_id, "player": "Ann", "code": codes_of(db, event_id)["Ann"]}
            )
        address = url.removeprefix("http://")
        with connect(f"ws://{address}/api/stream?token={token.json()['token']}", max_size=None) as stream:
            stream.recv(timeout=5)  # the seat's state
            stream.send(iter(["a" * 1024] * 48))  # 48 KiB in fragments: held, then answered too-large
            assert json.loads(stream.recv(timeout=5))["error"]["code"] == "too-large"
            with pytest.raises(ConnectionClosed) as closed:
                stream.send(iter(["a" * 1024] * 80))  # 80 KiB: the stream is closed as it grows past 64 KiB
                stream.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_head_that_grows_past_32_kib_is_refused_431_and_an_ordinary_one_is_answered(tmp_path, cli):
    """Before: a header of any length was taken for as long as the deadline let it come (measured: a 62 MiB header
    in 8 s, the server 100 MiB bigger, from one of a phone's connections)."""
    db = tmp_path / "head.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with threaded_server(db, event_id, header_timeout=30) as url:
        with from_address(url, "127.0.0.2") as sock:
            sock.sendall(f"GET /api/standings HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\nX-Big: ".encode())
            with contextlib.suppress(OSError):  # the server may close while the rest still comes
                for _ in range(64):
                    sock.sendall(b"a" * 4096)
            sock.settimeout(5)
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 431") and b'"too-large"' in answer
            assert b"headers are over 32 KiB" in answer and closed_within(sock, 5)
        cookies = {f"c{n}": "x" * 1000 for n in range(8)}  # a browser's head of 8 KiB and more: answered
        with httpx.Client(base_url=url, timeout=10, cookies=cookies) as web:
            assert web.get("/api/standings").status_code == 200


def test_a_body_over_the_limit_sent_with_its_head_in_one_piece_is_413_not_431(tmp_path, cli):
    """Before: a request whose head and body (38 KB) came in one piece was answered 431 "the request's headers are
    over 32 KiB" (its body counted as head), and the same request in two pieces 413: a head of a few hundred bytes
    is no head too large, whatever comes with it."""
    db = tmp_path / "body.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    body = json.dumps({"event": event_id, "player": "Ann", "code": "x" * 38_000}).encode()
    with threaded_server(db, event_id, header_timeout=30) as url:
        host = url.removeprefix("http://")
        head = (
            f"POST /api/join HTTP/1.1\r\nHost: {host}\r\nOrigin: {url}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        for pieces in ([head + body], [head, body]):
            with from_address(url, "127.0.0.2") as sock:
                for piece in pieces:
                    sock.sendall(piece)
                    time.sleep(0.1)
                sock.settimeout(5)
                answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 413"), (len(pieces), answer[:200])
            assert b'"too-large"' in answer and b"the request body is over 16 KiB" in answer
        with from_address(url, "127.0.0.2") as sock:  # after a whole request, a next head that grows is still bound
            ask = f"GET /api/standings HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
            sock.sendall(ask + b"GET /api/standings HTTP/1.1\r\nX-Big: ")
            with contextlib.suppress(OSError):  # the server may close while the rest still comes
                for _ in range(64):
                    sock.sendall(b"a" * 4096)
            sock.settimeout(5)
            answers = b""
            with contextlib.suppress(OSError):
                while chunk := sock.recv(65536):
                    answers += chunk
            assert b"HTTP/1.1 431" in answers and b"headers are over 32 KiB" in answers
