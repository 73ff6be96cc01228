"""The foot of a screen: its typed line and its line of keys, each drawn again without laying the screen out again.

``KeyBar``: Textual's footer mounts all its keys anew on every focus move and every panel opened or closed over its
screen, though the keys it shows are most often the same: a dozen widgets styled and laid out again each time
(measured: a fifth of the app tests' CPU).  ``KeyBar`` compares what it would show (the bindings, enabled or not, and
their tooltips) with what it shows and leaves itself alone when they are equal.

``TypedLine``: Textual's ``Input`` sets its virtual size (the text's width) on every letter typed, and a
widget's virtual size lays the whole screen out again.  The typed lines have a fixed size (the .tcss files) and
no scroll bar: their virtual size only bounds their own scrolling, so it draws the line again, no more.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import Footer, Input


class KeyBar(Footer):
    composed_from: tuple | None = None  # what the keys were composed from: (binding, enabled, tooltip) for each shown

    def bindings_changed(self, screen: Screen) -> None:
        shown = tuple((b.binding, b.enabled, b.tooltip) for b in screen.active_bindings.values() if b.binding.show)
        if shown == self.composed_from and self._bindings_ready:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.composed_from = shown  # the footer composes again (after the next refresh) from these
        super().bindings_changed(screen)


class TypedLine(Input):
    virtual_size = Reactive(Size(0, 0), repaint=True)  # Widget's own lays the screen out (layout=True)
