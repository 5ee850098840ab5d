"""Who holds what: owners as NumPy arrays, MMA fragments, an op's layouts."""

import numpy
import pytest

from conftest import REDUCTION, SOURCE, VECTOR_MATMUL

LAYOUT = ("#iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [2, 1], "
          "outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 4], "
          "subgroup_strides = [1, 0], thread_strides = [8, 1]>")


def test_owners_are_arrays_of_the_layouts_shape(tilescope):
    layout = tilescope.NestedLayout(LAYOUT)
    assert layout.shape == [32, 32]
    owners = layout.owners()
    for name in ("subgroup", "lane", "register"):
        assert owners[name].shape == (32, 32) and owners[name].dtype == numpy.int64
    assert set(numpy.unique(owners["subgroup"])) == {0, 1}
    assert set(numpy.unique(owners["lane"])) == set(range(64))
    # Each thread holds registers_per_thread elements, each once.
    pairs = owners["subgroup"] * 64 + owners["lane"]
    counts = numpy.bincount(pairs.ravel())
    assert (counts == layout.registers_per_thread).all()
    # elements_of and owners_of say the same.
    for index in layout.elements_of(1, 9):
        assert (1, 9) == tuple(int(owners[k][tuple(index)]) for k in ("subgroup", "lane"))
        assert layout.owners_of(index)[0][:2] == (1, 9)


def test_mma_fragments(tilescope):
    fragments = tilescope.mma_fragments("MFMA_F32_32x32x8_F16")
    assert fragments["lhs"]["lane"].shape == (32, 8)
    assert fragments["rhs"]["lane"].shape == (8, 32)
    assert fragments["acc"]["lane"].shape == (32, 32)
    for operand in fragments.values():
        keys = operand["lane"] * 1000 + operand["register"]
        assert len(numpy.unique(keys)) == keys.size  # each element once
        assert operand["lane"].max() == 63


def test_op_layouts(tilescope):
    layouts = tilescope.op_layouts(tilescope.open(VECTOR_MATMUL), "0:0")
    assert layouts["pipeline"] == "VectorDistribute"
    assert layouts["intrinsic"] == "MFMA_F32_32x32x8_F16"
    assert [type(l).__name__ for l in layouts["operands"]] == ["NestedLayout"] * 3
    reduction = tilescope.op_layouts(tilescope.open(REDUCTION))
    assert str(reduction["operands"][0]).startswith("#iree_vector_ext.nested_layout<")


def test_attention_is_laid_out_as_its_two_contractions(tilescope):
    # The Llama-3-8B layer's attention as the pinned IREE configures it for
    # sm_90; the Q layout is the to_layout IREE's configure-tensor-layouts
    # puts on the Q.K^T contraction's LHS (tilescope-cli iree-layouts).
    attention = SOURCE / "tests" / "core" / "edit" / "data" / "attention_sm_90.mlir"
    layouts = tilescope.op_layouts(tilescope.open(attention), "0:0")
    assert layouts["intrinsic"] == "NV_MMA_SYNC_F32_16x8x16_F16"
    assert [type(l).__name__ for l in layouts["operands"]] == ["NestedLayout"] * 6
    assert str(layouts["operands"][0]) == (
        "#iree_vector_ext.nested_layout<subgroup_tile = [1, 4, 1], batch_tile = [1, 1, 8], "
        "outer_tile = [1, 2, 2], thread_tile = [1, 8, 4], element_tile = [1, 1, 2], "
        "subgroup_strides = [0, 1, 0], thread_strides = [0, 4, 1]>")
    parts = layouts["attention"]["contractions"]
    assert [p["name"] for p in parts] == ["Q.K^T", "P.V"]
    assert [o["name"] for o in parts[1]["operands"]] == ["P", "V", "O"]
    assert layouts["attention"]["k2_steps"] == 32


@pytest.mark.parametrize("count", [2**31, 2**32, 2**62])
def test_tile_counts_that_overflow_are_refused_not_a_crash(tilescope, count):
    text = LAYOUT.replace("subgroup_tile = [2, 1]", f"subgroup_tile = [{count}, 1]") \
                 .replace("batch_tile = [2, 1]", f"batch_tile = [{count}, 1]")
    with pytest.raises(tilescope.Error, match="2\\^40 elements"):
        tilescope.NestedLayout(text)
