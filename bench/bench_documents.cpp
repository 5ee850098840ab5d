// Benchmark (prints figures, never fails): opening a whole-program
// configuration dump of 1000 dispatches, against the pinned iree-opt
// parsing and printing the same file, and one config edit written back and
// re-validated with Tilescope's rules on that file.
//
// The dump is made once (cached under the build folder) by the pinned
// iree-compile --compile-to=executable-configurations from a generated
// program of 1000 matmuls of distinct shapes, for gfx942.
//
//   bench_documents [--dispatches N]
#include "BenchTiming.h"
#include "core/edit/EditableDocument.h"
#include "core/edit/RootOpContext.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/DocumentParser.h"
#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Files.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace tilescope;
using namespace tilescope::bench;

namespace {

constexpr int kRounds = 5;

std::string program(int dispatches) {
  std::string text;
  for (int i = 0; i < dispatches; ++i) {
    const int m = 64 + 16 * (i % 25), k = 64 + 32 * (i / 25);
    const std::string a = std::to_string(m) + "x" + std::to_string(k) + "xf16";
    const std::string b = std::to_string(k) + "x256xf16";
    const std::string c = std::to_string(m) + "x256xf32";
    text += "func.func @mm" + std::to_string(i) + "(%a: tensor<" + a +
            ">, %b: tensor<" + b + ">) -> tensor<" + c +
            "> {\n  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : "
            "tensor<" +
            c +
            ">\n  %f = linalg.fill ins(%z : f32) outs(%e : "
            "tensor<" +
            c + ">) -> tensor<" + c +
            ">\n  %r = linalg.matmul ins(%a, %b : tensor<" + a + ">, tensor<" +
            b + ">) outs(%f : tensor<" + c + ">) -> tensor<" + c +
            ">\n  return %r : tensor<" + c + ">\n}\n";
  }
  return text;
}

// The configuration dump of `dispatches` matmuls for gfx942, made once by
// the pinned iree-compile (cached under the build folder); empty on
// failure (said why).
std::filesystem::path configurationDump(const std::filesystem::path &compile,
                                        int dispatches) {
  const std::filesystem::path folder =
      std::filesystem::path(TILESCOPE_BINARY_DIR) / "bench-data";
  std::filesystem::create_directories(folder);
  const std::string stem = "program_" + std::to_string(dispatches);
  const std::filesystem::path source = folder / (stem + ".mlir");
  const std::filesystem::path dump = folder / (stem + ".configured.mlir");
  if (std::filesystem::exists(dump))
    return dump;
  std::ofstream(source) << program(dispatches);
  process::ProcessSpec spec;
  spec.program = compile;
  spec.arguments = {"--compile-to=executable-configurations",
                    "--iree-hal-target-backends=rocm",
                    "--iree-rocm-target=gfx942",
                    source.string(),
                    "-o",
                    dump.string()};
  std::cout << "making the dump: " << spec.shellCommand() << "\n";
  const auto start = Clock::now();
  const process::ProcessResult made = process::runProcess(spec);
  if (!made.succeeded()) {
    std::cerr << "iree-compile " << made.describe() << "\n"
              << made.standardError << "\n";
    std::filesystem::remove(dump);
    return {};
  }
  std::cout << "  made in " << millisecondsSince(start) / 1000 << " s\n";
  return dump;
}

// Runs a command, its time into `times`; false (said why) if it failed.
bool timeCommand(const process::ProcessSpec &spec, const char *name,
                 std::vector<double> &times) {
  const auto start = Clock::now();
  const process::ProcessResult result = process::runProcess(spec);
  times.push_back(millisecondsSince(start));
  if (!result.succeeded())
    std::cerr << name << " " << result.describe() << "\n";
  return result.succeeded();
}

double best(const std::vector<double> &times) {
  return *std::min_element(times.begin(), times.end());
}

struct OpenTimes {
  std::vector<double> ireeOpt, cold, keptFresh, keptAgain, command;
  size_t dispatches = 0;
};

// Tilescope opening the dump as the GUI and CLI do: the parse worker (a
// child process: IREE parses, the document comes back as data). The first
// open starts the worker and loads IREE, as one tilescope-cli command does;
// the worker is then kept, and later opens (a window's second file) find
// IREE loaded. "Fresh context" restarts the worker and warms it on a
// one-line file first, so IREE has uniqued nothing of this file. Each round
// runs the reference, iree-opt parsing and printing the file, beside
// Tilescope's opens, so that a slow spell of the machine weighs on both.
std::optional<OpenTimes> timeOpens(service::DocumentWorker &worker,
                                   const std::filesystem::path &dump,
                                   const std::filesystem::path &opt) {
  OpenTimes times;
  auto open = [&]() -> std::optional<double> {
    const auto start = Clock::now();
    auto document = worker.parseFile(dump);
    const double elapsed = millisecondsSince(start);
    if (!document) {
      std::cerr << document.error() << "\n";
      return std::nullopt;
    }
    times.dispatches = document->dispatches.size();
    return elapsed;
  };
  process::ProcessSpec cli;
  cli.program =
      std::filesystem::path(TILESCOPE_BINARY_DIR) / "app/tilescope-cli";
  cli.arguments = {"dispatches", dump.string()};
  process::ProcessSpec ireeOptCommand;
  ireeOptCommand.program = opt;
  ireeOptCommand.arguments = {dump.string(), "-o", "/dev/null"};
  for (int i = 0; i < kRounds; ++i) {
    if (!timeCommand(ireeOptCommand, "iree-opt", times.ireeOpt))
      return std::nullopt;
    service::DocumentWorker::stopIdleWorkers();
    auto startingOne = open();
    if (!startingOne)
      return std::nullopt;
    times.cold.push_back(*startingOne);
    service::DocumentWorker::stopIdleWorkers();
    if (auto warmed = worker.parseText("module {}\n", "warm.mlir"); !warmed) {
      std::cerr << warmed.error() << "\n";
      return std::nullopt;
    }
    auto fresh = open();
    auto again = open();
    if (!fresh || !again)
      return std::nullopt;
    times.keptFresh.push_back(*fresh);
    times.keptAgain.push_back(*again);
    // The whole command a user types: start, the worker started, IREE
    // loaded, the parse, the listing printed, the exit.
    if (!timeCommand(cli, "tilescope-cli dispatches", times.command))
      return std::nullopt;
  }
  return times;
}

void printOpens(const OpenTimes &times, const std::vector<double> &inProcess) {
  const double reference = best(times.ireeOpt);
  std::printf("\nopen a %zu-dispatch configuration dump (best of %d)\n",
              times.dispatches, kRounds);
  std::printf("  iree-opt FILE -o /dev/null           %8.1f ms\n", reference);
  std::printf("  Tilescope, kept worker, fresh context %7.1f ms  (%.2fx "
              "iree-opt; goal <= 1.10x)\n",
              best(times.keptFresh), best(times.keptFresh) / reference);
  std::printf("  Tilescope, kept worker, again        %8.1f ms  (%.2fx: IREE's "
              "context keeps what it uniqued)\n",
              best(times.keptAgain), best(times.keptAgain) / reference);
  std::printf("  Tilescope, worker started for it     %8.1f ms  (%.2fx: one "
              "tilescope-cli command)\n",
              best(times.cold), best(times.cold) / reference);
  std::printf("  tilescope-cli dispatches FILE        %8.1f ms  (%.2fx "
              "iree-opt; goal <= 1.10x)\n",
              best(times.command), best(times.command) / reference);
  std::printf("  Tilescope, in process, first         %8.1f ms  (%.2fx)\n",
              inProcess.front(), inProcess.front() / reference);
  std::printf("  Tilescope, in process, again         %8.1f ms  (%.2fx)\n",
              best(inProcess), best(inProcess) / reference);
}

// The document's trip from the worker to its caller, each the median of
// kRounds: the worker writes its answer (texts shared); the caller reads it
// from the text straight into the model (simdjson's tape, as
// DocumentWorker does), and, for comparison, through nlohmann's DOM (parse,
// read, the DOM freed), as it did before. What a tilescope-cli command pays
// beyond IREE's parse.
void timeDocumentTrip(const document::Document &document) {
  const std::string answer = exporting::jsonText(
      {{"ok", true}, {"document", exporting::toJson(document, true)}});
  std::vector<double> builds, prints, writeFrees, tapeReads, parses, reads,
      frees;
  for (int i = 0; i < kRounds; ++i) {
    auto start = Clock::now();
    nlohmann::json built = exporting::toJson(document, true);
    builds.push_back(millisecondsSince(start));
    start = Clock::now();
    const std::string written = exporting::jsonText(built);
    prints.push_back(millisecondsSince(start));
    start = Clock::now();
    built = nlohmann::json();
    writeFrees.push_back(millisecondsSince(start));
    start = Clock::now();
    auto fromText = exporting::documentAnswerFromJsonText(answer);
    tapeReads.push_back(millisecondsSince(start));
    if (!fromText || !fromText->documentError.empty())
      std::cerr << (fromText ? fromText->documentError : fromText.error())
                << "\n";
    start = Clock::now();
    auto value = nlohmann::json::parse(answer, nullptr, false);
    parses.push_back(millisecondsSince(start));
    start = Clock::now();
    auto read = exporting::documentFromJson(value["document"]);
    reads.push_back(millisecondsSince(start));
    if (!read)
      std::cerr << read.error() << "\n";
    start = Clock::now();
    value = nlohmann::json();
    frees.push_back(millisecondsSince(start));
  }
  std::printf("\nthe document's trip from the worker as JSON (%zu KiB, median "
              "of %d)\n",
              answer.size() / 1024, kRounds);
  std::printf("  the worker's answer: its DOM built %.1f ms, printed %.1f ms, "
              "freed %.1f ms\n",
              median(builds), median(prints), median(writeFrees));
  std::printf("  read from the text into the model %.1f ms (simdjson)\n",
              median(tapeReads));
  std::printf("  through nlohmann's DOM instead: parse %.1f ms, read %.1f ms, "
              "DOM freed %.1f ms\n",
              median(parses), median(reads), median(frees));
}

// One edit written back and re-validated, on a dispatch in the middle;
// false (said why) if one failed.
bool timeEdits(document::Document document,
               const std::shared_ptr<iree::CompilerLibrary> &library) {
  auto attributes = std::make_shared<iree::AttributeParser>(library);
  edit::EditableDocument editable(std::move(document),
                                  [attributes](const std::string &text) {
                                    return attributes->print(text);
                                  });
  const edit::OpRef ref{editable.document().dispatches.size() / 2, 0};
  std::vector<double> edits;
  size_t problems = 0;
  for (int i = 0; i < 41; ++i) {
    const std::string value = i % 2 ? "[32, 64, 0]" : "[64, 32, 0]";
    const auto start = Clock::now();
    auto applied = editable.set(ref, "workgroup", value);
    const edit::RootOpContext context =
        edit::contextOf(editable.document(), ref);
    problems = edit::validateRootOp(context).size();
    edits.push_back(millisecondsSince(start));
    if (!applied) {
      std::cerr << applied.error() << "\n";
      return false;
    }
  }
  std::vector<double> undos;
  for (int i = 0; i < 41; ++i) {
    const auto start = Clock::now();
    editable.undo();
    undos.push_back(millisecondsSince(start));
  }
  std::printf("\nedit workgroup of one root op, written back through IREE "
              "and re-validated (median of 41)\n");
  std::printf("  edit + IREE reads the attribute + rules  %6.2f ms  (goal <= "
              "16 ms; %zu problems)\n",
              median(edits), problems);
  std::printf("  undo                                     %6.2f ms\n",
              median(undos));
  return true;
}

// The same read-back as the window and Python make it, through the kept
// worker: the attribute's text goes over the pipe (no file written).
bool timeReadBacks(service::DocumentWorker &worker) {
  std::vector<double> readBacks;
  for (int i = 0; i < 41; ++i) {
    const std::string attribute =
        std::string("#iree_gpu.lowering_config<{workgroup = ") +
        (i % 2 ? "[32, 64, 0]" : "[64, 32, 0]") + "}>";
    const auto start = Clock::now();
    auto printed = worker.printAttribute(attribute);
    readBacks.push_back(millisecondsSince(start));
    if (!printed) {
      std::cerr << printed.error() << "\n";
      return false;
    }
  }
  std::printf("  IREE reads the attribute, kept worker    %6.2f ms  (median "
              "of 41; the window's and Python's read-back)\n",
              median(readBacks));
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int dispatches = 1000;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--dispatches")
      dispatches = std::max(1, std::atoi(argv[++i]));

  tools::IreeSearchOptions search;
  search.useEnvironment = false;
  search.usePythonPackages = false;
  search.projectPrefixes = {TILESCOPE_IREE_PREFIX};
  auto installation = tools::locateIree(search);
  if (!installation) {
    std::cerr << installation.error() << "\n";
    return 1;
  }
  auto compile = installation->tool("iree-compile");
  auto opt = installation->tool("iree-opt");
  if (!compile || !opt) {
    std::cerr << "iree-compile or iree-opt missing\n";
    return 1;
  }
  const std::filesystem::path dump = configurationDump(*compile, dispatches);
  if (dump.empty())
    return 1;
  std::cout << "file: " << dump.string() << " ("
            << std::filesystem::file_size(dump) / 1024 << " KiB)\n";

  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app/tilescope-iree-worker",
                                 installation->compilerLibrary);
  const std::optional<OpenTimes> opens = timeOpens(worker, dump, *opt);
  if (!opens)
    return 1;
  auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    return 1;
  }
  iree::DocumentParser parser(*library);
  Result<document::Document> document = Error{"not parsed"};
  std::vector<double> inProcess;
  for (int i = 0; i < kRounds; ++i) {
    const auto start = Clock::now();
    document = parser.parseFile(dump);
    inProcess.push_back(millisecondsSince(start));
  }
  if (!document) {
    std::cerr << document.error() << "\n";
    return 1;
  }
  printOpens(*opens, inProcess);
  timeDocumentTrip(*document);
  if (!timeEdits(std::move(*document), *library) || !timeReadBacks(worker))
    return 1;
  return 0;
}
