"""The picks a draft works out for a seat (``SeatPicks``, a part of ``TableSession``): the strong bot's (the hint's,
without its reasons), and the timer's, which takes the cards the seat's face showed marked first
(``draft.timeout``)."""

from __future__ import annotations

from draft.bots import BotStyle
from draft.engine import Draft
from draft.hint import PickAdvice, seat_advice, seat_pick
from draft.picks import PickRequest
from draft.timeout import Marks, timed_out_positions
from events.storage.draft_fields import DraftFields


class SeatPicks(DraftFields):
    """A draft's header fields (``DraftFields``: the Pipers each seat counts on among them), for a class that holds
    the ``draft`` and the ``marks`` its faces show, by seat (in memory only: marks are never saved)."""

    draft: Draft
    marks: dict[int, Marks]

    def suggested_positions(self, seat: int) -> list[int]:
        """The cards the strong bot style would take for this seat: worked out from the draft's own state, so they
        are the same cards whoever asks (the hint's, without its reasons)."""
        return seat_pick(self.draft, seat, pipers=self.pipers)

    def mark(self, seat: int, marks: Marks) -> None:
        """The cards a face of this process shows marked on the seat's pack, for the timer's pick (never saved)."""
        self.marks[seat] = marks

    def timed_out_positions(self, seat: int) -> list[int]:
        """The cards taken for the seat when its pick's time runs out: those marked on its pack here (``mark``),
        then the strong bot's pick (``draft.timeout.timed_out_positions``)."""
        draft = self.draft
        at, suggested = draft.at(seat), self.suggested_positions(seat)
        return timed_out_positions(draft.pack(seat), at, draft.picks_due(seat), self.marks.get(seat), suggested)

    def advice(self, seat: int, style: BotStyle = BotStyle.STRONG) -> PickAdvice:
        """What a bot of ``style`` would take from this seat's pack, and why (``draft.hint.explain_pick``)."""
        return seat_advice(self.draft, seat, style, pipers=self.pipers)

    def suggested_pick(self, seat: int) -> PickRequest:
        """The strong bot's pick for the seat, as a request on the pack it holds now."""
        return self.draft.request(seat, self.suggested_positions(seat))
