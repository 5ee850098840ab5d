#!/usr/bin/env python3
"""One tile size swept: the rules' verdict and the predicted time of each.

    tile_sweep.py FILE OP LEVEL ENTRY V1,V2,...

e.g. tile_sweep.py matmul.mlir 0:0 workgroup 1 32,64,128,256 sets
workgroup[1] to each value (nothing compiled: `tilescope-cli sweep` compiles
and times them) and prints a table, predicted fastest first; a value the
rules refuse says which rule. With matplotlib installed, --plot OUT.png
draws predicted time against the value.
"""

import sys

import tilescope


def sweep(path, op, level, entry, values):
    document = tilescope.open(path)
    current = document.op(op).tile_sizes(level)
    if current is None or entry >= len(current):
        raise SystemExit(f"{path} {op}: {level} has no entry {entry} ({current})")
    rows = []
    for value in values:
        sizes = list(current)
        sizes[entry] = value
        editor = tilescope.Editor(document)
        try:
            editor.set(op, level, str(sizes))
        except tilescope.EditError as error:
            if "changes nothing" not in str(error):
                rows.append((value, None, f"refused: {error}"))
                continue
        errors = [p for p in editor.check(op) if p["severity"] == "error"]
        if errors:
            rows.append((value, None, f"{errors[0]['field']}: {errors[0]['rule']}"))
            continue
        predicted = editor.predict(op)
        rows.append((value, predicted["us"], f"bound by {predicted['bound_by']}"))
    return current, rows


def main(arguments):
    plot = None
    if "--plot" in arguments:
        at = arguments.index("--plot")
        plot = arguments[at + 1]
        del arguments[at:at + 2]
    if len(arguments) != 5:
        sys.exit(__doc__)
    path, op, level, entry, values = arguments
    entry = int(entry)
    current, rows = sweep(path, op, level, entry, [int(v) for v in values.split(",")])
    print(f"{level}[{entry}] of {op} (now {current[entry]}):")
    ranked = sorted(rows, key=lambda r: (r[1] is None, r[1] or 0))
    for value, us, why in ranked:
        time = f"{us:10.2f} us" if us is not None else " " * 13
        print(f"  {value:6d}  {time}  {why}")
    if plot:
        import matplotlib  # optional: only for --plot
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        points = [(v, us) for v, us, _ in rows if us is not None]
        plt.plot([v for v, _ in points], [us for _, us in points], marker="o")
        plt.xscale("log", base=2)
        plt.xlabel(f"{level}[{entry}]")
        plt.ylabel("predicted us")
        plt.savefig(plot)
        print(f"wrote {plot}")
    return ranked


if __name__ == "__main__":
    main(sys.argv[1:])
