"""A bot that is another program: :class:`ExternalBot` runs a command and plays through it
with the JSON-lines protocol (``docs/bot-protocol.md``), so any language can play wherever our
bots do.

Every way the program can fail (it does not start, exits, is late, writes something that is
not an answer, answers an error, or an action that is not legal) raises
:class:`ExternalBotError` saying which, and the program is stopped.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import weakref
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Any, NoReturn

from dudo.bots.base import DECISION_TIMEOUT
from dudo.bots.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    dumps,
    hello_request,
    loads_message,
    quit_request,
    view_request,
)
from dudo.engine.actions import Action
from dudo.engine.errors import DudoError, NotationError
from dudo.engine.view import PlayerView
from dudo.notation import parse_action

#: Seconds a program may take to start and answer ``hello`` (starting an interpreter on a
#: busy machine can take a few seconds).
START_TIMEOUT = 30.0

#: The longest answer line read, in bytes; an answer is a few dozen.
MAX_ANSWER = 65536

#: Lines of the program's stderr kept for error messages.
STDERR_TAIL = 10


class ExternalBotError(DudoError):
    """An external bot program failed: it did not start, exited, was late, broke the
    protocol, or answered an action that is not legal."""


def _pump_lines(stream: IO[bytes], sink: queue.Queue[bytes | None]) -> None:
    """Move ``stream``'s lines to ``sink`` (None at the end), so reads can time out."""
    try:
        while line := stream.readline(MAX_ANSWER):
            sink.put(line)
    except (OSError, ValueError):  # the pipe was closed under us: treat as the end
        pass
    sink.put(None)


def _keep_tail(stream: IO[bytes], tail: collections.deque[str], echo: str | None) -> None:
    """Keep the last lines of the program's stderr (and copy them to ours if ``echo``)."""
    try:
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip()
            tail.append(line)
            if echo is not None:
                print(f"[{echo}] {line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and anything it started (it runs in a process group of its own)."""
    if process.poll() is not None:
        return
    if os.name == "posix":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    process.kill()


def _stop(process: subprocess.Popen[bytes], threads: Sequence[threading.Thread]) -> None:
    """Make sure the program is gone and its pipes closed (also run at exit and on garbage
    collection, so a forgotten bot never outlives us)."""
    if process.stdin is not None and not process.stdin.closed:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
    for thread in threads:
        thread.join(timeout=2)
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def split_command(command: str) -> tuple[list[str], dict[str, str]]:
    """A bot's command line split like a POSIX shell splits a simple command (quotes and
    backslashes; no variables, globs or pipes): its arguments, and the ``NAME=value``
    environment settings written before the program (``VAR=1 node bot.js``)."""
    try:
        words = shlex.split(command)
    except ValueError as exc:  # an unclosed quote
        raise ExternalBotError(f"cannot split {command!r} into arguments: {exc}") from None
    assigned: dict[str, str] = {}
    while words and _ASSIGNMENT.match(words[0]):
        key, _, value = words.pop(0).partition("=")
        assigned[key] = value
    return words, assigned


class ExternalBot:
    """A bot played by the program ``command`` (a list of arguments, or one string split
    by :func:`split_command`) speaking the bot protocol on its stdin and stdout.

    The program is started and greeted (``hello``) here; its name is the one it gives
    unless ``name`` is set. Each decision must come within ``timeout`` seconds. Close it
    with :meth:`close` or use it in a ``with`` block; a bot left open is stopped when it is
    garbage-collected or at exit. ``show_stderr`` copies the program's stderr to ours; either
    way its last lines go into the error when it fails. Not for use by several threads.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        timeout: float = DECISION_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        show_stderr: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        if isinstance(command, str):
            args, assigned = split_command(command)
            if assigned:
                env = {**(os.environ if env is None else env), **assigned}
        else:
            args = list(command)
        if not args:
            raise ExternalBotError("an external bot needs a command to run")
        self.command = args
        self.timeout = timeout
        self.name = name or os.path.basename(args[0])
        self._next_id = 0
        self._failure: str | None = None
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                # Its own process group: a Ctrl-C meant for us does not kill it mid-answer,
                # and _kill can stop whatever it started too.
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            raise ExternalBotError(
                f"cannot start external bot {shlex.join(args)!r}: {exc.strerror or exc}"
            ) from None
        process = self._process
        assert process.stdout is not None and process.stderr is not None
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._stderr_reader = threading.Thread(
            target=_keep_tail,
            args=(process.stderr, self._stderr_tail, self.name if show_stderr else None),
        )
        threads = [
            threading.Thread(target=_pump_lines, args=(process.stdout, self._answers)),
            self._stderr_reader,
        ]
        for thread in threads:
            thread.daemon = True
            thread.start()
        self._finalizer = weakref.finalize(self, _stop, process, threads)
        hello = self._ask(hello_request(self._new_id()), "hello", start_timeout)
        protocol = hello.get("protocol")
        given = hello.get("name")
        if protocol != PROTOCOL_VERSION:
            self._fail(f"speaks protocol {protocol!r}; this driver speaks {PROTOCOL_VERSION}")
        if not isinstance(given, str) or not given.strip():
            self._fail(f'answered hello without a name: "name" is {given!r}')
        if name is None:
            self.name = given.strip()

    # ------------------------------------------------------------------------ the Bot

    def choose(self, view: PlayerView) -> Action:
        if not view.legal_actions:
            raise DudoError(f"player {view.viewer} has no legal action now")
        request = view_request("choose", self._new_id(), view)
        reply = self._ask(request, "choose", self.timeout)
        if "action" not in reply:
            self._fail(f'answered choose #{request["id"]} without "action"')
        return self._legal(reply["action"], view, request["id"])

    def wants_out_of_turn_call(self, view: PlayerView) -> bool:
        request = view_request("out_of_turn", self._new_id(), view)
        reply = self._ask(request, "out_of_turn", self.timeout)
        call = reply.get("call")
        if not isinstance(call, bool):
            self._fail(
                f'answered out_of_turn #{request["id"]} with "call": {call!r}, not true or false'
            )
        return call

    def _legal(self, text: Any, view: PlayerView, number: int) -> Action:
        """The legal action the program named (its canonical notation, or any spelling
        :func:`dudo.notation.parse_action` reads)."""
        where = f"choose #{number}"
        if not isinstance(text, str):
            self._fail(f'answered {where} with "action": {text!r}, which is not text')
        by_text = {str(a): a for a in view.legal_actions}
        if text in by_text:
            return by_text[text]
        try:
            action = parse_action(text, view.rules.faces)
        except NotationError as exc:
            self._fail(f"answered {where} with {text!r}, which is not an action: {exc}")
        found = by_text.get(str(action))
        if found is not None:
            return found
        shown = ", ".join(list(by_text)[:12]) + (" ..." if len(by_text) > 12 else "")
        self._fail(f"answered {where} with {text!r}, which is not legal now (legal: {shown})")

    # -------------------------------------------------------------------- the protocol

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _describe(self) -> str:
        return f"external bot {self.name!r} ({shlex.join(self.command)})"

    def _fail(self, why: str) -> NoReturn:
        """Stop the program and raise the error (every later call raises it again)."""
        tail = [line for line in self._stderr_tail if line.strip()]
        message = f"{self._describe()} {why}"
        if tail:
            message += f"; its last error output: {tail[-1]}"
        self._failure = message
        self._finalizer()
        raise ExternalBotError(message)

    def _ask(self, request: dict[str, Any], kind: str, timeout: float) -> dict[str, Any]:
        """Send ``request`` and return the program's answer to it, or fail."""
        if self._failure is not None:
            raise ExternalBotError(self._failure)
        if not self._finalizer.alive:
            raise ExternalBotError(f"{self._describe()} is closed")
        number = request["id"]
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write((dumps(request) + "\n").encode("utf-8"))
            stdin.flush()
        except OSError:
            self._fail(f"exited before {kind} #{number} ({self._exit_status()})")
        try:
            line = self._answers.get(timeout=timeout)
        except queue.Empty:
            _kill(self._process)  # it may be stuck: no point waiting for it to quit
            self._fail(f"did not answer {kind} #{number} within {timeout:g} s")
        if line is None:
            status = self._exit_status()
            # Its last words on stderr may still be on their way: the reader ends at the
            # pipe's end, which comes with the exit.
            self._stderr_reader.join(timeout=2)
            self._fail(f"exited without answering {kind} #{number} ({status})")
        if not line.endswith(b"\n") and len(line) >= MAX_ANSWER:
            self._fail(f"answered {kind} #{number} with a line longer than {MAX_ANSWER} bytes")
        try:
            reply = loads_message(line)
        except ProtocolError as exc:
            shown = line.decode("utf-8", "replace").strip()[:60]
            self._fail(f"answered {kind} #{number} with {shown!r}: {exc}")
        if reply.get("id") != number:
            self._fail(f"answered id {reply.get('id')!r} to {kind} #{number}")
        if "error" in reply:
            self._fail(f"refused {kind} #{number}: {reply['error']}")
        return reply

    def _exit_status(self) -> str:
        try:
            code = self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "its output closed"
        return f"exit code {code}"

    # ---------------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Ask the program to quit, and stop it if it does not within two seconds."""
        if not self._finalizer.alive:
            return
        stdin = self._process.stdin
        if self._failure is None and stdin is not None:
            try:
                stdin.write((dumps(quit_request(self._new_id())) + "\n").encode("utf-8"))
                stdin.flush()
            except OSError:
                pass
        self._finalizer()

    @property
    def pid(self) -> int:
        """The program's process id."""
        return self._process.pid

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"pid {self._process.pid}"
        return f"<ExternalBot {self.name!r} {shlex.join(self.command)} {state}>"
