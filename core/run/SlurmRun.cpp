#include "core/run/SlurmRun.h"

#include "core/run/SlurmQueries.h"
#include "core/run/SlurmScripts.h"

namespace fs = std::filesystem;

namespace tilescope::run {
namespace {

using slurm::addExtraOptions;
using slurm::sharedToolsIn;
using slurm::timeLimit;
using slurm::trimmed;

// srun of one task on the partition, up to its command: `options` after
// Tilescope's, one GPU when `gpu`, $TILESCOPE_SBATCH_OPTIONS last.
Result<process::ProcessSpec> srunSpec(const std::string &partition,
                                      std::vector<std::string> options,
                                      bool gpu) {
  auto srun = programOnPath("srun");
  if (!srun)
    return Error{"no srun on PATH: Slurm's client commands are needed to "
                 "run on a cluster (Debian: slurm-client)"};
  process::ProcessSpec spec;
  spec.program = *srun;
  spec.arguments = {"--partition=" + partition, "--ntasks=1"};
  spec.arguments.insert(spec.arguments.end(), options.begin(), options.end());
  if (gpu)
    spec.arguments.push_back("--gres=gpu:1");
  addExtraOptions(spec.arguments);
  return spec;
}

} // namespace

fs::path sharedFolderOf(const fs::path &tryDirectory) {
  return tryDirectory.parent_path().filename() == "tries"
             ? tryDirectory.parent_path().parent_path() / "slurm"
             : tryDirectory;
}

Result<process::ProcessResult> runToolOnSlurm(
    const std::string &partition, const fs::path &directory,
    const std::string &tool, const std::vector<std::string> &arguments,
    bool gpu, const fs::path &toolsDirectory, const fs::path &sharedCache,
    std::chrono::milliseconds timeout, const std::atomic<bool> *cancel,
    std::vector<std::string> &steps) {
  auto tools = sharedToolsIn(toolsDirectory, sharedCache);
  if (!tools)
    return Error{tools.error()};
  auto made = srunSpec(partition,
                       {"--job-name=tilescope-check",
                        "--chdir=" + fs::absolute(directory).string(),
                        "--time=" + timeLimit(timeout, 1)},
                       gpu);
  if (!made)
    return Error{made.error()};
  process::ProcessSpec &spec = *made;
  spec.arguments.push_back((*tools / tool).string());
  spec.arguments.insert(spec.arguments.end(), arguments.begin(),
                        arguments.end());
  // srun's own start-up and the queue on top of the tool's run.
  spec.timeout = timeout + std::chrono::minutes(2);
  spec.cancel = cancel;
  steps.push_back(spec.shellCommand());
  process::ProcessResult ran = runProcess(spec);
  // srun says its own refusals ("srun: error: ...") before any task ran.
  if (!ran.succeeded() &&
      ran.standardError.find("srun: error: Unable to allocate") !=
          std::string::npos)
    return Error{"srun " + ran.describe() + ": " + trimmed(ran.standardError) +
                 " (partition " + partition + ")"};
  return ran;
}

Result<PlaceDevices> devicesOnSlurm(const std::string &partition,
                                    const fs::path &toolsDirectory,
                                    const fs::path &sharedCache,
                                    std::chrono::milliseconds timeout) {
  auto tools = sharedToolsIn(toolsDirectory, sharedCache);
  if (!tools)
    return Error{tools.error()};
  auto made =
      srunSpec(partition, {"--job-name=tilescope-devices", "--time=2:00"},
               /*gpu=*/true);
  if (!made)
    return Error{made.error()};
  process::ProcessSpec &spec = *made;
  spec.arguments.insert(
      spec.arguments.end(),
      {"/bin/sh", "-c",
       deviceListingCommand(process::shellQuote(tools->string()))});
  spec.timeout = timeout;
  const process::ProcessResult ran = runProcess(spec);
  if (!ran.succeeded())
    return Error{"srun " + ran.describe() + ": " +
                 trimmed(ran.standardError.empty() ? ran.standardOutput
                                                   : ran.standardError) +
                 " (partition " + partition + ")"};
  PlaceDevices found = readDeviceListing(ran.standardOutput);
  found.place = "slurm:" + partition +
                (found.place.empty() ? "" : " (node " + found.place + ")");
  found.steps = {spec.shellCommand()};
  return found;
}

} // namespace tilescope::run
