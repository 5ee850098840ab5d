# Times amdsharktuner's candidate generation (its own Z3 constraints, one
# solver per MMA intrinsic, in worker processes) for one dispatch benchmark
# file: FILE PIPELINE. Run by compare_amdsharktuner.sh in the peer's venv.
import sys, time, logging
from pathlib import Path
from amdsharktuner import candidate_gen, common, dispatch_parser
from iree.compiler.dialects import iree_codegen

path, pipeline = sys.argv[1], sys.argv[2]
pipelines = {"TileAndFuse": iree_codegen.DispatchLoweringPassPipeline.LLVMGPUTileAndFuse,
             "VectorDistribute": iree_codegen.DispatchLoweringPassPipeline.LLVMGPUVectorDistribute}
start = time.monotonic()
with common.TunerContext() as ctx:
    text = candidate_gen.strip_compilation_info(Path(path))
    module = dispatch_parser.parse_mlir(text, ctx)
    tuner = candidate_gen.set_dispatch_tuner(module, ctx)
    target = common.get_target_info(module)
    parsed = time.monotonic()
    solutions = list(candidate_gen.generate_solutions(tuner, target, ctx, codegen_pipeline=pipelines[pipeline]))
    done = time.monotonic()
print(f"{len(solutions)} candidates; parse {1000*(parsed-start):.0f} ms; generate {1000*(done-parsed):.0f} ms")
