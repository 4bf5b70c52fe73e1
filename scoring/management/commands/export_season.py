"""Write a season as a kingclub/v1 document."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Season
from scoring.services.interchange import season_export


class Command(BaseCommand):
    help = "Export a season (its closed turni) as a kingclub/v1 JSON document."

    def add_arguments(self, parser) -> None:
        parser.add_argument("season", help="the season's name, e.g. 2026-27")
        parser.add_argument("file", nargs="?", help="output file (default: stdout)")

    def handle(self, *args, **options) -> None:
        season = Season.objects.filter(name=options["season"]).first()
        if season is None:
            names = ", ".join(Season.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"unknown season {options['season']!r} (seasons: {names})")
        text = json.dumps(season_export(season=season), ensure_ascii=False, indent=2)
        if options["file"]:
            Path(options["file"]).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"wrote {options['file']}")
        else:
            self.stdout.write(text)
