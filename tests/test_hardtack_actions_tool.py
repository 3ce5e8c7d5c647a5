"""tools/hardtack_actions.py, which reproduces docs/history.md's shares of hardtack's actions and
volleys at Brawner's Farm: its count of Fire actions agrees with the log's fire resolutions."""

from __future__ import annotations

from referee.plugins.hardtack import activation
from scripts import load_script


def test_the_action_count_agrees_with_the_log_and_leaves_activation_as_it_was() -> None:
    """Every Fire action the wrappers count is a fire resolution of an infantry company in the
    log, and every such resolution but a commander's transferred action (HT-T7) is counted once;
    the wrapped functions are put back."""
    tool = load_script("tools/hardtack_actions.py")
    action, move_formation = activation.action, activation._move_formation
    volleys = tool.Volleys()
    window = (18 * 60 + 30, 19 * 60)
    tally = tool.play_one("brawners-farm", 1, window, volleys)
    assert (activation.action, activation._move_formation) == (action, move_formation)
    assert tally.game is not None
    events = tally.game.log.events
    fired = [i for i, e in enumerate(events) if e.get("mechanic") == "fire" and window[0] <= e["minute"] <= window[1]]
    transferred = [i for i in fired if events[i - 1]["kind"] == "transfer"]  # a commander's action (HT-T7)
    assert len(fired) == sum(volleys.volleys.values()) > len(transferred)
    assert sum(counts["fire"] for counts in tally.actions.values()) == len(fired) - len(transferred)
    assert all(counts["move"] > 0 and counts["reload"] > 0 for counts in tally.actions.values())


def test_the_close_on_both_trial_changes_play_and_is_put_back() -> None:
    """``--trial close-on-both`` (outside play) plays a game unlike present play's, in which a
    formation moves on a second action where play would not; ``_formation_moves`` is put back."""
    tool = load_script("tools/hardtack_actions.py")
    formation_moves = activation._formation_moves
    window = (18 * 60 + 30, 19 * 60 + 40)
    plain = tool.play_one("brawners-farm", 1, window, tool.Volleys())
    tried = tool.play_one("brawners-farm", 1, window, tool.Volleys(), "close-on-both")
    assert activation._formation_moves is formation_moves
    assert plain.game is not None and tried.game is not None
    assert plain.game.log.events[:50] == tried.game.log.events[:50]  # the same game until the lines close
    assert plain.game.log.events != tried.game.log.events
    assert sum(c["move"] for c in tried.actions.values()) > sum(c["move"] for c in plain.actions.values())
