"""Installs are locked: the README's commands take uv.lock's versions, checked by hash, whatever newer
release is on offer; the lock covers every supported target; its bootstrap file agrees with it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from installed import NOT_SOURCE_AT_TOP, clean_env, copy_source
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.tags import compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
LOCK = tomllib.loads((ROOT / "uv.lock").read_text())
LOCKED = {(package["name"], package.get("version")): package for package in LOCK["package"]}
UV = str(Path(sys.executable).parent / "uv")
# Raspberry Pi OS Bookworm: Python 3.11, glibc 2.36; a Pi runs 64-bit (aarch64) or 32-bit (armv7l).
TARGETS = {"x86_64": ("test", "venue"), "aarch64": ("pi",), "armv7l": ("pi",)}
GLIBC = 36


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def needed(machine: str, extras: tuple[str, ...]) -> dict[str, str]:
    """name -> version of every package an install on `machine` takes from the lock (uv's own export)."""
    exported = subprocess.run([UV, "export", "--frozen", "--quiet", "--no-emit-project", "--no-hashes",
                               "--format", "requirements-txt", *(f"--extra={e}" for e in extras)],
                              cwd=ROOT, capture_output=True, text=True, check=True).stdout
    env = {"sys_platform": "linux", "platform_machine": machine, "python_version": "3.11",
           "python_full_version": "3.11.2", "implementation_name": "cpython", "os_name": "posix",
           "platform_system": "Linux", "platform_python_implementation": "CPython"}
    out = {}
    for line in exported.splitlines():
        if line and not line.startswith(("#", " ")):
            requirement = Requirement(line)
            if requirement.marker is None or Marker(str(requirement.marker)).evaluate(env):
                out[canonicalize_name(requirement.name)] = str(requirement.specifier).removeprefix("==")
    return out


def tags(machine: str) -> set:
    platforms = [f"manylinux_2_{minor}_{machine}" for minor in range(GLIBC, 16, -1)]
    platforms += [f"manylinux2014_{machine}", f"linux_{machine}"]
    return {*cpython_tags((3, 11), platforms=platforms), *compatible_tags((3, 11), "cp311", platforms)}


def test_the_quick_start_and_ci_install_from_the_lock():
    simulator, tests = quick_start()
    install = "python3 -m venv .venv && .venv/bin/pip install -q --require-hashes -r uv-bootstrap.txt && " \
              ".venv/bin/uv sync -q --locked"
    assert simulator.startswith(install + " && ") and tests.startswith(install + " --extra test && ")
    assert tests in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("machine", TARGETS)
def test_the_lock_installs_on_every_target_from_files_it_checks_by_hash(machine):
    """Each package an install needs on the target has a wheel for it (CPython 3.11, glibc 2.36) or a
    source to build, every file with its sha256."""
    wanted = tags(machine)
    missing = []
    for name, version in needed(machine, TARGETS[machine]).items():
        package = LOCKED[name, version]
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        assert files and all(re.fullmatch(r"sha256:[0-9a-f]{64}", f.get("hash", "")) for f in files), name
        names = [wheel["url"].rsplit("/", 1)[1] for wheel in package.get("wheels", [])]
        if not any(wanted & parse_wheel_filename(name)[3] for name in names) and "sdist" not in package:
            missing.append(f"{name} {version}")
    assert not missing, f"the lock has neither a {machine} wheel nor a source for {missing}"


def test_the_pi_takes_no_test_tool():
    pi = needed("aarch64", ("pi",))
    assert {"lgpio", "sdbus-networkmanager", "inky", "uv", "pip"} <= pi.keys()
    assert not {"pytest", "playwright", "schemathesis", "hypothesis"} & pi.keys()


def copy_lock_files(target: Path) -> Path:
    for name in ("pyproject.toml", "uv.lock", "uv-bootstrap.txt"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(ROOT / ".ci", target / ".ci", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_the_bootstrap_file_and_the_build_pin_agree_with_the_lock(tmp_path):
    copy = copy_lock_files(tmp_path)
    check = [sys.executable, str(copy / ".ci" / "lock"), "--check"]
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0
    bootstrap = (copy / "uv-bootstrap.txt").read_text()
    (copy / "uv-bootstrap.txt").write_text(bootstrap.replace("uv==0", "uv==1", 1))  # another uv
    told = subprocess.run(check, capture_output=True, text=True)
    assert told.returncode == 1 and "uv-bootstrap.txt is not what uv.lock says: run .ci/lock" in told.stderr
    shutil.copy2(ROOT / "uv-bootstrap.txt", copy / "uv-bootstrap.txt")
    pyproject = (copy / "pyproject.toml").read_text()
    (copy / "pyproject.toml").write_text(re.sub(r'"setuptools==[^"]+"', '"setuptools==68.0.0"', pyproject))
    told = subprocess.run(check, capture_output=True, text=True)
    assert told.returncode == 1 and "build-constraint-dependencies" in told.stderr


def fake_wheel(folder: Path, name: str, version: str) -> Path:
    """A real, installable wheel of `name` at a version newer than any the lock holds."""
    dist = f"{name}-{version}.dist-info"
    files = {f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{dist}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{dist}/RECORD"])
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def installed_versions(python: Path) -> dict[str, str]:
    frozen = subprocess.run([UV, "pip", "freeze", "--quiet", "--python", str(python)], capture_output=True,
                            text=True, check=True).stdout
    return {canonicalize_name(line.split("==")[0]): line.split("==")[1] for line in frozen.splitlines()
            if "==" in line}


@pytest.mark.slow
def test_the_readme_first_command_installs_the_lock_even_with_newer_releases_on_offer(tmp_path):
    """The README's first line, run as written in a fresh copy of the project (the simulator itself left
    out), with a newer segno, waitress and uv offered in a --find-links folder to both pip and uv: every
    version installed is the lock's."""
    offered = tmp_path / "newer"
    offered.mkdir()
    for name in ("segno", "waitress", "uv"):
        fake_wheel(offered, name, "99.0.0")
    project = copy_source(ROOT, tmp_path / "project", NOT_SOURCE_AT_TOP | {"docs"})
    command = quick_start()[0].replace(".venv/bin/companion demo", ".venv/bin/companion --version")
    assert command != quick_start()[0]
    env = {**clean_env(), "PIP_FIND_LINKS": str(offered), "UV_FIND_LINKS": str(offered)}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    proc = subprocess.run(["sh", "-c", command], cwd=project, env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
    assert proc.stdout.strip().startswith("companion ")
    versions = installed_versions(project / ".venv" / "bin" / "python")
    lock = needed("x86_64", ())
    assert {name: versions.get(name) for name in lock} == lock
    assert {versions["segno"], versions["waitress"], versions["uv"]}.isdisjoint({"99.0.0"})
    # The folder really offers the newer ones: an unlocked install there takes them.
    floating = subprocess.run([UV, "pip", "install", "--quiet", "--python", str(project / ".venv" / "bin" /
                               "python"), "--find-links", str(offered), "--no-config", "--upgrade", "segno"],
                              env=env, capture_output=True, text=True, check=False)
    assert floating.returncode == 0, floating.stderr
    assert installed_versions(project / ".venv" / "bin" / "python")["segno"] == "99.0.0"


def ci_script(name: str):
    """One of .ci's scripts as a module (they sit beside locked.py, which they import)."""
    sys.path.insert(0, str(ROOT / ".ci"))
    try:
        path = ROOT / ".ci" / name
        spec = importlib.util.spec_from_loader(name, importlib.machinery.SourceFileLoader(name, str(path)))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / ".ci"))


def test_the_newest_lane_says_what_moved_and_what_broke(tmp_path):
    newest = ci_script("newest")
    before = {"babel": {"2.18.0"}, "numpy": {"2.4.6", "2.5.5"}, "gone": {"1.0"}, "same": {"3"}}
    after = {"babel": {"2.19.0"}, "numpy": {"2.4.6", "2.5.5"}, "new": {"0.1"}, "same": {"3"}}
    assert newest.moved(before, after) == ["  babel 2.18.0 → 2.19.0", "- gone 1.0", "+ new 0.1"]
    report = tmp_path / "report.xml"
    report.write_text(
        '<testsuites><testsuite><testcase classname="tests.test_i18n" name="test_mo[fr]">'
        '<failure message="AssertionError: messages.mo is older than its .po&#10;more">trace</failure>'
        '</testcase><testcase classname="tests.test_x" name="test_ok"/></testsuite></testsuites>')
    assert newest.failures(report) == ["tests.test_i18n::test_mo[fr]: AssertionError: messages.mo is older "
                                       "than its .po"]
