"""The doctrine's screened intent (infantry in line near the enemy wants skirmishers out) is the
intent it screens with ``skirmishers`` set and every other field carried over: it is built from
the fields (``doctrine._screened_if``), not by ``attrs.evolve``, so a field added to
:class:`~referee.core.engine.doctrine.Intent` must be carried over there too."""

from __future__ import annotations

from types import SimpleNamespace

from attrs import evolve, fields
from hypothesis import given, settings
from hypothesis import strategies as st
from referee.core.engine.doctrine import Intent, _screened_if

CARRIED = ("action", "goal", "target", "formation", "order", "skirmishers", "standoff")


def test_an_intent_has_the_fields_screening_carries_over() -> None:
    assert tuple(f.name for f in fields(Intent)) == CARRIED, "a new field of Intent: carry it over in doctrine._screened_if"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["advance", "hold", "charge", "withdraw", "rally"]),
       st.one_of(st.none(), st.tuples(st.floats(0, 3000), st.floats(0, 3000))),
       st.one_of(st.none(), st.sampled_from(["1st-nc", "3rd-ny"])),
       st.sampled_from([None, "line", "column", "skirmish", "unlimbered"]),
       st.sampled_from(["hold", "attack", "engage", "demonstrate", "defend"]),
       st.booleans(), st.one_of(st.none(), st.floats(0, 800)),
       st.sampled_from(["infantry", "cavalry", "artillery"]), st.booleans())
def test_a_screened_intent_is_the_intent_with_skirmishers_out(action, goal, target, formation, order, skirmishers, standoff,
                                                              arm, near) -> None:  # type: ignore[no-untyped-def]
    intent = Intent(action, goal, target, formation, order, skirmishers, standoff)
    unit = SimpleNamespace(spec=SimpleNamespace(arm=arm))
    wanted = near and formation == "line" and action in ("advance", "hold") and arm == "infantry"
    assert _screened_if(intent, unit, near) == (evolve(intent, skirmishers=True) if wanted else intent)  # type: ignore[arg-type]
