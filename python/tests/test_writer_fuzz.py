"""Every writer against targets that are not plain files, seeded: the
command line's -o and --in-place (set-config, render as PNG, SVG and PDF,
export-spec) and Python's Editor.save and Picture.save, each given a FIFO, a
folder, links to a device, a FIFO, a folder, a file and nothing, and a path
in no folder. What is not a regular file is never written to or replaced
(no writer may block on a FIFO), a link is written through and stays a
link, a refusal names the path, and no partial copy is left beside it. Then
set-config --in-place is killed (SIGKILL) at seeded moments: the file is
always the old text or the new, never a part, and the next save removes
what the killed ones left.
"""

import os
import random
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from conftest import MATMUL, SOURCE

EDIT = "workgroup=[32, 128, 0]"


def run_cli(*arguments, timeout=60):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([os.environ["TILESCOPE_CLI"], *map(str, arguments)],
                          capture_output=True, text=True, env=env, timeout=timeout)


def make_target(kind, folder, suffix):
    """A target of `kind` named NAME`suffix` in `folder`, and what it was."""
    path = folder / f"{kind}{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link-to-device":
        path.symlink_to("/dev/full")
    elif kind == "link-to-fifo":
        os.mkfifo(folder / f"fifo-behind{suffix}")
        path.symlink_to(folder / f"fifo-behind{suffix}")
    elif kind == "link-to-folder":
        (folder / "folder-behind").mkdir()
        path.symlink_to(folder / "folder-behind")
    elif kind == "link-to-file":
        (folder / f"file-behind{suffix}").write_text("old\n")
        path.symlink_to(folder / f"file-behind{suffix}")
    elif kind == "dangling-link":
        path.symlink_to(folder / f"nothing-behind{suffix}")
    elif kind == "no-folder":
        path = folder / "missing" / f"x{suffix}"
    elif kind == "file":
        path.write_text("old\n")
    return path


KINDS = ["fifo", "folder", "link-to-device", "link-to-fifo", "link-to-folder",
         "link-to-file", "dangling-link", "no-folder", "file"]
# What may be written: a regular file, or one through a link.
WRITABLE = {"link-to-file", "dangling-link", "file"}


def writers(tilescope):
    document = tilescope.open(MATMUL)

    def cli_writer(arguments):
        def write(target):
            run = run_cli(*arguments(target))
            return run.returncode == 0, run.stderr
        return write

    def python_writer(call):
        def write(target):
            try:
                call(target)
                return True, ""
            except tilescope.Error as error:
                return False, str(error)
        return write

    def editor_save(target):
        editor = tilescope.Editor(document)
        editor.set("0:0", "workgroup", "[32, 128, 0]")
        editor.save(target)

    return {
        "set-config -o": (".mlir", cli_writer(lambda t: [
            "set-config", MATMUL, "--op", "0:0", "--set", EDIT, "--force", "-o", t])),
        "render png": (".png", cli_writer(lambda t: ["render", MATMUL, "--op", "0:0", "-o", t])),
        "render svg": (".svg", cli_writer(lambda t: ["render", MATMUL, "--op", "0:0", "-o", t])),
        "render pdf": (".pdf", cli_writer(lambda t: ["render", MATMUL, "--op", "0:0", "-o", t])),
        "export-spec": (".spec.mlir", cli_writer(lambda t: [
            "export-spec", MATMUL, "--op", "0:0", "-o", t])),
        "Editor.save": (".mlir", python_writer(editor_save)),
        "Picture.save": (".png", python_writer(
            lambda t: tilescope.picture(document, "0:0").save(str(t)))),
    }


def kind_of(path):
    mode = os.lstat(path).st_mode
    for test, name in [(stat.S_ISLNK, "link"), (stat.S_ISFIFO, "fifo"),
                       (stat.S_ISDIR, "folder"), (stat.S_ISCHR, "device"),
                       (stat.S_ISREG, "file")]:
        if test(mode):
            return name
    return "other"


@pytest.mark.parametrize("seed", [20261205, 3])
def test_no_writer_replaces_what_is_not_a_file(tilescope, tmp_path, seed):
    rng = random.Random(seed)
    chosen = writers(tilescope)
    cases = [(name, kind) for name in sorted(chosen) for kind in KINDS]
    rng.shuffle(cases)
    for i, (name, kind) in enumerate(cases):
        folder = tmp_path / f"case{i}"
        folder.mkdir()
        suffix, write = chosen[name]
        target = make_target(kind, folder, suffix)
        before = {p.name: kind_of(p) for p in folder.iterdir()}
        link_to = os.readlink(target) if os.path.islink(target) else None
        where = f"{name} -> {kind}"
        written, said = write(target)
        assert written == (kind in WRITABLE), f"{where}: {said}"
        if not written:
            assert str(target.name) in said or "missing" in said, f"{where}: {said}"
        after = {p.name: kind_of(p) for p in folder.iterdir()}
        # Nothing became something else; a link stays the link it was.
        for entry, was in before.items():
            assert after.get(entry) == was, f"{where}: {entry} was a {was}, now {after.get(entry)}"
        if link_to is not None:
            assert os.readlink(target) == link_to, where
        # No partial copy beside it (".NAME.tilescope-PID-XXXXXX").
        left = [p for p in folder.iterdir() if ".tilescope-" in p.name]
        assert not left, f"{where}: left {left}"
        if written:
            assert target.resolve().stat().st_size > 0, where
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_killed_in_place_save_is_whole_and_its_leftovers_go(tmp_path):
    rng = random.Random(20261205)
    original = MATMUL.read_text()
    edited_copy = tmp_path / "edited.mlir"
    shutil.copy(MATMUL, edited_copy)
    run = run_cli("set-config", edited_copy, "--op", "0:0", "--set", EDIT, "--in-place",
                  "--force")
    assert run.returncode in (0, 1), run.stderr
    edited = edited_copy.read_text()
    assert edited != original
    target = tmp_path / "target.mlir"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    for _ in range(20):
        shutil.copy(MATMUL, target)
        child = subprocess.Popen([os.environ["TILESCOPE_CLI"], "set-config", str(target),
                                  "--op", "0:0", "--set", EDIT, "--in-place", "--force"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=env)
        time.sleep(rng.uniform(0, 0.4))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert target.read_text() in (original, edited)
    # The next save of the file removes what the killed ones left.
    run = run_cli("set-config", target, "--op", "0:0", "--set", EDIT, "--in-place", "--force")
    assert run.returncode in (0, 1), run.stderr
    assert target.read_text() == edited
    assert not [p for p in tmp_path.iterdir() if ".tilescope-" in p.name]
