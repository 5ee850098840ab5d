"""One session under every front end: the edits of
tests/data/session_edits.json, valid and not, made with tilescope.Editor
apply, refuse (naming the field) or change nothing as the fixture says, as
they do in the C++ session (core_session) and the window
(widgets_session_window), and end with the same rule problems and layout
picture; `tilescope-cli set-config` with the applied ones writes the very
text the Editor holds, and refuses each refused one.
"""

import json

from conftest import SOURCE, cli


def fixture():
    return json.loads((SOURCE / "tests" / "data" / "session_edits.json").read_text())


def test_the_editor_and_set_config_edit_as_the_session_does(tilescope, tmp_path):
    edits = fixture()
    path = SOURCE / edits["file"]
    editor = tilescope.Editor(tilescope.open(path))
    applied = []
    for e in edits["edits"]:
        before = editor.text
        where = f"{e['field']}={e['value']}"
        if e["outcome"] == "applied":
            made = editor.set(edits["op"], e["field"], e["value"])
            assert made["after"] == e["after"], where
            applied.append(where)
            continue
        try:
            editor.set(edits["op"], e["field"], e["value"])
            raise AssertionError(f"{where} was applied")
        except tilescope.EditError as error:
            assert error.field == e["field"], where
            assert ("changes nothing" in str(error)) == (e["outcome"] == "unchanged"), where
        assert editor.text == before, where
        if e["outcome"] == "refused":
            code, _, err = cli("set-config", path, "--op", edits["op"], "--set", where, "-o",
                               tmp_path / "refused.mlir")
            assert code == 1 and "nothing written" in err, f"{where}: {err}"
            assert not (tmp_path / "refused.mlir").exists()

    arguments = ["set-config", path, "--op", edits["op"], "--force"]
    for where in applied:
        arguments += ["--set", where]
    written = tmp_path / "edited.mlir"
    code, _, err = cli(*arguments, "-o", written)
    assert code in (0, 1), err
    assert written.read_text() == editor.text

    for _ in range(edits["undo"]):
        assert editor.undo()
    for part in edits["in_text_after_undo"]:
        assert part in editor.text
    # The rules' problems and the layout picture, as the session and the
    # window have them.
    problems = [{"severity": p["severity"], "field": p["field"], "rule": p["rule"]}
                for p in editor.check(edits["op"])]
    assert problems == edits["problems_after_undo"]
    assert tilescope.picture(editor.document, edits["op"]).note == edits["picture_after_undo"]
    editor.read_back()
