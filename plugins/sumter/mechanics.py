"""The Raising Sumter mechanics, each from plain inputs: the game builds the inputs from its
state and calls the same functions that ``referee resolve sumter ...`` runs at the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.api import InputSpec, MechanicSpec, Modifier, Resolution, Roller, net, world

from . import dice
from .mods import mods
from .tables import GRADES, ORDERS, RATES, SumterTables

REF_FIRE = "QRS v6.2, Infantry & Artillery Fire modifiers"
REF_UNIT = "QRS v6.2, Unit Morale Test"
REF_BRIGADE = "QRS v6.2, Brigade Morale Test"
TARGETS = ("line", "column", "march-column", "massed-columns", "skirmishers", "deployed-artillery", "charging-cavalry")
COVERS = ("none", "hedge-trees", "works", "prone")
KINDS = ("infantry", "cavalry", "lancers", "skirmisher", "artillery")
BONUSES = ("none", "charge", "countercharge", "pursuing", "following-up")
PLIGHTS = ("none", "pushed-back", "retreating", "prone")
GROUNDS = ("open", "cover", "buildings")
ARMS = ("other", "shotgun", "carbine", "repeater", "pistol")


def _target(t: SumterTables, i: Mapping[str, Any], enfilade: bool = False) -> tuple[Any, ...]:
    names = [i["target"]] if i["target"] in t["fire"]["target"] else []
    if i["cover"] != "none":
        names.append(i["cover"])
    if i.get("close_up"):
        names.append("close-up")
    if enfilade and i.get("enfilade") and i["target"] in ("line", "column", "march-column", "massed-columns"):
        names.append("enfiladed-line" if i["target"] == "line" else "enfiladed-column")
    return mods(t["fire"]["target"], REF_FIRE, names)


Extra = tuple[Modifier, ...]
"""Modifiers a house rule adds to one resolution (``Game.extra_modifiers``): each mechanic below
adds them to its score, once per resolution."""


def fire(roller: Roller, t: SumterTables, i: Mapping[str, Any], rulings: tuple[str, ...] = ("SU-F1", "SU-D1"),
         extra: Extra = ()) -> Resolution:
    """Musketry of an order unit (or mounted cavalry) on the Shooting Casualties table."""
    f = t["fire"]
    weapon = i["weapon"]
    names: list[Any] = [i["grade"], ("dp", i["dps"])]
    names += ["fired_last_turn"] if i["fired_last"] else []
    names += ["mounted"] if i["mounted"] else []
    names += ["breechloader"] if weapon in f["weapons"]["breechloader"] else ["smoothbore"] if weapon in f["weapons"]["smoothbore"] else []
    ms = mods(f["firer"], REF_FIRE, names) + _target(t, i) + extra
    portion = t.long_portion[(i["range"] == "long") + bool(i["low_ammo"])]
    figures = i["figures"] if i["formation"] == "line" else int(i["figures"] * t.column_share)
    return dice.volley(roller, t, "fire", "QRS v6.2, Shooting Casualties", t.fire_rows, figures, ms, portion,
                       i, rulings + (("SU-F3",) if i["formation"] != "line" else ()), 2 if i["pour"] else 1)


def artillery_fire(roller: Roller, t: SumterTables, i: Mapping[str, Any], rulings: tuple[str, ...] = ("SU-A1", "SU-D1"),
                   extra: Extra = ()) -> Resolution:
    """A battery's fire on the Artillery Casualties table."""
    a = t["artillery"]
    gun = a["guns"][i["gun"]]
    names: list[Any] = [("dp", i["dps"])]
    names += [i["grade"]] if i["grade"] in a["firer"] else []
    if i["range"] == "canister":
        names.append(f"canister-{gun['kind']}")
    elif i["cover"] != "none":
        names.append("shell-cover")
    names += ["horse-unlimbered"] if i["horse_unlimbered"] else []
    names += ["naval"] if gun.get("naval") else []
    names += ["mixed"] if i["mixed"] else []
    ms = mods(a["firer"], REF_FIRE, names) + _target(t, i, enfilade=True) + extra
    portion = t.long_portion[(i["range"] == "long") + bool(i["low_ammo"])]
    heavy = a["heavy_double_most"] if gun.get("heavy") and i["consecutive"] else 0
    if gun["kind"] == "gatling":  # each Gatling fires on the Shooting Casualties row "Under 10 / Gatling"
        rows = (t.fire_rows[0], t.fire_rows[1])
        return dice.volley(roller, t, "artillery-fire", "QRS v6.2, Shooting Casualties, Under 10 / Gatling", rows, i["models"], ms,
                           portion, i, rulings, 1, heavy)
    return dice.volley(roller, t, "artillery-fire", "QRS v6.2, Artillery Casualties", t.gun_rows, i["models"], ms,
                       portion, i, rulings, 1, heavy)


def skirmish_fire(roller: Roller, t: SumterTables, i: Mapping[str, Any], rulings: tuple[str, ...] = ("SU-F5", "SU-D1"),
                  extra: Extra = ()) -> Resolution:
    """Skirmish Firing: a d6 per so many figures by grade, one fewer per DP, 6s hit (a sniper:
    one die, 5 or 6); half in buildings, cover or prone; Pour on Fire +50% dice. Extra
    modifiers add to every die (a +1 hits on 5s)."""
    sk = t["fire"]["skirmish"]
    if i["sniper"]:
        n, hit_on = 1, sk["sniper_hit_on"]
    else:
        n, hit_on = max(0, i["figures"] // sk["figures_per_die"][i["grade"]] - i["dps"]), sk["hit_on"]
    n += n // 2 if i["pour"] else 0
    portion = t.cover_share if i["cover"] else dice.NO_SHARE
    return dice.skirmish_volley(roller, t, n, hit_on - net(extra), portion, i["pour"], i, extra, rulings)


def melee(roller: Roller, t: SumterTables, i: Mapping[str, Any], rulings: tuple[str, ...] = ("SU-M1", "SU-M2", "SU-M3"),
          extra: Extra = ()) -> Resolution:
    """One round of melee, its result with the exceptions, and the casualties by ratio (extra
    modifiers on side a's total)."""
    f = t["melee"]["factors"]
    sides = {}
    for me, foe in (("a", "b"), ("b", "a")):
        def g(key: str, me: str = me) -> Any:
            return i[f"{me}_{key}"]
        kind = g("kind")
        names: list[Any] = ["cavalry-v-skirmishers" if kind == "cavalry" and i[f"{foe}_kind"] == "skirmisher" else kind, g("grade")]
        names += [g("bonus")] if g("bonus") != "none" else []
        names += [g("plight")] if g("plight") != "none" else []
        names.append(("dp", g("dps")))
        names += ["flank"] if g("flank") else []
        names += ["buildings"] if g("ground") == "buildings" and i[f"{foe}_ground"] != "buildings" else []
        names += ["cover"] if g("ground") == "cover" and i[f"{foe}_ground"] != "cover" else []
        weapon = g("weapon")
        names += ["repeaters"] if weapon in ("repeater", "pistol") and i["round"] <= 2 else []
        names += ["shotguns"] if weapon == "shotgun" and i["round"] == 1 else []
        names += ["carbines"] if weapon == "carbine" and i["round"] == 1 else []
        mine, theirs = g("figures"), i[f"{foe}_figures"]
        if theirs > 0 and mine > theirs:
            names.append(("outnumbering", min(t["melee"]["outnumber_most"], int(2 * (mine - theirs) / theirs))))
        sides[me] = mods(f, "QRS v6.2, Melee", names)
    res = dice.melee(roller, t, sides["a"] + extra, sides["b"], i, rulings)
    v = dict(res.values)
    winner, result = v["winner"], v["result"]
    if winner == "none":
        v["a_lost"] = _ratio(t, i["a_kind"], i["a_figures"], "", "draw", "b")
        v["b_lost"] = _ratio(t, i["b_kind"], i["b_figures"], "", "draw", "a")
        cav = ("cavalry", "lancers")  # cavalry drawing against infantry or artillery retire to their lines
        v.update(loser="none", winner_dp=0, pursuit=False, follow_up="", cavalry_retire=(i["a_kind"] in cav) != (i["b_kind"] in cav))
        return Resolution(res.ruleset, res.mechanic, res.ref, res.result, res.inputs, res.modifiers, res.dice, res.total, v, res.rulings)
    w, lo = winner, "b" if winner == "a" else "a"
    wk, lk = i[f"{w}_kind"], i[f"{lo}_kind"]
    cav = ("cavalry", "lancers")
    if result == "pushed-back" and lk == "infantry" and wk in cav:
        result = "retreat"  # exception (a)
    # the winner's column (pursuit test or follow up) is read on the result's row: 8+ all take
    # the Pursuit Test, 7-3 cavalry and Raw or Trained foot; a battery's dispersal (exception b)
    # does not change the row (ruling SU-M5)
    pursuit = wk in cav and result in ("rout", "retreat") or (
        wk in ("infantry", "skirmisher") and (result == "rout" or result == "retreat" and i[f"{w}_grade"] in ("trained", "raw")))
    if lk == "artillery":
        result = "disperse"  # exception (b)
    v[f"{lo}_lost"] = _ratio(t, wk, i[f"{w}_figures"], lk, result, lo)
    v[f"{w}_lost"] = _ratio(t, lk, i[f"{lo}_figures"], wk, "lost", w)
    v.update(result=result, loser=lo, winner_dp=t["melee"]["winner_dp"], pursuit=pursuit, cavalry_retire=False,
             follow_up="must" if result == "pushed-back" and wk in cav else "may" if result == "pushed-back" else "")
    text = f"{w} wins by {abs(v['a'] - v['b'])}: {lo} {result}, {v['dps']} DP; casualties a {v['a_lost']}, b {v['b_lost']}"
    return Resolution(res.ruleset, res.mechanic, res.ref, text, res.inputs, res.modifiers, res.dice, res.total, v, res.rulings)


def _ratio(t: SumterTables, kind: str, figures: int, on: str, result: str, _: str) -> int:
    """Melee casualties by ratio inflicted by ``figures`` of ``kind`` (one figure per N,
    rounded down, ruling SU-M2); artillery counts as foot."""
    c = t["melee"]["casualties"]
    cav = kind in ("cavalry", "lancers")
    if result in ("lost", "draw"):
        per = c["losing-cavalry" if cav else "losing-foot"]
    elif cav and on in ("cavalry", "lancers"):
        per = c["cavalry-v-pushed-cavalry" if result == "pushed-back" else "cavalry-v-cavalry"]
    elif cav:
        per = c["cavalry-v-beaten-foot"]
    else:
        per = c["foot-v-pushed" if result == "pushed-back" else "foot-v-all"]
    return dice.ratio_casualties(figures, per)


def unit_morale(roller: Roller, t: SumterTables, i: Mapping[str, Any], rulings: tuple[str, ...] = ("SU-U2",),
                extra: Extra = ()) -> Resolution:
    """The Unit Morale Test in one column; each category counted once."""
    names: list[Any] = [i["grade"], ("dp", i["dps"])]
    names += [f"{i['general']}-general"] if i["general"] in ("excellent", "average") else []
    names += [f"{i['lost']}-lost"] if i["lost"] != "none" else []
    names += ["flank-fire"] if i["flank_fire"] else []
    names += ["bushwhacked"] if i.get("bushwhacked") else []  # SU-U6
    names += ["trenches"] if i["trenches"] and i["column"] != "charged" else ["cover"] if i["cover"] else []
    names += ["routing"] if i["routing"] else []
    names += [("friend-beaten", i["friends_beaten"])] if i["friends_beaten"] else []
    names += [("enemy-beaten", i["enemies_beaten"])] if i["enemies_beaten"] else []
    if i["column"] == "charged":
        names += ["charged-flank"] if i["flank"] else []
        names += [f"charged-by-{i['by']}"] if i["by"] in ("foot", "cavalry") else []
        names += ["charged-halted"] if i["halted"] else []
        names += ["skirmishers-by-skirmishers"] if i["by"] == "skirmishers" else []
    if i["column"] == "charge":
        names += ["charge-flank"] if i["flank"] else []
        names += [("charge-casualty", i["casualties"])] if i["casualties"] else []
        names += [("charge-wave", i["wave"])] if i["wave"] else []
        names += ["rebel-yell"] if i["rebel_yell"] else []
    if i["column"] == "rally" and i["rebel_yell"]:
        names.append("rebel-yell-rally")
    res = dice.unit_morale(roller, t, i["column"], mods(t["morale"]["unit"], REF_UNIT, names) + extra, i, rulings)
    if i["column"] == "rally" and i["routing"] and res.values["result"] in ("fail", "rout"):
        # "4-3 Fail. (Disperse if Routing)" and "2-0 Rout. (Disperse if Routing)"
        v = {**res.values, "result": "disperse"}
        return Resolution(res.ruleset, res.mechanic, res.ref, f"{res.values['result']}: disperses (routing)", res.inputs,
                          res.modifiers, res.dice, res.total, v, res.rulings)
    return res


def brigade_morale(roller: Roller, t: SumterTables, i: Mapping[str, Any], extra: Extra = ()) -> Resolution:
    """The Brigade Morale Test."""
    names: list[Any] = []
    names += ["general"] if i["general"] else []
    names += [i["order"]] if i["order"] in ("assault", "move") else []
    names += [f"{i['grade']}-grade"] if i["grade"] in ("good", "poor") else []
    names += ["enemy-beaten"] if i["enemy_beaten"] else []
    names += [("secure-flank", i["secure_flanks"])] if i["secure_flanks"] else []
    names += ["cover"] if i["cover"] else []
    names += [f"{i['beaten']}-beaten"] if i["beaten"] != "none" else []
    names += ["secure-rear"] if i["secure_rear"] else []
    return dice.brigade_morale(roller, t, mods(t["morale"]["brigade"], REF_BRIGADE, names) + extra, i, ("SU-B1", "SU-B3"))


def movement(roller: Roller, t: SumterTables, i: Mapping[str, Any]) -> Resolution:
    """A unit's movement dice for one kind of move (the larger number where the table gives a
    choice, unless ``dice`` says)."""
    die, count, inches = move_dice_of(t, i["unit"], i["move"], i["dice"])
    return dice.movement(roller, t, die, count, inches, i["move"] == "skirmish", i)


def move_dice_of(t: SumterTables, unit: str, move: str, count: int = 0) -> tuple[str, int, int]:
    r = t["movement"]["rates"][unit]
    if move == "column":
        return r["die"], r["column"], r["column_inches"]
    if move == "skirmish":
        return r["die"], r["skirmish"], 0
    if move in ("retreat", "pursuit"):
        n = r["retreat"] if move == "retreat" else r["pursuit"]
        return r["retreat_die"], n, 0
    n = count if count in r["line"] else r["line"][-1]
    if move == "charge":
        return r["die"], n + r["charge_dice"], r["charge_inches"]
    return r["die"], n, 0


def order_change(roller: Roller, t: SumterTables, i: Mapping[str, Any]) -> Resolution:
    return dice.order_change(roller, t, i["present"], i["wanted"], i["cinc"], i)


def pursuit(roller: Roller, t: SumterTables, i: Mapping[str, Any], extra: Extra = ()) -> Resolution:
    p = t["melee"]["pursuit"]
    names: list[Any] = [i["grade"]] if i["grade"] in p else []
    names += ["infantry"] if i["infantry"] else []
    names += ["general"] if i["general"] else []
    names += ["rebel-yell"] if i["rebel_yell"] else []
    return dice.pursuit(roller, t, mods({k: v for k, v in p.items() if isinstance(v, int)}, "QRS v6.2, Pursuit Test", names) + extra, i)


def _b(name: str, help: str) -> InputSpec:
    return InputSpec(name, "bool", help, False)


def _i(name: str, help: str, default: int = 0, lo: int = 0, hi: int = 99) -> InputSpec:
    return InputSpec(name, "int", help, default, minimum=lo, maximum=hi)


def _c(name: str, help: str, choices: tuple[str, ...], default: str | None = None) -> InputSpec:
    return InputSpec(name, "choice", help, default or choices[0], choices)


GRADE = _c("grade", "Veteran, Regular, Trained or Raw", GRADES, "regular")
TARGET_INPUTS = (_c("target", "the target's formation or kind", TARGETS), _c("cover", "the target's cover", COVERS),
                 _b("close_up", "the target is in close order after Close up"))
HITS = {"hits": "hits scored (whole, after halving and the semi-hit)", "score": "the modified score of the (first) throw",
        "table_hits": "hits read off the table before halving", "semi": "the fraction thrown for on the D12 ('' if none)",
        "semi_hit": "whether the semi-hit scored", "low_ammo": "Pour on Fire left the unit low on ammunition"}


def mechanic_specs(t: SumterTables) -> list[MechanicSpec]:
    def run(fn: Any) -> Any:
        return lambda roller, inputs: fn(roller, t, inputs)

    side = []
    for s in ("a", "b"):
        side += [_c(f"{s}_kind", f"side {s}: troop type", KINDS), _c(f"{s}_grade", f"side {s}: grade", GRADES, "regular"),
                 _i(f"{s}_figures", f"side {s}: figures", 16, 1, 200), _i(f"{s}_dps", f"side {s}: DPs", 0, 0, 5),
                 _c(f"{s}_bonus", f"side {s}: charge, countercharge, pursuing or following up", BONUSES),
                 _c(f"{s}_plight", f"side {s}: pushed back, retreating or prone", PLIGHTS),
                 _b(f"{s}_flank", f"side {s}: attacked in flank or rear"), _c(f"{s}_ground", f"side {s}: its ground", GROUNDS),
                 _c(f"{s}_weapon", f"side {s}: a weapon with a melee factor", ARMS)]
    return [
        MechanicSpec("fire", "Musketry on the Shooting Casualties table (2D6 + modifiers)", "QRS v6.2, Firing",
                     (_i("figures", "figures firing", 16, 1, 200), GRADE, _c("weapon", "firearm", (*world.WEAPONS, "pistol"), "rifle-musket"),
                      _c("range", "effective or long", ("effective", "long")), _c("formation", "the firer's formation", ("line", "column")),
                      _i("dps", "the firer's DPs", 0, 0, 5), _b("fired_last", "fired last turn"), _b("mounted", "firing mounted"),
                      _b("low_ammo", "low on ammunition"), _b("pour", "Pour on Fire: twice the dice (repeating rifles)"), *TARGET_INPUTS),
                     run(fire), {**HITS, "gun_lost": "always false for musketry"}),
        MechanicSpec("artillery-fire", "A battery on the Artillery Casualties table", "QRS v6.2, Artillery Firing",
                     (_i("models", "gun models firing", 1, 1, 12), _c("gun", "the neutral gun type (band: ruling SU-A1)", world.GUN_TYPES, "12-pdr-napoleon"),
                      GRADE, _c("range", "canister, effective or long", ("canister", "effective", "long"), "effective"),
                      _i("dps", "the battery's DPs", 0, 0, 5), _b("horse_unlimbered", "horse battery unlimbered or turned"),
                      _b("mixed", "mixed battery at the same range"), _b("low_ammo", "low on ammunition"),
                      _b("consecutive", "fired last turn too (heavy guns' double 1-5)"), _b("enfilade", "enfilading the target"), *TARGET_INPUTS),
                     run(artillery_fire), {**HITS, "gun_lost": "a heavy gun's unmodified double 1-5 lost a gun"}),
        MechanicSpec("skirmish-fire", "Skirmish Firing: d6s by figures and grade, 6s hit", "QRS v6.2, Skirmish Firing",
                     (_i("figures", "skirmishing figures", 8, 0, 200), GRADE, _i("dps", "DPs (one die fewer each)", 0, 0, 5),
                      _b("cover", "target in buildings, cover or prone (half)"), _b("pour", "Pour on Fire: +50% dice"),
                      _b("sniper", "a sniper: one d6, 5 or 6 hits")),
                     run(skirmish_fire), {"hits": HITS["hits"], "dice": "d6s thrown", "table_hits": "6s thrown",
                                          "semi": HITS["semi"], "semi_hit": HITS["semi_hit"], "low_ammo": HITS["low_ammo"]}),
        MechanicSpec("melee", "One round of melee: 2D6 + factors each side, result by the difference", "QRS v6.2, Melee",
                     (*side, _i("round", "the round of this melee", 1, 1, 20)), run(melee),
                     {"winner": "a, b or none", "loser": "a, b or none", "result": "rout, retreat, pushed-back, disperse or draw",
                      "dps": "DPs the loser takes", "a": "side a's total", "b": "side b's total", "a_lost": "figures side a loses",
                      "b_lost": "figures side b loses", "winner_dp": "DPs the winner takes", "pursuit": "the winner takes a pursuit test",
                      "follow_up": "after a push back: must (cavalry) or may (foot) follow up", "cavalry_retire": "cavalry drawing with foot or guns retire"}),
        MechanicSpec("unit-morale", "The Unit Morale Test and its result", "QRS v6.2, Unit Morale Test",
                     (_c("column", "to charge, being charged, other or to rally", ("other", "charge", "charged", "rally")), GRADE,
                      _c("general", "general attached", ("none", "excellent", "average", "poor")), _i("dps", "DPs", 0, 0, 5),
                      _c("lost", "casualties lost", ("none", "quarter", "half")), _b("cover", "hard or soft cover, prone or uphill"),
                      _b("trenches", "foot in trenches"), _b("flank_fire", "fired on by order infantry in flank or rear"),
                      _i("friends_beaten", "friends in retreat, rout or dispersed within 12\""), _i("enemies_beaten", "enemies so within 12\""),
                      _b("routing", "the unit is routing"), _b("flank", "charged in (or charging) flank, rear or skirmishers"),
                      _c("by", "being charged by", ("none", "foot", "cavalry", "skirmishers")), _b("halted", "charged whilst halted, rallying or in retreat"),
                      _i("casualties", "casualties beyond DPs suffered in the charge"), _i("wave", "successive wave in a brigade charge"),
                      _b("rebel_yell", "Rebel Yell (charge: +2; rally after a failed yell: -1)"),
                      _b("bushwhacked", "bushwhacked, in the first turn (a unit the scenario marks surprised)")),
                     run(unit_morale), {"result": "charge, halt, retreat, rout, stand, obey, rally, fail or disperse",
                                        "dps": "DPs taken", "column": "the column read"}),
        MechanicSpec("brigade-morale", "The Brigade Morale Test", "QRS v6.2, Brigade Morale Test",
                     (_b("general", "general in line of command within command radius"), _c("order", "the brigade's order", ORDERS, "engage"),
                      _c("grade", "over half the units Vet/Reg (good) or Trained/Raw (poor)", ("good", "poor", "mixed"), "mixed"),
                      _b("enemy_beaten", "enemy retreating or routing within 12\""), _i("secure_flanks", "secure flanks", 0, 0, 2),
                      _b("cover", "over half in buildings, woods or prone"),
                      _c("beaten", "share of the brigade in retreat, rout or dispersed", ("none", "quarter", "half", "most")),
                      _b("secure_rear", "secure rear")),
                     run(brigade_morale), {"passed": "the brigade holds (ruling SU-B1: pass score)"}),
        MechanicSpec("order-change", "A general changes his brigade's order: 2D6, cock-up on 2 (CinC) or 2-4", "QRS v6.2, Cock-up!",
                     (_c("present", "the brigade's order", ORDERS, "hold"), _c("wanted", "the order wanted", ORDERS, "assault"),
                      _b("cinc", "the CinC gives the order")),
                     run(order_change), {"order": "the brigade's order now", "cockup": "the roll was a cock-up"}),
        MechanicSpec("movement", "Movement dice and the DPs they throw", "QRS v6.2, Movement",
                     (_c("unit", "the movement table's row", RATES, "foot-good"),
                      _c("move", "kind of move", ("line", "column", "skirmish", "charge", "retreat", "pursuit")),
                      _i("dice", "dice for a line move where the table gives a choice (0: the larger)", 0, 0, 3)),
                     run(movement), {"inches": "inches moved", "dps": "DPs thrown (each 1 or 2; skirmishers at most 1)"}),
        MechanicSpec("pursuit", "The Pursuit Test after winning a melee", "QRS v6.2, Pursuit Test",
                     (GRADE, _b("infantry", "the pursuer is infantry"), _b("general", "CinC or brigade general within command radius"),
                      _b("rebel_yell", "a Rebel Yell broke the enemy")),
                     run(pursuit), {"result": "formed, stand, halt or pursue", "dps": "DPs taken (-1: one recovered)"}),
    ]
