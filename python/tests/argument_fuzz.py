"""The Python API's argument space, seeded: each call picks a function of
tilescope and fills its arguments from values a careless or hostile script
passes (sizes near 2**31 and 2**63, negatives, NaN and infinities, empty and
huge strings, control characters, wrong types, special files), mixed with
valid ones so that calls reach past the first check.

Run as a child by test_argument_fuzz.py: `argument_fuzz.py SEED COUNT DIR`.
Each call is printed before it runs and its outcome after, so the parent can
name the call that killed or hung the interpreter. A call may return or
raise tilescope.Error, TypeError or ValueError; anything else is printed as
UNEXPECTED and the child exits 3.
"""

import math
import os
import random
import sys
from pathlib import Path

import tilescope

SOURCE = Path(os.environ["TILESCOPE_SOURCE_DIR"])
MATMUL = SOURCE / "examples" / "rocm_gfx942" / "matmul_f16_1024_dispatch_0.benchmark.mlir"

BIG_INTS = [0, 1, -1, 2, 3, 7, 64, 2**31 - 1, 2**31, -2**31, 2**32, 2**62, 2**63 - 1,
            -2**63, 2**64, 10**30]
FLOATS = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e-300, 1e300, -5.0, 0.5]
STRINGS = ["", "\x00", "\x1b[2J\x07", "0", "0:0", "9:9", "-1:0", "a" * 100000, "\u2603",
           "[", "[[", "#iree_gpu.lowering_config<{", "}>", "nan", "1e400"]


class Hostile:
    def __init__(self, random, folder):
        self.random = random
        self.folder = folder
        fifo = folder / "fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        link_out = folder / "link-out"
        if not link_out.exists():
            link_out.symlink_to("/etc/hostname")
        self.paths = [fifo, Path("/dev/zero"), Path("/dev/null"), Path("/dev/full"), folder,
                      Path(""), Path("/nonexistent/x.mlir"), link_out,
                      Path("/proc/self/mem")]

    def pick(self, values):
        return self.random.choice(values)

    def integer(self):
        return self.pick(BIG_INTS) if self.random.random() < 0.7 else self.random.randint(-9, 99)

    def number(self):
        return self.pick(FLOATS + [self.integer()])

    def text(self):
        return self.pick(STRINGS)

    def anything(self):
        kind = self.random.randrange(8)
        return [self.integer, self.number, self.text, lambda: None, lambda: [],
                lambda: [self.integer() for _ in range(self.random.randrange(5))],
                lambda: {"a": self.integer()}, lambda: self.pick(self.paths)][kind]()

    def either(self, valid):
        """`valid` most of the time, else a hostile value of its type (a
        bool, an int, a float, a string, a list), now and then anything."""
        roll = self.random.random()
        if roll < 0.65:
            return valid
        if roll < 0.95:
            if isinstance(valid, bool):
                return not valid
            if isinstance(valid, int):
                return self.integer()
            if isinstance(valid, float):
                return self.number()
            if isinstance(valid, str):
                return self.text()
            if isinstance(valid, list):
                return [self.integer() for _ in range(self.random.randrange(5))]
        return self.anything()

    def counts(self, n):
        return [self.either(self.pick([1, 2, 4, 8, 16, 64])) if self.random.random() < 0.7
                else self.integer() for _ in range(n)]

    def nested_layout(self):
        n = self.random.randrange(1, 3)
        fields = ["subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile",
                  "subgroup_strides", "thread_strides"]
        body = ", ".join(f"{f} = [{', '.join(str(c) for c in self.counts(n))}]"
                         for f in fields if self.random.random() < 0.95)
        return f"#iree_vector_ext.nested_layout<{body}>"

    def basis(self):
        n = self.random.randrange(1, 4)
        counts = ", ".join(str(c) for c in self.counts(n))
        mapping = ", ".join(str(self.either(i)) for i in range(n))
        return f"[[{counts}], [{mapping}]]"

    def swizzle(self):
        a, b = self.either(self.pick([64, 128, 256])), self.either(self.pick([4, 8, 16]))
        if self.random.random() < 0.5:
            return f"#iree_codegen.xor_shuffle<{a}, {b}>"
        return f"#iree_codegen.rotate_rows<{a}, {b}>"

    def op(self):
        return self.either(self.pick(["0", "0:0", 0, (0, 0)]))


def calls(h, document):
    """The functions tried, each a (name, thunk) pair."""
    r = h.random

    def nested():
        layout = tilescope.NestedLayout(h.either(h.nested_layout()), h.either(0), h.either(0))
        kind = r.randrange(3)
        if kind == 0:
            return layout.owners()
        if kind == 1:
            return layout.elements_of(h.integer(), h.integer())
        return layout.owners_of([h.integer() for _ in range(r.randrange(4))])

    def basis():
        b = tilescope.Basis(h.either(h.basis()))
        kind = r.randrange(3)
        if kind == 0:
            return b.coordinates(h.integer())
        if kind == 1:
            return b.digits(h.integer())
        return b.ids_at([h.integer() for _ in range(r.randrange(4))])

    def swizzle():
        s = tilescope.Swizzle(h.either(h.swizzle()))
        kind = r.randrange(4)
        if kind == 0:
            accesses = [(h.integer(), h.integer(), h.integer()) for _ in range(r.randrange(4))]
            return s.banks(accesses, h.either(2), h.either("gfx942"))
        if kind == 1:
            return s.physical_column(h.integer(), h.integer())
        if kind == 2:
            return s.logical_column(h.integer(), h.integer())
        return s.physical_offset(h.integer(), h.integer())

    def config():
        text = h.either(f"#iree_gpu.lowering_config<{{workgroup = "
                        f"[{', '.join(str(c) for c in h.counts(3))}]}}>")
        return tilescope.LoweringConfig(text).to_dict()

    def editor():
        e = tilescope.Editor(document)
        field = h.either(h.pick(["workgroup", "reduction", "subgroup", "mma_kind",
                                 "workgroup_size", "subgroup_size", "pipeline"]))
        value = h.either(f"[{', '.join(str(c) for c in h.counts(3))}]")
        try:
            e.set(h.op(), field, value)
        except tilescope.EditError:
            pass
        return e.predict(h.op()) if r.random() < 0.5 else e.check(h.op())

    def picture():
        p = tilescope.picture(document, h.op(), h.either("layouts"), h.either("lane"),
                              h.either(0))
        return p.png(h.either(24.0)) if r.random() < 0.3 else p.note

    def sweep():
        return tilescope.sweep(document, h.op(), vary=h.either([f"workgroup[0]={h.integer()}"]),
                               nearest=h.either(4), plan=True, parallel=h.either(0),
                               repetitions=h.either(3), timeout=h.either(60.0),
                               workspace=h.folder / "ws")

    def tune():
        # A hostile program always: a tune never starts here.
        return tilescope.tune(h.pick(h.paths), target=h.either("gfx942"),
                              budget=h.number(), candidates=h.integer(),
                              repetitions=h.integer(), timeout=h.number(),
                              workspace=h.folder / "ws")

    def configure():
        return tilescope.configure(h.pick(h.paths), target=h.either("gfx942"),
                                   timeout=h.number())

    def history():
        return tilescope.history(h.folder / "ws", h.either(""), h.either(""), h.either(0))

    def run_try():
        # An unknown stage or a broken limit always: nothing compiles here.
        return tilescope.run_try(document, h.op(), stage=h.pick(["", "nope", "\x00"]),
                                 timeout=h.number(), workspace=h.folder / "ws")

    def layouts():
        f = h.pick([tilescope.op_layouts, tilescope.tile_meanings, tilescope.bank_reads])
        return f(document, h.op())

    def small():
        kind = r.randrange(5)
        if kind == 0:
            return tilescope.mma_fragments(h.either("MFMA_F32_16x16x16_F16"), h.either(False))
        if kind == 1:
            return tilescope.parse(h.text(), h.either("<text>"))
        if kind == 2:
            return tilescope.open(h.pick(h.paths))
        if kind == 3:
            return tilescope.tuning_spec(document, [h.op() for _ in range(r.randrange(3))])
        return tilescope.TranslationInfo(h.either(h.text())).to_dict()

    return [("NestedLayout", nested), ("Basis", basis), ("Swizzle", swizzle),
            ("LoweringConfig", config), ("Editor", editor), ("picture", picture),
            ("sweep", sweep), ("tune", tune), ("configure", configure),
            ("history", history), ("run_try", run_try), ("layouts", layouts),
            ("small", small)]


def main():
    seed, count, folder = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    r = random.Random(seed)
    h = Hostile(r, folder)
    document = tilescope.open(MATMUL)
    choices = calls(h, document)
    unexpected = 0
    for i in range(count):
        name, thunk = r.choice(choices)
        state = r.getstate()
        print(f"call {i} {name} (seed {seed}, state {hash(state) & 0xffffffff:08x})", flush=True)
        try:
            thunk()
            print(f"  ok", flush=True)
        except (tilescope.Error, TypeError, ValueError) as error:
            print(f"  {type(error).__name__}: {str(error)[:200]!r}", flush=True)
        except Exception as error:  # what a script should never see
            unexpected += 1
            print(f"  UNEXPECTED {type(error).__name__}: {str(error)[:300]!r}", flush=True)
    print("done", flush=True)
    sys.exit(3 if unexpected else 0)


if __name__ == "__main__":
    main()
