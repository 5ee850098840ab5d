"""Pictures of a root op: the window's views, the CLI's renders."""

import os
import subprocess
import sys

import pytest

from conftest import MATMUL, VECTOR_MATMUL, cli

VIEWS = ["layouts", "lane-basis", "subgroup-basis", "mma", "swizzle", "grid"]


def test_svg_and_png(tilescope, tmp_path):
    picture = tilescope.picture(tilescope.open(VECTOR_MATMUL), "0:0", view="mma")
    assert "MFMA_F32_32x32x8_F16" in picture.note
    assert b"<svg" in picture.svg()
    assert picture.png().startswith(b"\x89PNG")
    assert picture._repr_svg_().lstrip().startswith("<?xml")
    picture.save(str(tmp_path / "mma.pdf"))
    assert (tmp_path / "mma.pdf").read_bytes().startswith(b"%PDF")


def test_a_script_without_a_session_draws_quietly(tmp_path):
    # Run where no session set XDG_RUNTIME_DIR (ssh, cron), a picture
    # prints nothing of Qt's own.
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_RUNTIME_DIR", "QT_QPA_PLATFORM")}
    script = ("import tilescope; tilescope.picture(tilescope.open(%r), '0:0')"
              ".save(%r)" % (str(MATMUL), str(tmp_path / "m.png")))
    run = subprocess.run([sys.executable, "-c", script], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "m.png").exists()
    assert run.stderr == "" and run.stdout == "", run.stderr + run.stdout


def test_a_view_that_does_not_apply_says_why(tilescope):
    with pytest.raises(tilescope.Error, match="no lane_basis"):
        tilescope.picture(tilescope.open(MATMUL), "0:0", view="lane-basis")
    with pytest.raises(tilescope.Error, match="view is one of layouts"):
        tilescope.picture(tilescope.open(MATMUL), "0:0", view="banks")


@pytest.mark.parametrize("view", VIEWS)
def test_the_clis_render_draws_the_same_picture(tilescope, tmp_path, view):
    document = tilescope.open(VECTOR_MATMUL)
    out = tmp_path / f"{view}.svg"
    code, _, err = cli("render", VECTOR_MATMUL, "--op", "0:0", "--view", view, "-o", out)
    try:
        picture = tilescope.picture(document, "0:0", view=view)
    except tilescope.Error as error:
        assert code == 1 and str(error).split(": ", 1)[1] in err
        return
    assert code == 0, err
    assert picture.svg() == out.read_bytes()
