#!/usr/bin/env python3
"""Puts a zoo network's weights back: random, from a seed, with the mean and
standard deviation each weight had (zoo.json), in the `dense_resource` blobs
the importer wrote.

    examples/models/zoo/with_weights.py examples/models/zoo/resnet18.f32.mlir OUT.mlir [--seed N]

Needs only NumPy. The same seed gives the same file on every machine.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TRAILER = re.compile(r"\{-#\s*dialect_resources:\s*\{\s*builtin:\s*\{(.*)\}\s*\}\s*#-\}\s*$", re.S)
BLOB = re.compile(r'^\s*([\w.$-]+|"[^"]*"):\s*"0x([0-9A-Fa-f]*)"\s*,?\s*$', re.M)


def blob(spec, generator):
    shape = [int(d) for d in spec["type"].split("x")[:-1]]
    element = spec["type"].split("x")[-1]
    values = generator.normal(spec["mean"], spec["std"], size=shape)
    data = values.astype({"f16": np.float16, "f32": np.float32}[element]).tobytes()
    return spec["alignment"].to_bytes(4, "little").hex() + data.hex()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("network", type=Path, help="a NAME.DTYPE.mlir of the zoo")
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--manifest", type=Path, help="zoo.json (default: beside the network)")
    args = parser.parse_args()
    manifest = json.loads((args.manifest or args.network.parent / "zoo.json").read_text())
    entry = next((e for e in manifest.values() if e["file"] == args.network.name), None)
    if entry is None:
        sys.exit(f"{args.network.name} is not in the zoo's manifest")
    text = args.network.read_text()
    kept = []
    match = TRAILER.search(text)
    if match:
        kept = [f'      {key}: "0x{data}"' for key, data in BLOB.findall(match.group(1))]
        text = text[:match.start()]
    generator = np.random.default_rng(args.seed)
    made = [f'      {key}: "0x{blob(spec, generator)}"'
            for key, spec in sorted(entry["weights"].items())]
    with open(args.output, "w") as out:
        out.write(text)
        if kept or made:
            out.write("{-#\n  dialect_resources: {\n    builtin: {\n")
            out.write(",\n".join(kept + made))
            out.write("\n    }\n  }\n#-}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
