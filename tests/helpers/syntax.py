"""Python files as the static checks read them (the layout, the suite's own checks, the messages' commands): each
text parsed once per test module and its nodes listed once, however many checks walk it.  A file that changes is
read again (the cache is by text: a planted file has its own); the trees and lists are only read, never changed."""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
from collections.abc import Iterator
from pathlib import Path

_froze = [False]  # whether this module has frozen trees that ``forget`` must unfreeze


@contextlib.contextmanager
def _kept_aside() -> Iterator[None]:
    """New trees set aside from the cyclic garbage collector: they are hundreds of thousands of objects with no
    cycle among them, and the collector, running every 700 new objects, scanned every object of the process again
    and again while they were made (two thirds of a parse's CPU), then each of its full passes walked them all.
    Paused while they are made, then frozen (``gc.freeze``) until ``forget`` lets them go."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _froze[0] = True
        if was_on:
            gc.enable()


@functools.cache
def _tree(source: str) -> ast.Module:
    with _kept_aside():
        return ast.parse(source)


@functools.cache
def _walked(source: str) -> tuple[ast.AST, ...]:
    tree = _tree(source)
    with _kept_aside():
        return tuple(ast.walk(tree))


@functools.cache
def _of_types(source: str, types: tuple[type[ast.AST], ...]) -> tuple[ast.AST, ...]:
    return tuple(node for node in _walked(source) if isinstance(node, types))


def syntax(path: Path) -> ast.Module:
    """The file's syntax tree."""
    return _tree(path.read_text(encoding="utf-8"))


def walk(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file's tree, in ``ast.walk``'s order."""
    return _walked(path.read_text(encoding="utf-8"))


def nodes(path: Path, *types: type[ast.AST]) -> tuple[ast.AST, ...]:
    """The file's nodes of these types (``isinstance``), in ``ast.walk``'s order."""
    return _of_types(path.read_text(encoding="utf-8"), types)


def forget() -> None:
    """Let the trees go (at the end of each test module, tests/conftest.py): kept, they would be walked by each of
    the collector's full passes for the rest of the worker's run (pytest's five at its end among them), or, frozen,
    hold on to whatever garbage was set aside with them."""
    if not _froze[0]:
        return  # nothing parsed: what another freeze set aside (the practice app's own) stays so
    _tree.cache_clear()
    _walked.cache_clear()
    _of_types.cache_clear()
    gc.unfreeze()  # what was set aside with them is the collector's again: its garbage goes,
    gc.collect()
    gc.freeze()  # and what lives is set aside again, as after collecting (tests/conftest.py)
    _froze[0] = False
