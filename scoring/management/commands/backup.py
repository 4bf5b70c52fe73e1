"""Write the whole club to one JSON file (``kingclub/v2-backup``): see scoring.services.backup.

Rows are read in chunks and written as they come: memory does not grow with the club's size.
Its messages are in the reader's language (:mod:`._language`); the backup is JSON.
"""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._language import ReaderCommand
from scoring.management.commands._output import (
    cannot_write,
    checked_indent,
    indent_option,
    members_counted,
    seasons_counted,
    turni_counted,
)
from scoring.services.backup import backup_stream
from scoring.services.jsonstream import write_json


class Command(ReaderCommand):
    help = gettext_noop(
        "Salva tutto il circolo (account, soci, stagioni, turni, eventi, storia) in FILE."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help=gettext("il file del backup"))
        indent_option(parser)

    def handle(self, *args, **options) -> None:
        indent = checked_indent(options["indent"])
        doc = backup_stream()
        try:
            with Path(options["file"]).open("w", encoding="utf-8") as fh:
                write_json(fh.write, doc, indent=indent)
        except OSError as exc:
            raise cannot_write(options["file"], exc) from None
        tables = doc["tables"]
        accounts = len(doc["users"])
        written = gettext(
            "backup scritto in %(path)s: %(accounts)s, %(members)s, %(seasons)s, %(turni)s"
        )
        self.stdout.write(
            written
            % {
                "path": options["file"],
                "accounts": ngettext("%(n)s account", "%(n)s account", accounts) % {"n": accounts},
                "members": members_counted(tables["scoring.player"]["rows"].count),
                "seasons": seasons_counted(tables["scoring.season"]["rows"].count),
                "turni": turni_counted(tables["scoring.turno"]["rows"].count),
            }
        )
