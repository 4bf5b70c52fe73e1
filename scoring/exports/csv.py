"""CSV beside Excel: the Classifica Generale and the list of turni, from their django-tables2
tables (``Table.as_values()``: the same columns as the page, each cell's ``value_*``).

Numbers are data here, written the way a spreadsheet set to the page's language reads them
back (:func:`scoring.formatting.csv_dialect`): in Italian ``;`` between fields and ``-0,43``, in
English ``,`` and ``-0.43``; a plain minus, no grouping, dates as ``2026-11-20``. Every text
goes through :func:`scoring.formatting.csv_text`: a member named ``=HYPERLINK(...)`` is written
``'=HYPERLINK(...)``, never a live formula (OWASP). The JSON interchange stays the machine
format, whatever the language.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.utils.html import strip_tags

from scoring.formatting import csv_cell, csv_dialect

CONTENT_TYPE = "text/csv; charset=utf-8"


def rows_csv(rows: Iterable[Iterable[Any]]) -> bytes:
    """Rows as CSV bytes in the active language's dialect (UTF-8 with a byte order mark, so
    spreadsheets read the accents)."""
    delimiter, decimal = csv_dialect()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_cell(value, decimal) for value in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def table_csv(table: Any) -> bytes:
    """A django-tables2 table as CSV: the header row, then every row (not only one page)."""
    rows = iter(table.as_values())
    header = [strip_tags(str(h)) for h in next(rows)]  # a column header may be an <abbr>
    return rows_csv([header, *rows])
