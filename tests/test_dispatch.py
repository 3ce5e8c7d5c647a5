"""The host's fast path for hooks (core/engine/plugins.py ``sole_caller``) answers exactly as pluggy's
own dispatch does (``call``), for every kind of hook and of implementation: plain ones taking all
or some of the arguments, answering or not, raising; new-style wrappers that change the answer,
raise, swallow an error, never yield or yield twice; old-style hook wrappers. Where both fail,
they fail with the same error, naming the same plugin and hook, and the file and line of the
failing code."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from referee.core.engine.errors import PluginFailed
from referee.core.engine.plugins import call, load_file, new_manager, sole_caller

GAME = object()
KWARGS = {
    "referee_turn_minutes": {"game": GAME},  # firstresult
    "referee_modifiers": {"game": GAME, "mechanic": "musketry", "situation": "shot"},  # answers listed
    "referee_step_done": {"game": GAME, "step": "step"},  # an observer: its answer is not read
}
ANSWER = {"referee_turn_minutes": "15", "referee_modifiers": "['m']", "referee_step_done": "None"}

PLAIN = {
    "answers": "@hookimpl\ndef {hook}({args}):\n    SEEN.append('{name}')\n    return {answer}\n",
    "answers with fewer arguments": "@hookimpl\ndef {hook}(game):\n    SEEN.append('{name}')\n    return {answer}\n",
    "answers None": "@hookimpl\ndef {hook}({args}):\n    SEEN.append('{name}')\n    return None\n",
    "raises": "@hookimpl\ndef {hook}({args}):\n    SEEN.append('{name}')\n    raise ValueError('bad {name}')\n",
}
WRAPPERS = {
    "none": "",
    "wrapper changes the answer": ("@hookimpl(wrapper=True)\ndef {hook}({args}):\n    result = yield\n"
                                   "    SEEN.append('{name}')\n    return (result, 'wrapped')\n"),
    "wrapper raises after": ("@hookimpl(wrapper=True)\ndef {hook}({args}):\n    yield\n"
                             "    raise KeyError('after {name}')\n"),
    "wrapper swallows an error": ("@hookimpl(wrapper=True)\ndef {hook}({args}):\n    try:\n        return (yield)\n"
                                  "    except ValueError:\n        SEEN.append('{name} swallowed')\n        return 'fallback'\n"),
    "wrapper never yields": ("@hookimpl(wrapper=True)\ndef {hook}({args}):\n    if False:\n        yield\n"
                             "    return 'never'\n"),
    "wrapper yields twice": ("@hookimpl(wrapper=True)\ndef {hook}({args}):\n    yield\n    yield\n"),
    "old-style hookwrapper": ("@hookimpl(hookwrapper=True)\ndef {hook}({args}):\n    outcome = yield\n"
                              "    SEEN.append('{name} old')\n"),
}


def _module(folder: Path, name: str, template: str, hook: str) -> Any:
    path = folder / f"{name}.py"
    body = template.format(hook=hook, args=", ".join(KWARGS[hook]), name=name, answer=ANSWER[hook])
    path.write_text("from referee.core.engine.hookspecs import hookimpl\n\nSEEN = []\n\n\n" + body, encoding="utf-8")
    return load_file(path)


def _outcome(caller: Any, kwargs: dict[str, Any], modules: list[Any]) -> tuple[Any, ...]:
    """What the caller answered or raised, and what each plugin saw, in a comparable form."""
    for module in modules:
        module.SEEN.clear()
    try:
        answer: tuple[Any, ...] = ("answer", caller(**kwargs))
    except PluginFailed as failed:
        answer = ("failed", failed.plugin, failed.hook, type(failed.error).__name__, str(failed))
    except Exception as error:  # noqa: BLE001  (a bare error is a difference the test reports)
        answer = ("bare", type(error).__name__, str(error))
    return (*answer, tuple(tuple(m.SEEN) for m in modules))


CASES = list(itertools.product(KWARGS, PLAIN, WRAPPERS))


@pytest.mark.parametrize(("hook", "plain", "wrapper"), CASES)
def test_the_fast_path_answers_as_pluggy_does(tmp_path: Path, hook: str, plain: str, wrapper: str) -> None:
    modules = [_module(tmp_path, f"plain_{hook}", PLAIN[plain], hook)]
    if WRAPPERS[wrapper]:
        modules.append(_module(tmp_path, f"wrapper_{hook}", WRAPPERS[wrapper], hook))
    pm = new_manager()
    for module in modules:
        pm.register(module, name=module.__name__.removeprefix("referee_house_rule_"))
    fast = _outcome(sole_caller(pm, hook), KWARGS[hook], modules)
    slow = _outcome(lambda **kw: call(pm, hook, **kw), KWARGS[hook], modules)
    if hook == "referee_step_done" and fast[0] == slow[0] == "answer":
        fast, slow = fast[:1] + fast[2:], slow[:1] + slow[2:]  # an observer's answer is never read
    assert fast == slow


@pytest.mark.parametrize("wrapper", ["wrapper never yields", "wrapper yields twice"])
def test_a_broken_wrapper_is_named_with_its_file_and_line(tmp_path: Path, wrapper: str) -> None:
    modules = [_module(tmp_path, "plain", PLAIN["answers"], "referee_modifiers"),
               _module(tmp_path, "bad_wrapper", WRAPPERS[wrapper], "referee_modifiers")]
    pm = new_manager()
    for module in modules:
        pm.register(module, name=module.__name__.removeprefix("referee_house_rule_"))
    with pytest.raises(PluginFailed) as caught:
        sole_caller(pm, "referee_modifiers")(**KWARGS["referee_modifiers"])
    assert caught.value.plugin == "bad_wrapper" and caught.value.hook == "referee_modifiers"
    assert f"{tmp_path / 'bad_wrapper.py'}:" in str(caught.value)


def test_a_failing_plugin_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    module = _module(tmp_path, "raiser", PLAIN["raises"], "referee_modifiers")
    pm = new_manager()
    pm.register(module, name="raiser")
    with pytest.raises(PluginFailed) as caught:
        sole_caller(pm, "referee_modifiers")(**KWARGS["referee_modifiers"])
    assert (caught.value.plugin, caught.value.hook) == ("raiser", "referee_modifiers")
    assert f"{tmp_path / 'raiser.py'}:9" in str(caught.value)  # the raise, line 9 of the file
