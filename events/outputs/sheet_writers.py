"""Writing a printable ``Sheet`` as 80-column text, one self-contained HTML page, or CSV.

Every text a user supplied (names, card names) is data: control characters are shown as
escapes in text, and HTML escapes everything it prints.
"""

from __future__ import annotations

import csv
import html
import io

from draft.formats.csv_deck import neutral
from events.outputs.sheets import CSV_PRINTABLES, Blanks, Link, Note, Sheet, Table, page_heading
from events.outputs.text import cell_width, cut, fit_columns
from sets.errors import InputError
from sets.visible import quoted, visible

WIDTH = 80
FORMATS = ("text", "html", "csv")
GAP = "  "


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
            head, line = cut(line, width)
            lines.append(head)
    lines.append(line)
    return lines


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * (width - cell_width(text))
    return space + text if right else text + space


def natural_widths(tables: list[Table]) -> dict[tuple[str, ...], list[int]]:
    """The widest cell of each column over every table of a sheet that has the same columns, so tables
    one under another line up (the same column widths across tables)."""
    widths: dict[tuple[str, ...], list[int]] = {}
    for table in tables:
        cells = [table.columns, *table.rows]
        mine = [max(1, *(cell_width(visible(row[i])) for row in cells)) for i in range(len(table.columns))]
        known = widths.get(table.columns)
        widths[table.columns] = mine if known is None else [max(a, b) for a, b in zip(known, mine, strict=True)]
    return widths


def sheet_tables(sheet: Sheet) -> list[Table]:
    return [block for page in sheet.pages for block in page.blocks if isinstance(block, Table)]


def text_table(table: Table, width: int = WIDTH, natural: list[int] | None = None) -> list[str]:
    """A table in plain columns that fits ``width``: the widest columns wrap until it does.  ``natural``
    gives the columns' widths shared with the sheet's other tables of the same columns."""
    columns = len(table.columns)
    cells = [[visible(c) for c in table.columns]] + [[visible(c) for c in row] for row in table.rows]
    widths = list(natural or natural_widths([table])[table.columns])
    floor = [min(w, max(4, cell_width(table.columns[i]))) for i, w in enumerate(widths)]
    widths = fit_columns(widths, floor, width - len(GAP) * (columns - 1))
    lines = []
    if table.title:
        lines.append(visible(table.title))
    for index, row in enumerate(cells):
        wrapped = [wrap(cell, widths[i]) for i, cell in enumerate(row)]
        for depth in range(max(len(w) for w in wrapped)):
            parts = [
                _pad(w[depth] if depth < len(w) else "", widths[i], i in table.right) for i, w in enumerate(wrapped)
            ]
            lines.append(GAP.join(parts).rstrip())
        if index == 0:
            lines.append(GAP.join("-" * w for w in widths))
    return lines


CUT_LINE = "✂ " + " ".join("-" * 39)  # between slips printed on one sheet of paper: 80 columns


def to_text(sheet: Sheet, width: int = WIDTH) -> str:
    """Plain text, every line at most ``width`` columns; a form feed starts each sheet of paper, and
    pages printed together on one sheet (slips) have a cut line between them."""
    shared = natural_widths(sheet_tables(sheet))
    pages = []
    for page in sheet.pages:
        lines = wrap(visible(sheet.title), width) + wrap(visible(sheet.subtitle), width) + [""]
        heading = wrap(visible(page_heading(page, upper=True)), width)
        lines += heading + ["=" * min(width, max(cell_width(line) for line in heading))]
        for block in page.blocks:
            lines.append("")
            if isinstance(block, Table):
                lines += text_table(block, width, shared[block.columns])
            elif isinstance(block, Note):
                lines += wrap(visible(block.text), width)
            elif isinstance(block, Link):
                lines += wrap(visible(block.url), width)
            elif isinstance(block, Blanks):
                for label in block.labels:
                    lines.append("")
                    label = visible(label)
                    lines.append(f"{label}: " + "_" * max(10, min(40, width - cell_width(label) - 2)))
        pages.append("\n".join(lines) + "\n")
    if not sheet.page_breaks:
        return "\n".join(pages)
    text = pages[0] if pages else ""
    for index, page_text in enumerate(pages[1:], start=1):
        text += ("\f" if index % sheet.per_paper == 0 else f"\n{CUT_LINE[:width]}\n\n") + page_text
    return text


STYLE = """
*{box-sizing:border-box}
body{font-family:Helvetica,Arial,sans-serif;font-size:11pt;color:#000;background:#fff;margin:0 auto;max-width:186mm;padding:8mm 0}
header{border-bottom:2px solid #000;margin-bottom:4mm}
header h1{font-size:16pt;margin:0}
header p{margin:1mm 0 2mm}
h2{font-size:14pt;margin:3mm 0 2mm;break-after:avoid;page-break-after:avoid}
table{border-collapse:collapse;width:100%;table-layout:fixed;margin:0 0 3mm;page-break-inside:avoid;break-inside:avoid}
caption{font-weight:bold;text-align:left;padding:2mm 0 1mm;caption-side:top}
th,td{border:1px solid #444;padding:1.2mm 2mm;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eee}
td.num,th.num{text-align:right}
p.note{margin:1mm 0}
p.strong{font-weight:bold;break-after:avoid;page-break-after:avoid}
p.event{margin:0 0 1mm;font-size:9pt;border-bottom:1px solid #000}
p.blank{margin:5mm 0 0;border-bottom:1px solid #000;width:120mm}
section.page{padding:2mm 0;break-inside:avoid;page-break-inside:avoid}
section.slip{padding:1mm 0 2mm;font-size:10pt}
section.slip h2{font-size:13pt;margin:1mm 0}
section.slip th,section.slip td{padding:0.8mm 2mm}
section.slip table{margin:0 0 1mm}
section.slip p.blank{display:inline-block;width:80mm;margin:5mm 6mm 0 0}
figure.link{display:flex;align-items:center;gap:3mm;margin:1mm 0}
figure.link svg{width:24mm;height:24mm;flex:none}
figure.link figcaption{font-family:monospace;font-size:9pt;overflow-wrap:anywhere}
section.cut{border-bottom:1px dashed #000;margin-bottom:4mm}
section.decklist{font-size:8.5pt;break-inside:auto;page-break-inside:auto}
section.decklist th,section.decklist td{padding:0.3mm 1.5mm}
section.decklist table{margin:0 0 1.5mm}
section.decklist caption{padding:1mm 0 0.5mm}
section.decklist p.blank{margin:4mm 0 0;width:80mm}
@page{margin:12mm}
@media print{
  body{max-width:none;padding:0}
  section.page.break{break-after:page;page-break-after:always}
  section.decklist{columns:2;column-gap:8mm}
  section.decklist h2,section.decklist p.event{column-span:all}
}
"""


def _html_table(table: Table, natural: list[int]) -> str:
    """A table with its title as the caption (a heading never stays behind at a page end) and column
    widths shared with the sheet's other tables of the same columns."""

    def cls(index: int) -> str:
        return ' class="num"' if index in table.right else ""

    total = sum(natural)
    parts = ["<table>"]
    if table.title:
        parts.append(f"<caption>{html.escape(visible(table.title))}</caption>")
    parts.append("<colgroup>" + "".join(f'<col style="width:{100 * w / total:.2f}%">' for w in natural) + "</colgroup>")
    parts.append(
        "<thead><tr>"
        + "".join(f"<th{cls(i)}>{html.escape(c)}</th>" for i, c in enumerate(table.columns))
        + "</tr></thead><tbody>"
    )
    for row in table.rows:
        parts.append(
            "<tr>" + "".join(f"<td{cls(i)}>{html.escape(visible(c))}</td>" for i, c in enumerate(row)) + "</tr>"
        )
    parts.append("</tbody></table>")
    return "\n".join(parts)


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (segno, error correction M, 2 px modules and a 4-module quiet zone)."""
    import segno  # here: segno's writers import urllib.request, http.client and email, which only a QR code needs

    return segno.make(url, error="m", micro=False).svg_inline(
        scale=2, border=4, svgclass="qr", lineclass=None, omitsize=True
    )


def _html_link(link: Link) -> str:
    """The address as text under its QR code; both carry only what the link holds (never a seat code)."""
    shown = html.escape(visible(link.url))
    return f'<figure class="link">{qr_svg(link.url)}<figcaption>{shown}</figcaption></figure>'


def to_html(sheet: Sheet) -> str:
    """One self-contained page: inline CSS, no scripts, nothing fetched.  Print CSS starts a sheet of paper
    for each page (``per_paper`` pages together, a dashed cut line between them), and every page after
    the first carries the event's name."""
    shared = natural_widths(sheet_tables(sheet))
    # Widths in the HTML are shares of the line: a column never takes less than its heading, and each
    # gets two characters more for its cell padding, so a narrow column's heading ('Seat') fits on one line.
    shared = {
        columns: [max(w, cell_width(c), 3) + 2 for w, c in zip(widths, columns, strict=True)]
        for columns, widths in shared.items()
    }
    running = html.escape(visible(f"{sheet.title} · {sheet.subtitle}"))
    body = []
    for index, page in enumerate(sheet.pages):
        last = index == len(sheet.pages) - 1
        classes = ["page", sheet.what[:-1] if sheet.what.endswith("s") else sheet.what]
        if sheet.per_paper > 1 and "slip" not in classes:
            classes.append("slip")  # pages printed several to a sheet of paper are slips: set compactly
        if sheet.page_breaks and not last:
            classes.append("break" if (index + 1) % sheet.per_paper == 0 else "cut")
        body.append(f'<section class="{" ".join(classes)}">')
        if sheet.page_breaks and (index > 0 or sheet.per_paper > 1):
            body.append(f'<p class="event">{running}</p>')
        body.append(f"<h2>{html.escape(visible(page_heading(page)))}</h2>")
        for block in page.blocks:
            if isinstance(block, Table):
                body.append(_html_table(block, shared[block.columns]))
            elif isinstance(block, Note):
                body.append(
                    f'<p class="note{" strong" if block.strong else ""}">{html.escape(visible(block.text))}</p>'
                )
            elif isinstance(block, Link):
                body.append(_html_link(block))
            elif isinstance(block, Blanks):
                body.extend(f'<p class="blank">{html.escape(label)}:</p>' for label in block.labels)
        body.append("</section>")
    title = html.escape(visible(f"{sheet.title} · {sheet.what}"))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{html.escape(visible(sheet.title))}</h1><p>{html.escape(visible(sheet.subtitle))}</p></header>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def csv_cell(cell: str) -> object:
    """A cell of a sheet's CSV: control and format characters written out as on every face (``visible``), and a
    cell a spreadsheet would run as a formula (a name like ``=SUM(A1)``) with a leading ' (``neutral``)."""
    return neutral(visible(cell))


def csv_text(table: Table) -> str:
    """The table as CSV, each cell as ``csv_cell`` writes it."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(cell) for cell in table.columns])
    writer.writerows([csv_cell(cell) for cell in row] for row in table.rows)
    return buffer.getvalue()


def to_csv(sheet: Sheet) -> str:
    if sheet.csv is None:
        raise InputError(
            f"{sheet.what} has no CSV form: use --format text or html (CSV is for {', '.join(CSV_PRINTABLES)})"
        )
    return csv_text(sheet.csv)


def render(sheet: Sheet, fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown print format {quoted(fmt)}: use {', '.join(FORMATS)}")
    return {"text": to_text, "html": to_html, "csv": to_csv}[fmt](sheet)
