// Tilescope's core from another program: open an IREE dispatch (IREE's own
// parser, loaded from the IREE that locateIree finds), list its root ops with
// their configs, and for each MMA contraction with a GPU target say what the
// cost model predicts. Exits 1 with the reason when any step fails.
//
//   tilescope-consumer FILE.mlir
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/DocumentParser.h"
#include "core/layout/CostModel.h"
#include "core/tools/IreeInstallation.h"

#include <iostream>

using namespace tilescope;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: tilescope-consumer FILE.mlir\n";
    return 2;
  }
  auto installation = tools::locateIree();
  if (!installation) {
    std::cerr << installation.error() << "\n";
    return 1;
  }
  auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    return 1;
  }
  iree::DocumentParser parser(*library);
  auto document = parser.parseFile(argv[1]);
  if (!document) {
    std::cerr << document.error() << "\n";
    return 1;
  }
  std::cout << document->dispatches.size() << " dispatch(es)\n";
  for (const document::Dispatch &dispatch : document->dispatches)
    for (const document::RootOp &op : dispatch.rootOps) {
      std::cout << dispatch.name << ": " << op.name;
      if (op.space)
        std::cout << " " << op.space->toString();
      std::cout << "\n  " << op.loweringConfig << "\n";
      auto config = config::LoweringConfig::parse(op.loweringConfig);
      auto translation =
          config::TranslationInfo::parse(dispatch.translationInfo);
      auto target = config::gpuTargetFromText(dispatch.target);
      if (!op.space || !config || !translation || !target)
        continue;
      auto predicted = layout::predictKernelTime(
          {&*op.space, &*config, &*translation, &*target, std::nullopt});
      if (predicted)
        std::cout << "  " << predicted->summary() << "\n";
      else
        std::cout << "  no prediction: " << predicted.error() << "\n";
    }
  return 0;
}
