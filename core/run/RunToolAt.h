// One runtime tool run where a place says, on a checked run's files: over
// ssh (the files go there, the outputs named come back) or on a Slurm node
// (the shared filesystem carries them both ways). What CheckJob's run and
// the tune's end-to-end timing both do elsewhere.
#pragma once

#include "core/process/Process.h"
#include "core/run/RemoteRun.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::run {

struct PlacedTool {
  std::filesystem::path directory; // the checked run's folder, here
  std::vector<std::string> inputs; // files of it the tool reads (ssh)
  std::string tool;                // tools::kIreeRunModule, ...
  std::vector<std::string> arguments;
  std::string outputPrefix; // files that come back (ssh; "" none)
  std::string device;       // the run's device ("local-task": no GPU)
  std::filesystem::path toolsDirectory;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  const std::atomic<bool> *cancel = nullptr;
};

// `place` must not be local. The tool's own failure is the result; an
// Error is the place's (ssh's connection or copy, Slurm's refusal). Each
// command goes into `steps`.
Result<process::ProcessResult> runToolAt(const RunPlace &place,
                                         const PlacedTool &run,
                                         std::vector<std::string> &steps);

} // namespace tilescope::run
