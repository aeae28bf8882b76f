"""The terminal of ``maxima-board sim`` when a person types into it: line
editing, history (arrow keys, kept between sessions) and Tab completion by
GNU ``readline``.

A reader thread waits at the prompt; the main thread keeps the controller
(and its SQLite store, which stays on the thread that opened it): it runs
the typed lines and, between them, sleeps until the controller's next
deadline or a wake (``Sim.wait``), so a move settles while nobody types and
an idle session does not wake. What it prints meanwhile (a move, the OLED
changing) is written above the prompt, and the prompt with the half-typed
line is drawn again below it.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
from pathlib import Path
from typing import Iterable, Protocol, TextIO

try:
    import readline
except ImportError:   # a Python built without readline: plain input() still works
    readline = None   # type: ignore[assignment]
try:
    import termios
except ImportError:
    termios = None    # type: ignore[assignment]

from maxima_board.rules import variants
from maxima_board.devices.interfaces import BUTTONS

from maxima_board.service.script import COMMANDS
from maxima_board.service.waker import Waker


class TypedSession(Protocol):
    """What the console uses of a simulated board's session (``cli.sim.Sim``)."""

    out: TextIO

    def wait(self, fds: Iterable[int] = (), timeout_s: float | None = None) -> list[int]: ...

    def command(self, text: str, line: int) -> bool: ...

PROMPT = "> "
HISTORY_LINES = 1000
_SQUARES = sorted({name for v in variants.all_variants() for name in v.geometry.index})
_WORDS = {"lift": _SQUARES, "place": _SQUARES, "board": _SQUARES + ["empty", "start"],
          "press": list(BUTTONS), "link": ["down", "up"], "fen": ["start"], "setup": ["start"],
          "variant": variants.names()}


def history_path() -> Path:
    """Where typed lines are kept: ``$XDG_STATE_HOME/maxima-board/sim_history``."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "maxima-board" / "sim_history"


def complete(text: str, state: int) -> str | None:
    """readline's completer: command words first, then squares, buttons…"""
    line = readline.get_line_buffer() if readline is not None else ""
    head = line[:readline.get_begidx()] if readline is not None else ""
    if head.strip():
        words = _WORDS.get(head.split()[0], [])
    else:
        words = list(COMMANDS) + ["quit"]
    found = [w + " " for w in words if w.startswith(text)]
    return found[state] if state < len(found) else None


class AboveThePrompt:
    """An output stream that, while a line is being typed, clears the
    prompt line, writes the text, and draws the prompt and the typed text
    again."""

    def __init__(self, out: TextIO):
        self.out = out
        self.reading = False

    def write(self, text: str) -> None:
        if self.reading and readline is not None:
            self.out.write("\r\x1b[K" + text + PROMPT + readline.get_line_buffer())
        else:
            self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def run_console(sim: TypedSession, out: TextIO, intro: str) -> None:
    """Read lines at a prompt until ``quit``, Ctrl-D or Ctrl-C; the game
    stays stored."""
    screen = AboveThePrompt(out)
    sim.out = screen
    history = history_path()
    if readline is not None:
        readline.set_history_length(HISTORY_LINES)
        try:
            readline.read_history_file(history)
        except OSError:
            pass
        readline.set_completer(complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    saved = _terminal_state()
    lines: queue.Queue[str | None] = queue.Queue()
    typed = Waker()            # readable when the reader has put a line
    done = threading.Event()

    def reader() -> None:
        while True:
            screen.reading = True
            try:
                line = input(PROMPT)
            except EOFError:   # Ctrl-D
                line = None
            finally:
                screen.reading = False
            lines.put(line)
            typed.wake()
            if line is None:
                return
            done.wait()        # the next prompt comes after this line's output
            done.clear()

    out.write(intro + "\n")
    out.flush()
    threading.Thread(target=reader, name="sim-prompt", daemon=True).start()
    n = 0
    try:
        while True:
            try:
                line = lines.get_nowait()
            except queue.Empty:
                if sim.wait([typed.fileno()]):
                    typed.drain()
                continue
            if line is None:
                out.write("\n")
                break
            n += 1
            if not sim.command(line, n):
                break
            done.set()
    except KeyboardInterrupt:
        screen.reading = False
        out.write("\nquit: the game is stored and resumes next time\n")
    finally:
        typed.close()
        sim.out = out
        out.flush()
        _restore_terminal(saved)
        if readline is not None:
            try:
                history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(history)
            except OSError:
                pass


def _terminal_state():
    if termios is None:
        return None
    try:
        return termios.tcgetattr(sys.stdin.fileno())
    except (termios.error, OSError, ValueError):
        return None


def _restore_terminal(saved) -> None:
    """readline may still hold the terminal (Ctrl-C while the reader waits)."""
    if saved is None:
        return
    try:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
    except (termios.error, OSError, ValueError):
        pass
