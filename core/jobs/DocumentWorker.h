// Parses IREE MLIR in a child process, tilescope-iree-worker, so that a file
// that crashes IREE's parser (a stack overflow, a division by zero in an
// attribute parser, an assertion) or hangs it never takes the calling
// process, or the user's unsaved edits, down with it. The answer is the
// same Document (and diagnostics) DocumentParser gives in process; a crash
// or a time-out becomes an error naming the file, the part of a split file
// IREE was in, and the command that reproduces it. docs/parse-safety.md
// has the measurements behind this design.
#pragma once

#include "core/iree/Document.h"
#include "core/iree/LoweredIr.h"
#include "core/jobs/Process.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::jobs {

class DocumentWorker {
public:
  // `program` is tilescope-iree-worker; `compilerLibrary` the
  // libIREECompiler.so it loads.
  DocumentWorker(std::filesystem::path program,
                 std::filesystem::path compilerLibrary);

  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  const std::atomic<bool> *cancel = nullptr;

  Result<iree::Document> parseFile(const std::filesystem::path &path,
                                   const iree::ParseOptions &options = {});
  // Text not on disk (an edited buffer); diagnostics name `bufferName`.
  Result<iree::Document> parseText(const std::string &text,
                                   const std::string &bufferName,
                                   const iree::ParseOptions &options = {});

  // A function as IREE printed it after a pass (--mlir-print-ir-after), read
  // back by IREE: the layouts and thread mapping it decided
  // (core/iree/LoweredIr), for a process that does not load IREE.
  Result<iree::LoweredFunction> readLowered(const std::string &dumpText,
                                            const std::string &bufferName);

  // The diagnostics of the last parse that IREE refused.
  const std::vector<iree::Diagnostic> &lastDiagnostics() const {
    return diagnostics;
  }
  // The shell command of the last run.
  const std::string &lastCommand() const { return command; }

private:
  Result<iree::Document> run(const std::string &text,
                             const std::filesystem::path &file,
                             const std::string &bufferName,
                             const iree::ParseOptions &options);

  // Runs the worker on `text` (through a private file unless `file` is
  // given); a crash, time-out or cancel is an Error naming `what` and the
  // part of the text it was in.
  Result<ProcessResult> exchange(std::vector<std::string> arguments,
                                 const std::string &text,
                                 const std::filesystem::path &file,
                                 const std::string &bufferName,
                                 const std::string &what, int partCount);

  std::filesystem::path program, compilerLibrary;
  std::vector<iree::Diagnostic> diagnostics;
  std::string command;
};

} // namespace tilescope::jobs
