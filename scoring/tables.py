"""The tables of the members' pages: the Classifica Generale and the list of turni.

The Classifica renders its read model (:class:`scoring.verbale.ClassificaSheet`, every game's
columns as key, label and kind) and sorts in Python; the turni table is a django-tables2 table
over a queryset, sorted and paginated in the database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import formatting
from scoring.formatting import MINUS
from scoring.models import Turno
from scoring.rules.systems import Column
from scoring.templatetags.kingclub_tags import (
    format_number,
    movement,
    series_badge,
    sign_class,
    title_badges,
)
from scoring.verbale import ClassificaSheet

TEMPLATE = "scoring/public/table.html"
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
NARROW = {"th": {"class": "hide-narrow"}, "td": {"class": "hide-narrow"}}


def _data_col(name: str, attrs: dict[str, Any]) -> dict[str, Any]:
    """Column attrs plus ``data-col`` on every cell, so pages and tests can find a value."""
    return {
        "th": {**attrs.get("th", {}), "data-col": name, "scope": "col"},
        "td": {**attrs.get("td", {}), "data-col": name},
    }


def _players_cell(turno: Turno) -> SafeString:
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    return format_html_join(
        ", ",
        '<bdi><a href="{}"{}>{}</a></bdi>',
        (
            (
                reverse("scoring:player", args=[s.player_id]),
                mark_safe(' class="winner"') if s.player_id == turno.winner_id else "",
                s.player.name,
            )
            for s in seats
        ),
    )


class TurniTable(tables.Table):
    """The turni of a season, newest first; each opens its Verbale."""

    region_label = _("Turni")

    date = tables.Column(
        verbose_name=_("Data"),
        accessor="giornata__date",
        order_by=("giornata__date", "number"),
        attrs=_data_col("date", {}),
    )
    number = tables.Column(verbose_name=_("N."), attrs=_data_col("number", NUM))
    tavolo = tables.Column(
        verbose_name=_("Tavolo"),
        accessor="table",
        attrs=_data_col("table", NARROW),
        empty_values=(),
    )
    players = tables.Column(
        verbose_name=_("Giocatori"),
        accessor="pk",
        orderable=False,
        attrs=_data_col("players", NARROW),
    )
    winner = tables.Column(
        verbose_name=_("Vincitore"),
        accessor="winner__name",
        attrs=_data_col("winner", {}),
        empty_values=(),
    )
    status = tables.Column(verbose_name=_("Stato"), attrs=_data_col("status", {}))
    verbale = tables.Column(
        verbose_name=_("Verbale"),
        accessor="pk",
        orderable=False,
        attrs=_data_col("verbale", {}),
    )

    class Meta:
        template_name = TEMPLATE
        orderable = True
        attrs = {"class": "turni"}
        row_attrs = {"data-turno": lambda record: record.pk}
        empty_text = _("Nessun turno.")

    # the CSV export (``as_values``): plain data
    def value_date(self, record: Turno) -> str:
        return record.giornata.date.isoformat()

    def value_tavolo(self, value: str) -> str:
        return value

    def value_players(self, record: Turno) -> str:
        return ", ".join(
            s.player.name for s in sorted(record.seats.all(), key=lambda s: s.position)
        )

    def value_winner(self, record: Turno) -> str:
        return record.winner.name if record.winner_id else ""

    def value_status(self, record: Turno) -> str:
        return str(record.get_status_display())

    def value_verbale(self, record: Turno) -> Any:
        return record.verbale_number or ""

    def render_date(self, record: Turno) -> SafeString:
        url = reverse("scoring:turno", args=[record.pk])
        return format_html('<a href="{}">{}</a>', url, formatting.date_short(record.giornata.date))

    def render_tavolo(self, value: str) -> str:
        return value or "—"

    def render_players(self, record: Turno) -> SafeString:
        return _players_cell(record)

    def render_winner(self, record: Turno) -> SafeString | str:
        if record.winner_id is None:
            return "—"
        url = reverse("scoring:player", args=[record.winner_id])
        return format_html('<bdi><a href="{}">{}</a></bdi>', url, record.winner.name)

    def render_status(self, record: Turno) -> SafeString:
        kind = "open" if record.is_open else "closed"
        return format_html(
            '<span class="badge badge-{}">{}</span>', kind, record.get_status_display()
        )

    def render_verbale(self, record: Turno) -> SafeString:
        url = reverse("scoring:turno", args=[record.pk])
        label = _("n. %(n)s") % {"n": record.verbale_number} if record.verbale_number else _("apri")
        return format_html('<a href="{}">{}</a>', url, label)


# -- the Classifica Generale as plain HTML ---------------------------------------------------------
# The members' page of every game renders the read model's columns (:class:`ClassificaSheet`:
# key, label, kind) with sorting links, arrows and row marks, as a plain loop: 300 members x 16
# columns cost ~0.3 s through django-tables2's per-cell machinery, a few ms here.
@dataclass(frozen=True)
class _Col:
    name: str  # the ``?sort=`` key: the column's key
    data_col: str
    css: str
    header: str  # safe HTML, in the active language
    order: tuple[tuple[Callable[[dict[str, Any]], Any], bool], ...]  # (accessor, descending)
    cell: Callable[[dict[str, Any]], str]  # safe HTML


def _two_places(sep: str) -> Callable[[Any], str]:
    """:func:`format_number` of a Decimal stored with two places (scores, averages), without
    Django's per-call locale lookups: the same text (``1,29``, ``−0,43``)."""

    def fmt(value: Any) -> str:
        if not isinstance(value, Decimal) or value.as_tuple().exponent != -2:
            return format_number(value)
        text = f"{abs(value):f}".replace(".", sep)
        return MINUS + text if value < 0 else text

    return fmt


DASH_HTML = '<span class="muted">—</span>'


def _count_html(value: int) -> str:
    return f"{value}" if value else '<span class="zero">0</span>'


def _number_key(value: Any) -> Any:
    """A figure as it sorts: by its number (a fee stored as ``"1.00"`` too), else as text."""
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return str(value)


def _header(column: Column) -> str:
    label = escape(gettext(column.label))
    return f'<abbr title="{label}">{escape(column.short)}</abbr>' if column.short else label


def _kind(column: Column) -> tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], str]]:
    """A column's alignment, sort key and cell (safe HTML) by its kind."""
    number = _two_places(get_format("DECIMAL_SEPARATOR"))
    key = column.key
    badges: dict[tuple[str, str], str] = {}
    moves: dict[int | None, str] = {}

    def badge(r: dict[str, Any]) -> str:
        shown = (r["series"], r["series_label"])
        if shown not in badges:
            badges[shown] = str(series_badge(*shown))
        return badges[shown]

    def move(r: dict[str, Any]) -> str:
        if r["movement"] not in moves:  # unknown (the first giornata): a dash
            shown = movement(r["movement"]) if r["movement"] is not None else DASH_HTML
            moves[r["movement"]] = str(shown)
        return moves[r["movement"]]

    def score(r: dict[str, Any]) -> str:
        return f'<strong class="{sign_class(r[key])}">{number(r[key])}</strong>'

    kinds: dict[str, tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], str]]] = {
        "series": ("", lambda r: r["series_rank"], badge),
        "score": ("num", lambda r: r[key], score),
        "movement": ("num", lambda r: r[key] if r[key] is not None else 0, move),
        "count": ("num", lambda r: r.get(key, 0), lambda r: _count_html(r.get(key, 0))),
        "average": (
            "num",
            lambda r: r[key],
            lambda r: number(r[key]) if r[key] is not None else "—",
        ),
    }
    figure = (
        "num",
        lambda r: _number_key(r.get(key, "")),
        lambda r: escape(formatting.figure(r.get(key, ""))),
    )
    return kinds.get(column.kind, figure)


def _classifica_columns(columns: tuple[Column, ...], link_query: str, me: int | None) -> list:
    # one reverse() for every row's link
    player_url = reverse("scoring:player", args=[987654321]).replace("987654321", "{}")
    player_url = escape(player_url + link_query)

    def player_cell(r: dict[str, Any]) -> str:
        name = escape(r["player"])
        if r["player_id"] is None:
            return name
        url = player_url.format(r["player_id"])
        if r["player_id"] == me:
            return (
                f'<bdi><a href="{url}">{name}</a></bdi> '
                f'<span class="badge badge-me">{escape(gettext("tu"))}</span>'
            )
        return f'<bdi><a href="{url}">{name}</a></bdi>'

    out = [
        _Col(
            "place",
            "place",
            "num",
            escape(gettext("Pos.")),
            # shared places in the stored order (C.A.F.: more Scudetti first)
            ((lambda r: r["place"], False), (lambda r: r.get("scudetti", 0), True)),
            lambda r: f"{r['place']}",
        ),
        _Col(
            "player",
            "player",
            "",
            escape(gettext("Giocatore")),
            ((lambda r: r["player"], False),),
            player_cell,
        ),
    ]
    for column in columns:
        align, sort_key, cell = _kind(column)
        css = f"{align} hide-narrow".strip() if column.narrow else align
        # a title's cells are ``title-CODE`` (the Albo d'oro's, the tests' name)
        data_col = column.key.replace("title_", "title-", 1)
        out.append(_Col(column.key, data_col, css, _header(column), ((sort_key, False),), cell))
    return out


@dataclass(frozen=True)
class SheetCells:
    """Some columns of a :class:`ClassificaSheet` as safe HTML: the headers, and each player's
    cells (by player id), in the Classifica's formatting."""

    headers: list[tuple[str, str, str]]  # (data-col, css, header)
    rows: dict[int | None, list[tuple[str, str, str]]]  # player id -> [(data-col, css, cell)]


def season_figure(column: Column) -> bool:
    """A Classifica column that is one of a member's season figures (the players' list, the
    member's page): not the movement since the last giornata nor an abbreviated title."""
    return column.kind != "movement" and not column.short


def sheet_cells(sheet: ClassificaSheet, keep: Callable[[Column], bool]) -> SheetCells:
    """The place and the columns ``keep`` chooses of every row, as the Classifica writes them
    (the players' list shows a season's figures beside each member)."""
    columns = [c for c in _classifica_columns(sheet.columns, "", None) if c.name != "player"]
    chosen = {c.key for c in sheet.columns if keep(c)} | {"place"}
    columns = [c for c in columns if c.name in chosen]
    return SheetCells(
        [(c.data_col, c.css, c.header) for c in columns],
        {r["player_id"]: [(c.data_col, c.css, c.cell(r)) for c in columns] for r in sheet.rows},
    )


def classifica_sort(raw: str | None, columns: Iterable[Column]) -> str:
    """``?sort=`` as the page understands it: one of the ``columns`` (or place, player), ``-``
    for descending; else ``""``."""
    raw = (raw or "").strip()
    names = {"place", "player", *(c.key for c in columns)}
    return raw if raw.lstrip("-") in names and raw.count("-") <= 1 else ""


def _none_first(value: Any) -> tuple[int, Any]:
    return (0, 0) if value is None else (1, value)


def classifica_html(
    sheet: ClassificaSheet,
    *,
    sort: str = "",
    stagione: int | None = None,
    me: int | None = None,
) -> str:
    """The Classifica Generale's table (safe HTML) in the columns of the season's game: sortable
    by every column (``sort`` as from :func:`classifica_sort`), the member's own row marked and
    announced."""
    link_query = f"?stagione={stagione}" if stagione is not None else ""
    columns = _classifica_columns(sheet.columns, link_query, me)
    ordered, descending = sort.lstrip("-"), sort.startswith("-")
    rows = list(sheet.rows)
    for col in columns:
        if col.name == ordered:
            for accessor, desc in reversed(col.order):  # stable: the last key first
                rows.sort(key=lambda r: _none_first(accessor(r)), reverse=desc != descending)
    keep = f"stagione={stagione}&amp;" if stagione is not None else ""
    sort_title = escape(gettext("Ordina"))
    out = [
        '<div class="table-wrap" tabindex="0" role="region" aria-label="',
        escape(gettext("Classifica Generale")),
        f'">\n<table class="classifica" data-system="{escape(sheet.system)}">\n<thead>\n<tr>\n',
    ]
    for col in columns:
        css, aria, nxt = f"{col.css} orderable".lstrip(), "", col.name
        if col.name == ordered:
            css += " desc" if descending else " asc"
            aria = f' aria-sort="{"descending" if descending else "ascending"}"'
            nxt = col.name if descending else f"-{col.name}"
        out.append(
            f'<th class="{css}" data-col="{col.data_col}" scope="col"{aria}>'
            f'<a href="?{keep}sort={nxt}" title="{sort_title}">{col.header}</a></th>\n'
        )
    out.append("</tr>\n</thead>\n<tbody>\n")
    for i, r in enumerate(rows):
        parity = "even" if i % 2 == 0 else "odd"
        mine = r["player_id"] is not None and r["player_id"] == me
        attrs = f' class="me {parity}" aria-current="true"' if mine else f' class="{parity}"'
        out.append(f'<tr data-player="{escape(r["player"])}"{attrs}>')
        for col in columns:
            css = f' class="{col.css}"' if col.css else ""
            out.append(f'<td{css} data-col="{col.data_col}">{col.cell(r)}</td>')
        out.append("</tr>\n")
    if not rows:
        out.append(
            f'<tr><td colspan="{len(columns)}" class="muted">'
            f"{escape(gettext('Nessun giocatore in classifica.'))}</td></tr>\n"
        )
    out.append("</tbody>\n</table>\n</div>\n")
    return "".join(out)


def classifica_values(sheet: ClassificaSheet) -> list[list[Any]]:
    """The Classifica as plain data (the CSV): the header (an abbreviation where the page has
    one), then a row per player, numbers as numbers, a series by its name."""
    plain: dict[str, Callable[[dict[str, Any], str], Any]] = {
        "series": lambda r, _key: r["series_label"],
        "movement": lambda r, key: "" if r[key] is None else r[key],
        "average": lambda r, key: "" if r[key] is None else r[key],
        "count": lambda r, key: r.get(key, 0),
    }
    header = [gettext("Pos."), gettext("Giocatore")]
    header += [c.short or gettext(c.label) for c in sheet.columns]
    values = [(c.key, plain.get(c.kind, lambda r, key: r.get(key, ""))) for c in sheet.columns]
    return [
        header,
        *([r["place"], r["player"], *(value(r, key) for key, value in values)] for r in sheet.rows),
    ]


def player_timeline_html(
    timeline: list[Any], columns: Iterable[tuple[str, str]] | None = None
) -> SafeString:
    """The rows of a member's giornate on their page (``selectors_games.Giorno``: the seat
    played, or the absence), newest first: a plain loop like :func:`classifica_html`, not a
    template loop (20 rows of 7 cells and their filters were most of the page's rendering).
    After the date, the place and the total: the ``columns`` of a turno (key, label) from the
    seat's stored figures, as its Verbale writes them; None, the counts ledger's ratio, titles,
    league points and series."""
    if columns is not None:
        return _timeline_figures(timeline, [key for key, _label in columns])
    out = []
    open_badge = f' <span class="badge badge-open">{escape(gettext("in corso"))}</span>'
    absent_text = escape(gettext("assente: il punteggio più basso della giornata"))
    for g in timeline:
        day, shown = g.date.isoformat(), g.date.strftime("%d/%m/%Y")
        s = g.seat
        if s is None:
            lp = g.absence
            out.append(
                f'<tr class="absent" data-date="{day}">\n<td>{shown}</td>\n'
                f'<td colspan="3" class="muted">{absent_text}</td>\n<td class="hide-narrow"></td>\n'
                f'<td class="num {sign_class(lp)}" data-col="league_points" data-value="{lp}">'
                f"{format_number(lp, 2, plus=True)}</td>\n<td></td>\n</tr>\n"
            )
            continue
        number = (
            f' <span class="muted small">#{s.turno.number}</span>' if s.turno.number > 1 else ""
        )
        lp = s.league_points
        series = ""
        if s.series_before:
            series = series_badge(s.series_before)
            if s.series_after != s.series_before:
                series += f" → {series_badge(s.series_after)}"
        out.append(
            f'<tr data-turno="{s.turno_id}" data-date="{day}">\n'
            f'<td><a href="{reverse("scoring:turno", args=[s.turno_id])}">{shown}</a>{number}'
            f"{open_badge if s.turno.is_open else ''}</td>\n"
            f'<td class="num" data-col="place">{f"{s.place}°" if s.place else "—"}</td>\n'
            f'<td class="num {sign_class(s.total)}" data-col="total">'
            f"{format_number(s.total, plus=True)}</td>\n"
            f'<td class="num" data-col="ratio">{format_number(s.ratio, 2) or "—"}</td>\n'
            f'<td class="hide-narrow">{title_badges(s.titles)}</td>\n'
            f'<td class="num {sign_class(lp)}" data-col="league_points" '
            f'data-value="{"" if lp is None else lp}">'
            f"<strong>{format_number(lp, 2, plus=True) or '—'}</strong></td>\n"
            f"<td>{series}</td>\n</tr>\n"
        )
    if not timeline:
        out.append(
            f'<tr><td colspan="7" class="muted">{escape(gettext("Nessun turno."))}</td></tr>'
        )
    return mark_safe("".join(out))  # every text escaped above or by the badges' format_html


def _turno_cell(s: Any, shown: str) -> str:
    """A timeline row's first cell: the turno's date linked to its Verbale, its number when
    not the first of the giornata, and "in corso"."""
    number = f' <span class="muted small">#{s.turno.number}</span>' if s.turno.number > 1 else ""
    open_badge = (
        f' <span class="badge badge-open">{escape(gettext("in corso"))}</span>'
        if s.turno.is_open
        else ""
    )
    return (
        f'<td><a href="{reverse("scoring:turno", args=[s.turno_id])}">{shown}</a>{number}'
        f"{open_badge}</td>\n"
    )


def _timeline_figures(timeline: list[Any], keys: list[str]) -> SafeString:
    """:func:`player_timeline_html` with a turno's own figures (``Seat.extra``) after its
    place and total."""
    out = []
    for g in timeline:
        day, shown = g.date.isoformat(), g.date.strftime("%d/%m/%Y")
        s = g.seat
        if s is None:
            continue  # an absence: a ledger that keeps them has its own columns
        figures = "".join(
            f'<td class="num" data-col="{escape(key)}">'
            f"{escape(formatting.figure(s.extra[key])) if key in s.extra else '—'}</td>\n"
            for key in keys
        )
        out.append(
            f'<tr data-turno="{s.turno_id}" data-date="{day}">\n{_turno_cell(s, shown)}'
            f'<td class="num" data-col="place">{f"{s.place}°" if s.place else "—"}</td>\n'
            f'<td class="num" data-col="total">{escape(formatting.figure(s.total))}</td>\n'
            f"{figures}</tr>\n"
        )
    if not out:
        out.append(
            f'<tr><td colspan="{3 + len(keys)}" class="muted">'
            f"{escape(gettext('Nessun turno.'))}</td></tr>"
        )
    return mark_safe("".join(out))  # every text escaped above
