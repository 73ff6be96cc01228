"""Which address ``cmdraft serve`` listens on and prints: 127.0.0.1 without ``--lan``; with it, this machine's
address in the store's network, chosen from the machine's addresses (injected here: the test machine has no LAN)."""

from __future__ import annotations

import inspect
import ipaddress

import pytest

from events.cli import serve as serve_command
from events.cli.serve import listen_address, listening, machine_addresses, pick_lan_address
from events.web.settings import DEFAULT
from sets.errors import InputError
from tests.helpers.nights import terminal_night
from tests.helpers.paths import ROOT


def test_without_lan_serve_listens_on_loopback_whatever_addresses_the_machine_has():
    assert listen_address(False, ["192.168.1.20"]) == "127.0.0.1"
    sock = listening(listen_address(False), 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()


def test_serve_takes_its_address_and_port_defaults_from_the_web_settings():
    """The address and port ``serve`` defaults to are ``WebSettings``' (one home for every address, CONTRIBUTING.md):
    loopback and 8000, as its help says."""
    assert (DEFAULT.address, DEFAULT.port) == ("127.0.0.1", 8000)
    assert listen_address(False) == DEFAULT.address
    assert inspect.signature(serve_command.serve).parameters["port"].default == DEFAULT.port
    elsewhere = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "events" / "cli").rglob("*.py"))
        if '"127.0.0.1"' in path.read_text(encoding="utf-8") or "= 8000" in path.read_text(encoding="utf-8")
    ]
    assert elsewhere == []


@pytest.mark.parametrize(
    ("addresses", "chosen"),
    [
        # loopback and link-local (a network cable with no DHCP) are never the store's network
        (["127.0.0.1", "169.254.10.3", "192.168.1.20"], "192.168.1.20"),
        # a private-use address (RFC 1918) wins over a public one, wherever it comes in the list
        (["8.8.4.4", "10.0.0.7"], "10.0.0.7"),
        (["8.8.4.4", "172.20.5.9"], "172.20.5.9"),
        # 172.32/16 is outside 172.16/12: public, so the private one after it wins
        (["172.32.0.1", "192.168.0.9"], "192.168.0.9"),
        # several private ones: the route out's (listed first) is kept
        (["192.168.1.20", "10.0.0.7"], "192.168.1.20"),
        # IPv6, multicast, unspecified and unreadable entries are skipped
        (["fe80::1", "::1", "224.0.0.251", "0.0.0.0", "not an address", "192.168.178.2"], "192.168.178.2"),
        # no private address at all: the first usable one (a store on public addresses)
        (["127.0.0.1", "8.8.4.4", "9.9.9.9"], "8.8.4.4"),
    ],
)
def test_lan_listens_on_the_machines_private_network_address(addresses, chosen):
    assert pick_lan_address(addresses) == chosen
    assert listen_address(True, addresses) == chosen


@pytest.mark.parametrize("addresses", [[], ["127.0.0.1"], ["127.0.1.1", "169.254.1.1", "::1"]])
def test_lan_without_a_network_address_is_a_clear_error(addresses):
    with pytest.raises(InputError, match=r"no local network address for --lan; connect it to the store's network"):
        listen_address(True, addresses)


def test_the_machines_addresses_are_ipv4_addresses_without_repeats():
    found = machine_addresses()
    assert len(found) == len(set(found))
    assert all(isinstance(ipaddress.ip_address(a), ipaddress.IPv4Address) for a in found)


def test_serve_lan_on_a_machine_without_a_network_address_says_so_with_exit_2(tmp_path, cli, monkeypatch):
    db = tmp_path / "lan.json"
    event_id = terminal_night(cli, db, "Ann", "Bo")
    monkeypatch.setattr(serve_command, "machine_addresses", lambda: ["127.0.0.1", "169.254.7.7"])
    answer = cli("serve", event_id, "--db", db, "--port", "0", "--lan")
    assert answer.exit_code == 2 and "Traceback" not in answer.output
    assert "no local network address for --lan; connect it to the store's network" in answer.stderr
