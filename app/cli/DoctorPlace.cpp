// `tilescope-cli doctor --on PLACE`: what a GPU host or a Slurm partition
// has to run on, as IREE's runtime there sees it (run::PlaceDevices).
#include "app/cli/Commands.h"

#include "core/export/JsonText.h"
#include "core/run/SlurmRun.h"
#include "core/tools/IreeInstallation.h"

#include <iostream>

namespace tilescope::cli {

int doctorAt(const run::RunPlace &place, const tools::IreeInstallation &iree,
             const std::filesystem::path &workspace, bool asJson) {
  auto tool = iree.tool(tools::kIreeRunModule);
  if (!tool) {
    std::cerr << "tilescope-cli doctor: " << tool.error() << "\n";
    return kExitIreeUnavailable;
  }
  const auto timeout = std::chrono::minutes(5);
  auto found =
      place.kind == run::RunPlace::Kind::Ssh
          ? run::devicesOverSsh(place.host, tool->parent_path(), timeout)
          : run::devicesOnSlurm(place.partition, tool->parent_path(),
                                workspace / "slurm", timeout);
  if (!found) {
    if (asJson)
      std::cout << exporting::jsonText(
                       {{"on", place.toString()}, {"error", found.error()}}, 2)
                << "\n";
    std::cerr << "tilescope-cli doctor --on " << place.toString() << ": "
              << found.error() << "\n";
    return kExitFailure;
  }
  bool gpu = false;
  for (const std::string &device : found->devices)
    gpu = gpu || device.rfind("local-", 0) != 0;
  if (asJson) {
    std::cout << exporting::jsonText({{"on", place.toString()},
                                      {"where", found->place},
                                      {"devices", found->devices},
                                      {"gpus", found->gpus},
                                      {"gpu", gpu},
                                      {"steps", found->steps}},
                                     2)
              << "\n";
  } else {
    std::cout << "On:                   " << found->place << "\n"
              << "IREE runtime devices: ";
    for (const std::string &device : found->devices)
      std::cout << device << " ";
    std::cout << "\n";
    if (found->gpus.empty())
      std::cout << "GPUs:                 none named (no nvidia-smi or "
                   "rocm-smi there)\n";
    for (const std::string &line : found->gpus)
      std::cout << "  " << line << "\n";
    if (!gpu)
      std::cout << "No GPU device for IREE's runtime there: GPU modules "
                   "cannot run; CPU ones run on local-task\n";
  }
  return gpu ? kExitOk : kExitCannotRunHere;
}

} // namespace tilescope::cli
