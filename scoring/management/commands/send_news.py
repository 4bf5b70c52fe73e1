"""Send the club's news by mail: retry the outbox, or (``--digest``) the weekly digest.

Cron-able: ``manage.py send_news`` every few minutes retries the mails a failure left in the
outbox; ``manage.py send_news --digest`` once a week sends the digest (a member who had one in the
last 6 days gets none, so running it twice is harmless). Its messages are in the reader's
language (:mod:`._language`); each mail is in its member's (:mod:`scoring.services.news`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._language import ReaderCommand
from scoring.services.news import news_digest, send_pending


class Command(ReaderCommand):
    help = gettext_noop(
        "Invia le notizie per email in sospeso; con --digest il riepilogo settimanale."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--digest",
            action="store_true",
            help=gettext("invia il riepilogo dei turni chiusi negli ultimi 7 giorni"),
        )

    def handle(self, *args: Any, digest: bool = False, **options: Any) -> None:
        if digest:
            rows = news_digest()
            sent = sum(1 for r in rows if r.sent_at is not None)
            summary = gettext("riepilogo: %(sent)s, %(pending)s in sospeso")
            self.stdout.write(
                summary
                % {
                    "sent": ngettext("%(n)s inviato", "%(n)s inviati", sent) % {"n": sent},
                    "pending": len(rows) - sent,
                }
            )
        sent, failed = send_pending()
        news = gettext("notizie in sospeso: %(sent)s, %(failed)s")
        self.stdout.write(
            news
            % {
                "sent": ngettext("%(n)s inviata", "%(n)s inviate", sent) % {"n": sent},
                "failed": ngettext("%(n)s non inviata", "%(n)s non inviate", failed)
                % {"n": failed},
            }
        )
