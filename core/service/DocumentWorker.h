// Parses IREE MLIR in a child process, tilescope-iree-worker, so that a file
// that crashes IREE's parser (a stack overflow, a division by zero in an
// attribute parser, an assertion) or hangs it never takes the calling
// process, or the user's unsaved edits, down with it. The answer is the
// same Document (and diagnostics) DocumentParser gives in process; a crash
// or a time-out becomes an error naming the file, the part of a split file
// IREE was in, and the command that reproduces it. docs/parse-safety.md
// has the measurements behind this design.
//
// The worker is kept between requests (`tilescope-iree-worker serve`): the
// process keeps its idle workers (one, two after two requests at once) per
// worker program and IREE library for all DocumentWorkers, so an open pays
// for IREE's parse, not for loading IREE. A worker that crashes, hangs or is
// cancelled is stopped and the next request starts a fresh one; one that has
// answered kAnswersPerWorker requests is retired, so the IREE context it keeps
// does not grow for ever.
#pragma once

#include "core/document/ProgramReductions.h"
#include "core/document/RootOpDag.h"
#include "core/iree/DocumentParser.h"
#include "core/iree/LoweredIrReader.h"
#include "core/process/Process.h"
#include "core/process/ServingProcess.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tilescope::service {

class DocumentWorker {
public:
  // `program` is tilescope-iree-worker; `compilerLibrary` the
  // libIREECompiler.so it loads.
  DocumentWorker(std::filesystem::path program,
                 std::filesystem::path compilerLibrary);

  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  const std::atomic<bool> *cancel = nullptr;

  Result<document::Document> parseFile(const std::filesystem::path &path,
                                       const iree::ParseOptions &options = {});
  // Text not on disk (an edited buffer); diagnostics name `bufferName`.
  Result<document::Document> parseText(const std::string &text,
                                       const std::string &bufferName,
                                       const iree::ParseOptions &options = {});

  // A function as IREE printed it after a pass (--mlir-print-ir-after), read
  // back by IREE: the layouts and thread mapping it decided
  // (core/iree/LoweredIr), for a process that does not load IREE.
  Result<document::LoweredFunction> readLowered(const std::string &dumpText,
                                                const std::string &bufferName);

  // Split-k (core/service/SplitK) on what iree-compile printed, read by IREE
  // in the worker: the reductions of a program at IREE's split-reduction
  // point; the same program with `choices` written on it, printed by IREE;
  // the dispatches a flow module (`flow`, a file) formed.
  Result<std::vector<document::ProgramReduction>>
  programReductions(const std::string &text, const std::string &bufferName);
  Result<std::string>
  withSplits(const std::string &text, const std::string &bufferName,
             const std::vector<document::SplitChoice> &choices);
  Result<std::vector<document::FormedDispatch>>
  formedDispatches(const std::filesystem::path &flow);

  // One attribute's text as IREE prints it, or IREE's refusal in its own
  // words ("<attribute>:1:COLUMN: error: ..."): an edit::AttributeReader
  // for a process that does not load IREE (the window, Python), the check
  // `set-config` makes in process.
  Result<std::string> printAttribute(const std::string &attributeText);

  // A configured text's root ops as tuning-spec matcher bodies, printed by
  // IREE (core/document/RootOpDag.h).
  Result<std::vector<document::RootOpDag>>
  rootOpDags(const std::string &text, const std::string &bufferName);

  // The diagnostics of the last parse that IREE refused.
  const std::vector<document::Diagnostic> &lastDiagnostics() const {
    return diagnostics;
  }
  // The shell command that reproduces the last failed request in a worker
  // of its own (`tilescope-iree-worker parse ... FILE`; a buffer's text
  // kept in a file for it).
  const std::string &lastCommand() const { return command; }

  // Requests a worker answers before it is retired.
  static constexpr int kAnswersPerWorker = 64;
  // Workers this process has started, for tests and benchmarks.
  static int workersStarted();
  // Stops the idle workers: the next request starts a fresh one.
  static void stopIdleWorkers();

private:
  Result<document::Document> run(std::string text,
                                 const std::filesystem::path &file,
                                 const std::string &bufferName,
                                 const iree::ParseOptions &options);

  // Asks a worker `command` on `file` (or on `text`, sent over the pipe
  // after the request line, when `file` is empty). `meanwhile` runs while the
  // worker works; a crash, time-out or cancel is an Error naming `what` and,
  // from `partCount`, the part of the text it was in. The answer is the
  // worker's JSON line.
  Result<std::string>
  exchange(const std::string &commandName, std::vector<std::string> options,
           const std::string &text, const std::filesystem::path &file,
           const std::string &bufferName, const std::string &what,
           const std::function<void()> &meanwhile,
           const std::function<int()> &partCount);

  // A request other than parse: the worker's answer, `key` of an
  // {"ok": true} reply, or its error.
  Result<nlohmann::json>
  ask(const std::string &commandName, std::vector<std::string> options,
      const std::string &text, const std::filesystem::path &file,
      const std::string &bufferName, const std::string &what, const char *key);

  std::string poolKey() const;
  Result<std::unique_ptr<process::ServingProcess>> startWorker();
  // A fresh worker's greeting: ready, or why not (IREE's library would not
  // load).
  Result<bool> readiness(const std::string &greeting) const;

  std::filesystem::path program, compilerLibrary;
  std::vector<document::Diagnostic> diagnostics;
  std::string command;
};

} // namespace tilescope::service
