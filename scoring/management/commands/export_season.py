"""Write a season as a kingclub/v1 document, turno by turno (memory stays flat)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Season
from scoring.services.interchange import season_export_stream
from scoring.services.jsonstream import write_json


def indent_option(parser) -> None:
    parser.add_argument(
        "--indent",
        type=int,
        default=None,
        metavar="N",
        help="indent the JSON by N spaces (default: compact, one line)",
    )


class Command(BaseCommand):
    help = "Export a season (its closed turni) as a kingclub/v1 JSON document."

    def add_arguments(self, parser) -> None:
        parser.add_argument("season", help="the season's name, e.g. 2026-27")
        parser.add_argument("file", nargs="?", help="output file (default: stdout)")
        indent_option(parser)

    def handle(self, *args, **options) -> None:
        season = Season.objects.filter(name=options["season"]).first()
        if season is None:
            names = ", ".join(Season.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"unknown season {options['season']!r} (seasons: {names})")
        indent = options["indent"]
        if indent is not None and not 0 <= indent <= 8:
            raise CommandError("--indent: from 0 to 8 spaces")
        doc = season_export_stream(season=season)
        if options["file"]:
            try:
                with Path(options["file"]).open("w", encoding="utf-8") as fh:
                    write_json(fh.write, doc, indent=indent)
                    fh.write("\n")
            except OSError as exc:
                raise CommandError(f"cannot write {options['file']}: {exc.strerror}") from None
            self.stderr.write(f"wrote {options['file']}: {doc['turni'].count} turni")
        else:
            write_json(lambda text: self.stdout.write(text, ending=""), doc, indent=indent)
            self.stdout.write("")
