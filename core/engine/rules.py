"""What a ruleset says about itself: its scale, its switchable options, its house-rule layers.

A layer (kind "house-rule") gives its own scale when its overlays change the base's, and
``cites``: what in a resolution is its rule, so the log credits the layer where it changed play.
"""

from __future__ import annotations

from attrs import frozen


@frozen
class Scale:
    """How the ruleset puts the world on the table, as data (``rulesets/<name>/scale.toml``)."""

    yards_per_inch: float
    men_per_piece: int  # men per stand or figure
    piece: str  # "stand", "figure", ...
    guns_per_model: int
    minutes_per_turn: int
    ruling: str = ""  # the ruling id where the source leaves the scale open

    def describe(self) -> str:
        return (
            f'1" = {self.yards_per_inch:g} yards; 1 {self.piece} = {self.men_per_piece} men; '
            f"1 gun model = {self.guns_per_model} guns; 1 turn = {self.minutes_per_turn} minutes"
        )


@frozen
class OptionSpec:
    """A rule that a scenario (``options``) or the user (``--option``) switches on by name."""

    name: str
    title: str
    ref: str  # where the rule is in the source
    summary: str
    default: bool = False
    group: str = ""  # options sharing a group exclude one another (e.g. one figure scale)


@frozen
class RulesetInfo:
    name: str
    title: str
    source: str  # the source text(s)
    scale: Scale
    kind: str = "ruleset"  # "ruleset" or "house-rule"
    base: str | None = None  # for a house-rule layer: the ruleset it goes on
    phases: tuple[str, ...] = ()  # step names in the order a side's steps come within a turn (a layer's: its base's)
    cites: tuple[str, ...] = ()  # a layer's: prefixes of its own references and ruling ids, which credit a resolution to it
    weather: tuple[str, ...] = ("clear",)  # the scenario weather values its rules play (or its rulings rule on)
