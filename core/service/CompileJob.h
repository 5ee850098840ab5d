// Compiles a document as it stands (edits included) with the pinned
// iree-compile, in a child process, into a try folder that keeps everything
// the compile made: the input as compiled, the exact command, the log, the
// vmfb and the executable intermediates (AMD ISA, PTX, CPU assembly).
//
// The caller's document is never touched: the child reads a copy. A crash,
// a hang or a refusal comes back as data, in words, with the diagnostics
// mapped to the caller's file and, where one is named, to the config field.
#pragma once

#include "core/document/Diagnostic.h"
#include "core/document/Document.h"
#include "core/process/Process.h"
#include "core/service/IreeCommands.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::service {

// The files of one compiled try, all under `directory`.
struct CompileArtifacts {
  std::filesystem::path directory;
  std::filesystem::path input;   // input.mlir: the text that was compiled
  std::filesystem::path command; // command.sh: the compile, runnable as is
  std::filesystem::path log;     // compile.log: everything iree-compile said
  std::filesystem::path module;  // module.vmfb (exists when it compiled)
  std::filesystem::path intermediates; // LLVM IR, .rocmasm, CPU .s
  std::filesystem::path binaries;      // .hsaco, .ptx, .so
  // Written by IREE when a pass crashes (MLIR's crash reproducer).
  std::filesystem::path reproducer;
  // The executables' assembly: .rocmasm (AMD), .ptx (NVIDIA), .s (CPU),
  // and .sass where the SASS of a .ptx was made (Sass.h).
  std::vector<std::filesystem::path> assembly() const;
};

// The files a compile in try folder `directory` makes, by name.
CompileArtifacts compileArtifactsIn(const std::filesystem::path &directory);

// Where a compiler diagnostic points in the caller's document, and the
// config field it names, if any.
struct CompileDiagnostic {
  document::Diagnostic diagnostic; // file and line are the caller's
  std::string dispatch;            // the dispatch holding the line, if any
  int rootOp = -1;                 // its root op at that line, if any
  std::string field;               // a config field the message names
  std::string toString() const;
};

struct CompileJobRequest {
  // The document as it stands: its text (edits applied) is what compiles;
  // its dispatches say which target the file carries and map diagnostics.
  const document::Document *document = nullptr;
  // Unset: the target the file carries (a dispatch benchmark names its
  // device). A file without one needs a target.
  std::optional<CompileTarget> target;
  // The try folder, created; it must not hold an earlier try.
  std::filesystem::path directory;
  std::vector<std::string> extraFlags;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  const std::atomic<bool> *cancel = nullptr;
  // Live output of iree-compile, as it comes.
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;
};

struct CompileJobResult {
  process::ProcessSpec spec; // as run, working in the try folder
  process::ProcessResult process;
  CompileArtifacts artifacts;
  std::vector<CompileDiagnostic> diagnostics; // errors and warnings
  // The backend compiled for: "rocm", "cuda", "llvm-cpu", ...
  std::string backend;
  // The file has dispatches: a compile that leaves no executable binary
  // built no kernel, and has failed whatever iree-compile's exit code.
  bool expectsKernel = false;

  bool succeeded() const;
  // iree-compile exited well, yet no executable binary was written.
  bool builtNoKernel() const;
  // One line: "compiled in 1.2 s", "iree-compile failed (exited with 1)
  // after 0.8 s: FILE:20:11: error: ...", "iree-compile crashed with
  // SIGSEGV after 1.8 s; reproducer saved to ...", "... timed out ...".
  std::string summary() const;
};

// The backends the file's dispatches are compiled for, from their
// #hal.executable.target ("rocm", "cuda", "llvm-cpu"), in file order.
std::vector<std::string> documentBackends(const document::Document &document);

// The command a compile runs, in its try folder (input.mlir, module.vmfb and
// the dump folders relative to it).
Result<process::ProcessSpec>
compileJobCommand(const tools::IreeInstallation &iree,
                  const CompileJobRequest &request);

// A compile in two halves, for one that runs elsewhere (a Slurm node of a
// CPU partition, core/run/SlurmRun.h): prepareCompile writes the try folder's
// input.mlir and command.sh (the compile, runnable there as is) and returns
// the result with `spec` set and nothing run; finishCompile takes what the
// command did (its exit, its output: compile.log's text as standard error)
// and reads the diagnostics, as compileDocument does after running it here.
Result<CompileJobResult> prepareCompile(const tools::IreeInstallation &iree,
                                        const CompileJobRequest &request);
void finishCompile(CompileJobResult &result, const document::Document &document,
                   process::ProcessResult process);

// Fails (an Error) only when the job cannot start: no document, a try
// folder that cannot be made or already holds a try, a target that clashes
// with the file's own. Everything the compiler does is in the result.
Result<CompileJobResult> compileDocument(const tools::IreeInstallation &iree,
                                         const CompileJobRequest &request);

// iree-compile's stderr as diagnostics: "NAME:LINE:COL: severity: message"
// lines (notes attach to the diagnostic before them); source snippets,
// carets and dumped IR skipped. Lines of `inputName` are reported against
// `displayName`.
std::vector<document::Diagnostic>
parseToolDiagnostics(std::string_view output, const std::string &inputName,
                     const std::string &displayName);

// Places each diagnostic in the document: its dispatch, the root op on its
// line and the config field its message names.
std::vector<CompileDiagnostic>
placeDiagnostics(const std::vector<document::Diagnostic> &diagnostics,
                 const document::Document &document);

} // namespace tilescope::service
