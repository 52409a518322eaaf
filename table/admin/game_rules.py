"""The Rules Submission of any game: a form built from the game's ``rules_fields`` (stored in
``RulesSubmission.choices`` as its ``rules_to_dict``), checked by its ``parse_rules`` and
``rules_problems`` field by field, and its posted signs and exact mathematics
(``Game.signs``, ``Game.math_report``) rendered from templates, or from the game's own
templates where it draws them (``Game.staff_parts``)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from table.games import game
from table.games.base import Game, RulesField, StaffPart
from table.games.errors import InvalidInput

from ..models import ProgressiveMeter, RulesSubmission
from ..money import DollarField, dollars

#: No single limit is anywhere near ten million dollars: catch typos.
MAX_LIMIT_CENTS = 10_000_000_00


def _structured(f: RulesField) -> bool:
    """A text choice whose stored form is JSON (an object), not words."""
    return f.kind == "text" and not isinstance(f.default, str | type(None))


def _help(f: RulesField) -> str:
    words = [f.help] if f.help else []
    if _structured(f):
        words.append(f"JSON, as {json.dumps(f.default)}")
        if f.options:
            words.append("one of: " + ", ".join(f.options))
    if f.optional:
        words.append("empty: not offered" if f.kind != "cents" else "empty: no limit")
    return "; ".join(words)


def form_field(f: RulesField) -> forms.Field:
    """The form field of one choice, by its kind."""
    required = not f.optional
    label, help_text = f.label, _help(f)
    if f.kind == "choice":
        options = [(o, f.option_words.get(o, o)) for o in f.options]
        if f.optional:
            options = [("", "not offered"), *options]
        return forms.ChoiceField(
            label=label, choices=options, required=required, help_text=help_text
        )
    if f.kind == "flag" and f.counts:
        # The same concept is a number at another game (adjacent boxes): a number here too.
        low, high = f.counts
        return forms.IntegerField(
            label=label,
            min_value=low,
            max_value=high,
            help_text="; ".join(w for w in (f.help, f"{low} or {high}") if w),
        )
    if f.kind == "flag":
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if f.kind == "cents":
        return DollarField(
            label=f"{label}, $", required=required, help_text=help_text, max_cents=MAX_LIMIT_CENTS
        )
    if f.kind in ("count", "seconds"):
        return forms.IntegerField(
            label=label if f.kind == "count" else f"{label} (seconds)",
            required=required,
            min_value=1,
            help_text=help_text,
        )
    widget = forms.Textarea(attrs={"rows": 2, "cols": 60}) if _structured(f) else None
    return forms.CharField(label=label, required=required, help_text=help_text, widget=widget)


def form_initial(f: RulesField, value: Any) -> Any:
    if value is None:
        return ""
    if f.kind == "flag" and f.counts:
        return f.counts[1] if value else f.counts[0]
    if _structured(f):
        return json.dumps(value)
    return value


def part_name(f: RulesField, part: RulesField) -> str:
    """The form field of one part of a choice filled in as parts (``progressive_wager``)."""
    return f"{f.name}_{part.name}"


def form_names(f: RulesField) -> tuple[str, ...]:
    """The form fields one choice is filled in with: its parts', else its own."""
    return tuple(part_name(f, p) for p in f.parts) if f.parts else (f.name,)


def part_field(f: RulesField, part: RulesField) -> forms.Field:
    """A part's form field: none is required by the form itself, the first part empty being
    the choice not offered (the others are then not read; :meth:`GameRulesForm._parts`)."""
    first = part is f.parts[0]
    field = form_field(replace(part, optional=first and f.optional))
    field.required = first and not f.optional
    if first and f.optional and part.kind == "cents":
        field.help_text = "; ".join(w for w in (part.help, "empty: not offered") if w)
    return field


def _piece(part: RulesField, value: Any) -> dict[str, Any]:
    """What one part's value stores in its choice's object."""
    if part.option_values and value in part.option_values:
        return dict(part.option_values[value])
    return {part.name: value}


def form_values(f: RulesField, value: Any) -> dict[str, Any]:
    """The form's values of one choice, by form field: of each of its parts when it has
    them (its object read back into words and dollars), else its own."""
    if not f.parts:
        return {f.name: form_initial(f, value)}
    out: dict[str, Any] = {}
    for i, p in enumerate(f.parts):
        v: Any
        if not isinstance(value, dict):
            # Not offered: the first part says so, the others start ready to fill in.
            v = None if i == 0 else p.default
        elif p.option_values:
            v = next(
                (
                    o
                    for o, keys in p.option_values.items()
                    if all(value.get(k) == x for k, x in keys.items())
                ),
                None,
            )
        else:
            v = value.get(p.name)
        out[part_name(f, p)] = form_initial(p, v)
    return out


class GameRulesForm(forms.ModelForm[RulesSubmission]):
    """A Rules Submission of ``game_name``: its name, its game, and its game's choices."""

    game_name = ""

    betting_unit = DollarField(
        label="Betting unit, $",
        initial=100,
        required=False,  # empty: whole dollars
        max_cents=MAX_LIMIT_CENTS,
        help_text="Every wager is a whole number of this amount: 1.00 is whole dollars "
        "(a bet of $5.01 is refused); the wager limits are whole units too.",
    )

    class Meta:
        model = RulesSubmission
        fields = ("name", "game", "betting_unit")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        g = game(self.game_name)
        stored = self.instance.choices if self.instance.game == self.game_name else None
        values = stored or g.rules_to_dict(g.default_rules())
        for f in g.rules_fields():
            for name, initial in form_values(f, values.get(f.name, f.default)).items():
                self.fields[name].initial = initial
        if self.instance.pk is None:
            # A new submission is of the page's game from the start: what the page shows
            # beside the form (signs, limits, house edge, warnings) is that game's, not the
            # model's default game's, before saving and on a form error alike.
            self.instance.game = self.game_name
            self.instance.choices = dict(values)
        if "game" in self.fields:
            self.fields["game"].initial = self.game_name
            self.fields["game"].required = False  # a form without it: the page's game

    def clean_betting_unit(self) -> int:
        unit: int | None = self.cleaned_data.get("betting_unit")
        return 100 if unit is None else unit

    def clean_game(self) -> str:
        name: str = self.cleaned_data.get("game") or self.game_name
        if name != self.game_name:
            raise forms.ValidationError("Choose the game first, then fill in its choices.")
        return name

    def _value(self, f: RulesField) -> Any:
        value = self.cleaned_data.get(f.name)
        if f.kind == "flag" and f.counts and value is not None:
            return value == f.counts[1]
        if value in ("", None):
            return None if f.optional or f.kind != "flag" else False
        if _structured(f):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise forms.ValidationError(
                    f"not JSON: write it as {json.dumps(f.default)}"
                ) from None
        return value

    def _parts(self, g: Game[Any, Any], base: dict[str, Any], f: RulesField) -> Any:
        """The object of a choice filled in as parts, each part checked on its own (the
        others as their defaults) so that its error is under it; None: not offered."""
        posted = {p.name: self.cleaned_data.get(part_name(f, p)) for p in f.parts}
        if posted[f.parts[0].name] in ("", None):
            return None
        defaults: dict[str, Any] = {}
        for p in f.parts:
            defaults.update(_piece(p, p.default))
        value: dict[str, Any] = {}
        for p in f.parts:
            name = part_name(f, p)
            if posted[p.name] in ("", None):
                self.add_error(name, f"Fill this in too, or choose “not offered” above: {p.label}.")
                continue
            piece = _piece(p, posted[p.name])
            value.update(piece)
            try:
                g.parse_rules({**base, f.name: {**defaults, **piece}})
            except InvalidInput as exc:
                self.add_error(name, exc.message)
        return value

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        g: Game[Any, Any] = game(self.game_name)
        fields = g.rules_fields()
        base = g.rules_to_dict(g.default_rules())
        data = dict(base)
        for f in fields:
            if f.parts:
                if not any(n in self.errors for n in form_names(f)):
                    data[f.name] = self._parts(g, base, f)
                continue
            if f.name in self.errors:
                continue
            try:
                data[f.name] = self._value(f)
            except forms.ValidationError as exc:
                self.add_error(f.name, exc)
                continue
            # Each choice on its own, the others as the game's defaults: which one is wrong.
            try:
                g.parse_rules({**base, f.name: data[f.name]})
            except InvalidInput as exc:
                self.add_error(f.name, exc.message)
        unit = self.cleaned_data.get("betting_unit")
        if unit is not None and unit < 1:
            self.add_error("betting_unit", "The betting unit is at least one cent.")
        elif unit:
            # A limit no whole number of units reaches could never be bet exactly.
            for f in fields:
                value = data.get(f.name)
                if (
                    f.kind == "cents"
                    and f.name.endswith(("_min", "_max"))
                    and isinstance(value, int)
                    and value % unit
                    and f.name not in self.errors
                ):
                    self.add_error(
                        f.name, f"Not a whole number of the betting unit ({dollars(unit)})."
                    )
        if self.errors:
            return cleaned
        try:
            rules = g.parse_rules(data)
        except InvalidInput as exc:
            self.add_error(None, f"These choices do not go together: {exc.message}")
            return cleaned
        # A problem with a choice filled in as parts: under its first part.
        names = {f.name: form_names(f)[0] for f in fields}
        for problem in g.rules_problems(rules):
            self.add_error(names.get(problem.field), problem.words)
        if not self.errors:
            self.instance.choices = g.rules_to_dict(rules)
        return cleaned

    def _post_clean(self) -> None:
        # The choices were refused field by field above; the model's own check of them
        # would only repeat it under names this form does not have.
        if self.errors:
            return
        super()._post_clean()  # type: ignore[misc]  # BaseModelForm's, not in django-stubs


@cache
def game_form(name: str) -> type[GameRulesForm]:
    """The form class of one game's Rules Submission (its choices as declared fields)."""
    attrs: dict[str, Any] = {"game_name": name}
    for f in game(name).rules_fields():
        if f.parts:
            for p in f.parts:
                attrs[part_name(f, p)] = part_field(f, p)
        else:
            attrs[f.name] = form_field(f)
    return type(f"{name.title().replace('_', '')}RulesForm", (GameRulesForm,), attrs)


def choice_fieldsets(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """The game's choices by the part of the form each belongs in (:attr:`RulesField.group`),
    in the order the game lists them; a choice of no group is among the game's choices."""
    g = game(name)
    groups: dict[str, list[str]] = {}
    for f in g.rules_fields():
        groups.setdefault(f.group or f"Choices ({g.regulation})", []).extend(form_names(f))
    return [(title, tuple(names)) for title, names in groups.items()]


def _rules_of(obj: RulesSubmission) -> tuple[Game[Any, Any], Any] | None:
    g = game(obj.game)
    try:
        return g, obj.game_rules()
    except InvalidInput:
        return None


def _parts(g: Game[Any, Any], rules: Any, place: str) -> list[StaffPart]:
    return [p for p in g.staff_parts(rules) if p.place == place]


def _render(parts: list[StaffPart]) -> SafeString:
    return SafeString("".join(render_to_string(p.template, dict(p.context)) for p in parts))


def signs_html(g: Game[Any, Any], rules: Any) -> SafeString:
    """The signs a table posts under ``rules``, with its limits: as the game draws them
    (a ``signs`` staff part), else from ``Game.signs``, ``wagers`` and ``table_settings``.
    Also the rules a round was played under (the round's admin page)."""
    own = _parts(g, rules, "signs")
    if own:
        return _render(own)
    context = {
        "signs": [s.to_dict() for s in g.signs(rules)],
        "wagers": [w for w in g.wagers(rules) if w.offered],
        "settings": g.table_settings(rules),
        "regulation": g.regulation,
        "problem": "",
    }
    return render_to_string("admin/table/game_signs.html", context)


def _unreadable(template: str) -> SafeString:
    problem = "These choices cannot be read: fix them and save."
    return render_to_string(template, {"problem": problem})


def game_signs_html(obj: RulesSubmission) -> SafeString:
    """The signs the table posts under these choices, and what the game shows beside them
    (every paytable to choose from: ``reference`` staff parts)."""
    found = _rules_of(obj)
    if found is None:
        return _unreadable("admin/table/game_signs.html")
    g, rules = found
    return SafeString(signs_html(g, rules) + _render(_parts(g, rules, "reference")))


def game_mathematics_html(obj: RulesSubmission) -> SafeString:
    """The exact house edge of every wager offered under these choices (``Game.math_report``,
    from the game's committed report, or as the game draws it), and the progressive meters
    linked for it."""
    found = _rules_of(obj)
    if found is None:
        return _unreadable("admin/table/game_mathematics.html")
    g, rules = found
    own = _parts(g, rules, "mathematics")
    if own:
        return _render(own)
    context: dict[str, Any] = {"figures": list(g.math_report(rules)), "meters": [], "problem": ""}
    specs = g.meters(rules)
    if specs and obj.pk is not None:
        context["meters"] = list(
            ProgressiveMeter.objects.filter(
                tables__rules=obj, kind__in=[s.name for s in specs]
            ).distinct()
        )
    context["specs"] = specs
    return render_to_string("admin/table/game_mathematics.html", context)
