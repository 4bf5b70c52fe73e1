"""Write a season as a kingclub/v1 document, turno by turno (memory stays flat).

Its messages are in the reader's language (:mod:`._language`); the document is JSON."""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._language import ReaderCommand
from scoring.management.commands._output import (
    cannot_write,
    checked_indent,
    indent_option,
    season_named,
)
from scoring.services.interchange import season_export_stream
from scoring.services.jsonstream import write_json


class Command(ReaderCommand):
    help = gettext_noop(
        "Esporta una stagione (i suoi turni chiusi) come documento JSON kingclub/v1."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("season", help=gettext("il nome della stagione, es. 2026-27"))
        parser.add_argument(
            "file", nargs="?", help=gettext("il file da scrivere (predefinito: lo standard output)")
        )
        indent_option(parser)

    def handle(self, *args, **options) -> None:
        season = season_named(options["season"])
        indent = checked_indent(options["indent"])
        doc = season_export_stream(season=season)
        if options["file"]:
            try:
                with Path(options["file"]).open("w", encoding="utf-8") as fh:
                    write_json(fh.write, doc, indent=indent)
                    fh.write("\n")
            except OSError as exc:
                raise cannot_write(options["file"], exc) from None
            count = doc["turni"].count
            wrote = ngettext(
                "scritto %(path)s: %(count)s turno", "scritto %(path)s: %(count)s turni", count
            )
            self.stderr.write(wrote % {"path": options["file"], "count": count})
        else:
            write_json(lambda text: self.stdout.write(text, ending=""), doc, indent=indent)
            self.stdout.write("")
