#include "core/run/RunToolAt.h"

#include "core/run/RunBundle.h"
#include "core/run/SlurmRun.h"

namespace tilescope::run {

Result<process::ProcessResult> runToolAt(const RunPlace &place,
                                         const PlacedTool &run,
                                         std::vector<std::string> &steps) {
  switch (place.kind) {
  case RunPlace::Kind::Ssh:
    return runToolOverSsh(place.host, run.directory, run.inputs, run.tool,
                          run.arguments, run.outputPrefix, run.toolsDirectory,
                          run.timeout, run.cancel, steps);
  case RunPlace::Kind::Slurm:
    return runToolOnSlurm(place.partition, run.directory, run.tool,
                          run.arguments, driverOf(run.device) != "local-task",
                          run.toolsDirectory, sharedFolderOf(run.directory),
                          run.timeout, run.cancel, steps);
  case RunPlace::Kind::Local:
    break;
  }
  return Error{"runToolAt runs elsewhere; " + run.tool + " runs here as is"};
}

} // namespace tilescope::run
