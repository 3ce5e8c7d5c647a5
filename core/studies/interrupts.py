"""Interrupts: the user's Ctrl-C, SIGTERM or SIGHUP while a command runs, acted on where no
work is half done (:func:`interruptible`, :class:`Interrupted`). Its own small module, so that
every command can be interruptible without importing the game."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.process import BaseProcess
from typing import Any, ClassVar

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(BaseException):
    """The user's Ctrl-C (or a SIGTERM or SIGHUP) while :func:`interruptible` is in force: not a
    KeyboardInterrupt, so that one raised by a plugin is told apart from it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


class _Signals:
    in_force = False  # interruptible() is
    received = 0  # signals received since it came in force
    deferring = False  # in _deferred(): a signal waits for its end
    pending = 0  # the signal that waits
    workers: ClassVar[set[BaseProcess]] = set()  # worker processes running now


@contextmanager
def interruptible() -> Iterator[None]:
    """While in force (in the main thread), the first SIGINT, SIGTERM or SIGHUP raises
    :class:`Interrupted`; a second ends the process at once, its workers first. A signal that
    is ignored (``nohup``, a background job) stays ignored. Nested uses are one."""
    if threading.current_thread() is not threading.main_thread() or _Signals.in_force:
        yield
        return
    previous = {s: signal.getsignal(s) for s in SIGNALS if signal.getsignal(s) is not signal.SIG_IGN}
    _Signals.in_force, _Signals.received, _Signals.pending = True, 0, 0
    for s in previous:
        signal.signal(s, _on_signal)
    try:
        yield
    finally:
        _Signals.in_force = False
        for s, handler in previous.items():
            signal.signal(s, handler)


def _on_signal(signum: int, frame: Any) -> None:
    _Signals.received += 1
    if _Signals.received > 1:  # the second: now
        for process in list(_Signals.workers):
            process.kill()
        os.write(2, b"\nAborted.\n")
        os._exit(128 + signum)
    if _Signals.deferring:
        _Signals.pending = signum
        return
    raise Interrupted(signum)


@contextmanager
def _deferred() -> Iterator[None]:
    """A first signal that comes in here is acted on as it ends: half a message read, or a game
    read and not yet recorded, would be lost. (Blocking the signal would not do: Python runs its
    handler in the main thread whichever thread the signal reached.)"""
    _Signals.deferring = True
    try:
        yield
    finally:
        _Signals.deferring = False
    if _Signals.pending:
        signum, _Signals.pending = _Signals.pending, 0
        raise Interrupted(signum)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Signals wait while a worker is forked: it must not run the parent's handlers."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
