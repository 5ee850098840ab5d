"""One session under every front end: the edits of
tests/data/session_edits.json, valid and not, made with tilescope.Editor
apply, refuse (naming the field) or change nothing as the fixture says, as
they do in the C++ session (core_session) and the window
(widgets_session_window), and end with the same rule problems and layout
picture; `tilescope-cli set-config` with the applied ones writes the very
text the Editor holds, and refuses each refused one.
"""

import json

from conftest import SOURCE, all_read, cli


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


def candidates_of(plan):
    if isinstance(plan, dict):  # tilescope-cli's --json
        return [[c["candidate"], c["valid"]] for c in plan["candidates"]]
    return [[c.candidate, c.valid] for c in plan.candidates]


def test_the_jobs_answer_as_the_workbench_does(tilescope, tmp_path):
    """The fixture's sweeps planned and its compile-only tune, started from
    Python and from tilescope-cli: the candidates and winners core_workbench
    and the window's panels get."""
    jobs = fixture()
    path = SOURCE / jobs["file"]
    document = tilescope.open(path)
    axes = jobs["sweep_axes"]
    plan = tilescope.sweep(document, jobs["op"], vary=axes["vary"], plan=True,
                           workspace=tmp_path / "python")
    assert candidates_of(plan) == axes["candidates"]
    vary = [part for text in axes["vary"] for part in ("--vary", text)]
    code, out, err = cli("sweep", path, "--op", jobs["op"], "--plan", "--json", *vary,
                         "--workspace", tmp_path / "cli")
    assert code == 0, err
    assert candidates_of(json.loads(out)) == axes["candidates"]
    # The class holds the JSON the CLI prints, every key a field.
    assert isinstance(plan, tilescope.SweepPlan) and all_read(plan)
    assert plan.to_dict() == json.loads(out)

    space = jobs["sweep_iree_space"]
    plan = tilescope.sweep(document, jobs["op"], nearest=space["nearest"], plan=True,
                           workspace=tmp_path / "python")
    assert candidates_of(plan) == space["candidates"]
    code, out, err = cli("sweep", path, "--op", jobs["op"], "--plan", "--json", "--nearest",
                         str(space["nearest"]), "--workspace", tmp_path / "cli")
    assert code == 0, err
    assert candidates_of(json.loads(out)) == space["candidates"]

    tune = jobs["tune"]
    program = SOURCE / tune["program"]
    expected = [[d["winner"], d["outcome"], d["kept"]] for d in tune["dispatches"]]
    tuned = tilescope.tune(program, target=tune["target"], candidates=tune["candidates"],
                           budget=tune["budget_minutes"], workspace=tmp_path / "python")
    assert isinstance(tuned, tilescope.TuneResult) and all_read(tuned)
    assert [[d.winner, d.outcome, d.kept] for d in tuned.dispatches] == expected
    code, out, err = cli("tune", program, "--target", tune["target"], "--candidates",
                         str(tune["candidates"]), "--budget", str(tune["budget_minutes"]),
                         "--json", "--workspace", tmp_path / "cli")
    assert code == 0, err
    assert [[d["winner"], d["outcome"], d["kept"]]
            for d in json.loads(out)["dispatches"]] == expected
