// Edit -> compiled -> timed on the CPU example, through Tilescope's jobs
// (an edit through IREE's attribute reader, the try folder, the compile
// with its dumps, the timed run) against the bare iree-compile and
// iree-benchmark-module commands a person would type. Prints both and the
// ratio (goal: <= 1.1x). Median of 3 rounds each, alternated so both see the
// same machine. Then a 16-candidate sweep in parallel against the same
// sweep one candidate at a time (goal: <= 0.6x).
#include "BenchIree.h"
#include "BenchTiming.h"

#include "core/edit/EditableDocument.h"
#include "core/iree/CompilerLibrary.h"
#include "core/run/BenchJob.h"
#include "core/service/CompileJob.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/sweep/Sweep.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Files.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

using namespace tilescope;
using bench::Clock;
using bench::millisecondsSince;

namespace {

constexpr const char *kExample =
    "examples/llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";
constexpr const char *kConfig =
    "#iree_cpu.lowering_config<cache_parallel = [32, 32, 0], distribution = "
    "[32, 32, 0], vector_common_parallel = [8, 8, 0], vector_reduction = [0, "
    "0, 8]>";
constexpr int kRepetitions = 3;

bool ran(const process::ProcessResult &result, const std::string &what) {
  if (result.succeeded())
    return true;
  std::cerr << what << " " << result.describe() << "\n"
            << result.standardError << "\n";
  return false;
}

// By hand: iree-compile, then the runs a careful person makes (and run.sh
// makes): one dispatch per submission to size the batch, the batched timed
// run, and one per submission for the submission-included figure. Its
// time, or nullopt (said why).
std::optional<double> byHandOnce(const tools::IreeInstallation &installation,
                                 const std::filesystem::path &input,
                                 const std::filesystem::path &module) {
  const auto start = Clock::now();
  process::ProcessSpec compile;
  compile.program = *installation.tool(tools::kIreeCompile);
  compile.arguments = {input.string(), "-o", module.string()};
  if (!ran(process::runProcess(compile), "iree-compile"))
    return std::nullopt;
  auto benchmark = [&](int batch, const std::string &extra) {
    process::ProcessSpec spec;
    spec.program = *installation.tool(tools::kIreeBenchmarkModule);
    spec.arguments = {"--module=" + module.string(), "--device=local-task",
                      "--benchmark_format=json",
                      "--batch_size=" + std::to_string(batch), extra};
    return process::runProcess(spec);
  };
  auto probe = benchmark(1, "--benchmark_min_time=0.05s");
  if (!ran(probe, "iree-benchmark-module"))
    return std::nullopt;
  auto probed = service::parseBenchmarkJson(probe.standardOutput);
  auto stats = probed ? run::timingStats(*probed) : std::nullopt;
  if (!stats)
    return std::nullopt;
  const int batch = std::max(1, static_cast<int>(1000.0 / stats->median + 1));
  const std::string timed =
      "--benchmark_repetitions=" + std::to_string(kRepetitions);
  if (!ran(benchmark(batch, timed), "iree-benchmark-module") ||
      !ran(benchmark(1, timed), "iree-benchmark-module"))
    return std::nullopt;
  return millisecondsSince(start);
}

// Through Tilescope: the edit, the compile job with its dumps in a try
// folder, the timed run. Its time, or nullopt (said why).
std::optional<double>
throughJobsOnce(const tools::IreeInstallation &installation,
                const document::Document &opened,
                const edit::AttributeReader &reader,
                const std::filesystem::path &directory) {
  const auto start = Clock::now();
  edit::EditableDocument editable(opened, reader);
  if (!editable.set({0, 1}, "lowering_config", kConfig)) {
    std::cerr << "the edit was refused\n";
    return std::nullopt;
  }
  document::Document edited = opened;
  edited.text = editable.text();
  service::CompileJobRequest request;
  request.document = &edited;
  request.directory = directory;
  auto compiled = service::compileDocument(installation, request);
  if (!compiled || !compiled->succeeded()) {
    std::cerr << (compiled ? compiled->summary() : compiled.error()) << "\n";
    return std::nullopt;
  }
  run::BenchJobRequest bench;
  bench.module = compiled->artifacts.module;
  bench.device = "local-task";
  bench.directory = request.directory / "run";
  bench.repetitions = kRepetitions;
  auto timed = run::benchModule(installation, bench);
  if (!timed || !timed->succeeded()) {
    std::cerr << (timed ? timed->summary() : timed.error()) << "\n";
    return std::nullopt;
  }
  return millisecondsSince(start);
}

// A 16-candidate sweep (gfx942, compiled with resources read: no GPU is
// needed) `parallel` candidates at a time: its time, or -1 (said why).
double sweepTime(const tools::IreeInstallation &installation,
                 const document::Document &document,
                 const std::filesystem::path &workspace, int parallel) {
  sweep::SweepRequest request;
  request.document = &document;
  request.op = {0, 0};
  request.axes = {{"workgroup[0]", {"32", "64"}},
                  {"workgroup[1]", {"64", "128"}},
                  {"reduction[2]", {"1", "2", "4", "8"}}};
  request.name = "bench";
  request.upTo = tries::TryStage::Resources;
  request.workspace = workspace;
  request.parallel = parallel;
  const auto start = Clock::now();
  auto result = sweep::runSweep(installation, request);
  if (!result || result->ran != 16) {
    std::cerr << "sweep: "
              << (result ? std::to_string(result->ran) + " of 16 ran"
                         : result.error())
              << "\n";
    return -1;
  }
  return millisecondsSince(start);
}

} // namespace

int main() {
  const bench::ProjectIree project = bench::requireProjectIree();
  const tools::IreeInstallation &installation = project.installation;
  auto parser = std::make_shared<iree::AttributeParser>(project.library);
  const edit::AttributeReader reader = [parser](const std::string &text) {
    return parser->print(text);
  };
  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app/tilescope-iree-worker",
                                 installation.compilerLibrary);
  const std::filesystem::path example =
      std::filesystem::path(TILESCOPE_SOURCE_DIR) / kExample;
  auto opened = worker.parseFile(example);
  auto text = readTextFile(example);
  if (!opened || !text) {
    std::cerr << (opened ? text.error() : opened.error()) << "\n";
    return 1;
  }
  opened->path = example;
  opened->text = *text;
  auto work = TemporaryDirectory::create("tilescope-bench-jobs");
  if (!work) {
    std::cerr << work.error() << "\n";
    return 1;
  }

  // The edited file a person would compile by hand.
  edit::EditableDocument once(*opened, reader);
  if (auto applied = once.set({0, 1}, "lowering_config", kConfig); !applied) {
    std::cerr << applied.error() << "\n";
    return 1;
  }
  const std::filesystem::path byHandInput = work->file("edited.mlir");
  if (!writeFileAtomically(byHandInput, once.text())) {
    std::cerr << "cannot write " << byHandInput << "\n";
    return 1;
  }

  // Alternated, so both see the same machine.
  std::vector<double> byHand, throughJobs;
  for (int round = 0; round < 3; ++round) {
    auto hand = byHandOnce(installation, byHandInput, work->file("hand.vmfb"));
    auto jobs = throughJobsOnce(installation, *opened, reader,
                                work->file("try" + std::to_string(round)));
    if (!hand || !jobs)
      return 1;
    byHand.push_back(*hand);
    throughJobs.push_back(*jobs);
  }
  const double hand = bench::median(byHand);
  const double jobsTime = bench::median(throughJobs);
  std::printf("edit -> compiled -> timed, CPU example (%s):\n", kExample);
  std::printf("  by hand (iree-compile; iree-benchmark-module): %8.1f ms\n",
              hand);
  std::printf("  through Tilescope's jobs (edit, try folder, dumps): %8.1f "
              "ms\n",
              jobsTime);
  std::printf("  ratio: %.2fx (goal <= 1.1x)\n", jobsTime / hand);

  // The sweep in parallel on the cores here, against one candidate at a
  // time. Goal: <= 0.6x.
  const std::filesystem::path gfx942 =
      std::filesystem::path(TILESCOPE_SOURCE_DIR) /
      "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
  auto swept = worker.parseFile(gfx942);
  if (!swept) {
    std::cerr << swept.error() << "\n";
    return 1;
  }
  swept->path = gfx942;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const double oneByOne =
      sweepTime(installation, *swept, work->file("sweep1"), 1);
  const double together = sweepTime(installation, *swept, work->file("sweepN"),
                                    static_cast<int>(cores));
  if (oneByOne < 0 || together < 0)
    return 1;
  std::printf("sweep of 16 gfx942 candidates (compile + resources):\n");
  std::printf("  one after another:          %8.1f ms\n", oneByOne);
  std::printf("  %u at a time (the cores):    %8.1f ms\n", cores, together);
  std::printf("  ratio: %.2fx (goal <= 0.6x)\n", together / oneByOne);
  return 0;
}
