#!/usr/bin/env python3
"""Draws every view of every root op of IREE files into a folder.

    render_all.py OUT FILE...

Writes OUT/<file>_<D>_<O>_<view>.svg for each view that applies (layouts,
lane-basis, subgroup-basis, mma, swizzle, grid: the window's views, drawn by
the function the window draws with) and says why each other view does not.
"""

import pathlib
import sys

import tilescope

VIEWS = ["layouts", "lane-basis", "subgroup-basis", "mma", "swizzle", "grid"]


def main(out, files):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for file in files:
        document = tilescope.open(file)
        stem = pathlib.Path(file).name.split(".")[0]
        for spec, op in document.ops():
            for view in VIEWS:
                try:
                    picture = tilescope.picture(document, spec, view=view)
                except tilescope.Error as why:
                    print(f"{stem} {spec} {view}: not drawn: {why}")
                    continue
                path = out / f"{stem}_{spec.replace(':', '_')}_{view}.svg"
                path.write_bytes(picture.svg())
                written += 1
                print(f"{stem} {spec} {view}: {path}")
    print(f"{written} pictures in {out}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
