"""django-filter FilterSets of the members' pages."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.models import Player, Season, Turno


class TurnoFilter(django_filters.FilterSet):
    """The turni of a season: who played, from and to which date, in corso or chiuso.

    ``season`` limits the player choices to that season's roster.
    """

    giocatore = django_filters.ModelChoiceFilter(
        label=_("Giocatore"),
        field_name="seats__player",
        queryset=Player.objects.all(),
        empty_label=_("Tutti"),
    )
    dal = django_filters.DateFilter(
        label=_("Dal"),
        field_name="giornata__date",
        lookup_expr="gte",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    al = django_filters.DateFilter(
        label=_("Al"),
        field_name="giornata__date",
        lookup_expr="lte",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    stato = django_filters.ChoiceFilter(
        label=_("Stato"),
        field_name="status",
        choices=Turno.STATUS_CHOICES,
        empty_label=_("Tutti"),
    )

    class Meta:
        model = Turno
        fields: list[str] = []

    def __init__(self, data: Any = None, queryset: QuerySet[Turno] | None = None, **kwargs: Any):
        season: Season | None = kwargs.pop("season", None)
        super().__init__(data, queryset=queryset, **kwargs)
        players = Player.objects.order_by("name")
        if season is not None:
            players = players.filter(enrollments__season=season)
        self.filters["giocatore"].queryset = players
        self.form.fields["giocatore"].queryset = players
