"""Swizzles, banks and tile meanings from Python, held to the CLI's
`explain --swizzle` / `explain --tiles` and to the window's bank view."""

import random

import pytest

from conftest import MATMUL, REDUCTION, cli_json


def random_swizzle(rng):
    access = rng.choice([1, 2, 4, 8])
    width = access * rng.choice([2, 4, 8, 16])
    if rng.randrange(2):
        return f"#iree_codegen.rotate_rows<{width}, {access}>"
    return f"#iree_codegen.xor_shuffle<{width}, {access}>"


def test_swizzle_banks_agree_with_explain_on_random_swizzles(tilescope):
    rng = random.Random(31)
    for _ in range(12):
        text = random_swizzle(rng)
        lanes = rng.choice([16, 32, 64])
        element_bytes = rng.choice([1, 2, 4])
        swizzle = tilescope.Swizzle(text)
        per_row = swizzle.row_width // swizzle.access_width
        pattern = rng.choice(["row", "column"])
        if pattern == "row":
            accesses = [(lane, lane // per_row, (lane % per_row) * swizzle.access_width)
                        for lane in range(lanes)]
        else:
            accesses = [(lane, lane, 0) for lane in range(lanes)]
        ours = swizzle.banks(accesses, element_bytes=element_bytes)
        theirs = cli_json("explain", "--swizzle", text, "--access", pattern, "--lanes",
                          lanes, "--element-bytes", element_bytes, "--json")
        for key in ["swizzle", "worst_conflict_before", "worst_conflict_after",
                    "conflicts_per_phase_before", "conflicts_per_phase_after"]:
            assert ours[key] == theirs[key], (text, pattern, lanes, key)
        # Each access lands where the swizzle puts its column.
        for access in ours["after"]["accesses"]:
            column = access["column"] // swizzle.access_width
            assert access["physical_column"] == \
                swizzle.physical_column(access["row"], column) * swizzle.access_width


def test_xor_shuffle_moves_columns_as_iree_states_it(tilescope):
    swizzle = tilescope.Swizzle("#iree_codegen.xor_shuffle<64, 8>")
    assert repr(swizzle).startswith("#iree_codegen.xor_shuffle<64, 8")
    # Access (i, j) moves to column j XOR ((i / per_phase) % N), N = 8.
    for row in range(16):
        for column in range(8):
            moved = swizzle.physical_column(row, column)
            assert moved == column ^ (row % 8)
            assert swizzle.logical_column(row, moved) == column
    with pytest.raises(tilescope.Error, match="xor_shuffle|rotate_rows"):
        tilescope.Swizzle("#iree_gpu.lane_id<0>")
    with pytest.raises(tilescope.Error, match="outside rows"):
        swizzle.banks([(0, 0, 64)])
    # An element of 2^40 bytes is refused at once, not walked for ever.
    with pytest.raises(tilescope.Error, match="element_bytes must be 1 to 64"):
        swizzle.banks([(0, 0, 0)], element_bytes=2**40)


def test_bank_reads_are_the_bank_views_numbers(tilescope):
    document = tilescope.open(MATMUL)
    reads = tilescope.bank_reads(document, "0:0")
    assert reads["intrinsic"] == "MFMA_F32_16x16x16_F16"
    assert [o["name"] for o in reads["operands"]] == ["LHS", "RHS"]
    svg = tilescope.picture(document, "0:0", view="swizzle").svg().decode()
    for operand in reads["operands"]:
        banks = operand["banks"]
        assert len(banks["after"]["accesses"]) == reads["bank_model"]["subgroup_size"]
        said = (f"worst bank conflict {banks['worst_conflict_before']}-way before, "
                f"{banks['worst_conflict_after']}-way after")
        assert said in svg, said
    with pytest.raises(tilescope.Error, match="mma_kind|contraction"):
        tilescope.bank_reads(tilescope.open(REDUCTION), "0:0")


def test_tile_meanings_are_explains(tilescope):
    for path in [MATMUL, REDUCTION]:
        ours = tilescope.tile_meanings(tilescope.open(path), "0:0")
        assert ours == cli_json("explain", path, "--op", "0:0", "--tiles", "--json")
    meanings = tilescope.tile_meanings(tilescope.open(MATMUL), "0:0")
    assert meanings["pipeline"] == "TileAndFuse"
    workgroup = meanings["tiles"]["workgroup"]
    assert workgroup["pieces"] == "workgroups"
    assert [e["count"] for e in workgroup["entries"]][:2] == [1024 // 64, 1024 // 128]
