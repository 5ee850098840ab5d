"""Who holds what: owners as NumPy arrays, MMA fragments, an op's layouts."""

import numpy

from conftest import REDUCTION, VECTOR_MATMUL

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
