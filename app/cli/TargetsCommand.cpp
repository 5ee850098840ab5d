// tilescope-cli targets [NAME...]: what a GPU target offers a dispatch, as the
// IREE in use states it (core/service/IreeTargets), or Tilescope's built-in
// description where IREE has none, saying so.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/export/ConfigJson.h"
#include "core/service/IreeTargets.h"

#include <QCommandLineParser>

#include <iostream>

namespace tilescope::cli {
namespace {

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names)
    out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

void printTarget(const std::string &name,
                 const service::ResolvedTarget &resolved) {
  const config::GpuTarget &t = resolved.target;
  std::cout << name << ": " << t.arch << " on " << t.backend
            << (t.product.empty() ? "" : " (" + t.product + ")") << "\n";
  std::cout << "  from:            "
            << (resolved.note.empty() ? t.source : resolved.note) << "\n";
  std::cout << "  subgroup sizes:  ";
  for (size_t i = 0; i < t.subgroupSizeChoices.size(); ++i)
    std::cout << (i ? ", " : "") << t.subgroupSizeChoices[i];
  std::cout << "\n  workgroup:       at most [" << t.maxWorkgroupSizes[0]
            << ", " << t.maxWorkgroupSizes[1] << ", " << t.maxWorkgroupSizes[2]
            << "], " << t.maxThreadCountPerWorkgroup << " threads, "
            << t.maxWorkgroupMemoryBytes << " bytes of shared memory\n";
  if (t.wgpCount)
    std::cout << "  processors:      " << *t.wgpCount << "\n";
  std::cout << "  MMA:             " << joined(t.mmaIntrinsics) << "\n";
  if (!t.scaledMmaIntrinsics.empty())
    std::cout << "  scaled MMA:      " << joined(t.scaledMmaIntrinsics) << "\n";
}

} // namespace

int targets(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli targets: what GPU targets offer a dispatch (subgroup "
      "sizes, workgroup limits, shared memory, MMA intrinsics), as the IREE "
      "in use states them; Tilescope's built-in description where IREE has "
      "none. With no NAME, the built-in names.");
  parser.addOptions({kJsonOption, kIreeOption});
  parser.addPositionalArgument(
      "NAME", "A chip or product IREE knows: gfx942, gfx1250, mi300x, sm_80.",
      "[NAME...]");
  if (!parseCommandLine(parser, arguments, "targets"))
    return kExitUsage;
  const bool asJson = parser.isSet(kJsonOption);
  auto installation = workbenchOf(parser).iree();
  const tools::IreeInstallation *iree = installation ? &*installation : nullptr;

  QStringList names = parser.positionalArguments();
  if (names.isEmpty()) {
    nlohmann::json out = nlohmann::json::array();
    for (const std::string &arch : config::builtinTargetArchs())
      out.push_back(arch);
    if (asJson)
      std::cout << nlohmann::json{{"builtin", out}}.dump(2) << "\n";
    else
      std::cout << "Built into Tilescope: "
                << joined(config::builtinTargetArchs())
                << ".\nAny chip or product name the IREE in use knows "
                   "(tilescope-cli targets gfx1250) is asked of it.\n";
    return kExitOk;
  }
  if (!iree)
    std::cerr << "tilescope-cli targets: no IREE to ask ("
              << installation.error() << "); built-in descriptions only\n";

  int exitCode = kExitOk;
  nlohmann::json out = nlohmann::json::array();
  for (const QString &name : names) {
    auto resolved = service::resolveTarget(iree, name.toStdString());
    if (!resolved) {
      std::cerr << "tilescope-cli targets: " << name.toStdString() << ": "
                << resolved.error() << "\n";
      exitCode = kExitUsage; // a name nobody knows: as configure says it
      continue;
    }
    if (asJson) {
      nlohmann::json entry = exporting::toJson(resolved->target);
      entry["name"] = name.toStdString();
      entry["from_iree"] = resolved->note.empty();
      if (!resolved->note.empty())
        entry["note"] = resolved->note;
      out.push_back(entry);
    } else {
      printTarget(name.toStdString(), *resolved);
    }
  }
  if (asJson)
    std::cout << out.dump(2) << "\n";
  return exitCode;
}

} // namespace tilescope::cli
