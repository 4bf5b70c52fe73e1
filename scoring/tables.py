"""django-tables2 tables of the members' pages: the Classifica Generale and the list of turni.

The Classifica reads :class:`scoring.verbale.ClassificaRow` values (the stored standings), so it
sorts in Python; the turni table reads a queryset and sorts and paginates in the database.
"""

from __future__ import annotations

from collections.abc import Callable
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
from scoring.rules.caf.ruleset import TITLE_ORDER
from scoring.templatetags.kingclub_tags import (
    format_number,
    movement,
    series_badge,
    sign_class,
    title_badges,
    title_short,
)
from scoring.verbale import TITLE_LABELS, ClassificaRow

TEMPLATE = "scoring/public/table.html"
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
NARROW = {"th": {"class": "hide-narrow"}, "td": {"class": "hide-narrow"}}
NUM_NARROW = {"th": {"class": "num hide-narrow"}, "td": {"class": "num hide-narrow"}}


def _data_col(name: str, attrs: dict[str, Any]) -> dict[str, Any]:
    """Column attrs plus ``data-col`` on every cell, so pages and tests can find a value."""
    return {
        "th": {**attrs.get("th", {}), "data-col": name, "scope": "col"},
        "td": {**attrs.get("td", {}), "data-col": name},
    }


def _count(value: int) -> SafeString:
    if not value:
        return format_html('<span class="zero">{}</span>', 0)
    return format_html("{}", value)


class TitleColumn(tables.Column):
    """How many times each player won one title (SPEC §8.3)."""

    def __init__(self, code: str, **kwargs: Any) -> None:
        label = TITLE_LABELS.get(code, code)
        if code == "SCUDETTO":
            header: Any = _("Scudetti")
        else:
            header = format_html('<abbr title="{}">{}</abbr>', label, title_short(code))
        attrs = NUM if code == "SCUDETTO" else NUM_NARROW
        super().__init__(
            verbose_name=header,
            accessor=f"titles__{code}",
            attrs=_data_col(f"title-{code}", attrs),
            **kwargs,
        )

    def render(self, value: int) -> SafeString:
        return _count(value)

    def value(self, value: int) -> int:
        return value


class ClassificaTable(tables.Table):
    """The Classifica Generale (SPEC §8.4): the stored rows, sortable by every column."""

    region_label = _("Classifica Generale")  # the scrolling box's name (keyboard users reach it)

    place = tables.Column(
        verbose_name=_("Pos."), attrs=_data_col("place", NUM), order_by=("place", "-scudetti")
    )
    player = tables.Column(verbose_name=_("Giocatore"), attrs=_data_col("player", {}))
    series = tables.Column(
        verbose_name=_("Serie"), attrs=_data_col("series", {}), order_by=("series_index",)
    )
    score = tables.Column(verbose_name=_("Punti"), attrs=_data_col("score", NUM))
    movement = tables.Column(
        verbose_name=_("Mov."),
        attrs=_data_col("movement", NUM),
        empty_values=(),
        order_by=("movement_key",),
    )
    turni = tables.Column(verbose_name=_("Turni"), attrs=_data_col("turni", NUM_NARROW))
    absences = tables.Column(verbose_name=_("Assenze"), attrs=_data_col("absences", NUM_NARROW))
    average = tables.Column(
        verbose_name=_("Media"), attrs=_data_col("average", NUM_NARROW), empty_values=()
    )

    class Meta:
        template_name = TEMPLATE
        orderable = True
        attrs = {"class": "classifica"}
        row_attrs = {
            "data-player": lambda record: record.player,
            # the logged-in member's own row (11.13): highlighted and announced
            "class": lambda record, table: "me" if record.player_id == table.me else None,
            "aria-current": lambda record, table: "true" if record.player_id == table.me else None,
        }
        empty_text = _("Nessun giocatore in classifica.")

    def __init__(
        self,
        rows: list[ClassificaRow],
        *,
        series_order: dict[str, int],
        link_query: str = "",
        me: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.link_query = link_query
        self.me = me  # the logged-in member's player id, if any
        data = [_SortableRow(r, series_order) for r in rows]
        extra = [(f"title_{code}", TitleColumn(code)) for code in TITLE_ORDER]
        super().__init__(data, extra_columns=extra, **kwargs)
        # Scudetti beside the season score; the other titles after the average
        self.sequence = [
            "place",
            "player",
            "series",
            "score",
            "movement",
            "title_SCUDETTO",
            "turni",
            "absences",
            "average",
            *(f"title_{c}" for c in TITLE_ORDER if c != "SCUDETTO"),
        ]

    def render_player(self, record: _SortableRow) -> SafeString:
        if record.player_id is None:
            return format_html("{}", record.player)
        url = reverse("scoring:player", args=[record.player_id]) + self.link_query
        if record.player_id == self.me:
            return format_html(
                '<bdi><a href="{}">{}</a></bdi> <span class="badge badge-me">{}</span>',
                url,
                record.player,
                _("tu"),
            )
        return format_html('<bdi><a href="{}">{}</a></bdi>', url, record.player)

    def render_series(self, record: _SortableRow) -> SafeString:
        return series_badge(record.series, record.series_label)

    def render_score(self, value: Any) -> SafeString:
        return format_html(
            '<strong class="{}">{}</strong>', sign_class(value), format_number(value)
        )

    def render_movement(self, record: _SortableRow) -> SafeString:
        return movement(record.movement)

    def render_average(self, value: Any) -> str:
        return format_number(value) if value is not None else "—"

    # the CSV export (``as_values``): plain data, numbers as numbers
    def value_player(self, record: _SortableRow) -> str:
        return record.player

    def value_series(self, record: _SortableRow) -> str:
        return record.series_label

    def value_score(self, value: Any) -> Any:
        return value

    def value_movement(self, record: _SortableRow) -> Any:
        return "" if record.movement is None else record.movement

    def value_average(self, value: Any) -> Any:
        return "" if value is None else value


class _SortableRow:
    """A :class:`ClassificaRow` with the keys the table sorts by (a series by its rank)."""

    def __init__(self, row: ClassificaRow, series_order: dict[str, int]) -> None:
        self._row = row
        self.series_index = series_order.get(row.series, 99)
        # unknown movement (first giornata) sorts as no movement
        self.movement_key = row.movement if row.movement is not None else 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, name)


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
# The members' page renders the same columns, sorting links, arrows and row marks as
# :class:`ClassificaTable` (which the CSV download keeps using), without django-tables2's per-cell
# machinery: 300 members x 16 columns cost ~0.3 s through the table, a few ms here.
@dataclass(frozen=True)
class _Col:
    name: str  # the ``?sort=`` key
    data_col: str
    css: str
    header: Callable[[], str]  # safe HTML, in the active language
    order: tuple[tuple[Callable[[ClassificaRow], Any], bool], ...]  # (accessor, descending)
    cell: Callable[[ClassificaRow], str]  # safe HTML


def _title_header(code: str) -> str:
    if code == "SCUDETTO":
        return escape(gettext("Scudetti"))
    label = escape(TITLE_LABELS.get(code, code))
    return f'<abbr title="{label}">{escape(title_short(code))}</abbr>'


def _two_places(sep: str) -> Callable[[Any], str]:
    """:func:`format_number` of a Decimal stored with two places (scores, averages), without
    Django's per-call locale lookups: the same text (``1,29``, ``−0,43``)."""

    def fmt(value: Any) -> str:
        if not isinstance(value, Decimal) or value.as_tuple().exponent != -2:
            return format_number(value)
        text = f"{abs(value):f}".replace(".", sep)
        return MINUS + text if value < 0 else text

    return fmt


def _count_html(value: int) -> str:
    return f"{value}" if value else '<span class="zero">0</span>'


def _classifica_columns(series_order: dict[str, int], link_query: str, me: int | None) -> list:
    number = _two_places(get_format("DECIMAL_SEPARATOR"))
    # one reverse() for every row's link
    player_url = reverse("scoring:player", args=[987654321]).replace("987654321", "{}")
    player_url = escape(player_url + link_query)
    badges: dict[tuple[str, str], str] = {}
    moves: dict[int | None, str] = {}

    def badge(r: ClassificaRow) -> str:
        key = (r.series, r.series_label)
        if key not in badges:
            badges[key] = str(series_badge(r.series, r.series_label))
        return badges[key]

    def move(r: ClassificaRow) -> str:
        if r.movement not in moves:
            moves[r.movement] = str(movement(r.movement))
        return moves[r.movement]

    def player_cell(r: ClassificaRow) -> str:
        name = escape(r.player)
        if r.player_id is None:
            return name
        url = player_url.format(r.player_id)
        if r.player_id == me:
            return (
                f'<bdi><a href="{url}">{name}</a></bdi> '
                f'<span class="badge badge-me">{escape(gettext("tu"))}</span>'
            )
        return f'<bdi><a href="{url}">{name}</a></bdi>'

    def title_col(code: str) -> _Col:
        return _Col(
            f"title_{code}",
            f"title-{code}",
            "num" if code == "SCUDETTO" else "num hide-narrow",
            lambda: _title_header(code),
            ((lambda r: r.titles.get(code, 0), False),),
            lambda r: _count_html(r.titles.get(code, 0)),
        )

    def text(label: Any) -> Callable[[], str]:  # a lazy text, translated when rendered
        return lambda: escape(str(label))

    first = [
        _Col(
            "place",
            "place",
            "num",
            text(_("Pos.")),
            ((lambda r: r.place, False), (lambda r: r.scudetti, True)),
            lambda r: f"{r.place}",
        ),
        _Col(
            "player",
            "player",
            "",
            text(_("Giocatore")),
            ((lambda r: r.player, False),),
            player_cell,
        ),
        _Col(
            "series",
            "series",
            "",
            text(_("Serie")),
            ((lambda r: series_order.get(r.series, 99), False),),
            badge,
        ),
        _Col(
            "score",
            "score",
            "num",
            text(_("Punti")),
            ((lambda r: r.score, False),),
            lambda r: f'<strong class="{sign_class(r.score)}">{number(r.score)}</strong>',
        ),
        _Col(
            "movement",
            "movement",
            "num",
            text(_("Mov.")),
            ((lambda r: r.movement if r.movement is not None else 0, False),),
            move,
        ),
        title_col("SCUDETTO"),
        _Col(
            "turni",
            "turni",
            "num hide-narrow",
            text(_("Turni")),
            ((lambda r: r.turni, False),),
            lambda r: f"{r.turni}",
        ),
        _Col(
            "absences",
            "absences",
            "num hide-narrow",
            text(_("Assenze")),
            ((lambda r: r.absences, False),),
            lambda r: f"{r.absences}",
        ),
        _Col(
            "average",
            "average",
            "num hide-narrow",
            text(_("Media")),
            ((lambda r: r.average, False),),
            lambda r: number(r.average) if r.average is not None else "—",
        ),
    ]
    return first + [title_col(c) for c in TITLE_ORDER if c != "SCUDETTO"]


CLASSIFICA_SORTS = frozenset(
    ["place", "player", "series", "score", "movement", "turni", "absences", "average"]
    + [f"title_{c}" for c in TITLE_ORDER]
)


def classifica_sort(raw: str | None) -> str:
    """``?sort=`` as the page understands it: a column, ``-`` for descending; else ``""``."""
    raw = (raw or "").strip()
    return raw if raw.lstrip("-") in CLASSIFICA_SORTS and raw.count("-") <= 1 else ""


def _none_first(value: Any) -> tuple[int, Any]:
    return (0, 0) if value is None else (1, value)


def classifica_html(
    rows: list[ClassificaRow],
    *,
    series_order: dict[str, int],
    sort: str = "",
    stagione: int | None = None,
    me: int | None = None,
) -> str:
    """The Classifica Generale's table (safe HTML): sortable by every column (``sort`` as from
    :func:`classifica_sort`), the member's own row marked and announced."""
    link_query = f"?stagione={stagione}" if stagione is not None else ""
    columns = _classifica_columns(series_order, link_query, me)
    ordered, descending = sort.lstrip("-"), sort.startswith("-")
    rows = list(rows)
    for col in columns:
        if col.name == ordered:
            for accessor, desc in reversed(col.order):  # stable: the last key first
                rows.sort(key=lambda r: _none_first(accessor(r)), reverse=desc != descending)
    keep = f"stagione={stagione}&amp;" if stagione is not None else ""
    sort_title = escape(gettext("Ordina"))
    out = [
        '<div class="table-wrap" tabindex="0" role="region" aria-label="',
        escape(gettext("Classifica Generale")),
        '">\n<table class="classifica">\n<thead>\n<tr>\n',
    ]
    for col in columns:
        css, aria, nxt = f"{col.css} orderable".lstrip(), "", col.name
        if col.name == ordered:
            css += " desc" if descending else " asc"
            aria = f' aria-sort="{"descending" if descending else "ascending"}"'
            nxt = col.name if descending else f"-{col.name}"
        out.append(
            f'<th class="{css}" data-col="{col.data_col}" scope="col"{aria}>'
            f'<a href="?{keep}sort={nxt}" title="{sort_title}">{col.header()}</a></th>\n'
        )
    out.append("</tr>\n</thead>\n<tbody>\n")
    for i, r in enumerate(rows):
        parity = "even" if i % 2 == 0 else "odd"
        mine = r.player_id is not None and r.player_id == me
        attrs = f' class="me {parity}" aria-current="true"' if mine else f' class="{parity}"'
        out.append(f'<tr data-player="{escape(r.player)}"{attrs}>')
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


def player_timeline_html(timeline: list[Any]) -> SafeString:
    """The rows of a member's giornate on their page (``views.public.Giorno``: the seat played,
    or the absence), newest first: a plain loop like :func:`classifica_html`, not a template
    loop (20 rows of 7 cells and their filters were most of the page's rendering)."""
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
