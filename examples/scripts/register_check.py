#!/usr/bin/env python3
"""A check for CI or a pre-commit hook: does an edit raise register use?

    register_check.py FILE D:O FIELD=VALUE [FIELD=VALUE ...] [--workspace DIR]

Compiles FILE as it is and with the edits (the real iree-compile; no GPU
needed: the registers are read from the compiled kernel's ISA or SASS), and
compares each kernel's registers (VGPRs, AGPRs and SGPRs on AMD, registers
per thread on NVIDIA) and spills. Exit status 1 when the edit raises any of
them, 2 when a compile fails or an edit is refused, 0 otherwise. Both tries
land in the workspace's history (default: the user's workspace).
"""

import argparse
import sys

import tilescope

COUNTED = ["vgprs", "agprs", "sgprs", "registers", "vgpr_spills", "sgpr_spills",
           "spilled_bytes"]


def registers(document, op, workspace):
    report = tilescope.run_try(document, op, stage="resources", workspace=workspace)
    if report["outcome"] != "ok":
        error = report.get("compile", {}).get("summary") or report["outcome"]
        raise tilescope.Error(f"try {report['try']}: {error}")
    return {kernel["kernel"]: {key: kernel[key] for key in COUNTED if key in kernel}
            for kernel in report["resources"]["kernels"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("op", help="the root op, D:O")
    parser.add_argument("edits", nargs="+", metavar="FIELD=VALUE")
    parser.add_argument("--workspace")
    arguments = parser.parse_args()
    try:
        original = tilescope.open(arguments.file)
        editor = tilescope.Editor(original)
        for edit in arguments.edits:
            field, _, value = edit.partition("=")
            editor.set(arguments.op, field, value)
        before = registers(original, arguments.op, arguments.workspace)
        after = registers(editor.document, arguments.op, arguments.workspace)
    except tilescope.Error as error:
        print(f"register_check: {error}", file=sys.stderr)
        return 2
    raised = False
    for kernel in sorted(before.keys() | after.keys()):
        was, now = before.get(kernel, {}), after.get(kernel, {})
        for key in COUNTED:
            if key not in was and key not in now:
                continue
            a, b = was.get(key, 0), now.get(key, 0)
            mark = "  RAISED" if b > a else ""
            raised |= b > a
            print(f"{kernel} {key}: {a} -> {b}{mark}")
    return 1 if raised else 0


if __name__ == "__main__":
    sys.exit(main())
