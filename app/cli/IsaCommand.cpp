// tilescope-cli isa: a compiled kernel's instructions, classed and cut by
// its loops (core/isa): what one reduction step issues (global loads and
// their width, shared stores and loads, MMAs, barriers), and what runs
// before and after; shared banks, live registers, where MMA results are
// stored. From a try (its id or folder; its PTX gets the SASS of its
// cubin), an assembly file (.ptx, .sass, .rocmasm), or an IREE MLIR file
// compiled here first as `compile` does.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "core/export/JsonText.h"
#include "core/isa/Assembly.h"
#include "core/isa/AssemblyJson.h"
#include "core/isa/SourceCounters.h"
#include "core/service/CompileJob.h"
#include "core/service/Sass.h"
#include "core/tries/BundleTries.h"
#include "core/tries/History.h"
#include "core/tries/TryJob.h"
#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <QCommandLineParser>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace tilescope::cli {
namespace {

using json = nlohmann::json;

void printListing(const std::filesystem::path &file,
                  const isa::Listing &listing) {
  for (const isa::Kernel &kernel : listing.kernels) {
    std::cout << "kernel " << kernel.name << " (" << listing.dialect << ", "
              << file.string() << ")\n";
    for (const isa::Region &region : kernel.regions) {
      std::string heading = isa::toString(region.kind);
      if (region.kind == isa::Region::Kind::Loop)
        heading += " " + region.label + " (one pass of its body)";
      std::cout << "  " << heading << ", lines " << region.firstLine << "-"
                << region.lastLine << ": " << isa::describe(region) << "\n";
      if (const std::string banks = isa::describeBanks(
              kernel.sharedAccesses, region.firstLine, region.lastLine);
          !banks.empty())
        std::cout << "    banks: " << banks << "\n";
      if (kernel.liveness)
        if (auto peak = isa::peakBetween(*kernel.liveness, region.firstLine,
                                         region.lastLine))
          std::cout << "    live: at most "
                    << isa::describe(peak->first, *kernel.liveness) << " (line "
                    << peak->second << ")\n";
    }
    if (kernel.liveness)
      std::cout << "  live registers: " << isa::describe(*kernel.liveness)
                << "\n";
    if (listing.dialect == "sass") {
      size_t all = 0, named = 0;
      for (const isa::Region &region : kernel.regions)
        for (const isa::Instruction &i : region.instructions) {
          ++all;
          named += i.ptxLine > 0;
        }
      std::cout << "  PTX lines: " << named << " of " << all
                << " instructions name the PTX line they came from"
                << (named ? " (--json --instructions: ptx_line)"
                          : " (none: ptxas wrote no line table)")
                << "\n";
    }
    if (const std::string stored = isa::describe(kernel.accumulators);
        !stored.empty())
      std::cout << "  accumulators: " << stored << "\n";
    if (const std::string moved = isa::describe(kernel.operands);
        !moved.empty())
      std::cout << "  operands: " << moved << "\n";
    size_t unfollowed = 0;
    for (const isa::OperandMove &move : kernel.operands.moves)
      if (!move.why.empty() && unfollowed++ < 3)
        std::cout << "  line " << move.line << " " << move.mnemonic << " ("
                  << isa::nameOf(move.kind)
                  << "): " << move.bytes - move.followed()
                  << " bytes not followed: " << move.why << "\n";
    for (const isa::AccumulatorStore &store : kernel.accumulators.stores)
      if (!store.resolved)
        std::cout << "  line " << store.line << " " << store.mnemonic
                  << ": stored elements unresolved: " << store.why << "\n";
    // Where an access could not be resolved, and where banks conflict.
    for (const isa::SharedAccess &access : kernel.sharedAccesses)
      if (!access.resolved)
        std::cout << "  line " << access.line << " " << access.mnemonic
                  << ": banks unresolved: " << access.why << "\n";
  }
}

// Nsight Compute's counters over one SASS kernel: how they were matched,
// each region's share of the stall samples, the hottest lines, and the
// banks predicted against the wavefronts counted.
void printCounters(const std::filesystem::path &file, const isa::Kernel &sass,
                   const isa::KernelCounters &counters) {
  const isa::CounterOverlay &overlay = counters.overlay;
  std::cout << "  profiled (Nsight Compute, " << file.string()
            << "): " << overlay.note << "\n";
  for (const isa::Region &region : sass.regions)
    if (const std::string summary =
            isa::describeCounters(overlay, region.firstLine, region.lastLine);
        !summary.empty())
      std::cout << "    " << isa::toString(region.kind) << " "
                << region.firstLine << "-" << region.lastLine << ": " << summary
                << "\n";
  for (const auto &[line, counted] : isa::hottestLines(overlay, 5)) {
    std::string reasons;
    for (size_t r = 0; r < counted->stalls.size() && r < 2; ++r)
      reasons += (r ? ", " : " (") + counted->stalls[r].first + " " +
                 formatted("%.0f", counted->stalls[r].second);
    std::cout << "    line " << line << " " << counted->mnemonic << ": "
              << formatted("%.0f", *counted->stallSamples) << " stall samples"
              << (reasons.empty() ? "" : reasons + ")") << "\n";
  }
  // Banks: how many met the prediction, and those that did not.
  std::vector<const isa::BankCheck *> differ;
  for (const isa::BankCheck &check : counters.banks)
    if (std::abs(check.measuredWavefronts - check.predictedWavefronts) >
        0.05 * check.predictedWavefronts)
      differ.push_back(&check);
  if (!counters.banks.empty())
    std::cout << "    banks: " << counters.banks.size()
              << " shared-memory instructions counted and predicted, "
              << counters.banks.size() - differ.size()
              << " within 5 % of the wavefronts predicted"
              << (differ.empty() ? "" : "; these not:") << "\n";
  for (size_t i = 0; i < differ.size() && i < 10; ++i) {
    const isa::BankCheck &check = *differ[i];
    std::cout << "      line " << check.line << " " << check.mnemonic
              << " (PTX line " << check.ptxLine << "): predicted "
              << formatted("%g", check.predictedWavefronts)
              << " wavefronts a warp instruction ("
              << (check.predictedDegree > 1
                      ? std::to_string(check.predictedDegree) + "-way"
                      : std::string("no conflict"))
              << "), counted " << formatted("%.2f", check.measuredWavefronts)
              << " (ideal " << formatted("%.2f", check.idealWavefronts)
              << ")\n";
  }
  if (differ.size() > 10)
    std::cout << "      ... " << differ.size() - 10
              << " more (--json: banks)\n";
}

// The assembly files of FILE: itself, a try folder's, a try id's (for a
// timing imported from a bundle, its compiled try's, and Nsight Compute's
// source counters into `counters` where the bundle's run wrote them), or an
// MLIR file's, compiled here first (recorded as a try).
Result<std::vector<std::filesystem::path>>
assemblyOf(const QCommandLineParser &parser, const workbench::Workbench &bench,
           int &code, std::filesystem::path &counters,
           std::filesystem::path &countersWithin) {
  const std::string given = parser.positionalArguments().front().toStdString();
  std::error_code error;
  const std::filesystem::path path(given);
  const std::string extension = path.extension().string();
  if (extension == ".ptx" || extension == ".rocmasm" || extension == ".s" ||
      extension == ".sass")
    return std::vector<std::filesystem::path>{path};
  std::filesystem::path folder;
  if (std::filesystem::is_directory(path, error)) {
    folder = path;
  } else if (auto id = parseInt64(given);
             id && !std::filesystem::exists(path)) {
    auto history = tries::History::open(tries::historyFile(bench.workspace()));
    if (!history)
      return Error{history.error()};
    auto files = tries::kernelFilesOf(*history, *id);
    if (!files)
      return Error{"try " + given + ": " + files.error()};
    if (files->compiledIn != *id)
      std::cerr << "note: try " << given << " was timed from a bundle; its "
                << "kernel is try " << files->compiledIn << "'s\n";
    folder = files->folder;
    counters = files->sourceCounters;
    countersWithin = files->sourceCountersWithin;
  } else {
    auto document = openJobFile(parser, code);
    if (!document)
      return Error{document.error()};
    if (auto installation = bench.iree(); !installation) {
      code = kExitIreeUnavailable;
      return Error{installation.error()};
    }
    auto directory = tryFolderOf(parser);
    if (!directory)
      return Error{directory.error()};
    tries::TryRequest request;
    request.document = &*document;
    // The op as compile takes it: --op, or a whole program's one dispatch.
    auto op = jobOp(parser, *document, tries::TryStage::Compile, given);
    if (!op) {
      code = kExitUsage;
      return Error{op.error()};
    }
    if (*op)
      request.op = std::pair{(*op)->dispatch, (*op)->op};
    auto target = targetOf(parser);
    if (!target) {
      code = kExitUsage;
      return Error{target.error()};
    }
    request.target = *target;
    request.upTo = tries::TryStage::Compile;
    request.directory = *directory;
    auto timeout = timeoutOf(parser);
    if (!timeout) {
      code = kExitUsage;
      return Error{timeout.error()};
    }
    request.timeout = *timeout;
    auto tried = bench.runTry(request);
    if (!tried) {
      if (tried.refusal().kind == workbench::Refusal::Kind::NoIree)
        code = kExitIreeUnavailable;
      return Error{tried.refusal().message};
    }
    recordTry(parser, tried->record, /*quiet=*/true);
    if (!tried->succeeded()) {
      code = kExitFailure;
      return Error{tried->compiled.summary()};
    }
    folder = tried->compiled.artifacts.directory;
  }
  // The SASS of NVIDIA kernels beside their PTX (made once per try).
  const service::SassFiles withSass =
      service::assemblyWithSass(service::compileArtifactsIn(folder).assembly());
  for (const std::string &note : withSass.notes)
    std::cerr << "note: " << note << "\n";
  const std::vector<std::filesystem::path> &files = withSass.files;
  if (files.empty())
    return Error{folder.string() +
                 ": no PTX or AMDGPU assembly (a CPU try, or not compiled)"};
  return files;
}

} // namespace

int isa(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli isa: a compiled kernel's instructions, classed (global "
      "and shared loads and stores with their width, MMA / MFMA, barriers, "
      "waits, shuffles, arithmetic) and cut by its loops: the prologue, one "
      "pass of each loop's body (what one reduction step issues, or several "
      "where LLVM unrolled the loop) and the epilogue. "
      "FILE is a try (its id or folder; the SASS of its PTX is made beside "
      "it), an assembly file (.ptx, .sass, .rocmasm), or an IREE MLIR file, "
      "compiled here first as `compile` does.");
  const QCommandLineOption instructionsOption(
      "instructions", "With --json: every instruction, classed, by line.");
  const QCommandLineOption countersOption(
      "counters",
      "Nsight Compute's source page of the kernel (`ncu --import R.ncu-rep "
      "--page source --print-source sass --csv`), laid over its SASS: stall "
      "samples, executions, shared-memory wavefronts against the banks "
      "predicted. A try timed by a bundle with ncu has it already.",
      "CSV");
  parser.addOptions({kOpOption, kTargetOption, kWorkspaceOption,
                     kTryFolderOption, kTimeoutOption, kJsonOption, kIreeOption,
                     instructionsOption, countersOption});
  parser.addPositionalArgument("FILE", "A try id or folder, a .ptx, .sass or "
                                       ".rocmasm file, or an IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "isa"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1)
    return usageError("isa", "expected one FILE");
  const workbench::Workbench bench = workbenchOf(parser);
  int code = kExitBadInput;
  std::filesystem::path countersFile, countersWithin;
  auto files = assemblyOf(parser, bench, code, countersFile, countersWithin);
  if (!files) {
    std::cerr << "tilescope-cli isa: " << files.error() << "\n";
    return code;
  }
  const bool countersAsked = parser.isSet(countersOption);
  if (countersAsked) {
    countersFile = parser.value(countersOption).toStdString();
    countersWithin.clear();
  }
  std::vector<isa::ProfiledKernel> profiled;
  if (!countersFile.empty()) {
    auto read = service::readSourceCountersFile(countersFile, countersWithin);
    if (read) {
      profiled = std::move(*read);
    } else if (countersAsked) {
      std::cerr << "tilescope-cli isa: " << read.error() << "\n";
      return kExitBadInput;
    } else {
      // The try's own run left a page that is none: its instructions
      // still stand.
      std::cerr << "note: " << read.error() << "\n";
    }
  }
  std::vector<isa::Listing> listings;
  for (const std::filesystem::path &file : *files) {
    auto listing = isa::readAssemblyFile(file);
    if (!listing) {
      std::cerr << "tilescope-cli isa: " << listing.error() << "\n";
      return kExitBadInput;
    }
    listings.push_back(std::move(*listing));
  }
  const std::vector<std::vector<isa::KernelCounters>> counters =
      isa::overlayFiles(*files, listings, profiled);
  json out = json::array();
  bool laid = false;
  for (size_t f = 0; f < files->size(); ++f) {
    laid |= !counters[f].empty();
    if (!parser.isSet(kJsonOption)) {
      printListing((*files)[f], listings[f]);
      for (const isa::KernelCounters &kernel : counters[f])
        printCounters(countersFile, listings[f].kernels[kernel.kernel], kernel);
      continue;
    }
    for (const json &kernel :
         isa::toJson((*files)[f], listings[f], parser.isSet(instructionsOption),
                     counters[f]))
      out.push_back(kernel);
  }
  if (!profiled.empty() && !laid) {
    bool sass = false;
    for (const isa::Listing &listing : listings)
      sass |= listing.dialect == "sass";
    std::cerr << "note: " << countersFile.string()
              << (sass ? ": names no SASS kernel shown here (its kernels: " +
                             profiled.front().name.substr(0, 80) +
                             (profiled.size() > 1 ? ", ..." : "") + ")"
                       : std::string(": no SASS here to lay its counters over "
                                     "(they are counted on SASS: an sm_ "
                                     "target's try, with nvdisasm)"))
              << "\n";
  }
  if (parser.isSet(kJsonOption))
    std::cout << exporting::jsonText(json{{"kernels", out}}, 2) << "\n";
  return kExitOk;
}

} // namespace tilescope::cli
