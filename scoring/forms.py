"""The segretario's forms: they parse input; the engine (via the services) decides what is legal.

Every rule check stays in :mod:`scoring.rules`: a form only turns POST data into the arguments of
a service, and puts the service's :class:`~scoring.rules.Problem` list back next to its fields.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence

from django import forms
from django.db.models import Max
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.models import Player, Season, Turno
from scoring.problem_text import localized
from scoring.rules.caf import RuleSet
from scoring.rules.caf.ruleset import SUIT_SYMBOLS, SUITS
from scoring.rules.caf.turno import PENALTY_LIMIT
from scoring.rules.numbers import is_typed_int
from scoring.rules.problems import Problem
from scoring.rules.text import is_visible, normalize_text

MAX_SEATS = 7
TYPEAHEAD_ABOVE = 12  # more members than this: the seats are picked by typing (a datalist)

SUIT_NAMES = {"S": _("picche"), "H": _("cuori"), "D": _("quadri"), "C": _("fiori")}
# a penalità is a few turno points (totals stay within about ±150): the engine's bound
PENALTY_POINTS_LIMIT = PENALTY_LIMIT
PENALTY_ARTICLES = [
    ("6", _("Art. 6")),
    ("9", _("Art. 9")),
    ("15", _("Art. 15")),
    ("16", _("Art. 16")),
    ("altro", _("Altro")),
]


def _seat_label(i: int) -> str:
    return gettext("Posto %(n)s") % {"n": i}


seat_label = lazy(_seat_label, str)  # "Posto 3", in the language of the request


class TextField(forms.CharField):
    """A text a person types (name, reason, table): stored as :mod:`scoring.rules.text` says:
    NFC, no invisible characters, whitespace collapsed, at least one visible character."""

    def to_python(self, value):
        value = super().to_python(value)
        return normalize_text(value) if value else value

    def validate(self, value) -> None:
        super().validate(value)
        if value and not is_visible(value):
            raise forms.ValidationError(_("serve almeno un carattere visibile"), code="invisible")


class TypedIntegerField(forms.IntegerField):
    """An integer as a person types it: ASCII digits, a leading minus where ``min_value`` allows
    negatives (:mod:`scoring.rules.numbers`). Django's own field reads with ``int()``, which
    takes ``1_1_3`` as 113 and Arabic-Indic ``٢٧`` as 27."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not text:
            return None
        signed = self.min_value is None or self.min_value < 0
        if not is_typed_int(text, signed=signed):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


def _numeric(attrs: dict | None = None) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", **(attrs or {})})


class ProblemFormMixin:
    """Puts the engine's problems next to the form fields they belong to."""

    field_map: dict[str, str] = {}

    def field_for(self, problem: Problem) -> str | None:
        return self.field_map.get(problem.field or "")

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            name = self.field_for(problem)
            message = localized(problem).message
            self.add_error(name if name in self.fields else None, message)  # type: ignore[attr-defined]


# -- start a turno -----------------------------------------------------------------------------
def table_count(sizes: Sequence[int]) -> str:
    """How many players a table takes, as the form says it: "4", "3 o 4", "da 3 a 7"."""
    sizes = sorted(sizes)
    if len(sizes) == 1:
        return str(sizes[0])
    if len(sizes) == 2:
        return gettext("%(a)s o %(b)s") % {"a": sizes[0], "b": sizes[1]}
    return gettext("da %(min)s a %(max)s") % {"min": sizes[0], "max": sizes[-1]}


def season_table(season: Season) -> dict[str, str | list[int]]:
    """The table a season's game takes, from its rules: the player counts and the direction in
    which the seats are listed (the legend and the help of the new-turno form)."""
    system = season.system
    sizes = list(system.table_sizes(season.game_rules))
    clockwise = system.direction == "clockwise"
    direction = gettext("senso orario") if clockwise else gettext("senso antiorario")
    return {
        "sizes": sizes,
        "legend": gettext("Giocatori in ordine di posto (%(direction)s), %(count)s")
        % {"direction": direction, "count": table_count(sizes)},
        "help": gettext(
            "Scegliere un socio per ogni posto occupato, nell'ordine in cui siedono girando in "
            "%(direction)s; i posti vuoti sono ignorati. Un socio nuovo si aggiunge scrivendone "
            "il nome."
        )
        % {"direction": direction},
    }


class TurnoStartForm(ProblemFormMixin, forms.Form):
    """Season, date, table, up to seven seats in counterclockwise order, the first dealer."""

    # a closed season takes no turno (season_require_open refuses it): not offered
    season = forms.ModelChoiceField(
        queryset=Season.objects.filter(closed_at__isnull=True),
        label=_("Stagione"),
        empty_label=None,
    )
    date = forms.DateField(
        label=_("Data"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    table = TextField(
        label=_("Tavolo"),
        required=False,
        max_length=40,
        help_text=_("Facoltativo, es. «Tavolo 2»."),
    )
    first_dealer_seat = forms.TypedChoiceField(
        label=_("Primo mazziere"),
        choices=[(i, seat_label(i)) for i in range(1, MAX_SEATS + 1)],
        coerce=int,
        initial=1,
        help_text=_("Chi ha estratto la carta più alta."),
    )
    confirm_backdated = forms.BooleanField(
        required=False,
        label=_("Confermo: il turno è retrodatato e la stagione sarà rigiocata da quella data"),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        members = Player.objects.filter(active=True).order_by("name")
        names = dict(members.values_list("pk", "name"))
        # a large club picks by typing: one text field per seat with the members as suggestions
        self.typeahead = len(names) > TYPEAHEAD_ABOVE
        self.member_names = sorted(names.values(), key=str.casefold)
        for i in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{i}"] = forms.ModelChoiceField(
                queryset=members,
                required=False,
                label=seat_label(i),
                empty_label=_("— vuoto —"),
            )
            self.fields[f"seat_{i}_new"] = TextField(
                required=False,
                max_length=60,
                label=_("Posto %(n)s: nuovo socio") % {"n": i},
                widget=forms.TextInput(attrs={"placeholder": _("oppure nuovo socio"), "size": 16}),
            )
            if self.typeahead:
                self.fields[f"seat_{i}_new"].widget.attrs.update(
                    list="kc-members",
                    autocomplete="off",
                    placeholder=_("nome del socio (o nuovo)"),
                )
        first = "seat_1_new" if self.typeahead else "seat_1"
        self.fields[first].widget.attrs["autofocus"] = True
        # the first dealer is chosen by name: the seats' players as the options (a script keeps
        # them in step while the seats are filled in)
        self.fields["first_dealer_seat"].choices = [
            (i, self._seat_name(i, names) or seat_label(i)) for i in range(1, MAX_SEATS + 1)
        ]
        self.last_closed = {
            str(season_id): date.isoformat()
            for season_id, date in Turno.objects.filter(status=Turno.CHIUSO)
            .order_by()
            .values_list("season_id")
            .annotate(m=Max("giornata__date"))
        }
        self.backdated_last: dt.date | None = None  # set by clean() for a back-dated turno
        open_seasons = Season.objects.filter(closed_at__isnull=True)
        self.fields["season"].initial = (
            open_seasons.filter(is_current=True).first() or open_seasons.first()
        )
        self.fields["season"].label_from_instance = lambda s: f"{s.name} · {s.system.label}"
        # the table each open season's game takes (a script follows the chosen season)
        self.tables = {str(s.pk): season_table(s) for s in open_seasons}
        self.fields["date"].initial = timezone.localdate()
        self.seat_names: list[tuple[int, str]] = []  # (seat number, player name), filled only
        self.new_names: list[str] = []
        self.players_errors: list[str] = []  # about the seats as a whole (e.g. how many)

    def _seat_name(self, i: int, names: dict[int, str]) -> str:
        """The player the submitted form puts in seat ``i`` ("" when empty or unbound)."""
        if not self.is_bound:
            return ""
        raw = str(self.data.get(f"seat_{i}") or "")
        chosen = names.get(int(raw)) if is_typed_int(raw) else None
        return chosen or " ".join(str(self.data.get(f"seat_{i}_new") or "").split())[:60]

    @property
    def last_closed_json(self) -> str:
        return json.dumps(self.last_closed)

    @property
    def tables_json(self) -> str:
        return json.dumps(self.tables)

    @property
    def seating(self) -> dict[str, str | list[int]] | None:
        """The table of the season chosen (posted, or the initial one)."""
        chosen = self.data.get("season") if self.is_bound else None
        if chosen is None:
            initial = self.fields["season"].initial
            chosen = initial.pk if initial is not None else None
        return self.tables.get(str(chosen)) or next(iter(self.tables.values()), None)

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(i, self[f"seat_{i}"], self[f"seat_{i}_new"]) for i in range(1, MAX_SEATS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        existing = {p.name.casefold(): p.name for p in Player.objects.all()}
        self.seat_names, self.new_names = [], []
        for i in range(1, MAX_SEATS + 1):
            chosen: Player | None = data.get(f"seat_{i}")
            typed = data.get(f"seat_{i}_new") or ""
            if chosen is not None and typed:
                self.add_error(
                    f"seat_{i}_new",
                    _("scegliere un socio dall'elenco oppure scrivere un nuovo nome, non entrambi"),
                )
                continue
            if chosen is not None:
                self.seat_names.append((i, chosen.name))
            elif typed:
                name = existing.get(typed.casefold())
                if name is None:
                    name = typed
                    self.new_names.append(typed)
                    existing[typed.casefold()] = typed  # "zeno" in a later seat is this one
                self.seat_names.append((i, name))
        season, date = data.get("season"), data.get("date")
        last = self.last_closed.get(str(season.pk)) if season is not None else None
        if date is not None and last is not None and date.isoformat() < last:
            self.backdated_last = dt.date.fromisoformat(last)
            if not data.get("confirm_backdated"):
                self.add_error(
                    "date",
                    _(
                        "il %(date)s è prima dell'ultima giornata chiusa (%(last)s): alla "
                        "chiusura la stagione sarà rigiocata da quel giorno e possono cambiare "
                        "assenze, serie e titoli di chi non è al tavolo. Per iniziare comunque "
                        "spuntare la conferma."
                    )
                    % {
                        "date": date.strftime("%d/%m/%Y"),
                        "last": self.backdated_last.strftime("%d/%m/%Y"),
                    },
                )
        dealer_seat = data.get("first_dealer_seat")
        if dealer_seat is not None and dealer_seat not in {i for i, _ in self.seat_names}:
            self.add_error(
                "first_dealer_seat",
                _("il posto %(seat)s è vuoto: scegliere il primo mazziere") % {"seat": dealer_seat},
            )
        return data

    @property
    def players(self) -> list[str]:
        return [name for _, name in self.seat_names]

    @property
    def first_dealer(self) -> str:
        seat = self.cleaned_data["first_dealer_seat"]
        return next(name for i, name in self.seat_names if i == seat)

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            name = self.field_for(problem)
            if name is None and problem.field == "players":
                self.players_errors.append(localized(problem).message)
            else:
                self.add_error(name, localized(problem).message)

    def field_for(self, problem: Problem) -> str | None:
        if problem.field == "first_dealer":
            return "first_dealer_seat"
        if problem.field == "date":  # outside the season's calendar
            return "date"
        if problem.player is not None:
            seats = [i for i, name in self.seat_names if name == problem.player]
            if seats:
                # a duplicate is reported on its second seat, anything else on the first
                i = seats[-1] if problem.code == "PLAYER_DUPLICATE" else seats[0]
                chosen = self.cleaned_data.get(f"seat_{i}")
                return f"seat_{i}" if chosen is not None else f"seat_{i}_new"
        return None


# -- a smazzata ----------------------------------------------------------------------------------
class SmazzataForm(ProblemFormMixin, forms.Form):
    """The call (chiamante, game, trump) and one count per player, in seat order.

    Fields accept every player and every game of the rule set: legality is the engine's, so an
    illegal call gets the engine's Italian message rather than a generic "invalid choice".
    """

    number = TypedIntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, rules: RuleSet, players: Sequence[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.players = tuple(players)
        self.fields["caller"] = forms.ChoiceField(
            label=pgettext_lazy("segreteria", "Chiamante"),
            choices=[(p, p) for p in self.players],
            widget=forms.RadioSelect,
            error_messages={"required": _("scegliere il chiamante")},
        )
        self.fields["game"] = forms.ChoiceField(
            label=_("Gioco"),
            choices=[(code, g.name) for code, g in rules.games.items()],
            widget=forms.RadioSelect,
            error_messages={
                "required": _("scegliere il gioco"),
                "invalid_choice": _("gioco sconosciuto: %(value)s"),
            },
        )
        self.fields["trump"] = forms.ChoiceField(
            label=_("Briscola"),
            choices=[("", "—")] + [(s, f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}") for s in SUITS],
            required=False,
            widget=forms.RadioSelect,
        )
        for i, p in enumerate(self.players):
            self.fields[self.count_name(i)] = TypedIntegerField(
                label=p,
                required=False,
                widget=_numeric({"min": 0}),
                error_messages={
                    "invalid": _("il risultato di %(player)s deve essere un numero intero")
                    % {"player": p}
                },
            )
        self.count_errors: list[str] = []

    @staticmethod
    def count_name(position: int) -> str:
        return f"count_{position}"

    def value(self, name: str) -> str:
        v = self[name].value()
        return "" if v is None else str(v)

    def counts(self) -> dict[str, int]:
        """Counts as typed; an empty one is left out so the engine names it as missing."""
        out: dict[str, int] = {}
        for i, p in enumerate(self.players):
            v = self.cleaned_data.get(self.count_name(i))
            if v is not None:
                out[p] = v
        return out

    def trump(self) -> str | None:
        rule = self.rules.games.get(self.cleaned_data.get("game") or "")
        if rule is None or not rule.trump:
            return None  # a suit left selected for another game is not part of the call
        return self.cleaned_data.get("trump") or None

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            if problem.field in ("game", "caller", "trump"):
                self.add_error(problem.field, localized(problem).message)
            elif problem.field == "result" and problem.player in self.players:
                self.add_error(
                    self.count_name(self.players.index(problem.player)), localized(problem).message
                )
            elif problem.field == "result":
                self.count_errors.append(localized(problem).message)
            else:
                self.add_error(None, localized(problem).message)


# -- penalità, retrocessione per contatore, close, reopen ------------------------------------
class PenalitaForm(ProblemFormMixin, forms.Form):
    field_map = {"penalties": "points"}

    player = forms.ChoiceField(label=_("Giocatore"))
    points = TypedIntegerField(
        label=_("Punti"),
        # bounded: an unbounded integer overflows the column (a 500) or the stored ratio
        min_value=-PENALTY_POINTS_LIMIT,
        max_value=PENALTY_POINTS_LIMIT,
        widget=_numeric({"placeholder": _("es. -5")}),
        help_text=_("Punti del turno, di solito negativi."),
    )
    article = forms.ChoiceField(label=_("Articolo dello Statuto"), choices=PENALTY_ARTICLES)
    reason = TextField(label=_("Motivo"), max_length=300, required=False)

    def __init__(self, *args, players: Sequence[str], **kwargs) -> None:
        super().__init__(*args, prefix="pen", **kwargs)
        self.fields["player"].choices = [(p, p) for p in players]

    def field_for(self, problem: Problem) -> str | None:
        return {
            "PENALTY_PLAYER": "player",
            "PENALTY_POINTS": "points",
            "PENALTY_ARTICLE": "article",
        }.get(problem.code)


class SanctionForm(ProblemFormMixin, forms.Form):
    player = forms.ChoiceField(label=_("Giocatore"))
    reason = TextField(
        label=_("Motivo"),
        max_length=300,
        error_messages={"required": _("la retrocessione per contatore richiede una motivazione")},
    )

    def __init__(self, *args, players: Sequence[str], **kwargs) -> None:
        super().__init__(*args, prefix="san", **kwargs)
        self.fields["player"].choices = [(p, p) for p in players]

    def field_for(self, problem: Problem) -> str | None:
        return {"SANCTION_PLAYER": "player", "SANCTION_DUPLICATE": "player"}.get(
            problem.code, "reason"
        )


class CloseForm(forms.Form):
    """The spareggio: for each group of tied players, who came 1st, 2nd... in the high-card draw."""

    def __init__(
        self,
        *args,
        tied: Sequence[Sequence[str]],
        totals: dict[str, int],
        chosen: Sequence[str] = (),
        **kwargs,
    ) -> None:
        """``chosen`` is the spareggio recorded before (a reopened turno): the selects show it."""
        super().__init__(*args, **kwargs)
        self.groups: list[tuple[int, list[str]]] = []
        for g, group in enumerate(tied):
            drawn = [p for p in chosen if p in group]
            names = []
            for k in range(len(group)):
                name = self.field_name(g, k)
                self.fields[name] = forms.ChoiceField(
                    label=_("%(n)sº posto") % {"n": k + 1},
                    choices=[("", "—")] + [(p, p) for p in group],
                    required=False,
                    initial=drawn[k] if len(drawn) == len(group) else "",
                )
                names.append(name)
            self.groups.append((totals[group[0]], names))
        self.problems: list[str] = []

    @staticmethod
    def field_name(group: int, k: int) -> str:
        return f"tie_{group}_{k}"

    def group_rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [(total, [self[n] for n in names]) for total, names in self.groups]

    def tiebreak(self) -> list[str] | None:
        """The spareggio order as chosen (the service checks it is complete and consistent);
        None when nothing is chosen, so the close keeps the order recorded before a reopen."""
        order = [
            self.cleaned_data[n]
            for _, names in self.groups
            for n in names
            if self.cleaned_data.get(n)
        ]
        return order or None


class ReopenForm(forms.Form):
    reason = TextField(
        label=_("Motivazione della riapertura"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("per riaprire un turno chiuso serve una motivazione")},
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"]
        if not is_visible(reason):
            raise forms.ValidationError(_("per riaprire un turno chiuso serve una motivazione"))
        return reason
