// libFuzzer target for the compiled-kernel readers (core/isa): PTX, SASS
// and AMDGPU assembly come from try folders, run bundles and files people
// pass around, so no input may crash, hang or trip a sanitizer. An input
// is a first line naming the dialect ("ptx", "sass", "amdgpu") and the
// text (the corpus: IREE's own kernels for the examples, cut to 8 KB).
// What reads is put through every reader of a kernel: its regions, shared
// banks, live registers, accumulator stores and their cells, and the JSON.
// "ncu" is Nsight Compute's source page (a bundle's results/ID.source.csv),
// laid over the SASS of its own instructions and over one with every other
// instruction left out (the aligned path).
#include "core/isa/Assembly.h"
#include "core/isa/AssemblyJson.h"
#include "core/isa/SourceCounters.h"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace tilescope;

namespace {

// The page's kernels over SASS written from their own instructions (all,
// then every other one).
void countersOver(const std::string &text) {
  auto kernels = isa::readNsightSourceCounters(text);
  if (!kernels)
    return;
  for (const isa::ProfiledKernel &kernel : *kernels)
    for (size_t step : {1, 2}) {
      std::string sass = "//--------------------- .text.k ---------------\n";
      for (size_t i = 0; i < kernel.instructions.size() && i < 4000;
           i += step) {
        char address[32];
        std::snprintf(address, sizeof address, "/*%04llx*/",
                      static_cast<unsigned long long>(
                          kernel.instructions[i].address & 0xffffff));
        sass += "        " + std::string(address) + " " +
                kernel.instructions[i].text + " ;\n";
      }
      auto listing = isa::readSass(sass);
      if (!listing)
        continue;
      const auto laid = isa::overlayListing(*listing, nullptr, *kernels);
      for (const isa::KernelCounters &counters : laid) {
        (void)isa::describeCounters(counters.overlay);
        (void)isa::toJson(counters.overlay, counters.banks,
                          listing->kernels[counters.kernel], true)
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string input(reinterpret_cast<const char *>(data), size);
  const size_t end = input.find('\n');
  const std::string dialect = input.substr(0, end);
  const std::string text =
      end == std::string::npos ? std::string() : input.substr(end + 1);
  if (dialect == "ncu") {
    countersOver(text);
    return 0;
  }
  Result<isa::Listing> listing = dialect == "ptx"    ? isa::readPtx(text)
                                 : dialect == "sass" ? isa::readSass(text)
                                                     : isa::readAmdgpu(text);
  if (!listing)
    return 0;
  config::IterationSpace space;
  space.bounds = {64, 64, 64};
  space.kinds = {config::LoopKind::Parallel, config::LoopKind::Parallel,
                 config::LoopKind::Reduction};
  space.operands = {
      {"f16", {0, 2}, false}, {"f16", {2, 1}, false}, {"f32", {0, 1}, true}};
  for (const isa::Kernel &kernel : listing->kernels) {
    for (const isa::Region &region : kernel.regions)
      (void)isa::describe(region);
    (void)isa::describeBanks(kernel.sharedAccesses);
    (void)isa::describe(kernel.accumulators);
    (void)isa::linkCells(kernel.accumulators, space);
    if (kernel.liveness)
      (void)isa::describe(*kernel.liveness);
  }
  // As the CLI prints it (exporting::jsonText): bytes that are not UTF-8
  // replaced, not thrown over.
  (void)isa::toJson("fuzz", *listing, true)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
