"""``referee situation`` under sumter: one exchange is the attacker's fire at the defender, thrown
once as the fire phase would throw it on that field (musketry, a battery's fire or skirmish fire,
every modifier included); its hits fill the defender's DPs to 3, then take figures (SU-D1). The
morale tests that follow (so the defender's status, unless it is gone), the army's sniper and any
bounce-thru are left to play, as are charges."""

from __future__ import annotations

from referee.api import Exchange, Game, Result, Roller, men_between

from .combat import may_fire, volley
from .geometry import dist
from .state import SumterState, reach_inches


def exchange(game: Game, attacker: str, defender: str, charge: bool) -> Exchange | None:
    if charge:
        return None
    state: SumterState = game.state
    a, b = state.pieces[attacker], state.pieces[defender]
    contact = state.tables["scale"]["contact_inches"]
    if not may_fire(state, a) or dist(a, b) > state.yards(reach_inches(state, a) + contact):
        return Exchange(f"{attacker} cannot fire at {defender} (out of reach, or not deployed to fire)",
                        lambda roller: Result((0, 0), ("good", "good")))
    inches = max(0.0, dist(a, b) / state.ypi - contact)
    fire = volley(game, state, a, b, inches)
    room = max(0, state.tables["morale"]["hits_to_dps"] - b.dps)
    men, start, standing = b.unit.spec.men, b.start, b.figures

    def one_volley(roller: Roller) -> Result:
        lost = min(standing, max(0, fire(roller).values["hits"] - room))
        return Result((0, men_between(men, start, standing, standing - lost)), ("good", "gone" if lost == standing else None))

    kind = "a battery's fire" if a.arm == "artillery" else "skirmish fire" if a.skirmish else "musketry"
    what = (f"one throw of {attacker}'s {kind} at {defender}, {dist(a, b):.0f} yards ({inches:.1f}\"): hits fill "
            f"{defender}'s DPs to {room + b.dps}, then each takes a figure of {men // start if start else men} men "
            f"(the morale tests that follow are left to play)")
    return Exchange(what, one_volley)
