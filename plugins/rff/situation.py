"""``referee situation`` under rff: one exchange is the attacker's musketry or cannonade at the
defender, rolled once on the Musketry & Cannonade Table with the fire points and every modifier
the fire phase would use on that field (its charges are answered by play only)."""

from __future__ import annotations

from typing import Any

from referee.api import Exchange, Result, men_between, net

from . import fire, mechanics
from . import geometry as geo


def exchange(game: Any, attacker: str, defender: str, charge: bool) -> Exchange | None:
    if charge:
        return None
    state = game.state
    a, b = state.pieces[attacker], state.pieces[defender]
    shot = fire.aim(game, state, a, False, defender, None)
    if shot is None or shot.target is not b:
        return Exchange(f"{attacker} cannot fire at {defender} (out of range, arc or sight)", lambda roller: Result((0, 0), ("good", "good")))
    args = fire.table_inputs(game, state, shot)
    points, mods = args[2], args[4]
    men, start, standing = b.unit.spec.men, b.start_stands, b.stands

    def one_fire(roller: Any) -> Result:
        die, values = mechanics.fire_die_values(roller, *args)
        values = fire.layered_result(game, shot, die, values)
        lost = min(standing, int(values.get("gun_stands_wrecked" if b.guns else "stands_lost", 0)))
        if lost == standing:
            status = "gone"
        elif b.guns:
            status = "disordered" if values.get("gun_stands_silenced") or values.get("silence_remaining_guns") else "good"
        else:
            status = "disordered" if values.get("disordered") else "good"
        return Result((0, men_between(men, start, standing, standing - lost)), ("good", status))

    column = f"{points} fire points" + "".join(f" ({m.name})" for m in mods if m.on != "die")
    what = (f"one {shot.kind} roll of {attacker} at {defender}: d10 at {geo.yards(state, shot.range_inches):.0f} yards "
            f"({shot.range_inches:.1f}\"), {shot.stands} stands firing, {column}, net die modifier {net(mods):+d}")
    return Exchange(what, one_fire)
