"""The suite's longest tests start first, spread over the workers (a pytest plugin, ``pytest_plugins`` in
tests/conftest.py).

pytest-xdist's ``worksteal`` gives each worker a contiguous share of the collected tests, in order, and a worker
that runs out takes the second half of the longest queue left.  A 25-second test that happens to sit late in a
share starts near the end and keeps one worker busy while the others wait.  Here each worker's share starts with
some of the long tests below (dealt longest first to the share with the least so far), and everything else keeps
pytest's order: the run ends on short tests.  Only the order changes: a test missing from the list only runs later,
and a name in it that no longer exists is caught by tests/test_suite.py.
"""

from __future__ import annotations

import pytest

# Seconds each took on the quiet 2-core machine (2026-12-05, four workers; the slowest tests of a run, shown by
# ``--durations``).  A whole module where its tests share a module-scoped fixture (one drafted night, the images
# downloaded once): split up, each part would set it up again.
LONG_FIRST: dict[str, float] = {
    "tests/e2e/test_serve_browser.py": 22,  # estimated: 37 before two phones and a laptop drafted two packs at the core
    "tests/e2e/test_print_pdf.py": 25,
    "tests/e2e/test_serve_images_browser.py": 22,
    "tests/e2e/test_serve_night_browser.py": 18,
    "tests/e2e/test_serve_phone_browser.py": 9,  # estimated: 15 before its lost connection ran on the page's clock
    "tests/events/test_store.py::test_random_kills_never_corrupt_stick_or_lose_a_pick": 13,
    "tests/e2e/test_hostile.py::test_a_full_disk_drops_no_backup_and_reading_commands_still_work": 12,
    "tests/test_docs_commands.py::test_the_python_commands_that_start_processes_run[python -m tests.benchmarks serve]": 5,  # estimated: 11 before it waited for the streams, not a second
    "tests/web/test_serve_night.py": 10,
    "tests/test_suite.py::test_not_slow_leaves_out_every_end_to_end_test": 9,
    "tests/cli/test_cli_errors.py::test_long_packs_and_sealed_show_progress_in_a_real_terminal": 17,  # both
    "tests/e2e/test_hostile.py::test_screens_on_a_non_utf8_stream_replace_what_they_cant_show": 8,
    "tests/screens/test_practice_app.py::test_command_line_answers_open_whole_in_a_panel_and_the_lists_get_the_keys_back": 8,
    "tests/test_packaging.py::test_wheel_carries_the_bundled_data": 8,
    "tests/test_docs_commands.py::test_the_python_commands_that_start_processes_run[python -m tests.benchmarks practice]": 8,
    "tests/e2e/test_hostile.py::test_a_draft_finished_on_a_full_disk_leaves_reading_commands_working": 7,
    "tests/e2e/test_terminal_draft_integrity.py::test_the_timeout_is_the_drafts_applied_once_the_same_for_everyone_and_quitting_does_not_reset_it": 4,  # estimated: 11 on the wall clock
    "tests/e2e/test_room_big_night_browser.py": 14,  # 27 players on the TV and the tablet (2026-12-06)
    "tests/e2e/test_desk_seats_browser.py": 5,  # alone, one worker (2026-12-07): the desk through a restart
    "tests/e2e/test_room_screen_browser.py": 5,  # alone, one worker (2026-12-07): a night drafted, then the TV
    "tests/events/test_night_reports.py::test_a_waiting_report_and_a_phones_tracker_entry_travel_with_an_export_to_other_player_numbers": 8,
    "tests/e2e/test_serve_pool_stream.py": 5,
    "tests/test_products.py::test_a_clb_night_with_phones_ends_in_decks_led_by_legend_and_background_and_an_added_faceless_one": 4,
    "tests/events/test_events.py::test_terminal_draft_at_two_real_terminals": 4,
    "tests/screens/test_practice_app.py::test_builder_commander_lands_finish_and_figures": 4,
}

# Tests that mostly wait (on the desk page's polls, the app's key presses, another process): seconds each took, of
# which under a sixth on the processor (measured one at a time, 2026-12-07).  Dealt with the long ones, three of
# them started together and left the two cores half idle for 15 s; all on one worker, the other three keep both
# cores busy meanwhile.
WAITING: dict[str, float] = {
    "tests/screens/test_builder_words.py::test_the_builders_cursor_rests_on_cards_never_on_a_group_heading": 16,
    "tests/e2e/test_desk_keyboard_browser.py::test_the_keyboard_and_the_final_tables_size_keep_their_place_on_the_night_through_the_polls": 15,
    "tests/e2e/test_desk_keyboard_browser.py::test_the_keyboard_keeps_its_place_on_the_seats_through_the_desks_polls_and_a_change": 14,
    "tests/events/test_store.py::test_registering_a_deck_while_the_player_drops_is_one_or_the_other": 6,
    "tests/screens/test_builder_words.py::test_a_long_refusal_opens_whole_in_a_panel_and_a_short_one_stays_in_the_log": 5,
    "tests/e2e/test_serve_stream_now.py::test_a_client_that_sends_picks_and_never_reads_is_read_no_more_once_its_answers_wait": 5,
}


def listed_under(nodeid: str, names) -> str | None:
    """The name in ``names`` that ``nodeid`` falls under: its module, the test itself, or the test of a parameter."""
    module, _, test = nodeid.partition("::")
    function = test.split("[", 1)[0]
    for name in (nodeid, f"{module}::{function}", module):
        if name in names:
            return name
    return None


def shares(count: int, workers: int) -> list[int]:
    """How many tests worksteal first sends each worker: the rest divided among the workers still to serve."""
    sizes = []
    for remaining in range(workers, 0, -1):
        sizes.append((count - sum(sizes)) // remaining)
    return sizes


def long_first(
    items: list, workers: int, long: dict[str, float] = LONG_FIRST, waiting: dict[str, float] = WAITING
) -> list:
    """``items`` reordered so that each worker's first share begins with its part of the long tests, the last
    worker's with every test that mostly waits (counted in its load, so the long ones go mostly to the others)."""
    groups: dict[str, list] = {name: [] for name in [*waiting, *long]}
    rest = []
    for item in items:
        name = listed_under(item.nodeid, groups)
        (groups[name] if name is not None else rest).append(item)
    fronts: list[list] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for name in sorted(waiting, key=lambda n: -waiting[n]):
        fronts[-1] += groups[name]
        loads[-1] += waiting[name] if groups[name] else 0.0
    for name in sorted(long, key=lambda n: -long[n]):
        if groups[name]:
            least = loads.index(min(loads))
            fronts[least] += groups[name]
            loads[least] += long[name]
    ordered: list = []
    left = iter(rest)
    for front, size in zip(fronts, shares(len(items), workers)):
        ordered += front
        ordered += [item for _, item in zip(range(max(size - len(front), 0)), left)]
    return ordered + list(left)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    """In a worker of pytest-xdist, after ``-m`` and ``-k`` have chosen (every worker orders alike)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        items[:] = long_first(items, int(workerinput["workercount"]))
