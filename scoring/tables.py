"""django-tables2 tables of the members' pages: the Classifica Generale and the list of turni.

The Classifica reads :class:`scoring.verbale.ClassificaRow` values (the stored standings), so it
sorts in Python; the turni table reads a queryset and sorts and paginates in the database.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from scoring import formatting
from scoring.models import Turno
from scoring.rules.ruleset import TITLE_ORDER
from scoring.templatetags.kingclub_tags import (
    format_number,
    movement,
    series_badge,
    sign_class,
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
