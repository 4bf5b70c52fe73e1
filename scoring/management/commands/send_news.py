"""Send the club's news by mail: retry the outbox, or (``--digest``) the weekly digest.

Cron-able: ``manage.py send_news`` every few minutes retries the mails a failure left in the
outbox; ``manage.py send_news --digest`` once a week sends the digest (a member who had one in the
last 6 days gets none, so running it twice is harmless).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring.services.news import news_digest, send_pending


class Command(BaseCommand):
    help = "Invia le notizie per email in sospeso; con --digest il riepilogo settimanale."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--digest",
            action="store_true",
            help="invia il riepilogo dei turni chiusi negli ultimi 7 giorni",
        )

    def handle(self, *args: Any, digest: bool = False, **options: Any) -> None:
        if digest:
            rows = news_digest()
            sent = sum(1 for r in rows if r.sent_at is not None)
            self.stdout.write(f"riepilogo: {sent} inviati, {len(rows) - sent} in sospeso")
        sent, failed = send_pending()
        self.stdout.write(f"notizie in sospeso: {sent} inviate, {failed} non inviate")
