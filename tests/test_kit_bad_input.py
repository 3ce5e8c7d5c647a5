"""A house rule that cannot be used is refused with one clear message naming its file and the
key or hook at fault, and exit code 2: an unknown base, another ruleset's rule, an overlay key
that does not exist, a hook that does not exist, a hook returning the wrong type."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from referee.core.cli.cli import main

DESCRIBED = '''\
from referee.core.engine.hookspecs import hookimpl
from referee.core.engine.rules import RulesetInfo, Scale


@hookimpl
def referee_house_rule():
    return RulesetInfo("mine", "My rule", "me", Scale(20, 50, "stand", 2, 10), kind="house-rule", base={base!r})
'''
CASES = {
    "unknown-base": ("rule.py", DESCRIBED.format(base="fnf"), ["goes on 'fnf', which is not an installed ruleset", "did you mean 'rff'"]),
    "other-base": ("rule.py", DESCRIBED.format(base="hardtack"), ["goes on 'hardtack', not on 'rff': use --rules hardtack"]),
    "base-attribute": ("rule.py", 'BASE = "hardtack"\n', ["goes on 'hardtack', not on 'rff'"]),
    "no-base": ("rule.py", "from referee.core.engine.hookspecs import hookimpl\n", ["does not say which ruleset it is written for: add BASE = 'rff'",
                                                                               'BASE = "any"']),
    "other-tables": ("rule.toml", "[artillery]\ncanister_impact = 10\n", ["artillery: unknown table 'artillery'"]),
    "overlay-key": ("rule.toml", "[maneuver.command_radiuss.clear]\ninches = 18\n",
                    ["maneuver.command_radiuss", "unknown key 'command_radiuss'", "did you mean 'command_radius'"]),
    "unknown-hook": ("rule.py", "from referee.core.engine.hookspecs import hookimpl\n\n\n@hookimpl\ndef referee_modifer(game):\n    return []\n",
                     ["rule.py:4: unknown hook 'referee_modifer'", "did you mean 'referee_modifiers'"]),
    "wrong-intents": ("rule.py", "from referee.core.engine.hookspecs import hookimpl\n\nBASE = \"rff\"\n\n@hookimpl\ndef referee_intents(side):\n    return {'a': 'advance'}\n",
                      ["failed in hook referee_intents (file ", "expected a dict of Intent by unit id or None"]),
    "wrong-type": ("rule.py", "from referee.core.engine.hookspecs import hookimpl\n\nBASE = \"rff\"\n\n@hookimpl\ndef referee_modifiers(game):\n    return 3\n",
                   ["failed in hook referee_modifiers (file ", "rule.py): TypeError: returned int 3; expected a list of Modifier"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_house_rule_that_cannot_apply_is_one_clear_message(tmp_path: Path, case: str) -> None:
    name, text, says = CASES[case]
    rule = tmp_path / name
    rule.write_text(text)
    for command in (["run", "drill-musketry", "--rules", "rff", "--quiet"], ["compare", "drill-musketry", "--rules", "rff", "-n", "2", "--workers", "1"]):
        result = CliRunner().invoke(main, [*command, "--house-rule", str(rule)])
        assert result.exit_code == 2, (case, result.output)
        assert str(rule) in result.output, result.output
        for words in says:
            assert words in result.output, (case, result.output)
        assert "Traceback" not in result.output and result.output.startswith("Error:")
        assert sum(line.startswith("Error:") for line in result.output.splitlines()) == 1


@pytest.mark.parametrize(("base", "rules"), [("any", "rff"), ("any", "hardtack"), ("rff", "rff"), ("hynds", "hynds"),
                                             ("rff", "hynds")])
def test_a_house_rule_file_runs_on_the_rulesets_it_names(tmp_path: Path, base: str, rules: str) -> None:
    """BASE names the ruleset of the stack it is written for (a layer, such as hynds, or its base), or "any"."""
    rule = tmp_path / "rule.py"
    rule.write_text(f'BASE = "{base}"\n')
    result = CliRunner().invoke(main, ["run", "drill-musketry", "--rules", rules, "--quiet", "--house-rule", str(rule)])
    assert result.exit_code == 0, result.output
