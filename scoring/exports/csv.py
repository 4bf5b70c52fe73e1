"""CSV beside Excel: the Classifica Generale and the list of turni, from their django-tables2
tables (``Table.as_values()``: the same columns as the page, each cell's ``value_*``).

Numbers are data here: a decimal point, a plain minus sign, dates as ``2026-11-20``, so that
any program reads them back. Every text goes through :func:`scoring.formatting.csv_text`: a
member named ``=HYPERLINK(...)`` is written ``'=HYPERLINK(...)``, never a live formula (OWASP).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.utils.html import strip_tags

from scoring.formatting import csv_text

CONTENT_TYPE = "text/csv; charset=utf-8"


def rows_csv(rows: Iterable[Iterable[Any]]) -> bytes:
    """Rows as CSV bytes (UTF-8 with a byte order mark, so spreadsheets read the accents)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_text(value) for value in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def table_csv(table: Any) -> bytes:
    """A django-tables2 table as CSV: the header row, then every row (not only one page)."""
    rows = iter(table.as_values())
    header = [strip_tags(str(h)) for h in next(rows)]  # a column header may be an <abbr>
    return rows_csv([header, *rows])
