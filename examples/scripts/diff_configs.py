#!/usr/bin/env python3
"""The configs two IREE files give the same dispatches, side by side.

    diff_configs.py A B

Dispatches are matched by name; for each root op whose lowering_config or
translation_info differs, both are printed, with each tiling level that
changed. Exit status 1 when anything differs (as diff does).
"""

import sys

import tilescope

LEVELS = ["workgroup", "reduction", "partial_reduction", "thread", "subgroup", "serial"]


def ops_by_name(document):
    return {(d.name, i): (d, op) for d in document.dispatches for i, op in enumerate(d.root_ops)}


def main(a_path, b_path):
    a, b = ops_by_name(tilescope.open(a_path)), ops_by_name(tilescope.open(b_path))
    differ = False
    for key in sorted(a.keys() | b.keys()):
        name, index = key
        if key not in a or key not in b:
            print(f"{name}:{index}: only in {a_path if key in a else b_path}")
            differ = True
            continue
        (da, oa), (db, ob) = a[key], b[key]
        if oa.lowering_config == ob.lowering_config and da.translation_info == db.translation_info:
            continue
        differ = True
        print(f"{name}:{index} ({oa.name} over {oa.iteration_space})")
        for level in LEVELS:
            before, after = tile_sizes(oa, level), tile_sizes(ob, level)
            if before != after:
                print(f"  {level}: {before} -> {after}")
        if oa.lowering_config != ob.lowering_config:
            print(f"  - {oa.lowering_config}\n  + {ob.lowering_config}")
        if da.translation_info != db.translation_info:
            print(f"  - {da.translation_info}\n  + {db.translation_info}")
    return 1 if differ else 0


def tile_sizes(op, level):
    try:
        return op.tile_sizes(level)
    except tilescope.Error:
        return None


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
