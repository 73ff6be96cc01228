"""The sessions a face holds: a pod's draft at a table (``TableSession``, kept in its draft file), a seat's picks
(``seat``), a deck being built (``activities``).

The faces never import ``events.storage``: what they need of the drafts' files (a practice's saved drafts, its timer's
range, a practice build, the draft file's journal) they take from here.
"""

from events.storage.draft_files import TableSession
from events.storage.draft_records import DraftReplacedError, check_practice_timer, journal_file, list_drafts
from events.storage.pool_builds import PoolBuild

__all__ = ["DraftReplacedError", "PoolBuild", "TableSession", "check_practice_timer", "journal_file", "list_drafts"]
