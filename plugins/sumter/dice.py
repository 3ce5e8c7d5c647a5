"""Raising Sumter's rolls as mechanics: each a function of a roller and plain inputs that
returns a cited :class:`~referee.core.engine.events.Resolution`, the same code in a game and at the
table (sampled or exact). Modifiers are built by the callers (:mod:`.modifiers`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from referee.api import D6, D12, Die, Modifier, Resolution, Roller, dice_sum, net

from .tables import DIE, SumterTables

RULESET = "sumter"
NO_PART = Fraction(0)  # the fraction of a hit when the hits are whole
NO_SHARE = Fraction(1)  # every hit kept


def _throw(roller: Roller) -> tuple[int, int]:
    """2D6 thrown as a pair: (sum, the face of a double or 0)."""
    a, b = roller.roll(D6), roller.roll(D6)
    return a + b, a if a == b else 0


def score_column(score: int) -> int | None:
    """The casualty table's column of a modified score: 0 | 1-2 | ... | 17-18 (ruling SU-F4:
    over 18 reads 17-18; below 0 hits nothing)."""
    if score < 0:
        return None
    return min(9, (score + 1) // 2)


def row_hits(rows: tuple[tuple[int, ...], ...], count: int, column: int) -> int:
    """Hits of ``count`` figures (or gun models) in ``column``; over the table's last row the
    rest fire as a row of their own (rulings SU-F2, SU-A2)."""
    most = len(rows) - 1
    hits = 0
    while count > most:
        hits += rows[most][column]
        count -= most
    return hits + rows[count][column]


def semi_hit(roller: Roller, t: SumterTables, part: Fraction) -> bool:
    """A fraction of a hit: a D12 makes it a hit on the printed score (Semi-Hits)."""
    need = t["fire"]["semi_hits"].get(f"{part.numerator}/{part.denominator}")
    if need is None:  # SU-F8: a fraction the sheet does not print: the same share of the D12's faces
        need = 13 - max(1, round(12 * part))
    hit: bool = roller.sub(_d12_at_least, need)
    return hit


def _d12_at_least(roller: Roller, need: int) -> bool:
    return roller.roll(D12) >= need


def hits_of(roller: Roller, t: SumterTables, whole: int, portion: Fraction) -> tuple[int, Fraction, bool]:
    """Hits after a share (long range, low ammo, cover, bounce): the whole part, and the
    fraction thrown for as a semi-hit. Returns (hits, the fraction, did it hit)."""
    hits, rest = divmod(whole * portion.numerator, portion.denominator)  # (in whole numbers: no fraction made for none)
    if not rest:  # no share, or one that leaves no fraction to throw for
        return hits, NO_PART, False
    part = Fraction(rest, portion.denominator)
    if semi_hit(roller, t, part):
        return hits + 1, part, True
    return hits, part, False


def volley(roller: Roller, t: SumterTables, mechanic: str, ref: str, rows: tuple[tuple[int, ...], ...], count: int,
           mods: tuple[Modifier, ...], portion: Fraction, inputs: Mapping[str, Any], rulings: tuple[str, ...] = (),
           throws: int = 1, heavy: int = 0) -> Resolution:
    """2D6 plus modifiers on a casualty table (Shooting or Artillery Casualties), the share
    applied, the fraction thrown as a semi-hit. ``throws`` 2 = Pour on Fire (twice the dice,
    ruling SU-F7): any double but double 6 leaves the unit low on ammunition. ``heavy`` > 0:
    an unmodified double of 1..heavy loses a gun."""
    bonus = net(mods)
    whole, dice, low, lost, scores = 0, [], False, False, []
    for _ in range(throws):
        total, face = roller.sub(_throw)
        dice.append(total)
        score = total + bonus
        scores.append(score)
        col = score_column(score)
        if col is not None:
            whole += row_hits(rows, count, col)
        low = low or (throws > 1 and 0 < face < 6)
        lost = lost or 0 < face <= heavy
    hits, part, semi = hits_of(roller, t, whole, portion)
    values = {"hits": hits, "score": scores[0], "table_hits": whole, "semi": f"{part}" if part else "",
              "semi_hit": semi, "low_ammo": low, "gun_lost": lost}
    text = f"{hits} hit{'s' * (hits != 1)}" + (" and low on ammunition" if low else "") + (", a gun lost" if lost else "")
    return Resolution(RULESET, mechanic, ref, text, inputs, mods, tuple(dice), scores[0], values, rulings)


def _pair(roller: Roller, hit_on: int) -> tuple[int, bool]:
    a, b = roller.roll(D6), roller.roll(D6)
    return (a >= hit_on) + (b >= hit_on), a == b and a != 6


def _face(roller: Roller) -> int:
    return roller.roll(D6)


def _add_pair(so_far: tuple[int, bool], pair: tuple[int, bool]) -> tuple[int, bool]:
    """Hits so far and whether any double (but 6-6) was thrown, after one more pair."""
    return so_far[0] + pair[0], so_far[1] or pair[1]


def skirmish_volley(roller: Roller, t: SumterTables, dice: int, hit_on: int, portion: Fraction, pour: bool,
                    inputs: Mapping[str, Any], mods: tuple[Modifier, ...], rulings: tuple[str, ...]) -> Resolution:
    """Skirmish fire: ``dice`` d6 thrown in pairs, each ``hit_on`` or more a hit; the share
    applied (cover); with Pour on Fire a double but 6-6 leaves it low on ammunition. A volley of
    one die (the sniper's) logs its face as the dice and the score; a larger one logs the hits
    thrown as the score (its pairs are counted, not kept)."""
    whole, double = roller.fold(_add_pair, (0, False), dice // 2, _pair, hit_on)
    low = pour and double
    face = roller.sub(_face) if dice % 2 else 0
    whole += face >= hit_on
    hits, part, semi = hits_of(roller, t, whole, portion)
    values = {"hits": hits, "dice": dice, "table_hits": whole, "semi": f"{part}" if part else "", "semi_hit": semi, "low_ammo": low}
    text = f"{hits} hit{'s' * (hits != 1)} from {dice} dice" + (" and low on ammunition" if low else "")
    thrown, score = ((face,), face) if dice == 1 else ((), whole)
    return Resolution(RULESET, "skirmish-fire", "QRS v6.2, Skirmish Firing", text, inputs, mods, thrown, score, values, rulings)


def test2d6(roller: Roller, mods: tuple[Modifier, ...]) -> tuple[int, int]:
    """2D6 plus modifiers: (the dice, the modified score)."""
    dice = dice_sum(roller, D6, 2)
    return dice, dice + net(mods)


def cell(text: str) -> tuple[str, int]:
    """A morale result cell "retreat+2" as (result, DPs)."""
    result, _, dps = text.partition("+")
    return result, int(dps or 0)


def unit_morale(roller: Roller, t: SumterTables, column: str, mods: tuple[Modifier, ...], inputs: Mapping[str, Any],
                rulings: tuple[str, ...] = ()) -> Resolution:
    """The Unit Morale Test: 2D6 plus modifiers, read in one column (charge, charged, other, rally)."""
    dice, score = test2d6(roller, mods)
    band = t.morale.band(score)
    result, dps = cell(band.result[column])
    return Resolution(RULESET, "unit-morale", f"QRS v6.2, Unit Morale Test Results, {band.text()}, {column}",
                      result + (f" +{dps} DP" if dps else ""), inputs, mods, (dice,), score,
                      {"result": result, "dps": dps, "column": column}, rulings)


def recall(roller: Roller, score: int, mods: tuple[Modifier, ...], inputs: Mapping[str, Any]) -> Resolution:
    """Skirmish Recall: 2D6 plus modifiers against the grade's score."""
    dice = dice_sum(roller, D6, 2)
    total = dice + net(mods)
    ok = total >= score
    return Resolution(RULESET, "skirmish-recall", f"QRS v6.2, Skirmish Recall, {score}+", "recalled" if ok else "stays out",
                      inputs, mods, (dice,), total, {"recalled": ok})


def brigade_morale(roller: Roller, t: SumterTables, mods: tuple[Modifier, ...], inputs: Mapping[str, Any],
                   rulings: tuple[str, ...] = ("SU-B1",)) -> Resolution:
    """The Brigade Morale Test: 2D6 plus modifiers; it holds on the pass score (ruling SU-B1)."""
    dice, score = test2d6(roller, mods)
    passed = score >= t["morale"]["brigade"]["pass"]
    return Resolution(RULESET, "brigade-morale", "QRS v6.2, Brigade Morale Test", "holds" if passed else "breaks",
                      inputs, mods, (dice,), score, {"passed": passed}, rulings)


def order_change(roller: Roller, t: SumterTables, present: str, wanted: str, cinc: bool, inputs: Mapping[str, Any],
                 extra: tuple[Modifier, ...] = ()) -> Resolution:
    """A general tries to change his brigade's order: 2D6; a cock-up (2 for the CinC, 2-4 for
    any other general) puts it on the loss-of-nerve order (trying a more aggressive order) or
    the panic order (a less aggressive one); otherwise the new order stands (ruling SU-C2).
    "N/A" keeps the present order (SU-C5). The sheet has no modifiers; a house rule's add to
    the dice before the cock-up is read."""
    c = t["command"]
    dice = dice_sum(roller, D6, c["dice"])
    score = dice + net(extra)
    cockups = c["cinc_cockup"] if cinc else c["general_cockup"]
    rulings: tuple[str, ...] = ("SU-C2",)
    if score not in cockups:
        order, result = wanted, f"order changed to {wanted}"
    else:
        column = "loss_of_nerve" if c["aggression"][wanted] > c["aggression"][present] else "panic"
        order = c[column][present] or present
        rulings += ("SU-C5",) if not c[column][present] else ()
        result = f"cock-up! {'loss of nerve' if column == 'loss_of_nerve' else 'panic'}: {order}"
    return Resolution(RULESET, "order-change", f"QRS v6.2, Cock-up! ({'CinC' if cinc else 'general'})", result, inputs, extra,
                      (dice,), score, {"order": order, "cockup": score in cockups}, rulings)


def _move_die(roller: Roller, die: Die, faces: tuple[int, ...]) -> tuple[int, bool]:
    face = roller.roll(die)
    return face, face in faces


def _add_move(so_far: tuple[int, int], die: tuple[int, bool]) -> tuple[int, int]:
    """The inches thrown so far and the DPs (each 1 or 2), after one more die."""
    return so_far[0] + die[0], so_far[1] + die[1]


def movement(roller: Roller, t: SumterTables, die: str, count: int, inches: int | Fraction, skirmish: bool,
             inputs: Mapping[str, Any], rulings: tuple[str, ...] = (), extra: tuple[Modifier, ...] = ()) -> Resolution:
    """Movement dice: the inches they give plus any fixed inches, and 1 DP for each 1 or 2
    thrown (at most 1 for skirmishers). The sheet has no modifiers; a house rule's add inches
    (never below none). The dice are folded into their inches and DPs as they are thrown: no
    tally of faces is made and summed (that cost 2.4 % of a Big Bethel game)."""
    mv = t["movement"]
    thrown, dps = roller.fold(_add_move, (0, 0), count, _move_die, DIE[die], tuple(mv["dp_faces"]))
    if skirmish:
        dps = min(dps, mv["skirmish_dp_most"])
    total = max(0, thrown + inches + net(extra)) if extra else thrown + inches
    return Resolution(RULESET, "movement", "QRS v6.2, Movement", f'{total}" and {dps} DP', inputs, extra, (thrown,), total,
                      {"inches": total, "dps": dps}, rulings)


def melee(roller: Roller, t: SumterTables, a: tuple[Modifier, ...], b: tuple[Modifier, ...], inputs: Mapping[str, Any],
          rulings: tuple[str, ...] = ()) -> Resolution:
    """Melee: each side 2D6 plus its factors; the result by the difference of totals. Values:
    ``winner`` (a, b or none), ``result`` (rout, retreat, pushed-back, draw), ``dps`` (the loser's)."""
    da, db = dice_sum(roller, D6, 2), dice_sum(roller, D6, 2)
    ta, tb = da + net(a), db + net(b)
    band = t.melee_results.band(abs(ta - tb))
    winner = "none" if ta == tb else ("a" if ta > tb else "b")
    result, dps = band.result, t.melee_dps.lookup(abs(ta - tb))
    mods = tuple(Modifier(f"a: {m.name}", m.value, m.ref) for m in a) + tuple(Modifier(f"b: {m.name}", m.value, m.ref) for m in b)
    text = "draw" if winner == "none" else f"{winner} wins by {abs(ta - tb)}: loser {result}, {dps} DP"
    return Resolution(RULESET, "melee", f"QRS v6.2, Melee Result, {band.text()}", text, inputs, mods, (da, db), ta - tb,
                      {"winner": winner, "result": result, "dps": dps, "a": ta, "b": tb}, rulings)


def pursuit(roller: Roller, t: SumterTables, mods: tuple[Modifier, ...], inputs: Mapping[str, Any]) -> Resolution:
    """The Pursuit Test: 2D6 plus modifiers."""
    dice = dice_sum(roller, D6, t["melee"]["pursuit"]["dice"])
    score = dice + net(mods)
    band = t.pursuit.band(score)
    result, dps = band.result
    return Resolution(RULESET, "pursuit", f"QRS v6.2, Pursuit Test, {band.text()}", result + (f" {dps:+d} DP" if dps else ""),
                      inputs, mods, (dice,), score, {"result": result, "dps": dps})


def ratio_casualties(figures: int, per: int) -> int:
    """Melee casualties by ratio: one figure per ``per`` figures, rounded down (ruling SU-M2)."""
    return figures // per

