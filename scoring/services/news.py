"""The club's news by mail: a mail to each member who opted in when a turno closes or is reopened
(the table's places, the movement in the Classifica, the Verbale PDF attached), and a weekly
digest (``manage.py send_news --digest``).

Nothing here can break a close: the close and reopen services only call :func:`news_turno`,
which registers :func:`news_turno_send` with ``transaction.on_commit``; that one writes one
:class:`NewsMail` row a recipient (the outbox) and sends them, logging every failure. A mail not
sent stays in the outbox and ``manage.py send_news`` (cron-able) tries it again, up to
:data:`MAX_ATTEMPTS` times.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify

from scoring import formatting
from scoring.models import (
    NewsMail,
    NewsPreference,
    Seat,
    Standing,
    StoredDocument,
    Turno,
    TurnoEvent,
)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
DIGEST_DAYS = 7
PDF = "application/pdf"


def _site() -> str:
    return getattr(settings, "KINGCLUB_SITE_URL", "").rstrip("/")


def recipients(*, digest: bool = False) -> list[tuple[Any, str]]:
    """(user, address) of every active member who opted in (to each turno, or to the digest);
    the address is the one on the profile, else the login's."""
    flag = Q(weekly_digest=True) if digest else Q(each_turno=True)
    out = []
    for pref in NewsPreference.objects.filter(flag, user__is_active=True).select_related("user"):
        address = pref.email or pref.user.email
        if address:
            out.append((pref.user, address))
    return out


def language_of(user: Any) -> str:
    """The language of a member's mails: the one chosen on the profile, else the club's."""
    pref = getattr(user, "news_preference", None)
    return (pref.language if pref is not None else "") or settings.LANGUAGE_CODE


def _outbox(
    people: list[tuple[Any, str]], render: Callable[[], tuple[str, str]], **fields: Any
) -> list[NewsMail]:
    """One outbox row a recipient, its (subject, body) rendered once a language, in the
    recipient's (:func:`language_of`)."""
    said = {}
    for language in sorted({language_of(u) for u, _a in people}):
        with translation.override(language):
            said[language] = render()
    return NewsMail.objects.bulk_create(
        NewsMail(
            user=u,
            to=a,
            subject=said[language_of(u)][0][:200],
            body=said[language_of(u)][1],
            **fields,
        )
        for u, a in people
    )


_muted: ContextVar[bool] = ContextVar("news_muted", default=False)


@contextmanager
def news_muted() -> Iterator[None]:
    """No news for the turni closed inside (an import, the demo): a season loaded from a file
    is not news, and would mail every member once a turno. Also a decorator."""
    token = _muted.set(True)
    try:
        yield
    finally:
        _muted.reset(token)


# -- the mail of one turno ------------------------------------------------------------------------
def news_turno(*, turno: Turno, kind: str) -> None:
    """Called inside the close/reopen transaction: the mails go after it commits, never in it."""
    if _muted.get():
        return
    pk = turno.pk
    transaction.on_commit(lambda: news_turno_send(turno_id=pk, kind=kind))


def _turno_context(turno: Turno, kind: str) -> dict[str, Any]:
    seats = list(
        Seat.objects.filter(turno=turno).select_related("player").order_by("place", "position")
    )
    standings = {
        st.player_id: st
        for st in Standing.objects.filter(
            season=turno.season, player_id__in=[s.player_id for s in seats]
        )
    }
    table = []
    for s in seats:
        st = standings.get(s.player_id)
        moved = None
        if st is not None and st.previous_place is not None:
            moved = st.previous_place - st.place  # > 0: places gained
        table.append(
            {
                "place": s.place,
                "player": s.player.name,
                "total": formatting.points(s.total),
                "league_points": (
                    None if s.league_points is None else formatting.league(s.league_points)
                ),
                "series_before": s.series_before,
                "series_after": s.series_after,
                "classifica_place": st.place if st is not None else None,
                "moved": moved,
                "moved_by": abs(moved) if moved else 0,
            }
        )
    reason = ""
    if kind == NewsMail.REOPEN:
        last = turno.events.filter(kind=TurnoEvent.REOPEN).order_by("-at", "-id").first()
        reason = last.reason if last is not None else ""
    return {
        "turno": turno,
        "kind": kind,
        "club": settings.CLUB_NAME,
        "table": table,
        "reason": reason,
        "url": _site() + reverse("scoring:turno", args=[turno.pk]),
        "classifica_url": _site() + reverse("scoring:classifica"),
        "profile_url": _site() + reverse("scoring:profile"),
    }


def verbale_pdf_bytes(turno: Turno) -> tuple[str, bytes]:
    """The Verbale PDF as the site serves it (file name, bytes), from the one Verbale source of
    every game (:func:`scoring.services.documents.verbale_source`)."""
    from scoring.services.documents import verbale_source

    source = verbale_source(turno.pk)
    return f"{source.basename}.pdf", source.renderers[StoredDocument.PDF]()


def news_turno_send(*, turno_id: int, kind: str) -> list[NewsMail]:
    """Write the outbox rows of one turno's news and send them. Never raises: logged."""
    try:
        turno = Turno.objects.select_related("season", "giornata").filter(pk=turno_id).first()
        people = recipients()
        if turno is None or not people:
            return []

        def render() -> tuple[str, str]:
            ctx = _turno_context(turno, kind)
            subject = render_to_string("scoring/mail/turno_subject.txt", ctx).strip()
            return subject, render_to_string("scoring/mail/turno.txt", ctx)

        rows = _outbox(people, render, kind=kind, turno=turno)
    except Exception:
        log.exception("news: the mails of turno %s (%s) could not be prepared", turno_id, kind)
        return []
    send_pending(rows)
    return rows


# -- the weekly digest ---------------------------------------------------------------------------
def news_digest(*, now: dt.datetime | None = None) -> list[NewsMail]:
    """One mail to each member who chose the digest: the turni closed in the last 7 days.
    A member who had a digest in the last 6 days gets none (the command is safe to run twice)."""
    now = now or timezone.now()
    since = now - dt.timedelta(days=DIGEST_DAYS)
    turni = list(
        Turno.objects.filter(status=Turno.CHIUSO, closed_at__gte=since, closed_at__lte=now)
        .select_related("season", "giornata", "winner")
        .order_by("giornata__date", "number")
    )
    if not turni:
        return []
    seats: dict[int, list[Seat]] = {}
    for s in (
        Seat.objects.filter(turno__in=turni).select_related("player").order_by("place", "position")
    ):
        seats.setdefault(s.turno_id, []).append(s)
    recent = set(
        NewsMail.objects.filter(
            kind=NewsMail.DIGEST, created_at__gte=now - dt.timedelta(days=DIGEST_DAYS - 1)
        ).values_list("to", flat=True)
    )
    people = [(u, a) for u, a in recipients(digest=True) if a not in recent]
    if not people:
        return []
    rows = _outbox(people, lambda: _digest(turni, seats, since, now), kind=NewsMail.DIGEST)
    send_pending(rows)
    return rows


def _digest(
    turni: list[Turno], seats: dict[int, list[Seat]], since: dt.datetime, now: dt.datetime
) -> tuple[str, str]:
    """The digest's subject and body in the active language."""
    ctx = {
        "club": settings.CLUB_NAME,
        "since": timezone.localtime(since).date(),
        "until": timezone.localtime(now).date(),
        "turni": [
            {
                "turno": t,
                "seats": seats.get(t.pk, []),
                "url": _site() + reverse("scoring:turno", args=[t.pk]),
            }
            for t in turni
        ],
        "profile_url": _site() + reverse("scoring:profile"),
    }
    subject = render_to_string("scoring/mail/digest_subject.txt", ctx).strip()
    body = render_to_string("scoring/mail/digest.txt", ctx)
    return subject, body


# -- sending and retrying ------------------------------------------------------------------------
def pending() -> list[NewsMail]:
    """Mails not sent yet that may be tried again."""
    return list(
        NewsMail.objects.filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS).select_related(
            "turno__season", "turno__giornata", "user__news_preference"
        )
    )


def send_pending(rows: Iterable[NewsMail] | None = None) -> tuple[int, int]:
    """Send ``rows`` (default: every pending mail); returns (sent, failed). Never raises."""
    rows = pending() if rows is None else list(rows)
    sent = failed = 0
    pdfs: dict[tuple[int, str], tuple[str, bytes]] = {}
    try:
        connection = get_connection(fail_silently=False)
    except Exception as exc:
        log.exception("news: no mail connection")
        for row in rows:
            _failed(row, exc)
        return 0, len(rows)
    for row in rows:
        try:
            message = EmailMessage(row.subject, row.body, to=[row.to], connection=connection)
            if row.turno_id is not None and row.kind != NewsMail.DIGEST:
                language = language_of(row.user)  # the Verbale in the mail's language
                if (row.turno_id, language) not in pdfs:
                    with translation.override(language):
                        pdfs[row.turno_id, language] = verbale_pdf_bytes(row.turno)
                name, content = pdfs[row.turno_id, language]
                message.attach(name or slugify(row.subject) + ".pdf", content, PDF)
            message.send()
        except Exception as exc:
            log.exception("news: mail %s to %s not sent", row.pk, row.to)
            _failed(row, exc)
            failed += 1
        else:
            row.attempts += 1
            row.sent_at = timezone.now()
            row.error = ""
            row.save(update_fields=["attempts", "sent_at", "error"])
            sent += 1
    return sent, failed


def _failed(row: NewsMail, exc: BaseException) -> None:
    try:
        row.attempts += 1
        row.error = f"{type(exc).__name__}: {exc}"[:2000]
        row.save(update_fields=["attempts", "error"])
    except Exception:
        log.exception("news: could not record the failure of mail %s", row.pk)
