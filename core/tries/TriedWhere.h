// Where a try was made, as its record keeps it (the history's details "on",
// "compiled_on", "compile_task" and "dispatch_alone"): the place it ran and
// the one it compiled on where not here, the Slurm task that ended before
// its compile did, and the dispatch compiled alone for a whole program's op.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tilescope::tries {

// A Slurm task that ended before it compiled the try (its state, node and
// log, as Slurm said).
struct CompileTask {
  std::string task; // "JOB_TASK"
  std::string state, node, log;
};

struct TriedWhere {
  std::string on;         // the run place ("ssh:HOST", "slurm:PARTITION")
  std::string compiledOn; // the compile's place where it was not here
  std::optional<CompileTask> compileTask;
};

// The dispatch of a whole program a try compiled alone for one of its ops:
// its index and name in the program, the file it was written to and the
// command that took it.
struct DispatchTaken {
  long long dispatch = 0;
  std::string name, file, command;
};

// The details' keys ("on", "compiled_on", "compile_task"; none where the try
// was made here), and the inverse.
void addWhere(const TriedWhere &where, nlohmann::json &details);
TriedWhere triedWhereFromJson(const nlohmann::json &details);

nlohmann::json toJson(const DispatchTaken &taken);
// nullopt where `taken` is not an object.
std::optional<DispatchTaken> dispatchTakenFromJson(const nlohmann::json &taken);

} // namespace tilescope::tries
