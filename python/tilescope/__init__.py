"""Tilescope's core for Python scripts.

The same code the ``tilescope`` window and ``tilescope-cli`` run:

- ``configure(source, target)``: a program (a model's linalg, torch or
  ONNX-imported MLIR) configured for a target by IREE, as a ``Document``;
- ``open(path)`` / ``parse(text)``: an IREE MLIR file parsed by IREE (in
  Tilescope's worker process) into a ``Document`` of dispatches and root ops,
  their configs typed (``RootOp.config``, ``Dispatch.translation``: a
  ``LoweringConfig``, a ``TranslationInfo``) and printed as IREE prints them;
- ``Editor(document)``: edits of configs with undo, redo, diff and save;
  ``EditError`` names the field;
- ``Document.check(op)``: the rules' verdict, as ``tilescope-cli check --json``;
- ``NestedLayout(text).owners()``: each element's subgroup, lane and register
  as NumPy arrays; ``Basis(text)``; ``mma_fragments(name)``;
  ``op_layouts(document, op)``; ``Swizzle(text).banks(...)`` and
  ``bank_reads(document, op)``: where shared-memory accesses land and which
  banks collide; ``tile_meanings(document, op)``: each tile list loop by
  loop; ``Document.predict(op)``: the cost model;
- ``picture(document, op, view=...)``: the window's views of a root op, as
  SVG or PNG (and inline in Jupyter);
- ``run_try(document, op, stage=...)``: compile, resources, a timed run;
  ``verify(document, program=...)``: a checked run against the CPU;
  ``sweep(document, op, vary=[...], on_candidate=...)``: candidates judged,
  compiled, timed and ranked; each recorded in the workspace's
  ``history()``; ``Cancel()`` stops any of them; what they return are
  classes with the fields of their ``--json`` (``tilescope.results``:
  ``TryResult``, ``CheckResult``, ``SweepPlan``, ``SweepResult``,
  ``SweepCandidate``, ``Try``; ``to_dict()`` gives the JSON);
  ``instructions(try_folder)``: the compiled kernel's instructions, classed
  and cut by its loops (``counters=``: Nsight Compute's per-instruction
  counters over its SASS);
- ``tuning_spec(document, ops)``: the spec IREE takes; ``bundle(...)`` /
  ``import_results(...)``: tries timed on a machine without the compiler;
- ``tune(program, target)``: a whole program tuned to one proven spec, a
  ``TuneResult`` (its ``dispatches`` ``TunedDispatch``);
- ``iree()``: the IREE in use.

Ops are named ``"D:O"`` as on the command line (D a dispatch index or name).
``open`` and ``parse`` are left out of ``__all__`` so that ``from tilescope
import *`` does not hide the built-in ``open``: call ``tilescope.open``.
"""

from ._tilescope import (  # noqa: F401
    Basis,
    Cancel,
    Dispatch,
    Document,
    EditError,
    Editor,
    Error,
    LoweringConfig,
    NestedLayout,
    ParseError,
    Picture,
    RootOp,
    Swizzle,
    TranslationInfo,
    bank_reads,
    bundle,
    configure,
    history,
    import_results,
    instructions,
    iree,
    mma_fragments,
    op_layouts,
    open,
    parse,
    picture,
    run_try,
    sweep,
    tile_meanings,
    tune,
    tuning_spec,
    verify,
)
from .results import (  # noqa: F401
    CheckResult,
    ProgramRun,
    SweepCandidate,
    SweepPlan,
    SweepResult,
    TimeVerdict,
    Timing,
    Try,
    TryResult,
    TunedDispatch,
    TuneResult,
)

__all__ = [
    "Basis",
    "Cancel",
    "CheckResult",
    "Dispatch",
    "Document",
    "EditError",
    "Editor",
    "Error",
    "LoweringConfig",
    "NestedLayout",
    "ParseError",
    "Picture",
    "ProgramRun",
    "RootOp",
    "SweepCandidate",
    "SweepPlan",
    "SweepResult",
    "Swizzle",
    "TimeVerdict",
    "Timing",
    "TranslationInfo",
    "Try",
    "TryResult",
    "TuneResult",
    "TunedDispatch",
    "bank_reads",
    "bundle",
    "configure",
    "history",
    "import_results",
    "instructions",
    "iree",
    "mma_fragments",
    "op_layouts",
    "picture",
    "run_try",
    "sweep",
    "tile_meanings",
    "tune",
    "tuning_spec",
    "verify",
]
