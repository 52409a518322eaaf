"""Money in people's words: the store keeps integer cents, people read and type dollars."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError


def dollars(cents: int | None, *, signed: bool = False, none: str = "—") -> str:
    """``123456`` -> ``"$1,234.56"``; ``signed`` adds ``+`` to gains; ``None`` -> ``none``."""
    if cents is None:
        return none
    sign = "−" if cents < 0 else ("+" if signed and cents > 0 else "")
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{rest:02d}"


def parse_dollars(text: object) -> int:
    """``"1,234.50"`` or ``"$25"`` -> cents; refuses fractions of a cent and negatives."""
    raw = str(text).strip().replace("$", "").replace(",", "").replace(" ", "")
    try:
        amount = Decimal(raw)
    except InvalidOperation:
        raise ValidationError(
            "Enter an amount in dollars, like 25 or 12.50.", code="invalid"
        ) from None
    if not amount.is_finite():
        raise ValidationError("Enter an amount in dollars, like 25 or 12.50.", code="invalid")
    if amount < 0:
        raise ValidationError("The amount cannot be negative.", code="negative")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValidationError("Use whole cents: at most two digits after the point.", code="cents")
    return int(cents)


class DollarField(forms.Field):
    """A form field shown and typed in dollars whose cleaned value is integer cents."""

    widget = forms.TextInput

    def __init__(self, *, max_cents: int | None = None, **kwargs: Any) -> None:
        self.max_cents = max_cents
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.update({"inputmode": "decimal", "autocomplete": "off", "size": 14})
        return attrs

    def prepare_value(self, value: Any) -> Any:
        # Cents from the model (an int) become "1,234.50"; typed text is shown back as typed.
        if isinstance(value, int) and not isinstance(value, bool):
            return dollars(value).lstrip("−$") if value >= 0 else value
        return value

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        cents = parse_dollars(value)
        if self.max_cents is not None and cents > self.max_cents:
            raise ValidationError(f"That is more than {dollars(self.max_cents)}.", code="too_large")
        return cents
