"""One answer: Python and the CLI say the same of the same edit.

Seeded random edits of the sm_90 reduction and the gfx942 matmul (the
fields and values of tests/RandomEdits.h), made with the Editor here and
with `tilescope-cli set-config --force`: the rules' verdict equals
`check --json`'s, every view's picture equals `render`'s, and the
reduction's operand layouts equal `explain --json`'s.
"""

import random as random_module

import pytest

from conftest import MATMUL, REDUCTION, cli, cli_json, matmul_edit, reduction_edit

VIEWS = ["layouts", "lane-basis", "subgroup-basis", "mma", "swizzle", "grid"]
CASES = [(REDUCTION, seed) for seed in range(1, 7)] + [(MATMUL, seed) for seed in range(1, 7)]


@pytest.mark.parametrize("path,seed", CASES, ids=lambda c: getattr(c, "stem", str(c)))
def test_random_edits_get_one_answer(tilescope, tmp_path, path, seed):
    random = random_module.Random(seed * 7919)
    edit = reduction_edit(random) if path == REDUCTION else matmul_edit(random)
    editor = tilescope.Editor(tilescope.open(path))
    arguments = ["set-config", path, "--op", "0:0", "--force"]
    applied_here = True
    for field, value in edit:
        arguments += ["--set", f"{field}={value}"]
        try:
            editor.set("0:0", field, value)
        except tilescope.EditError as error:
            applied_here = applied_here and "changes nothing" in str(error)
    edited = tmp_path / "edited.mlir"
    code, _, err = cli(*arguments, "-o", edited)
    assert (code in (0, 1)) == applied_here, f"{edit}: {err}"
    if not applied_here:
        return

    checked = cli_json("check", edited, "--op", "0:0", "--no-iree-constraints", "--json")
    assert editor.check("0:0") == checked["problems"], edit

    document = editor.document
    for view in VIEWS:
        out = tmp_path / f"{view}.svg"
        code, _, err = cli("render", edited, "--op", "0:0", "--view", view, "-o", out)
        try:
            picture = tilescope.picture(document, "0:0", view=view)
        except tilescope.Error:
            assert code == 1, f"{edit} {view}: the CLI drew what Python could not"
            continue
        assert code == 0, f"{edit} {view}: {err}"
        assert picture.svg() == out.read_bytes(), f"{edit} {view}"

    if path == REDUCTION and not any(p["severity"] == "error" for p in checked["problems"]):
        explained = cli_json("explain", edited, "--op", "0:0", "--json")
        ours = [str(layout) for layout in tilescope.op_layouts(document, "0:0")["operands"]]
        assert ours == [o["layout"] for o in explained.get("operand_layouts", [])], edit
