// libFuzzer target for the compiled-kernel readers (core/isa): PTX, SASS
// and AMDGPU assembly come from try folders, run bundles and files people
// pass around, so no input may crash, hang or trip a sanitizer. An input
// is a first line naming the dialect ("ptx", "sass", "amdgpu") and the
// text (the corpus: IREE's own kernels for the examples, cut to 8 KB).
// What reads is put through every reader of a kernel: its regions, shared
// banks, live registers, accumulator stores and their cells, and the JSON.
#include "core/isa/Assembly.h"
#include "core/isa/AssemblyJson.h"

#include <cstdint>
#include <string>

using namespace tilescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string input(reinterpret_cast<const char *>(data), size);
  const size_t end = input.find('\n');
  const std::string dialect = input.substr(0, end);
  const std::string text =
      end == std::string::npos ? std::string() : input.substr(end + 1);
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
