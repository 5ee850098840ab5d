// A try's compile as its record keeps it (the history's details "compile",
// what `--json` prints as a try's "compile"): iree-compile's command and how
// it ended, the diagnostics placed in the caller's document, and the files
// it wrote. The job's own result (service::CompileJobResult: the process's
// output, its spec) is what it is made from; this is what stays of it.
#pragma once

#include "core/service/CompileJob.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

// The files of the try folder, where they were written ("" where not).
struct CompiledFiles {
  std::string directory, input, command, log;
  std::string module;     // module.vmfb, when it compiled
  std::string reproducer; // MLIR's crash reproducer, when a pass crashed
  std::vector<std::string> assembly;
};

struct TriedCompile {
  std::string command; // as run
  // "ok", "compile-failed", "compiler-crashed", "timed-out", ... (outcomeOf)
  std::string outcome;
  std::string status; // the process's end in words
  double seconds = 0;
  std::string summary, backend;
  std::vector<service::CompileDiagnostic> diagnostics;
  CompiledFiles files;
};

// What stays of a compile job's result.
TriedCompile triedCompileOf(const service::CompileJobResult &compiled);

nlohmann::json toJson(const TriedCompile &compile);
// The inverse, for what the history keeps: each field only with its type;
// nullopt for what is not an object.
std::optional<TriedCompile> triedCompileFromJson(const nlohmann::json &compile);

} // namespace tilescope::tries
