"""Named game settings: their specification, parsing from text, validation and presets.

A game declares a tuple of :class:`Setting` objects. Each has a default, and its kind (``int``, ``str`` or
``bool``) is the kind of the default. ``str`` settings list their ``choices``; ``int`` settings may give a
``minimum`` and ``maximum``.

>>> turns = Setting("max_turns", 300, "turns before a draw is declared", minimum=1)
>>> turns.parse("120")
120
>>> turns.parse("many")
Traceback (most recent call last):
...
shogames.core.errors.SettingsError: setting 'max_turns' expects a whole number, got 'many'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shogames.core.errors import SettingsError

SettingValue = int | str | bool
"""The value of one setting."""

_TRUE_WORDS = {"true", "yes", "on", "1"}
_FALSE_WORDS = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Setting:
    """The specification of one named setting of a game.

    Attributes:
        name: the setting's name, snake_case, as typed on the command line (``name=value``).
        default: the value used when the setting is not given; its type is the setting's kind.
        description: one line saying what the setting changes.
        choices: for a ``str`` setting, the allowed values.
        minimum: for an ``int`` setting, the smallest allowed value.
        maximum: for an ``int`` setting, the largest allowed value.
        old_names: names the setting had before, still read (in records written then) and read as this one.
    """

    name: str
    default: SettingValue
    description: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    old_names: tuple[str, ...] = ()

    @property
    def kind(self) -> type:
        """The Python type of the setting's values: ``bool``, ``int`` or ``str``."""
        return type(self.default)

    def describe_values(self) -> str:
        """Say in words which values are allowed, for help texts and error messages."""
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int):
            if self.minimum is not None and self.maximum is not None:
                return f"a whole number from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"a whole number of at least {self.minimum}"
            return "a whole number"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        return "any text"

    def parse(self, text: str) -> SettingValue:
        """Read a value of this setting from text, then validate it.

        Raises:
            SettingsError: the text is not a value of this setting.
        """
        word = text.strip()
        if isinstance(self.default, bool):
            if word.lower() in _TRUE_WORDS:
                return True
            if word.lower() in _FALSE_WORDS:
                return False
            raise SettingsError(f"setting {self.name!r} expects true or false, got {text!r}")
        if isinstance(self.default, int):
            try:
                number = int(word)
            except ValueError:
                raise SettingsError(f"setting {self.name!r} expects a whole number, got {text!r}") from None
            return self.validate(number)
        return self.validate(word)

    def validate(self, value: object) -> SettingValue:
        """Check a value given in Python and return it.

        Raises:
            SettingsError: the value has the wrong type or is not allowed.
        """
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise SettingsError(f"setting {self.name!r} expects true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(f"setting {self.name!r} expects a whole number, got {value!r}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise SettingsError(f"setting {self.name!r} expects {self.describe_values()}, got {value}")
            return value
        if not isinstance(value, str):
            raise SettingsError(f"setting {self.name!r} expects text, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise SettingsError(f"setting {self.name!r} expects {self.describe_values()}, got {value!r}")
        return value


def resolve_settings(
    specs: Iterable[Setting],
    presets: Mapping[str, Mapping[str, SettingValue]],
    preset: str | None,
    given: Mapping[str, object],
) -> dict[str, SettingValue]:
    """Combine defaults, a preset and explicit values into a complete, validated settings dict.

    Explicit values win over the preset, which wins over the defaults. The result lists every setting
    in the order of ``specs``.

    Raises:
        SettingsError: an unknown preset or setting name, or an invalid value.
    """
    by_name = _by_name(specs)
    values: dict[str, SettingValue] = {spec.name: spec.default for spec in by_name.values()}
    if preset is not None:
        if preset not in presets:
            known = ", ".join(presets) or "none"
            raise SettingsError(f"unknown preset {preset!r}; presets: {known}")
        values.update(presets[preset])
    for name, value in given.items():
        spec = _spec_named(by_name, name)
        values[spec.name] = spec.validate(value)
    return values


def _by_name(specs: Iterable[Setting]) -> dict[str, Setting]:
    """Each setting under its name and under its old names."""
    listed = list(specs)
    by_name: dict[str, Setting] = {}
    for spec in listed:
        by_name.update(dict.fromkeys(spec.old_names, spec))
    for spec in listed:
        by_name[spec.name] = spec
    return by_name


def _spec_named(by_name: Mapping[str, Setting], name: str) -> Setting:
    if name not in by_name:
        known = ", ".join(spec.name for key, spec in by_name.items() if key == spec.name) or "none"
        raise SettingsError(f"unknown setting {name!r}; settings: {known}")
    return by_name[name]


def parse_settings_text(specs: Iterable[Setting], text: str) -> dict[str, SettingValue]:
    """Read ``name=value`` pairs separated by spaces (the form records and the CLI use).

    >>> spec = Setting("max_turns", 300, "cap", minimum=1)
    >>> parse_settings_text([spec], "max_turns=40")
    {'max_turns': 40}

    Raises:
        SettingsError: a pair without ``=``, an unknown name, or an invalid value.
    """
    by_name = _by_name(specs)
    values: dict[str, SettingValue] = {}
    for pair in text.split():
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SettingsError(f"expected a setting as name=value, got {pair!r}")
        spec = _spec_named(by_name, name)
        values[spec.name] = spec.parse(value)
    return values


def format_settings(values: Mapping[str, SettingValue]) -> str:
    """Write settings as ``name=value`` pairs separated by spaces; booleans as ``true``/``false``."""
    return " ".join(
        f"{name}={str(value).lower() if isinstance(value, bool) else value}" for name, value in values.items()
    )
