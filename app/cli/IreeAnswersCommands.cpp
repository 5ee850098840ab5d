// tilescope-cli default-config: IREE's own answers beside the file's.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/RootOpContext.h"
#include "core/export/DifferenceJson.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/jobs/IreeDefaults.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;
using namespace tilescope;

namespace tilescope::cli {

int defaultConfig(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli default-config: what IREE would choose for each root op "
      "of an IREE file (its configs removed and chosen again by IREE's "
      "strategy selection for the variant's target, in the pinned iree-opt), "
      "and how the file's configs differ from it, field by field.");
  parser.addOptions({kOpOption, kJsonOption, kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE file with executables.");
  if (!parseCommandLine(parser, arguments, "default-config"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli default-config: expected one FILE\n";
    return kExitUsage;
  }
  const std::string path = parser.positionalArguments().front().toStdString();
  int code = kExitOk;
  auto document = openDocument(path, ireePath(parser), code);
  if (!document) {
    std::cerr << "tilescope-cli default-config: " << document.error() << "\n";
    return code;
  }
  std::optional<edit::OpRef> only;
  if (parser.isSet(kOpOption)) {
    auto ref = edit::findOp(*document, parser.value(kOpOption).toStdString());
    if (!ref) {
      std::cerr << "tilescope-cli default-config: " << path
                << ": --op: " << ref.error() << "\n";
      return kExitUsage;
    }
    only = *ref;
  }
  auto installation = app::locateIree(ireePath(parser));
  auto worker = app::documentWorker(ireePath(parser));
  if (!installation || !worker) {
    std::cerr << "tilescope-cli default-config: "
              << (installation ? worker.error() : installation.error()) << "\n";
    return kExitIreeUnavailable;
  }
  auto defaults = jobs::ireeDefaultConfigs(*installation, *worker, *document);
  if (!defaults) {
    std::cerr << "tilescope-cli default-config: " << path << ": "
              << defaults.error() << "\n";
    return kExitFailure;
  }

  // Keep the one op asked about, in both documents.
  iree::Document mine = *document, iree = defaults->document;
  if (only) {
    auto keep = [&](iree::Document &d) {
      if (only->dispatch >= d.dispatches.size())
        return;
      iree::Dispatch dispatch = d.dispatches[only->dispatch];
      if (only->op < dispatch.rootOps.size())
        dispatch.rootOps = {dispatch.rootOps[only->op]};
      d.dispatches = {dispatch};
    };
    keep(mine);
    keep(iree);
  }
  const edit::DocumentDifference difference =
      edit::documentDifferences(mine, iree);

  if (parser.isSet(kJsonOption)) {
    json dispatches = json::array();
    for (const iree::Dispatch &dispatch : iree.dispatches)
      dispatches.push_back(exporting::toJson(dispatch));
    std::cout << exporting::jsonText(
                     {{"file", path},
                      {"command", defaults->command},
                      {"iree_defaults", dispatches},
                      {"differences",
                       exporting::differencesJson(difference, "file", "iree")},
                      {"same", difference.empty()}},
                     2)
              << "\n";
    return kExitOk;
  }
  for (const iree::Dispatch &dispatch : iree.dispatches) {
    std::cout << "@" << dispatch.name << "\n";
    if (!dispatch.translationInfo.empty())
      std::cout << "  IREE's translation_info: " << dispatch.translationInfo
                << "\n";
    for (const iree::RootOp &op : dispatch.rootOps)
      std::cout << "  " << op.name << ": IREE's config: "
                << (op.loweringConfig.empty() ? op.compilationInfo
                                              : op.loweringConfig)
                << "\n";
  }
  if (difference.empty()) {
    std::cout << "\nthe file's configs are IREE's defaults\n";
    return kExitOk;
  }
  std::cout << "\nwhere the file differs from IREE's default (file -> IREE):\n";
  printDifferences(difference, std::cout);
  return kExitOk;
}

} // namespace tilescope::cli
