"""Documents, root ops, edits with undo and redo, and the rules' verdict."""

import pytest

from conftest import EXAMPLES, MATMUL, REDUCTION, cli, cli_json


def test_open_lists_dispatches_and_root_ops(tilescope):
    document = tilescope.open(MATMUL)
    assert len(document.dispatches) == 1
    dispatch = document.dispatches[0]
    assert dispatch.name.startswith("matmul_f16_1024_dispatch_0")
    assert "TileAndFuse" in dispatch.translation_info
    op = document.op("0:0")
    assert op.name == "linalg.generic"
    assert op.iteration_space == "1024x1024x1024:ppr"
    assert op.kind == "contraction"
    assert op.lowering_config.startswith("#iree_gpu.lowering_config<")
    assert "linalg.generic" in repr(op) and "1024x1024x1024:ppr" in repr(op)
    assert [spec for spec, _ in document.ops()] == ["0:0"]
    assert document.op((0, 0)).line == op.line
    assert document.op(dispatch.name + ":0").line == op.line


def test_what_the_cli_lists(tilescope):
    document = tilescope.open(REDUCTION)
    listed = cli_json("dispatches", REDUCTION, "--json")
    assert [d.name for d in document.dispatches] == [d["name"] for d in listed["dispatches"]]


def test_bad_input_names_what_and_where(tilescope):
    with pytest.raises(tilescope.Error, match="dispatch 3 is not in the file"):
        tilescope.open(MATMUL).op("3:0")
    with pytest.raises(tilescope.ParseError) as raised:
        tilescope.parse("func.func @f() {\n  %0 = arith.constant : i32\n}\n", "broken.mlir")
    assert "broken.mlir:2" in str(raised.value)
    with pytest.raises(tilescope.ParseError):
        tilescope.open("/nonexistent/file.mlir")


def test_edits_undo_redo_diff_save(tilescope, tmp_path):
    document = tilescope.open(MATMUL)
    editor = tilescope.Editor(document)
    made = editor.set("0:0", "workgroup", "[128, 128, 0]")
    assert made["field"] == "workgroup" and made["after"] == "[128, 128, 0]"
    assert editor.modified and editor.can_undo
    assert "-" in editor.diff() and "[128, 128, 0]" in editor.diff()
    assert "[128, 128, 0]" in editor.document.op("0:0").lowering_config
    assert editor.undo() and not editor.modified
    assert editor.redo() and editor.modified
    # IREE's own parser reads the edit back as the editor holds it.
    read = editor.read_back()
    assert read.op("0:0").lowering_config == editor.document.op("0:0").lowering_config
    editor.save(tmp_path / "edited.mlir")
    assert tilescope.open(tmp_path / "edited.mlir").op("0:0").lowering_config == \
        editor.document.op("0:0").lowering_config
    # The original document is a snapshot: edits leave it as opened.
    assert "[128, 128, 0]" not in document.op("0:0").lowering_config


def test_a_refused_edit_names_its_field_and_changes_nothing(tilescope):
    editor = tilescope.Editor(tilescope.open(MATMUL))
    with pytest.raises(tilescope.EditError) as raised:
        editor.set("0:0", "workgroup", "[64, 128")
    assert raised.value.field == "workgroup"
    assert not editor.modified and editor.edits == []


def test_what_iree_refuses_is_refused_at_set_as_set_config_refuses_it(tilescope, tmp_path):
    """Each edit's attribute is read by IREE (in the worker) when it is made,
    not first at save: the error names the field, and the CLI refuses the
    same edit."""
    editor = tilescope.Editor(tilescope.open(MATMUL))
    for field, value in [("workgroup", "[64, abc, 0]"),
                         ("mma_kind", "#iree_gpu.mma_layout<NOT_AN_INTRINSIC>")]:
        with pytest.raises(tilescope.EditError, match="IREE refuses") as raised:
            editor.set("0:0", field, value)
        assert raised.value.field == field
        assert not editor.modified and editor.edits == []
        code, _, err = cli("set-config", MATMUL, "--op", "0:0", "--set",
                           f"{field}={value}", "-o", tmp_path / "out.mlir")
        assert code != 0 and "IREE refuses" in err, err


def test_check_is_the_clis(tilescope):
    editor = tilescope.Editor(tilescope.open(MATMUL))
    editor.set("0:0", "workgroup", "[128, 128, 0]")
    problems = editor.check("0:0")
    assert any(p["severity"] == "error" and p["rule"] == "shared-memory" for p in problems)
    assert tilescope.open(MATMUL).check("0:0") == []


def test_typed_configs_print_as_iree_printed_them(tilescope):
    """Every example's configs, read into the typed model and printed back,
    are the characters IREE printed (the worker's parse)."""
    checked = 0
    for path in sorted(EXAMPLES.glob("*/*.benchmark.mlir")):
        document = tilescope.open(path)
        for dispatch in document.dispatches:
            if dispatch.translation_info:
                assert repr(dispatch.translation) == dispatch.translation_info, path
                checked += 1
            for op in dispatch.root_ops:
                if op.lowering_config.startswith("#iree_gpu."):
                    assert repr(op.config) == op.lowering_config, (path, op.name)
                    checked += 1
                else:
                    assert op.config is None
    assert checked >= 20
    op = tilescope.open(MATMUL).op("0:0")
    assert op.config.tile_sizes("workgroup") == [64, 128, 0]
    assert op.config.mma_kind == "MFMA_F32_16x16x16_F16"
    assert op.config.promote_operands == [0, 1]
    assert op.config.to_dict()["tile_sizes"]["reduction"] == [0, 0, 8]
    translation = tilescope.open(MATMUL).dispatches[0].translation
    assert translation.pipeline == "TileAndFuse"
    assert translation.workgroup_size == [256, 1, 1] and translation.subgroup_size == 64
    with pytest.raises(tilescope.ParseError):
        tilescope.LoweringConfig("#iree_gpu.lowering_config<{workgroup = [1, 2")
    with pytest.raises(tilescope.Error, match="not a tiling level"):
        op.config.tile_sizes("warp")


def test_iree_constraints_join_the_verdict_as_check_adds_them(tilescope, tmp_path):
    editor = tilescope.Editor(tilescope.open(MATMUL))
    assert editor.check("0:0", iree_constraints=True) == \
        cli_json("check", MATMUL, "--op", "0:0", "--json")["problems"]
    # An edit IREE's TileAndFuse constraints refuse: IREE says so, by name.
    editor.set("0:0", "subgroup_size", "32")
    ours = editor.check("0:0", iree_constraints=True)
    by_iree = [p for p in ours if p["origin"] == "iree-constraints"]
    assert [p for p in by_iree if p["severity"] == "error"], ours
    assert editor.check("0:0") == [p for p in ours if p["origin"] == "tilescope"]
    edited = tmp_path / "edited.mlir"
    editor.save(edited)
    assert ours == cli_json("check", edited, "--op", "0:0", "--json")["problems"]


def test_configure_a_program_as_the_cli_does(tilescope, tmp_path):
    source = EXAMPLES / "sources" / "matmul_f32_small.mlir"
    output = tmp_path / "matmul.llvm-cpu.configured.mlir"
    document = tilescope.configure(source, "llvm-cpu", output)
    assert output.exists() and str(document.path) == str(output)
    assert len(document.dispatches) >= 1
    listed = cli_json("dispatches", str(output), "--json")
    assert [d.name for d in document.dispatches] == [d["name"] for d in listed["dispatches"]]
    with pytest.raises(tilescope.Error, match="not-a-chip"):
        tilescope.configure(source, "not-a-chip", tmp_path / "no.mlir")
