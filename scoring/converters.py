"""The path converter of every primary key in a URL: ``<pk:...>`` instead of ``<int:...>``.

Django's ``int`` takes any run of digits, and a key beyond the database's 64-bit integer makes
SQLite raise ``OverflowError`` (a 500) where PostgreSQL finds nothing. A key is a row's id: only
the digits ``0-9``, at most 2**63 - 1, anything else matches no URL (404), on every database.
"""

from __future__ import annotations

MAX_PK = 2**63 - 1  # BigAutoField: the largest id a row can have


class PkConverter:
    regex = "[0-9]{1,19}"  # ASCII digits only: ``\d`` would take "٢٧"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_PK:
            raise ValueError(value)  # Django: this URL does not match, 404
        return number

    def to_url(self, value: int | str) -> str:
        return str(value)
