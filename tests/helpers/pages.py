"""What the browser tests do on the pages: join a seat, open a table, the desk's script and a player's, and the checks
every phone page passes (targets of at least 44 x 44 px, one h1, axe-core finding nothing critical or serious)."""

from __future__ import annotations

import json
import re
import urllib.request

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, Route, WebSocketRoute, expect
from playwright.sync_api import Error as PlaywrightError

SMALL = """() => {
  const found = [];
  for (const node of document.querySelectorAll('button, a[href], input, select, textarea, [role=button], [tabindex]')) {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;  // not shown
    if (box.width < 44 || box.height < 44)
      found.push(`${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') || node.textContent).trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return found;
}"""


CONTRAST = """(selector) => {
  const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const node = document.querySelector(selector);
  let box = node;
  while (box && getComputedStyle(box).backgroundColor.replace(/ /g, '') === 'rgba(0,0,0,0)') box = box.parentElement;
  const [a, b] = [lum(rgb(getComputedStyle(node).color)), lum(rgb(getComputedStyle(box).backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def contrast(page: Page, selector: str) -> float:
    """WCAG's contrast ratio of the first ``selector``'s text against the background it sits on (the nearest
    opaque one): 4.5 or more reads (axe-core leaves text over a card's frame "to review", so it can't tell)."""
    return page.evaluate(CONTRAST, selector)


def too_small(page: Page) -> list[str]:
    """The shown controls smaller than 44 x 44 px (a thumb's width)."""
    return page.evaluate(SMALL)


def serious(page: Page) -> list[str]:
    """What axe-core finds critical or serious on the page as it is."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]


def headings_one(page: Page) -> list[str]:
    """The texts of the shown h1 headings."""
    return page.evaluate(
        "[...document.querySelectorAll('h1')].filter(h => h.offsetParent !== null).map(h => h.textContent)"
    )


def join(
    page: Page,
    base: str,
    code: str,
    *,
    event_id: int,
    number: int | None = None,
    name: str = "",
    screen: str = "#screen-draft",
) -> None:
    """Open the slip's address (event and player number filled in) and type the code, or type everything by hand;
    ``screen``: the screen the seat comes to."""
    if number is not None:
        page.goto(f"{base}/join?event={event_id}&player={number}")
        expect(page.locator("#join-event")).to_have_value(str(event_id))
        expect(page.locator("#join-player")).to_have_value(str(number))
    else:
        page.goto(base + "/")
        page.fill("#join-event", str(event_id))
        page.fill("#join-player", name)
    page.fill("#join-code", code.lower())  # typed on a phone keyboard: the core reads it in capitals
    page.click("#join-button")
    expect(page.locator(screen)).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")


def two_marked(page: Page, base: str, code: str, *, event_id: int, number: int) -> None:
    """Joined by the slip's address, the first pack shown (20 cards) and its first and last card marked."""
    join(page, base, code, event_id=event_id, number=number)
    expect(page.locator("#pack .card")).to_have_count(20)
    page.locator("#pack .card").first.click()
    page.locator("#pack .card").last.click()


def desk(base: str, path: str, body: dict) -> dict:
    """The desk's script: a POST with the desk's bearer token (no cookie, so no page origin needed)."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"authorization": "Bearer desk-secret", "content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def script(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """A player's script: JSON in and out with their seat token as a bearer token."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def words_replaced(context: BrowserContext, old: str, new: str) -> None:
    """Every answer the server sends this context's pages (its ``/api/`` answers and its stream's messages) with the
    words ``old`` as ``new``: a page that then shows ``new`` shows the answer's words, where one that shows ``old``
    had them of its own."""

    def answer(route: Route) -> None:
        try:
            response = route.fetch()
            body = response.text().replace(old, new)
        except PlaywrightError:  # the page went away with its request (the test closing it): nothing to answer
            return
        route.fulfill(response=response, body=body)

    def stream(route: WebSocketRoute) -> None:
        server = route.connect_to_server()  # the page's messages go on to the server as they are
        server.on_message(
            lambda message: route.send(message.replace(old, new) if isinstance(message, str) else message)
        )

    context.route(re.compile(r"/api/"), answer)
    context.route_web_socket(re.compile(r"/api/stream"), stream)


def open_table(page: Page, base: str, event_id: int, number: int, code: str) -> None:
    page.goto(f"{base}/join?event={event_id}&seat={number}")
    page.fill("#join-code", code)
    page.click("#join-button")
    expect(page.locator("#night .night-table")).to_be_visible(timeout=15_000)


def answer_next_question(page: Page, asked: list[str], accept: bool) -> None:
    """The page's next question (``window.confirm``) is answered: its words added to ``asked``, then accepted or
    dismissed."""

    def answer(dialog) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", answer)


class DeckReloads:
    """The page's reloads of its deck (``GET /api/deck``), passed through until ``hold_one``: that one is asked for
    as a seat message on the stream asks it, its answer fetched from the server as it is then and held, for the
    test to give the page later (``route.fulfill(response=answer)``)."""

    def __init__(self, page: Page) -> None:
        self.page, self.held, self.holding = page, [], False
        page.route("**/api/deck", self._route)

    def _route(self, route: Route, request) -> None:
        if request.method == "GET" and self.holding:
            self.held.append((route, route.fetch()))
        else:
            route.continue_()

    def hold_one(self):
        """A reload asked for now and held: (its route, the server's answer as it was)."""
        self.holding = True
        self.page.evaluate("() => { window.heldReload = cmdraft.loadDeck(); }")  # not awaited: held
        for _ in range(500):  # the handler runs while Playwright waits
            if self.held:
                break
            self.page.wait_for_timeout(20)
        self.holding = False
        assert self.held, "the page's reload never reached the server"
        return self.held[0]

    def taken(self) -> None:
        """Until the page has taken the held reload's answer (once the test gave it: ``route.fulfill``), or given
        the request up (its own wait of 20 s outlasted on a very busy machine: then no answer is taken at all)."""
        self.page.evaluate("() => window.heldReload.then(() => true, () => false)")
