// tilescope-cli mma-layouts: the MMA intrinsics and fragment layouts the
// loaded IREE reports (--cpp: as core/config/syntax/MmaIntrinsicTable.inc).
// With no IREE to ask, the built-in table (taken from the pinned IREE), saying
// so.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/MmaQuery.h"
#include "core/layout/MmaLayouts.h"

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

void printIntrinsic(
    const std::string &name, const char *note,
    const std::vector<const layout::FragmentLayout *> &fragments) {
  std::cout << name << note << "\n";
  const char *threeNames[] = {"LHS", "RHS", "ACC"};
  const char *fiveNames[] = {"LHS", "RHS", "LHS scale", "RHS scale", "ACC"};
  for (size_t i = 0; i < fragments.size(); ++i) {
    const layout::FragmentLayout &f = *fragments[i];
    std::cout << "  " << (fragments.size() == 5 ? fiveNames : threeNames)[i]
              << ": outer " << list(f.outer) << " thread " << list(f.thread)
              << " tstrides " << list(f.tstrides) << " element "
              << list(f.element) << "\n";
  }
}

// IREE's C API reports no scaled intrinsic; they come from Tilescope's
// table, held lane by lane to IREE's own distribution by a test.
void printScaledIntrinsics() {
  for (const layout::MmaIntrinsic &i : layout::mmaIntrinsics())
    if (i.isScaled)
      printIntrinsic(i.name,
                     " (scaled; Tilescope's table: IREE's C API reports no "
                     "scaled layout)",
                     {&i.lhs, &i.rhs, &i.lhsScale, &i.rhsScale, &i.acc});
}

// Without IREE: Tilescope's own table, and why IREE was not asked.
int printBuiltInTable(const std::string &why, bool cpp) {
  if (cpp) {
    std::cerr << "tilescope-cli mma-layouts: --cpp regenerates the built-in "
                 "table from a loaded IREE, and none could be loaded: "
              << why << "\n";
    return kExitFailure;
  }
  std::cerr << "tilescope-cli mma-layouts: no IREE to ask (" << why
            << "); showing Tilescope's built-in table, taken from IREE "
               "3.13.0 (the pinned release)\n";
  for (const layout::MmaIntrinsic &intrinsic : layout::mmaIntrinsics())
    if (!intrinsic.isScaled)
      printIntrinsic(intrinsic.name, intrinsic.isVirtual ? " (virtual)" : "",
                     {&intrinsic.lhs, &intrinsic.rhs, &intrinsic.acc});
  printScaledIntrinsics();
  return kExitOk;
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
  const bool cpp = parser.isSet(cppOption);
  auto installation = workbenchOf(parser).iree();
  if (!installation)
    return printBuiltInTable(installation.error(), cpp);
  auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
  if (!library)
    return printBuiltInTable(library.error(), cpp);
  auto query = iree::MmaQuery::create(*library);
  if (!query)
    return printBuiltInTable(query.error(), cpp);
  if (cpp)
    std::cout
        << "// The MMA intrinsics of the pinned IREE and their fragment "
           "layouts, as IREE\n// reports them through "
           "ireeGPUGetSingleSubgroupLayout. Regenerate with\n//   "
           "tilescope-cli mma-layouts --cpp > "
           "core/config/syntax/MmaIntrinsicTable.inc\n// "
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
    std::vector<layout::FragmentLayout> layouts;
    for (const iree::QueriedFragment &f : *fragments)
      layouts.push_back({f.outer, f.thread, f.tstrides, f.element});
    printIntrinsic(intrinsic.name, intrinsic.isVirtual ? " (virtual)" : "",
                   {&layouts[0], &layouts[1], &layouts[2]});
  }
  if (!cpp)
    printScaledIntrinsics();
  return kExitOk;
}

} // namespace tilescope::cli
