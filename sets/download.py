"""Download a set file MTGJSON publishes, checked against the SHA-256 published beside it.

MTGJSON serves every set as ``https://mtgjson.com/api/v5/CODE.json`` with its
checksum in ``CODE.json.sha256``.  ``CMDRAFT_MTGJSON_URL`` replaces the base
address (a mirror; the tests' local server); ``source`` replaces a file's whole
address.  Only HTTPS is used, except for a server on this machine.
The file is kept only when it is whole and its SHA-256 matches.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sets.cards import SET_CODE_RULE, valid_set_code
from sets.errors import InputError
from sets.files import CARD_FILE_LIMIT
from sets.userdata import user_home
from sets.visible import quoted

MTGJSON_BASE = "https://mtgjson.com/api/v5"
TIMEOUT_SECONDS = 30
CHUNK = 64 * 1024
SLOWEST = 1024  # bytes a second on average: a download slower than this once ``GRACE_SECONDS`` passed stops
GRACE_SECONDS = 60.0
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_SHA256 = re.compile(r"^[0-9a-fA-F]{64}$")

Progress = Callable[[int, int | None], None]


def downloads_dir() -> Path:
    return user_home() / "downloads"


def set_url(code: str) -> str:
    base = os.environ.get("CMDRAFT_MTGJSON_URL") or MTGJSON_BASE
    return f"{base.rstrip('/')}/{code}.json"


class DownloadError(InputError):
    """The file could not be fetched whole, or it is not what was published; ``status``: the server's error status
    when it answered one."""

    status: int | None = None


def on_this_machine(url: str) -> bool:
    """Whether ``url`` names a server on this machine (a loopback address)."""
    return urllib.parse.urlsplit(url).hostname in _LOOPBACK


def check_address(url: str) -> None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK):
        return
    raise DownloadError(
        f"won't download {quoted(url)}: only https:// addresses are used (http:// only on this machine)"
    )


class _Redirects(urllib.request.HTTPRedirectHandler):
    """A redirect is followed only to an address ``check_address`` allows, and never from https:// to http://."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        check_address(newurl)
        if urllib.parse.urlsplit(req.full_url).scheme == "https" and not newurl.startswith("https:"):
            raise DownloadError(f"won't follow {req.full_url}'s redirect to {quoted(newurl)}: it leaves https://")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def direct_opener(url: str) -> urllib.request.OpenerDirector:
    """An opener for ``url``: a server on this machine is reached directly, whatever proxy the environment names."""
    if urllib.parse.urlsplit(url).hostname in _LOOPBACK:
        return urllib.request.build_opener(urllib.request.ProxyHandler({}), _Redirects)
    return urllib.request.build_opener(_Redirects)


def refusal(url: str, code: int, reason: str, not_found: str) -> DownloadError:
    """What a server's error answer means for the person running the command: ``not_found`` for a 404."""
    if code == 429:
        error = DownloadError(f"{url} answered 429 (too many requests); wait a minute and run the command again")
    elif code in (404, 410):
        error = DownloadError(f"cannot download {url}: the server answered {code} {reason}; {not_found}")
    else:
        error = DownloadError(
            f"cannot download {url}: the server answered {code} {reason}; the server has a problem, try again later"
        )
    error.status = code
    return error


def web_page(answer: Any) -> str | None:
    """The type of an answer that is a web page (``text/html``: a network asking to sign in first), else None."""
    kind = str(answer.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    return kind if kind in ("text/html", "application/xhtml+xml") else None


SIGN_IN = (
    "a web page instead of the data: a network that asks you to sign in first (open any web page in a browser), "
    "or an address that holds something else"
)


def _open(url: str) -> http.client.HTTPResponse:
    check_address(url)
    try:
        answer: http.client.HTTPResponse = direct_opener(url).open(url, timeout=TIMEOUT_SECONDS)  # an http(s) address
    except urllib.error.HTTPError as error:
        raise refusal(
            url, error.code, error.reason, "check the set code (MTGJSON names sets by their code, e.g. CMR)"
        ) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        reason = getattr(error, "reason", None) or error
        raise DownloadError(
            f"cannot download {url}: no network or no answer ({reason}); try again when online, "
            "or download the file yourself and run 'cmdraft sets import FILE'"
        ) from None
    if web_page(answer):
        answer.close()
        raise DownloadError(f"{url} answered {SIGN_IN}; nothing was stored")
    return answer


class Pace:
    """A download's pace: ``DownloadError`` once, past its first ``GRACE_SECONDS``, it has averaged under ``SLOWEST``
    bytes a second (each read waits at most ``TIMEOUT_SECONDS``, so a server sending a byte now and then would
    otherwise hold the run for good).  ``clock``: injected in tests."""

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.url, self.clock = url, clock
        self.start = clock()

    def check(self, received: int) -> None:
        elapsed = self.clock() - self.start
        if elapsed > GRACE_SECONDS and received < SLOWEST * elapsed:
            raise DownloadError(
                f"the download of {self.url} is too slow ({received:,} bytes in {elapsed:.0f} s, under "
                f"{SLOWEST:,} a second); nothing of it was kept: try again later or on another network"
            )


def published_sha256(url: str) -> str:
    """The SHA-256 published beside a file: ``URL.sha256`` holds the hex digest (a file name may follow)."""
    checksum_url = url + ".sha256"
    with _open(checksum_url) as answer:
        try:
            words = answer.read(4096).decode("ascii", "replace").split()
        except (OSError, http.client.HTTPException) as error:
            raise DownloadError(f"cannot download {checksum_url}: {error}; try again") from None
    if not words or not _SHA256.match(words[0]):
        raise DownloadError(f"{checksum_url} holds no SHA-256 digest; nothing was stored")
    return words[0].lower()


def download_set(
    code: str, source: str | None = None, progress: Progress | None = None, clock: Callable[[], float] = time.monotonic
) -> Path:
    """Fetch a set's MTGJSON file into ``downloads/CODE.json`` under the data folder; its path.

    Nothing is stored unless the whole file arrived and its SHA-256 is the published one.
    """
    code = code.strip().upper()
    if not valid_set_code(code):
        raise InputError(f"bad set code {quoted(code)}: {SET_CODE_RULE}")
    url = source or set_url(code)
    expected = published_sha256(url)
    target = downloads_dir() / f"{code}.json"
    digest = hashlib.sha256()
    received = 0
    with written_whole(target) as partial:
        target.parent.mkdir(parents=True, exist_ok=True)
        with _open(url) as answer, open(partial, "wb") as out:
            length = answer.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if total is not None and total > CARD_FILE_LIMIT:
                raise DownloadError(too_big(url, total))
            pace = Pace(url, clock)
            while True:
                try:
                    chunk = answer.read1(CHUNK)  # what has come, so a trickle is seen (``Pace``)
                except (TimeoutError, http.client.IncompleteRead, OSError) as error:
                    raise DownloadError(
                        f"the download of {url} broke off after {received} bytes ({error}); "
                        "nothing was stored: try again"
                    ) from None
                if not chunk:
                    break
                received += len(chunk)
                pace.check(received)
                if received > CARD_FILE_LIMIT:
                    raise DownloadError(too_big(url, received))
                out.write(chunk)
                digest.update(chunk)
                if progress:
                    progress(received, total)
        if total is not None and received != total:
            raise DownloadError(
                f"the download of {url} stopped at {received} of {total} bytes; nothing was stored: try again"
            )
        if digest.hexdigest() != expected:
            raise DownloadError(
                f"the download of {url} doesn't match its published SHA-256 "
                f"({digest.hexdigest()[:12]}… instead of {expected[:12]}…); nothing was stored: try again later"
            )
        os.replace(partial, target)
    return target


def too_big(url: str, size: int) -> str:
    return (
        f"{url} sends more than {CARD_FILE_LIMIT // 1024**3} GiB ({size:,} bytes), more than any card file; "
        "nothing was stored: check the address"
    )


@contextmanager
def written_whole(target: Path) -> Iterator[Path]:
    """The temporary file beside ``target`` that a download is written into and then renamed over it, so
    ``target`` is whole or untouched: a failure to write is ``InputError`` naming the file, and the temporary is
    gone afterwards, whatever happened."""
    partial = target.with_name(f".{target.name}.part")
    try:
        yield partial
    except OSError as error:
        advice = (
            "the disk is full: free some space, or set CMDRAFT_HOME to a folder on a disk with room"
            if error.errno in (errno.ENOSPC, errno.EDQUOT)
            else "set CMDRAFT_HOME to a writable folder"
        )
        raise InputError(f"cannot write {quoted(str(target))}: {error.strerror or error}; {advice}") from None
    finally:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
