// tilescope-cli mma-layouts: the MMA intrinsics and fragment layouts the
// loaded IREE reports (--cpp: as core/config/MmaIntrinsicTable.inc).
#include "app/cli/Commands.h"
#include "app/common/IreeSettings.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/MmaQuery.h"

#include <QCommandLineParser>

#include <iostream>

namespace tilescope::cli {
namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "}";
}

} // namespace

int mmaLayouts(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription("tilescope-cli mma-layouts");
  const QCommandLineOption cppOption("cpp", "Print as a C++ table.");
  const QCommandLineOption ireeOption("iree", "IREE compiler library.", "PATH");
  parser.addOptions({cppOption, ireeOption});
  if (!parseCommandLine(parser, arguments, "mma-layouts"))
    return kExitUsage;
  std::optional<QString> ireePath;
  if (parser.isSet(ireeOption))
    ireePath = parser.value(ireeOption);
  auto installation = app::locateIree(ireePath);
  if (!installation) {
    std::cerr << installation.error() << "\n";
    return kExitFailure;
  }
  auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    return kExitFailure;
  }
  auto query = iree::MmaQuery::create(*library);
  if (!query) {
    std::cerr << query.error() << "\n";
    return kExitFailure;
  }
  const bool cpp = parser.isSet(cppOption);
  if (cpp)
    std::cout
        << "// The MMA intrinsics of the pinned IREE and their fragment "
           "layouts, as IREE\n// reports them through "
           "ireeGPUGetSingleSubgroupLayout. Regenerate with\n//   "
           "tilescope-cli mma-layouts --cpp > "
           "core/config/MmaIntrinsicTable.inc\n// "
           "tests/core/iree/tst_layout_vs_iree.cpp checks every entry against "
           "the\n// loaded IREE and fails on any intrinsic missing here.\n// "
           "From IREE "
        << (*library)->revision()
        << ". Each entry: name, virtual, then LHS, RHS, ACC\n// as {outer, "
           "thread, tstrides, element}.\n";
  for (const iree::QueriedIntrinsic &intrinsic : query->intrinsics()) {
    auto fragments = query->fragments(intrinsic);
    if (!fragments) {
      std::cerr << intrinsic.name << ": " << fragments.error() << "\n";
      return kExitFailure;
    }
    if (cpp) {
      std::cout << "{\"" << intrinsic.name << "\", "
                << (intrinsic.isVirtual ? "true" : "false");
      for (const iree::QueriedFragment &f : *fragments)
        std::cout << ",\n {" << list(f.outer) << ", " << list(f.thread) << ", "
                  << list(f.tstrides) << ", " << list(f.element) << "}";
      std::cout << "},\n";
      continue;
    }
    std::cout << intrinsic.name << (intrinsic.isVirtual ? " (virtual)" : "")
              << "\n";
    const char *names[] = {"LHS", "RHS", "ACC"};
    for (size_t i = 0; i < 3; ++i) {
      const iree::QueriedFragment &f = (*fragments)[i];
      std::cout << "  " << names[i] << ": outer " << list(f.outer) << " thread "
                << list(f.thread) << " tstrides " << list(f.tstrides)
                << " element " << list(f.element) << "\n";
    }
  }
  return kExitOk;
}

} // namespace tilescope::cli
