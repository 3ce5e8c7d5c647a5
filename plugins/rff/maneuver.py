"""The maneuver phase: leaders, maneuver checks with every modifier, and their effects.

The commander's intent (doctrine) says what a piece wants; the Maneuver Table says what it may
do. Which pieces roll, how a charge is declared and how far retreats go are rulings
(docs/rulings/rff.md, RFF-P7 to RFF-P11).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from attrs import define
from referee.api import Game, Modifier, men_between, short_of

from . import geometry as geo
from . import leaders, lookup, mechanics, move, skirmishers
from .state import FROM_NEUTRAL, Piece, RffState
from .tables import RffTables

CHARGE_EFFECTS = ("double-quick", "well-handled")  # RFF-P9
LINES = ("line", "extended-line")  # formations that wheel rather than turn
ASK = object()  # modifiers: the commander is not known yet
PACE = {"double-quick": "double", "well-handled": "full", "tardy": "half", "rally-with-elan": "full", "rally": "half"}


def phase(game: Game, state: RffState, side: str) -> None:
    leaders.replace_and_place(game, state, side)
    intents = game.intents(side)
    state.targets.update({u: i.target for u, i in intents.items()})
    read = check_tables(state.tables)  # (once a phase, for every piece's check)
    pieces = state.of_side(side)  # (a shared list no one changes: pieces that come or go make a new one)
    waiting = state.to_maneuver
    for piece in pieces:  # a new phase for all, before any moves: one not reached yet has not moved (HYNDS-P1)
        piece.may_fire, piece.moved, piece.charge_target, piece.cold_steel = True, "", None, False
        if (intent := intents.get(piece.unit_id)) is not None:
            waiting[piece.id] = intent
    for piece in pieces:
        intent = waiting.pop(piece.id, None)
        if intent is None or not piece.alive:
            continue
        if piece.parent is not None:  # skirmishers check on their own, then keep station
            if skirmishers.stays_out(game, state, piece):
                check(game, state, piece, skirmishers.own_intent(piece, intent))
                skirmishers.keep_station(game, state, piece, intent)
            continue
        if not needs_check(game, state, piece, intent, read.outflank):
            piece.effect = "hold"
            continue
        check(game, state, piece, intent, read)
        skirmishers.after_regiment_moved(game, state, piece, intent)


def needs_check(game: Game, state: RffState, piece: Piece, intent: Any, outflank: float | None = None) -> bool:
    """RFF-P7: a piece in good order that only holds, already in the formation wanted and not
    outflanked, makes no check; everything else rolls (a piece low on ammunition too: a Well
    Handled check replenishes it, RFF-P20). ``outflank``: :func:`outflank_yards`, when the caller has it."""
    if piece.status != "good" or piece.silenced or intent.action != "hold" or piece.low_ammo:
        return True
    if FROM_NEUTRAL.get(intent.formation, piece.formation) != piece.formation:  # the rff formation the intent asks for: the piece's own if none (or none rff has)
        return True
    if piece.formation in LINES and move.turn_needed(piece, target_piece(state, intent)) > geo.FRONT_ARC:
        return True  # a line must maneuver to wheel
    return geo.outflanked(state, piece, outflank or outflank_yards(state.tables))


def check(game: Game, state: RffState, piece: Piece, intent: Any, read: CheckTables | None = None) -> None:
    """Roll the piece's maneuver check and carry out its effect (``read``: :func:`check_tables`,
    when the caller has it)."""
    status = "good-order" if piece.guns or piece.status == "good" else "disordered"  # guns: always good order
    commander = leaders.commander(game, state, piece)
    if "referee_modifiers" in game.rules.implemented:  # a layer's modifiers ask for the commander too: one answer for both
        state.checking, state.checking_leader = piece, commander
        mods = modifiers(game, state, piece, commander, read) + game.extra_modifiers("maneuver", piece)
        state.checking = None
    else:
        mods = modifiers(game, state, piece, commander, read)
    roll = (game.roller, state.tables, status, tuple(mods))
    if game.seen:
        values = game.settle("maneuver", piece, mechanics.maneuver(*roll), rulings=_cited(state, mods), unit=piece.id).values
    else:
        values = mechanics.maneuver_values(*roll)  # the same roll, without a Resolution no one sees
    effect = values["effect"]
    if "twilight-and-night" in game.options and leaders.is_night(game) and effect in ("double-quick", "well-handled"):
        game.log.emit("ruling", unit=piece.id, text=f"night: {piece.id}'s Double Quick or Well Handled effect performs only a Tardy maneuver")
        effect = "tardy"
    piece.effect = effect
    apply(game, state, piece, intent, effect, values)


def modifiers(game: Game, state: RffState, piece: Piece, commander: Any = ASK, read: CheckTables | None = None) -> list[Modifier]:
    """Every die-roll modifier of the Maneuver Table that applies to the piece now (``commander``:
    :func:`leaders.commander`'s answer, ``read``: :func:`check_tables`, when the caller has them)."""
    if read is None:
        read = check_tables(state.tables)
    printed = read.printed
    if commander is ASK:
        commander = leaders.commander(game, state, piece)
    if commander is None:
        mods = [printed["out-of-command"]]
    else:
        mods = [printed[commander.rating]]
        if commander.provisional:
            mods.append(printed["provisional-command"])
        if commander.attached == piece.id:  # an attached leader is always the commander
            mods.append(printed["attached-leader"])  # the brave colonel too: RFF-P35
    mods.append(printed[piece.grade])
    mods.append(printed[effectiveness(state, piece, read.effectiveness[piece.grade])])
    if piece.guns:
        mods.append(printed["battery"])
    if (piece.status != "broken" and piece.formation in ("field-column", "march-column", "limbered")) or geo.linear_cover(game, piece):  # RFF-P31
        mods.append(printed["column-or-cover"])
    if piece.status == "broken" or geo.outflanked(state, piece, read.outflank):
        mods.append(printed["outflanked-or-broken"])
    if key_position_lost(game, state, piece.side):
        mods.append(printed["key-position-lost"])
    losses = brigade_losses(game, state, piece, read.brigade_losses)
    if losses:
        mods.append(printed[losses])
    return mods


@define(frozen=True)
class CheckTables:
    """What every maneuver check reads from the tables, read once per tables (one cached
    answer a check instead of one a figure)."""
    printed: dict[str, Modifier]  # the Maneuver Table's modifiers by id, and a leader's by his rating
    outflank: float  # outflank_yards
    effectiveness: dict[str, tuple[float, float]]  # by grade: the shares lost at which it is worn, and spent
    brigade_losses: tuple[float, float]  # the brigade's shares lost for heavy casualties, and greater losses


@cache
def check_tables(t: RffTables) -> CheckTables:
    grades = t.procedures["effectiveness"]
    return CheckTables(printed_modifiers(t), outflank_yards(t), {g: lookup.effectiveness_thresholds(t, g) for g in grades},
                       lookup.brigade_loss_thresholds(t))


def printed_modifiers(t: RffTables) -> dict[str, Modifier]:
    """The Maneuver Table's modifiers by id, and a leader's by his rating."""
    found = {key: lookup.modifier(t, "maneuver", key) for key in t.maneuver.modifiers}
    return found | {rating: lookup.modifier(t, "maneuver", rating) for rating in lookup.RATING_MODIFIER}


@cache
def outflank_yards(t: RffTables) -> float:
    """How near an enemy on the flank or rear outflanks a piece (RFF-P4), in yards (asked at every check)."""
    return lookup.distance(t, "outflank") * t.scale.yards_per_inch


def _cited(state: RffState, mods: list[Modifier]) -> tuple[str, ...]:
    """The procedure rulings behind a maneuver check's modifiers."""
    t = state.tables
    by_rule = {
        "RFF-P4": lookup.modifier(t, "maneuver", "outflanked-or-broken"),
        "RFF-P8": lookup.modifier(t, "maneuver", "heavy-casualties"),
        "RFF-P13": lookup.modifier(t, "maneuver", "provisional-command"),
    }
    greater = lookup.modifier(t, "maneuver", "greater-losses")
    cited = ["RFF-P7", "RFF-P12"] + [r for r, m in by_rule.items() if m in mods]
    return tuple(cited + (["RFF-P8"] if greater in mods else []))


def effectiveness(state: RffState, piece: Piece, thresholds: tuple[float, float] | None = None) -> str:
    """fresh, worn or spent from the stands the regiment and its skirmishers have lost (RFF-P12);
    ``thresholds``: the grade's, when the caller has them (:class:`CheckTables`)."""
    main = state.pieces[piece.unit_id]
    standing = main.stands + (state.pieces[main.skirmishers].stands if main.skirmishers else 0)
    lost = 1 - standing / main.start_stands
    worn, spent = thresholds or lookup.effectiveness_thresholds(state.tables, piece.grade)
    return "spent" if lost >= spent else "worn" if lost >= worn else "fresh"


def brigade_losses(game: Game, state: RffState, piece: Piece, thresholds: tuple[float, float] | None = None) -> str | None:
    """RFF-P8: heavy casualties / greater losses are read off the piece's brigade (not when the
    brigade is the one unit: its losses are already its fresh, worn or spent); ``thresholds``:
    the tables', when the caller has them (:class:`CheckTables`)."""
    command = piece.command
    start = state.start_stands_by_command.get(command, 0)
    if not start or state.units_by_command.get(command, 0) < 2:
        return None
    lost = state.lost_by_command.get(command, 0) / start
    heavy, greater = thresholds or lookup.brigade_loss_thresholds(state.tables)
    return "greater-losses" if lost >= greater else "heavy-casualties" if lost >= heavy else None


def key_position_lost(game: Game, state: RffState, side: str) -> bool:
    """Has an enemy taken a key position the side held at the start?"""
    held = game.world.held
    for objective in state.key_positions.get(side, ()):
        if held.get(objective) not in (None, side):
            return True
    return False


def target_piece(state: RffState, intent: Any) -> Piece | None:
    if intent.target is None:
        return None
    main = state.pieces.get(intent.target)
    if main is None or not main.alive:
        return None
    screen = state.pieces.get(main.skirmishers) if main.skirmishers else None
    return screen if screen is not None and screen.alive else main


# ----------------------------------------------------------------------------- effects


def apply(game: Game, state: RffState, piece: Piece, intent: Any, effect: str, values: Mapping[str, Any]) -> None:
    if piece.troops and piece.status == "broken" and effect in ("rally-with-elan", "rally", "shaken", "wavering"):
        piece.formation = "line"  # broken troops re-form in line before anything else (RFF-P31)
    if effect in ("rally-with-elan", "rally"):
        if "full-move-disordered" in game.options and intent.action in ("advance", "withdraw") and effect == "rally" and _far(state, piece, intent):
            piece.status = "disordered"
            game.log.emit("maneuver", unit=piece.id, text=f"{piece.id} stays disordered to make a full move (full move disordered)")
            _act(game, state, piece, intent, "full", reform=False)
            return
        piece.status = "good"
        piece.silenced = 0
        _act(game, state, piece, intent, PACE[effect], reform=True if effect == "rally-with-elan" else "line-only")  # Rally: a tardy maneuver
    elif effect in ("double-quick", "well-handled"):
        if piece.guns and piece.silenced and intent.action == "hold":  # double quick is well handled too
            piece.silenced = 0
            piece.may_fire = False
            game.log.emit("maneuver", unit=piece.id, text=f"{piece.id} rallies and removes the silenced marker")
            return
        if piece.troops and piece.low_ammo and intent.action == "hold":  # troops' Well Handled "Replenish ammunition" (RFF-P20)
            piece.low_ammo = False
            game.log.emit("maneuver", unit=piece.id, rulings=["RFF-P20"], text=f"{piece.id} replenishes ammunition")
            return
        _act(game, state, piece, intent, PACE[effect], reform=True)
    elif effect == "tardy":
        if "full-move-disordered" in game.options and piece.troops and intent.action in ("advance", "withdraw") and _far(state, piece, intent):
            piece.status = "disordered"
            game.log.emit("maneuver", unit=piece.id, text=f"{piece.id} makes a full move disordered")
            _act(game, state, piece, intent, "full", reform=False)
            return
        if piece.guns and piece.silenced and "rallying-guns" not in game.options and intent.action == "hold":
            piece.silenced = 0
            piece.may_fire = False
            return
        _act(game, state, piece, intent, "half", reform="line-only")
    elif effect == "fall-back":
        _fall_back(game, state, piece)
    elif effect in ("shaken", "wavering"):
        _shaken_or_wavering(game, state, piece, effect)
    elif effect == "panic":
        _panic(game, state, piece, values)


def _far(state: RffState, piece: Piece, intent: Any) -> bool:
    """Worth a full move: the goal is beyond a half move and no enemy is in close range."""
    if intent.goal is None:
        return False
    close = geo.yards(state, lookup.close_range(state.tables))
    return math.hypot(intent.goal[0] - piece.x, intent.goal[1] - piece.y) > close * 2 and not _in_close_range(state, piece)


def _in_close_range(state: RffState, piece: Piece) -> bool:
    close = geo.yards(state, lookup.close_range(state.tables))
    return bool(geo.within(state, piece, geo.enemies_near(state, piece, close), close))


def _act(game: Game, state: RffState, piece: Piece, intent: Any, pace: str, reform: bool | str) -> None:
    """Carry out the intent within what the effect allows."""
    target = target_piece(state, intent)
    if piece.guns:
        _guns(game, state, piece, intent, pace, target)
        return
    if (intent.action == "charge" and target is not None and piece.effect in CHARGE_EFFECTS and piece.status == "good"
            and _declare_charge(game, state, piece, target, pace)):
        return
    wheel = wheel_degrees(state.tables)
    if _change_front(game, piece, target, intent, wheel):
        return  # a change of front is combined with no other maneuver (skirmishers neither)
    wanted = FROM_NEUTRAL.get(intent.formation, piece.formation)  # the rff formation the intent asks for: the piece's own if none (or none rff has)
    reforms = wanted != piece.formation and reform and piece.status == "good" and not (reform == "line-only" and wanted not in LINES)  # Tardy: line or open order (RFF-P37)
    # deploying skirmishers is a change of formation maneuver (optional rule): a half move with it, or the whole tardy maneuver
    screen = bool(reform) and skirmishers.may_deploy(game, state, piece, intent, wanted if reforms else piece.formation)
    if reforms:
        _change_formation(game, state, piece, wanted)
    if (reforms or screen) and reform == "line-only":
        if screen:
            skirmishers.deploy(game, state, piece, held=True)
        return  # a tardy change of formation is the whole maneuver
    share = 1.0
    if reforms or screen:  # half move and change formation, at the double quick rate after Double Quick
        pace, share = ("double" if pace == "double" else "full"), 0.5
    if intent.action in ("advance", "withdraw", "charge") and intent.goal is not None:
        flank = piece.formation in LINES and piece.parent is None and _by_the_flank(piece, intent.goal)
        if flank and pace != "half":
            share *= 0.5  # march by the flank: a half move (RFF-P36)
        yds = move.rate_yards(game, state, piece, pace, intent.goal, share)
        if intent.standoff is not None and (engaged := state.pieces.get(intent.target or "")) is not None:
            gx, gy = intent.goal
            yds = short_of(piece.x, piece.y, gx, gy, engaged.x, engaged.y, intent.standoff, yds)  # the order's range
        moved = move.advance(game, state, piece, intent.goal, yds)
        piece.moved = ("flank" if flank else "half" if share < 1.0 else pace) if moved > 0 else piece.moved
    if piece.parent is not None:
        pass  # skirmishers take their regiment's facing once they keep station (skirmishers.keep_station)
    elif piece.formation in LINES:
        move.wheel(piece, target, wheel)
    else:
        move.face(piece, target)
    if screen:
        skirmishers.deploy(game, state, piece, held=not piece.moved)


def _by_the_flank(piece: Piece, goal: tuple[float, float]) -> bool:
    """Does a line's move toward ``goal`` go off its flank (more than 45 degrees off its front
    and off its rear: RFF-P36)?"""
    off = move.turn_needed(piece, goal)
    return geo.FRONT_ARC < off < 180.0 - geo.FRONT_ARC


@cache
def wheel_degrees(t: RffTables) -> float:
    """Degrees a line wheels as it maneuvers (asked at every maneuver)."""
    return lookup.option_number(t, "change-front", "wheel")


def _change_front(game: Game, piece: Piece, target: Piece | None, intent: Any, wheel: float) -> bool:
    """Optional rule: a line wheels up to 90 degrees in place instead of moving (more than it
    ``wheel``s as it maneuvers)."""
    if not ("change-front" in game.options and piece.formation in LINES and intent.action != "charge"):
        return False
    if piece.effect not in ("double-quick", "well-handled", "tardy") or move.turn_needed(piece, target) <= wheel:
        return False
    move.wheel(piece, target, lookup.option_number(game.state.tables, "change-front", "change-front"))
    game.log.emit("maneuver", unit=piece.id, text=f"{piece.id} changes front")
    return True


def _change_formation(game: Game, state: RffState, piece: Piece, wanted: str) -> None:
    old = piece.formation
    piece.formation = wanted
    kinds = game.ground.kind_at(piece.x, piece.y)
    if piece.grade == "green" and geo.GROUND_CLASS.get(kinds, "open") in ("broken", "rough"):
        piece.status = "disordered"
    game.log.emit("formation", unit=piece.id, text=f"{piece.id} changes formation from {old} to {wanted}")


def _declare_charge(game: Game, state: RffState, piece: Piece, target: Piece, pace: str) -> bool:
    """RFF-P9: a charge is declared when the target can be reached this move; the charger
    moves into contact (hasty countercharges by cavalry meet it halfway)."""
    reach = move.rate_yards(game, state, piece, pace, (target.x, target.y))
    if geo.contact_gap(piece, target) > reach:
        return False
    piece.charge_target = target.id
    piece.cold_steel = lookup.charges_with_cold_steel(state.tables, piece, "crack-cold-steel" in game.options)
    if piece.formation not in ("line", "extended-line") and piece.arm != "cavalry":
        piece.formation = "line"
    if target.parent is not None and skirmishers.evade(game, state, target, piece):
        target = state.pieces[target.parent]
        piece.charge_target = target.id
    if target.arm == "cavalry" and target.unit.mounted and target.status == "good":
        target.countercharged = True
        move.advance(game, state, target, (piece.x, piece.y), geo.contact_gap(target, piece) / 2, contact=piece)
    move.advance(game, state, piece, (target.x, target.y), reach, contact=target)
    move.face(piece, target)
    if target.countercharged:
        move.face(target, piece)
    piece.moved = pace
    game.log.emit("charge", unit=piece.id, target=target.id, rulings=["RFF-P9"],
                  text=f"{piece.id} charges {target.id}" + (" with cold steel" if piece.cold_steel else ""))
    return True


def _guns(game: Game, state: RffState, piece: Piece, intent: Any, pace: str, target: Piece | None) -> None:
    """Gun maneuvers (QRS II): limber, move, unlimber and fire, pivot, prolong."""
    heavy = lookup.heavy_gun(state.tables, piece) and "heavy-gun-restrictions" in game.options
    well = piece.effect in ("double-quick", "well-handled", "rally-with-elan")
    if intent.action == "hold":
        if piece.limbered:
            piece.formation = "unlimbered"
            piece.may_fire = well  # well handled: unlimber and fire; tardy: unlimber only
        elif piece.low_ammo and well:
            piece.low_ammo, piece.may_fire = False, False
            game.log.emit("maneuver", unit=piece.id, text=f"{piece.id} replenishes ammunition")
        move.face(piece, target)
        return
    if intent.goal is None:
        return
    haul = geo.yards(state, lookup.hand_haul_inches(state.tables, piece))
    if not piece.limbered and well and not heavy and 0.0 < math.hypot(intent.goal[0] - piece.x, intent.goal[1] - piece.y) <= haul:
        move.advance(game, state, piece, intent.goal, haul)  # hand haul to a place this close (RFF-P33)
        piece.moved, piece.may_fire = "hand-haul", False
        game.log.emit("maneuver", unit=piece.id, rulings=["RFF-P33"], text=f"{piece.id} is hand hauled")
        return
    if intent.action == "withdraw" and not piece.limbered and well and "prolonging-guns" in game.options and not heavy:
        move.advance(game, state, piece, intent.goal, move.rate_yards(game, state, piece, "half", intent.goal))
        piece.moved, piece.may_fire = "prolong", False
        return
    if not piece.limbered:
        piece.formation = "limbered"
        piece.may_fire = False
        if not well:
            return  # tardy: limber is the whole maneuver
    piece.may_fire = False
    pace = "double" if pace == "double" else "full"  # Double Quick: the well handled move at the double
    move.advance(game, state, piece, intent.goal, move.rate_yards(game, state, piece, pace, intent.goal))
    piece.moved = pace
    move.face(piece, intent.goal)


def _fall_back(game: Game, state: RffState, piece: Piece) -> None:
    """Troops retreat out of close range disordered; guns in close range limber and full retreat
    silenced; hold and fire if out of close range or fortified."""
    if not _in_close_range(state, piece) or geo.cover(game, piece) == "fortified":
        return
    if piece.guns:
        piece.formation, piece.silenced, piece.may_fire = "limbered", piece.stands, False
        move.full_retreat(game, state, piece)
    else:
        piece.status = "disordered"
        move.retreat_out_of_close_range(game, state, piece)


def _shaken_or_wavering(game: Game, state: RffState, piece: Piece, effect: str) -> None:
    if _in_close_range(state, piece) and geo.cover(game, piece) != "fortified":
        move.retreat_out_of_close_range(game, state, piece)
    if effect == "shaken":
        piece.status = "good"
        piece.silenced = 0
    elif piece.status == "broken":
        piece.status = "disordered"


def _panic(game: Game, state: RffState, piece: Piece, values: Mapping[str, Any]) -> None:
    """Troops retreat broken (losing stands when disordered or broken and below 0); guns limber
    and full retreat silenced."""
    if piece.guns:
        piece.formation, piece.silenced, piece.may_fire = "limbered", piece.stands, False
    else:
        lose_stands(game, state, piece, int(values.get("stands_lost", 0)), "panic", "rout")
        piece.status = "broken" if piece.status != "gone" else "gone"
    if piece.status != "gone":
        move.full_retreat(game, state, piece)


def lose_stands(game: Game, state: RffState, piece: Piece, n: int, why: str, cause: str, yards: int | None = None) -> None:
    """Remove stands; a piece with none left is gone (skirmishers then become the regiment).
    The men they stood for are reported lost to the neutral ``cause`` (Game.lose)."""
    if n <= 0 or piece.status == "gone":
        return
    n = min(n, piece.stands)
    main = state.pieces[piece.parent] if piece.parent else piece  # the regiment: its men count its skirmishers'
    standing = main.stands + (state.pieces[main.skirmishers].stands if main.skirmishers else 0)
    men = men_between(piece.unit.spec.men, main.start_stands, standing, standing - n)
    game.lose(piece.unit_id, men, cause, yards=yards) if yards is not None else game.lose(piece.unit_id, men, cause)
    piece.stands -= n
    # the weakest stands go first: a half section (RFF-P27), then damaged and silenced ones (RFF-P29)
    piece.half, piece.damaged, piece.silenced = max(0, piece.half - n), max(0, piece.damaged - n), max(0, piece.silenced - n)
    piece.stands_lost_turn += n
    for command in game.scenario.command_chain(piece.command):
        state.lost_by_command[command.id] = state.lost_by_command.get(command.id, 0) + n
    game.log.emit("loss", unit=piece.id, stands=n, text=f"{piece.id} loses {n} stand{'s' if n > 1 else ''} ({why})")
    if piece.stands == 0:
        piece.status = "gone"
        state.changed()
        skirmishers.regiment_destroyed(game, state, piece)
