"""The official documents of a game kept by the generic ledger (every game but C.A.F.): the
Verbale di Turno (the Skat Spielliste, the Ramino sheet, a King family turno) and the season's
standing, in PDF and XLSX, from one row source each (:func:`verbale_rows`, :func:`standing_rows`).

The game system names every column and describes every smazzata; nothing here computes a point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from scoring import formatting
from scoring.exports import now
from scoring.exports.pdf import render_pdf
from scoring.exports.xlsx import Sheet, _book, col_letter
from scoring.models import Season, Standing, Turno
from scoring.services.confirmations import confirmation_lines
from scoring.services.games import game_record


@dataclass
class GameVerbale:
    """Everything the Verbale of a generic turno shows, in order."""

    club: str
    season: str
    game: str
    title: str
    date: Any
    number: int
    table: str
    first_dealer: str
    verbale_number: int | None
    closed: bool
    players: list[str]
    rows: list[dict[str, Any]]  # number, dealer, line, points (per player, None if not in play)
    totals: list[int]
    columns: list[tuple[str, str]]  # the system's per-player figures of a closed turno
    results: list[dict[str, Any]]  # place, player, total, values (in ``columns`` order)
    reopens: list[str] = field(default_factory=list)
    confirmations: list[str] = field(default_factory=list)  # who confirmed or contested
    penalties: list[str] = field(default_factory=list)
    balance: int | None = None  # the zero-sum check, where the game has one


def verbale_rows(turno: Turno) -> GameVerbale:
    """The one row source of a generic turno's Verbale (web, PDF and XLSX read it)."""
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    running = system.score_running(rules, record)
    players = record["players"]
    seats = sorted(turno.seats.all(), key=lambda s: (s.place or 99, s.position))
    columns = system.turno_columns()
    return GameVerbale(
        club=settings.CLUB_NAME,
        season=season.name,
        game=system.label,
        title=_("Verbale di Turno"),
        date=turno.giornata.date,
        number=turno.number,
        table=turno.table,
        first_dealer=turno.first_dealer.name,
        verbale_number=turno.verbale_number,
        closed=not turno.is_open,
        players=players,
        rows=[
            {
                "number": s["number"],
                "dealer": s["dealer"],
                "line": system.describe(s),
                "points": [s["points"].get(p) for p in players],
            }
            for s in running["smazzate"]
        ],
        totals=[running["totals"].get(p, 0) for p in players],
        balance=running.get("balance"),
        columns=columns,
        results=[
            {
                "place": seat.place,
                "player": seat.player.name,
                "total": seat.total,
                "values": [seat.extra.get(key, "") for key, _label in columns],
            }
            for seat in seats
            if not turno.is_open
        ],
        reopens=[
            _("riaperto il %(date)s da %(user)s: %(reason)s")
            % {
                "date": formatting.moment(e.at),
                "user": e.user.get_username() if e.user else "—",
                "reason": e.reason,
            }
            for e in turno.events.filter(kind="reopen").select_related("user")
        ],
        confirmations=confirmation_lines(turno.pk),
        penalties=[
            f"{p['player']} {p['points']:+d} (art. {p['article']}"
            + (f": {p['reason']})" if p.get("reason") else ")")
            for p in record.get("penalties", [])
        ],
    )


def basename(v: GameVerbale) -> str:
    """The file name of a generic Verbale (as the C.A.F. one: season, date, turno)."""
    from django.utils.text import slugify

    return slugify(f"verbale {v.season} {v.date.isoformat()} turno {v.number}")


def verbale_pdf(v: GameVerbale) -> bytes:
    return render_pdf(
        "scoring/documents/game_verbale.html",
        {
            "v": v,
            "date_long": formatting.date_long(v.date),
            "generated": formatting.moment(now()),
            "draft_mark": "" if v.closed else _("BOZZA: turno in corso, totali provvisori"),
            "landscape": len(v.players) > 5,
        },
    )


def verbale_xlsx(v: GameVerbale) -> bytes:
    """Sheet "Verbale": one row per smazzata, the totals as =SUM formulas carrying their values,
    then the results; every text written as text (never a formula)."""
    wb, out = _book(f"{v.title} · {v.season}", v.club)
    s = Sheet(wb, wb.add_worksheet("Verbale"))
    s.put(1, 1, f"{v.club} · {v.game}", bold=True, font_size=13)
    number = f" n. {v.verbale_number}" if v.verbale_number else ""
    s.put(2, 1, f"{v.title}{number}", bold=True, font_size=12)
    s.put(3, 1, f"{v.season} · {formatting.date_long(v.date)} · turno {v.number}")
    if not v.closed:
        s.put(4, 1, _("BOZZA: turno in corso, totali provvisori"), bold=True, font_color="#b00020")
    head = 6
    fixed = [_("N."), _("Mazziere"), _("Mano")]
    for c, text in enumerate([*fixed, *v.players], start=1):
        s.put(head, c, text, bold=True, bottom=1, text_wrap=True)
    s.width(1, 5)
    s.width(2, 16)
    s.width(3, 48)
    first = head + 1
    for i, r in enumerate(v.rows):
        row = first + i
        s.put(row, 1, r["number"])
        s.put(row, 2, r["dealer"])
        s.put(row, 3, r["line"], text_wrap=True)
        for j, value in enumerate(r["points"]):
            s.put(row, 4 + j, value, num_format="+0;-0;0")
    last = first + len(v.rows) - 1
    total_row = last + 1
    s.put(total_row, 3, _("Totale"), bold=True, top=1)
    for j, value in enumerate(v.totals):
        col = 4 + j
        s.width(col, 12)
        if v.rows:
            letter = col_letter(col)
            s.formula(total_row, col, f"=SUM({letter}{first}:{letter}{last})", value,
                      bold=True, top=1, num_format="+0;-0;0")  # fmt: skip
        else:
            s.put(total_row, col, value, bold=True, top=1)
    row = total_row + 2
    if v.balance is not None:
        s.put(total_row + 1, 3, _("Saldo delle smazzate (somma dei punti)"))
        s.put(total_row + 1, 4, v.balance, bold=True)
        row += 1
    if v.penalties:
        s.put(row, 1, _("Penalità"), bold=True)
        for p in v.penalties:
            row += 1
            s.put(row, 2, p)
        row += 2
    if v.results:
        headers = [_("Posto"), _("Giocatore"), _("Punti"), *(label for _k, label in v.columns)]
        for c, text in enumerate(headers, start=1):
            s.put(row, c, text, bold=True, bottom=1)
        for r in v.results:
            row += 1
            for c, value in enumerate([r["place"], r["player"], r["total"], *r["values"]], 1):
                s.put(row, c, value)
        row += 2
    for line in v.reopens:
        s.put(row, 1, line)
        row += 1
    for line in v.confirmations:
        s.put(row, 1, line)
        row += 1
    s.ws.set_landscape() if len(v.players) > 4 else s.ws.set_portrait()
    s.ws.set_paper(9)
    s.ws.fit_to_pages(1, 0)
    s.ws.freeze_panes(head, 0)
    wb.close()
    return out.getvalue()


def standing_rows(season: Season) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    """The one row source of a generic season's standing: its columns and rows."""
    columns = season.system.standing_columns()
    rows = [
        {
            "place": st.place,
            "player": st.player.name,
            "values": [st.extra.get(key, "") for key, _label in columns],
        }
        for st in Standing.objects.filter(season=season)
        .select_related("player")
        .order_by("place", "id")
    ]
    return columns, rows


def standing_pdf(season: Season, last_date: Any) -> bytes:
    columns, rows = standing_rows(season)
    return render_pdf(
        "scoring/documents/game_classifica.html",
        {
            "club": settings.CLUB_NAME,
            "season": season.name,
            "game": season.system.label,
            "columns": columns,
            "rows": rows,
            "last_date": formatting.date_long(last_date) if last_date else "",
            "generated": formatting.moment(now()),
        },
    )


def standing_xlsx(season: Season, last_date: Any) -> bytes:
    columns, rows = standing_rows(season)
    wb, out = _book(f"{_('Classifica Generale')} · {season.name}", settings.CLUB_NAME)
    s = Sheet(wb, wb.add_worksheet("Classifica"))
    s.put(1, 1, f"{settings.CLUB_NAME} · {season.system.label}", bold=True, font_size=13)
    s.put(2, 1, f"{_('Classifica Generale')} {season.name}", bold=True, font_size=12)
    if last_date:
        s.put(3, 1, formatting.date_long(last_date))
    headers: Sequence[str] = [_("Pos."), _("Giocatore"), *(label for _k, label in columns)]
    for c, text in enumerate(headers, start=1):
        s.put(5, c, text, bold=True, bottom=1)
    s.width(2, 24)
    for i, r in enumerate(rows, start=6):
        for c, value in enumerate([r["place"], r["player"], *r["values"]], start=1):
            s.put(i, c, value)
    s.ws.freeze_panes(5, 0)
    wb.close()
    return out.getvalue()
