#include "core/isa/AssemblyJson.h"

#include <map>
#include <string>

namespace tilescope::isa {

using json = nlohmann::json;

json toJson(const Region &region, bool withInstructions) {
  json counts = json::object();
  json widths = json::object();
  for (InstructionClass kind : kReportOrder) {
    if (region.count(kind) == 0)
      continue;
    counts[toString(kind)] = region.count(kind);
    std::map<int, size_t> byWidth;
    for (const Instruction &i : region.instructions)
      if (i.kind == kind && i.widthBits > 0)
        ++byWidth[i.widthBits];
    for (const auto &[bits, count] : byWidth)
      widths[toString(kind)][std::to_string(bits)] = count;
  }
  json out = {{"kind", toString(region.kind)},
              {"label", region.label},
              {"first_line", region.firstLine},
              {"last_line", region.lastLine},
              {"counts", counts},
              {"width_bits", widths}};
  if (withInstructions) {
    json list = json::array();
    for (const Instruction &i : region.instructions)
      list.push_back({{"line", i.line},
                      {"class", toString(i.kind)},
                      {"mnemonic", i.mnemonic},
                      {"width_bits", i.widthBits}});
    out["instructions"] = list;
  }
  return out;
}

json toJson(const std::filesystem::path &file, const Listing &listing,
            bool withInstructions) {
  json out = json::array();
  for (const Kernel &kernel : listing.kernels) {
    json regions = json::array();
    for (const Region &region : kernel.regions)
      regions.push_back(toJson(region, withInstructions));
    out.push_back({{"file", file.string()},
                   {"dialect", listing.dialect},
                   {"kernel", kernel.name},
                   {"regions", regions}});
  }
  return out;
}

} // namespace tilescope::isa
