#include "core/service/DispatchAlone.h"

#include "core/document/SplitInput.h"
#include "core/process/Process.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"

#include <algorithm>

namespace fs = std::filesystem;

namespace tilescope::service {
namespace {

// What IREE said, for an error: its first lines.
std::string firstLines(const std::string &text) {
  std::string kept = text.substr(0, 2000);
  while (!kept.empty() && (kept.back() == '\n' || kept.back() == ' '))
    kept.pop_back();
  return kept;
}

} // namespace

bool triesDispatchAlone(const document::Document &document) {
  return document.dispatches.size() > 1 ||
         (!document.dispatches.empty() && hasStreamHost(document.text));
}

Result<DispatchAlone> dispatchAlone(const tools::IreeInstallation &iree,
                                    DocumentWorker &worker,
                                    const document::Document &document,
                                    size_t dispatch, const fs::path &output,
                                    std::chrono::milliseconds timeout,
                                    const std::atomic<bool> *cancel) {
  if (dispatch >= document.dispatches.size())
    return Error{"dispatch " + std::to_string(dispatch) + " of " +
                 std::to_string(document.dispatches.size())};
  const document::Dispatch &chosen = document.dispatches[dispatch];
  const std::string named =
      "dispatch " + std::to_string(dispatch) + " (" + chosen.name + ")";
  if (chosen.executable.empty() || chosen.variant.empty())
    return Error{named +
                 " is not in a hal.executable variant: only a configured "
                 "program's dispatches can be taken out alone (tilescope-cli "
                 "configure, or iree-compile "
                 "--compile-to=executable-configurations)"};
  auto tool = iree.tool("iree-opt");
  if (!tool)
    return Error{tool.error()};

  // The part of a split file that holds the dispatch is a program of its own.
  std::string text = document.text;
  if (document.partCount > 1) {
    const auto parts = document::splitInputFile(document.text, "").parts;
    const auto part = static_cast<size_t>(std::max(chosen.part, 0));
    if (part >= parts.size())
      return Error{named + " is in part " + std::to_string(part + 1) +
                   " of a file with " + std::to_string(parts.size())};
    text = document.text.substr(parts[part].offset, parts[part].length);
  }
  auto folder = TemporaryDirectory::create("tilescope-dispatch");
  if (!folder)
    return Error{folder.error()};
  const fs::path input = folder->file("program.mlir");
  const fs::path written = folder->file("benchmarks");
  if (auto saved = writeFileAtomically(input, text); !saved)
    return Error{saved.error()};

  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {"--pass-pipeline=builtin.module(iree-hal-dump-executable-"
                    "benchmarks{path=" +
                        written.string() + "})",
                    input.string(), "-o", "/dev/null"};
  spec.timeout = timeout;
  spec.cancel = cancel;
  const process::ProcessResult result = runProcess(spec);
  if (!result.succeeded()) {
    folder->keep();
    return Error{"iree-opt " + result.describe() + " taking " + named +
                 " out of the program\n  command: " + spec.shellCommand() +
                 "\n" + firstLines(result.standardError)};
  }

  // IREE names each module <module>_<executable>_<variant>_benchmark.mlir.
  const std::string suffix =
      "_" + chosen.executable + "_" + chosen.variant + "_benchmark.mlir";
  fs::path found;
  std::error_code error;
  for (const auto &entry : fs::directory_iterator(written, error))
    if (entry.path().filename().string().ends_with(suffix))
      found = entry.path();
  if (found.empty())
    return Error{"IREE wrote no module for " + named +
                 ": its benchmark dump takes only dispatches with static "
                 "sizes, on a single device" +
                 (result.standardError.empty()
                      ? std::string()
                      : "; it said: " + firstLines(result.standardError))};
  auto benchmark = readTextFile(found);
  if (!benchmark)
    return Error{benchmark.error()};
  if (auto saved = writeFileAtomically(output, *benchmark); !saved)
    return Error{saved.error()};
  auto parsed = worker.parseFile(output);
  if (!parsed)
    return Error{"IREE's module for " + named +
                 " does not read back: " + parsed.error()};
  return DispatchAlone{std::move(*parsed), spec.shellCommand()};
}

} // namespace tilescope::service
