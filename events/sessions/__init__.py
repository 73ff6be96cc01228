"""The sessions a face holds: a pod's draft at a table (``table.DraftTable``, opened by ``practice`` for a practice
draft and by ``events.night.drafting`` for an event's pod), a seat's picks (``seat``), a deck being built
(``activities``).

The faces never import ``events.storage`` and hold none of its objects: the drafts' files are kept below these.
"""
