"""A Pi Zero 2 W stand-in: a command confined to one core at about a tenth of its speed.

Where root may make a cgroup, its CPU quota does it (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`),
with the cpuset pinned to one core. Otherwise `taskset` pins the command to one core and a duty cycle
stops and continues its process group (on 1 ms in 10).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

SHARE = 0.1  # a Pi Zero 2 W core against one of this machine's, about
# A short period: the quota then stalls the daemon at most 9 ms at a time, as a slow core would delay
# it, not 90 ms as a 100 ms period does (which no Pi does, and which every latency figure would show).
PERIOD_US = 10_000


class Confinement:
    """Runs commands under the limit; `how` says which mechanism, for the report."""

    def __init__(self):
        self.how, self._dirs = self._make()

    def _make(self) -> tuple[str, list[Path]]:
        name = f"companion-bench-{os.getpid()}"
        v2 = Path("/sys/fs/cgroup")
        if "cpu" in _read(v2 / "cgroup.controllers").split():
            group = v2 / name
            try:
                group.mkdir()
                (group / "cpu.max").write_text(f"{int(PERIOD_US * SHARE)} {PERIOD_US}")
                if (group / "cpuset.cpus").exists():
                    (group / "cpuset.cpus").write_text("0")
                return f"cgroup v2 cpu.max {int(PERIOD_US * SHARE)}/{PERIOD_US} µs on one core", [group]
            except OSError:
                _remove(group)
        cpu, cpuset = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpuset")
        if (cpu / "cpu.cfs_quota_us").exists():
            made = []
            try:
                group = cpu / name
                group.mkdir()
                made.append(group)
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(int(PERIOD_US * SHARE)))
                how = f"cgroup v1 cpu.cfs_quota_us {int(PERIOD_US * SHARE)}/{PERIOD_US} µs"
                if (cpuset / "cpuset.cpus").exists():
                    pinned = cpuset / name
                    pinned.mkdir()
                    made.append(pinned)
                    (pinned / "cpuset.cpus").write_text("0")
                    (pinned / "cpuset.mems").write_text(_read(cpuset / "cpuset.mems").strip() or "0")
                    how += ", cpuset one core"
                return how, made
            except OSError:
                for group in reversed(made):
                    _remove(group)
        return "taskset one core and a 1-in-10 stop/continue duty cycle", []

    def popen(self, command: list[str], **kwargs) -> subprocess.Popen:
        """Start `command` inside the limit (its children stay inside it)."""
        if self._dirs:
            tasks = " ".join(f"echo $$ > {d / ('tasks' if (d / 'tasks').exists() else 'cgroup.procs')};"
                             for d in self._dirs)  # v1 groups take a pid in `tasks`, v2 in `cgroup.procs`
            return subprocess.Popen(["sh", "-c", f'{tasks} exec "$@"', "sh", *command], **kwargs)
        pinned = ["taskset", "-c", "0", *command] if shutil.which("taskset") else command
        proc = subprocess.Popen(pinned, start_new_session=True, **kwargs)
        threading.Thread(target=_duty_cycle, args=(proc,), daemon=True, name="duty-cycle").start()
        return proc

    def close(self) -> None:
        for group in reversed(self._dirs):
            _remove(group)


def _duty_cycle(proc: subprocess.Popen) -> None:
    """Let the process group run 1 ms in every 10 until it ends."""
    run, stop = 0.001, 0.009
    event = threading.Event()
    while proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGCONT)
            event.wait(run)
            os.killpg(proc.pid, signal.SIGSTOP)
            event.wait(stop)
        except ProcessLookupError:
            return
    try:
        os.killpg(proc.pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _remove(group: Path) -> None:
    try:
        group.rmdir()  # empty once its processes have ended
    except OSError:
        pass
