"""Writing a printable ``Sheet`` as 80-column text, one self-contained HTML page, or CSV.

Every text a user supplied (names, card names) is data: control characters are shown as
escapes in text, and HTML escapes everything it prints.
"""

from __future__ import annotations

import csv
import html
import io
import unicodedata

from draft.formats.csv_deck import neutral
from events.printables import CSV_PRINTABLES, Blanks, Note, Sheet, Table
from sets.errors import InputError

WIDTH = 80
FORMATS = ("text", "html", "csv")
GAP = "  "


def printable(text: str) -> str:
    """Text with control and format characters shown as escapes, so a name can't move the cursor or hide."""
    return "".join(ch if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp") else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def cell_width(text: str) -> int:
    """Columns a string takes on a terminal or a fixed-width printout (wide East Asian characters take two)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _cut(text: str, width: int) -> tuple[str, str]:
    """The longest head of ``text`` that fits ``width`` columns, and the rest."""
    used = 0
    for index, ch in enumerate(text):
        used += 0 if unicodedata.combining(ch) else (2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1)
        if used > width:
            return text[:max(index, 1)], text[max(index, 1):]
    return text, ""


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap by display width; a word longer than a line is split."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cell_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while cell_width(line) > width:
            head, line = _cut(line, width)
            lines.append(head)
    lines.append(line)
    return lines


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * (width - cell_width(text))
    return space + text if right else text + space


def text_table(table: Table, width: int = WIDTH) -> list[str]:
    """A table in plain columns that fits ``width``: the widest columns wrap until it does."""
    columns = len(table.columns)
    cells = [[printable(c) for c in table.columns]] + [[printable(c) for c in row] for row in table.rows]
    widths = [max(1, *(cell_width(row[i]) for row in cells)) for i in range(columns)]
    floor = [min(w, max(4, cell_width(table.columns[i]))) for i, w in enumerate(widths)]
    while sum(widths) + len(GAP) * (columns - 1) > width:
        shrinkable = [i for i in range(columns) if widths[i] > floor[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    lines = []
    if table.title:
        lines.append(printable(table.title))
    for index, row in enumerate(cells):
        wrapped = [wrap(cell, widths[i]) for i, cell in enumerate(row)]
        for depth in range(max(len(w) for w in wrapped)):
            parts = [_pad(w[depth] if depth < len(w) else "", widths[i], i in table.right) for i, w in enumerate(wrapped)]
            lines.append(GAP.join(parts).rstrip())
        if index == 0:
            lines.append(GAP.join("-" * w for w in widths))
    return lines


def to_text(sheet: Sheet, width: int = WIDTH) -> str:
    """Plain text, every line at most ``width`` columns; a form feed starts each page that prints on its own."""
    pages = []
    for page in sheet.pages:
        lines = wrap(printable(sheet.title), width) + wrap(printable(sheet.subtitle), width) + [""]
        lines += wrap(printable(page.title).upper(), width) + ["=" * min(width, max(cell_width(line) for line in
                                                                                   wrap(printable(page.title), width)))]
        for block in page.blocks:
            lines.append("")
            if isinstance(block, Table):
                lines += text_table(block, width)
            elif isinstance(block, Note):
                lines += wrap(printable(block.text), width)
            elif isinstance(block, Blanks):
                for label in block.labels:
                    lines.append("")
                    label = printable(label)
                    lines.append(f"{label}: " + "_" * max(10, min(40, width - cell_width(label) - 2)))
        pages.append("\n".join(lines) + "\n")
    return ("\f" if sheet.page_breaks else "\n").join(pages)


STYLE = """
*{box-sizing:border-box}
body{font-family:Helvetica,Arial,sans-serif;font-size:11pt;color:#000;background:#fff;margin:0 auto;max-width:186mm;padding:8mm 0}
header{border-bottom:2px solid #000;margin-bottom:4mm}
header h1{font-size:16pt;margin:0}
header p{margin:1mm 0 2mm}
h2{font-size:14pt;margin:3mm 0 2mm}
h3{font-size:11pt;margin:3mm 0 1mm}
table{border-collapse:collapse;width:100%;margin:0 0 3mm;page-break-inside:avoid;break-inside:avoid}
th,td{border:1px solid #444;padding:1.2mm 2mm;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eee}
td.num,th.num{text-align:right;white-space:nowrap}
p.note{margin:1mm 0}
p.strong{font-weight:bold}
p.blank{margin:6mm 0 0;border-bottom:1px solid #000;width:120mm}
section.page{padding:2mm 0}
section.decklist table{width:auto;min-width:60%}
@page{margin:12mm}
@media print{
  body{max-width:none;padding:0}
  section.page.break{break-after:page;page-break-after:always}
  section.decklist{columns:2;column-gap:8mm}
  section.decklist h2{column-span:all}
}
"""


def _html_table(table: Table) -> str:
    def cls(index: int) -> str:
        return ' class="num"' if index in table.right else ""

    parts = []
    if table.title:
        parts.append(f"<h3>{html.escape(table.title)}</h3>")
    parts.append("<table><thead><tr>" + "".join(f"<th{cls(i)}>{html.escape(c)}</th>" for i, c in enumerate(table.columns))
                 + "</tr></thead><tbody>")
    for row in table.rows:
        parts.append("<tr>" + "".join(f"<td{cls(i)}>{html.escape(printable(c))}</td>" for i, c in enumerate(row)) + "</tr>")
    parts.append("</tbody></table>")
    return "\n".join(parts)


def to_html(sheet: Sheet) -> str:
    """One self-contained page: inline CSS, no scripts, nothing fetched; print CSS breaks pages between sheets."""
    body = []
    for index, page in enumerate(sheet.pages):
        last = index == len(sheet.pages) - 1
        classes = ["page", sheet.what[:-1] if sheet.what.endswith("s") else sheet.what]
        if sheet.page_breaks and not last:
            classes.append("break")
        body.append(f'<section class="{" ".join(classes)}">')
        body.append(f"<h2>{html.escape(printable(page.title))}</h2>")
        for block in page.blocks:
            if isinstance(block, Table):
                body.append(_html_table(block))
            elif isinstance(block, Note):
                body.append(f'<p class="note{" strong" if block.strong else ""}">{html.escape(printable(block.text))}</p>')
            elif isinstance(block, Blanks):
                body.extend(f'<p class="blank">{html.escape(label)}:</p>' for label in block.labels)
        body.append("</section>")
    title = html.escape(printable(f"{sheet.title} · {sheet.what}"))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header><h1>{html.escape(printable(sheet.title))}</h1><p>{html.escape(printable(sheet.subtitle))}</p></header>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def csv_text(table: Table) -> str:
    """The table as CSV; a cell a spreadsheet would run as a formula (a name like ``=SUM(A1)``)
    gets a leading ' (``draft.formats.csv_deck.neutral``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([neutral(cell) for cell in table.columns])
    writer.writerows([neutral(cell) for cell in row] for row in table.rows)
    return buffer.getvalue()


def to_csv(sheet: Sheet) -> str:
    if sheet.csv is None:
        raise InputError(f"{sheet.what} has no CSV form: use --format text or html (CSV is for {', '.join(CSV_PRINTABLES)})")
    return csv_text(sheet.csv)


def render(sheet: Sheet, fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown print format {fmt!r}: use {', '.join(FORMATS)}")
    return {"text": to_text, "html": to_html, "csv": to_csv}[fmt](sheet)
