// Listing the space of IREE's pipeline constraints for an example's root
// op, for each pipeline IREE states them for: Tilescope's reading and search
// (config::parseSmtProgram + enumerateSmtSpace) against the way IREE's tuner
// lists it (Z3 on IREE's own SMT-LIB translation, a model and a blocking clause
// at a time, as amdsharktuner's get_z3_solutions does). Both must find the same
// assignments; the bench prints the count, each one's time and the ratio.
// IREE stating the constraints (one iree-opt run) is the same for both and
// is printed apart.
#include "BenchIree.h"
#include "BenchTiming.h"
#include "SmtLibSpace.h"

#include "core/config/smt/SmtProgram.h"
#include "core/config/smt/SmtSpace.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/ConstraintsSmtLib.h"
#include "core/iree/DocumentParser.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace tilescope;

int main() {
  const bench::ProjectIree project = bench::requireProjectIree();
  const tools::IreeInstallation *installation = &project.installation;
  const std::shared_ptr<iree::CompilerLibrary> &shared = project.library;
  iree::DocumentParser parser(shared);
  const char *examples[] = {
      "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
      "rocm_gfx942/matmul_f32_small_dispatch_0.benchmark.mlir",
      "cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir",
  };
  std::printf("IREE's constraint space for op 0:0, every knob free "
              "(2 cores; Tilescope: median of 5 runs; Z3: median of 2)\n");
  std::printf("%-56s %-17s %8s %10s %12s %12s %8s\n", "example", "pipeline",
              "points", "iree-opt", "Tilescope", "Z3 (tuner)", "ratio");
  int failures = 0;
  for (const char *example : examples) {
    const std::string path =
        std::string(TILESCOPE_SOURCE_DIR) + "/examples/" + example;
    auto document = parser.parseFile(path);
    if (!document) {
      std::cerr << document.error() << "\n";
      return 1;
    }
    const auto stated = bench::Clock::now();
    auto verdict = service::ireeConstraintVerdict(*installation, *document,
                                                  std::chrono::minutes(2),
                                                  nullptr, edit::OpRef{0, 0});
    const double statedMs = bench::millisecondsSince(stated);
    if (!verdict || verdict->ops.empty()) {
      std::cerr << example << ": " << (verdict ? "no op" : verdict.error())
                << "\n";
      return 1;
    }
    const service::OpConstraintVerdict &op = verdict->ops.front();
    for (const service::ConstraintSet &set : op.sets) {
      size_t ours = 0;
      std::set<std::vector<int64_t>> ourPoints;
      std::vector<std::string> knobs;
      const double oursMs = bench::medianMilliseconds(5, [&] {
        auto program = config::parseSmtProgram(set.body, set.dims);
        auto space = config::enumerateSmtSpace(*program);
        if (!space) {
          std::cerr << example << " " << set.pipeline << ": " << space.error()
                    << "\n";
          std::exit(1);
        }
        ours = space->points.size();
        knobs = space->knobs;
        ourPoints = {space->points.begin(), space->points.end()};
      });
      auto smtlib = iree::constraintsAsSmtLib(
          shared, property::constraintsModule(set), "space.mlir");
      if (!smtlib || smtlib->size() != 1) {
        std::cerr << example << ": IREE's SMT-LIB: "
                  << (smtlib ? "not one op" : smtlib.error()) << "\n";
        return 1;
      }
      property::Z3Space z3;
      const double z3Ms = bench::medianMilliseconds(2, [&] {
        z3 = property::z3Space(smtlib->front().smtlib, knobs, {}, 1000000);
      });
      const bool same = z3.error.empty() && z3.points == ourPoints;
      failures += same ? 0 : 1;
      std::printf("%-56s %-17s %8zu %8.0f ms %9.1f ms %9.0f ms %7.0fx%s\n",
                  example, set.pipeline.c_str(), ours, statedMs, oursMs, z3Ms,
                  z3Ms / oursMs, same ? "" : "  (the spaces DIFFER)");
    }
  }
  return failures == 0 ? 0 : 1;
}
