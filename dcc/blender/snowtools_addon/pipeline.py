"""Runs the tools one after the other, in the background, and follows their progress.

A bake is a list of Steps (voxelize, snowsim, export...). Pipeline.poll() starts the
next step when the last one has finished, reads the lines the running tool printed,
and returns at once, so that a modal operator can call it from a timer; run() calls
it until the end, for scripts and headless runs. The tools are started without a
shell (``export`` is also a shell builtin), by their full path and an argument list.

Progress: every tool prints a line per frame with "done/total" in it (snowsim
"frame 5/24 ..." from its first frame, voxelize "[###...] 3/10 frame ...", export "frame 12  3/10 ...");
the first such pair in a line gives the step's fraction. Errors: a tool that fails
prints "name: message" last, and exits 1 (or 2 for a usage error); ToolError carries
that message. No bpy here.
"""
import collections
import os
import queue
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field

from . import cache

_FRACTION = re.compile(r"(?<![\d.])(\d+)/(\d+)(?![\d.])")


@dataclass
class Step:
    label: str            # what the panel shows: "voxelize", "snowsim", "export points"
    argv: list            # the tool's full path, then its arguments
    cwd: str
    weight: float = 1.0   # its share of the whole bake's progress bar
    clears: list = field(default_factory=list)  # #### patterns emptied before it runs
    origin: int = 0       # the progress count that means "nothing done" (snowsim: its first frame)


class ToolError(Exception):
    """A tool failed; the message is the tool's own (its last "name: ..." line)."""


def progress_fraction(line, origin=0):
    """The fraction done that a progress line states: its first "n/N" as
    (n - origin) / (N - origin), or None. snowsim counts frames start+1..last
    ("frame 1005/1048"), so its origin is the first frame."""
    m = _FRACTION.search(line)
    if not m:
        return None
    done, total = int(m.group(1)) - origin, int(m.group(2)) - origin
    if total <= 0:
        return None
    return min(1.0, max(0.0, done / total))


def failure_message(label, argv, code, lines):
    """What to report when a tool exits with `code`: its own error line ("snowsim:
    scene.toml: domain.h: ..."), or its last lines when it printed none."""
    name = os.path.basename(argv[0])
    own = [l for l in lines if l.startswith(name + ": ")]
    text = own[-1] if own else " | ".join(list(lines)[-3:]) or "(no message)"
    return "%s failed (exit status %d): %s" % (label, code, text)


class _Running:
    """One tool's process and a thread that reads its output into a queue, so that
    polling never blocks on a pipe."""

    def __init__(self, step):
        for pattern in step.clears:
            cache.remove_frames(pattern)
        flags = subprocess.CREATE_NO_WINDOW if os.name == "nt" else 0
        self.step = step
        self.proc = subprocess.Popen(
            step.argv, cwd=step.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1, creationflags=flags)
        self.lines = queue.Queue()
        self.tail = collections.deque(maxlen=20)  # its last lines, for an error message
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.proc.stdout.close()

    def new_lines(self):
        out = []
        while True:
            try:
                out.append(self.lines.get_nowait())
            except queue.Empty:
                return out


class Pipeline:
    """Steps run in order; poll() advances them. `status` and `fraction` say where it is;
    `log` keeps the last lines the tools printed."""

    def __init__(self, steps):
        self.steps = list(steps)
        self.index = 0           # the step running, or next to run
        self.running = None
        self.step_fraction = 0.0
        self.status = "waiting"
        self.log = collections.deque(maxlen=200)
        self.cancelled = False

    @property
    def done(self):
        return self.index >= len(self.steps)

    @property
    def fraction(self):
        """The bake's fraction done, each step counting by its weight."""
        total = sum(s.weight for s in self.steps) or 1.0
        before = sum(s.weight for s in self.steps[:self.index])
        current = self.steps[self.index].weight * self.step_fraction if not self.done else 0.0
        return min(1.0, (before + current) / total)

    def poll(self):
        """Moves the bake on without waiting: reads output, notices a finished tool,
        starts the next. Returns True once every step has finished; raises ToolError
        when one fails (the later steps do not run)."""
        if self.done:
            return True
        if self.running is None:
            step = self.steps[self.index]
            self.step_fraction = 0.0
            self.status = step.label
            self.log.append("$ " + " ".join(step.argv))
            self.running = _Running(step)
        run = self.running
        finished = run.proc.poll() is not None
        if finished:
            run.reader.join()  # the rest of its output
        for line in run.new_lines():
            self.log.append(line)
            run.tail.append(line)
            f = progress_fraction(line, run.step.origin)
            if f is not None:
                self.step_fraction = f
                self.status = "%s: %s" % (run.step.label, line.strip())
        if not finished:
            return False
        self.running = None
        code = run.proc.returncode
        if code != 0:
            raise ToolError(failure_message(run.step.label, run.step.argv, code, run.tail))
        self.index += 1
        self.step_fraction = 0.0
        self.status = "done" if self.done else "finished " + run.step.label
        return self.done

    def run(self, interval=0.05, report=None):
        """Runs the whole bake, blocking; report(status), when given, hears each new
        status (a headless bake prints them)."""
        shown = None
        while not self.poll():
            if report and self.status != shown:
                shown = self.status
                report(shown)
            time.sleep(interval)

    def cancel(self):
        """Stops the running tool. The files it finished stay: the tools write each
        frame to a hidden temporary file and rename it when complete, and those
        temporaries of the interrupted frame are removed here."""
        self.cancelled = True
        run, self.running = self.running, None
        self.status = "cancelled"
        if run is None:
            self.index = len(self.steps)
            return
        run.proc.terminate()
        try:
            run.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            run.proc.kill()
            run.proc.wait()
        self.status = "cancelled during " + run.step.label
        for pattern in run.step.clears:
            _remove_temporaries(os.path.dirname(pattern))
        self.index = len(self.steps)


def _remove_temporaries(folder):
    """Removes the hidden ".NAME.tmpDIGITS" files the tools write frames into."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    for n in names:
        if re.fullmatch(r"\..+\.tmp\d*", n):
            os.remove(os.path.join(folder, n))
