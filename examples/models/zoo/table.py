#!/usr/bin/env python3
"""Writes docs/models.md's table from what the zoo test measured.

    build/tests/e2e_model_zoo            # writes build/model-zoo.json
    examples/models/zoo/table.py build/model-zoo.json > table.md

A row per network and target: dispatches, root ops by kind, rule or IREE
errors on IREE's own configs, warnings (and how many say IREE's stated
constraints disagree with IREE's own choice), ops laid out, dispatches
predicted, contraction and convolution root ops whose rules' neighbourhood
has 8 or more valid candidates, configure's wall time; for llvm-cpu the
checked run and its time.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def kinds(row):
    return ", ".join(f"{count} {kind}" for kind, count in sorted(row["kinds"].items()))


def main():
    measured = json.loads(Path(sys.argv[1]).read_text())
    print("| network | target | dispatches | root ops | errors | warnings "
          "(IREE disagrees) | laid out | predicted | 8+ neighbours | configure | checked run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for network in sorted(measured):
        targets = measured[network]
        for target in ("sm_90", "gfx942", "llvm-cpu"):
            row = targets.get(target)
            if not row:
                continue
            check = ""
            if target == "llvm-cpu" and "llvm-cpu-check" in targets:
                c = targets["llvm-cpu-check"]
                check = ("passed" if c["passed"] else "FAILED") + f", {c['seconds']:.0f} s"
            gpu = target != "llvm-cpu"
            laid = f"{row['laid_out']}" + (f" (+{row['not_laid_out']} say why)"
                                           if row["not_laid_out"] else "")
            predicted = (f"{row['predicted']} of {row['dispatches']}" if gpu else "-")
            swept = (f"{row['eight_valid_neighbours']} of {row['sweepable']}" if gpu else "-")
            print(f"| {network} | {target} | "
                  f"{row['dispatches']} | {row['root_ops']}: {kinds(row)} | "
                  f"{row['errors']} | {row['warnings']} ({row['iree_constraints_disagree']}) | "
                  f"{laid if gpu else '-'} | {predicted} | {swept} | "
                  f"{row['configure_seconds']:.1f} s | {check} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
