#include "core/isa/AmdgpuText.h"

#include "core/isa/Workgroup.h"
#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <sstream>

namespace tilescope::isa {

namespace {

std::string trim(std::string_view text) { return std::string(trimmed(text)); }

// No AMDGPU register file numbers past this (512 VGPRs with the AGPRs,
// about 100 SGPRs): a larger number is no register, and the liveness pass's
// sets stay the size of a real kernel's registers in a hostile file.
constexpr int64_t kMostRegisterNumber = 1023;

} // namespace

int64_t AmdgpuKernelText::threads() const {
  return x > 0 ? x * std::max<int64_t>(y, 1) * std::max<int64_t>(z, 1)
               : subgroupSize();
}

std::string amdgpuBaseOf(std::string mnemonic) {
  for (const std::string suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (mnemonic.size() > suffix.size() &&
        mnemonic.compare(mnemonic.size() - suffix.size(), std::string::npos,
                         suffix) == 0)
      return mnemonic.substr(0, mnemonic.size() - suffix.size());
  return mnemonic;
}

std::vector<std::string> amdgpuRegistersOf(std::string operand) {
  // Source modifiers: negation and absolute value.
  while (!operand.empty() && (operand[0] == '-' || operand[0] == '|'))
    operand.erase(0, 1);
  while (!operand.empty() && operand.back() == '|')
    operand.pop_back();
  if (operand.size() < 2 ||
      (operand[0] != 'v' && operand[0] != 's' && operand[0] != 'a'))
    return {};
  const char file = operand[0];
  if (operand[1] == '[') {
    const size_t colon = operand.find(':');
    const size_t close = operand.find(']');
    if (colon == std::string::npos || close == std::string::npos)
      return {};
    auto first = parseInt64(operand.substr(2, colon - 2));
    auto last = parseInt64(operand.substr(colon + 1, close - colon - 1));
    if (!first || !last || *first < 0 || *last < *first ||
        *last - *first > 32 || *last > kMostRegisterNumber)
      return {};
    std::vector<std::string> names;
    for (int64_t r = *first; r <= *last; ++r)
      names.push_back(std::string(1, file) + std::to_string(r));
    return names;
  }
  if (auto number = parseInt64(operand.substr(1));
      !number || *number < 0 || *number > kMostRegisterNumber)
    return {};
  return {operand};
}

AmdgpuStatement amdgpuStatementOf(const std::string &text, size_t line) {
  AmdgpuStatement s;
  s.line = line;
  const size_t space = text.find_first_of(" \t");
  s.mnemonic = text.substr(0, space);
  if (space == std::string::npos)
    return s;
  std::stringstream in(text.substr(space));
  std::string part;
  while (std::getline(in, part, ',')) {
    std::stringstream words(trim(part));
    std::string word;
    bool first = true;
    while (words >> word) {
      const size_t colon = word.find(':');
      if (!first && colon != std::string::npos && word[0] != 'v' &&
          word[0] != 's' && word[0] != 'a') {
        // Its offsets are at most 21 bits: one of 33 bits or more is none.
        if (auto value = parseIntegerLiteral(word.substr(colon + 1));
            value && *value > -(int64_t{1} << 32) &&
            *value < (int64_t{1} << 32))
          s.modifiers[word.substr(0, colon)] = *value;
      } else if (first) {
        s.operands.push_back(word);
      } else if (colon == std::string::npos) {
        s.flags.insert(word); // "offen", "glc", "sc0"
      }
      first = false;
    }
  }
  return s;
}

namespace {

// A fact of `kernel` from its descriptor (.amdhsa_*) or its metadata
// (.wavefront_size, .vgpr_count, .sgpr_count); false for any other line.
bool readKernelFact(const std::string &line, AmdgpuKernelText &kernel) {
  auto number64 = [&](size_t from) {
    return parseInt64(trim(line.substr(from)));
  };
  if (line.starts_with(".amdhsa_system_vgpr_workitem_id")) {
    if (auto n = number64(31))
      kernel.workItemIds = static_cast<int>(*n);
    return true;
  }
  if (line.starts_with(".amdhsa_user_sgpr_count")) {
    if (auto n = number64(23))
      kernel.userSgprs = *n;
    return true;
  }
  if (line.starts_with(".amdhsa_system_sgpr_workgroup_id_") &&
      line.size() > 33) {
    const size_t dim = static_cast<size_t>(line[33] - 'x');
    if (dim < 3)
      if (auto n = number64(34))
        kernel.workgroupIdEnabled[dim] = *n != 0;
    return true;
  }
  for (const auto &[key, field] :
       {std::pair{".wavefront_size:", &AmdgpuKernelText::waveSize},
        std::pair{".vgpr_count:", &AmdgpuKernelText::vgprCount},
        std::pair{".sgpr_count:", &AmdgpuKernelText::sgprCount}})
    if (line.starts_with(key)) {
      if (auto n = number64(std::string_view(key).size()))
        // A wave size no GPU runs is not taken (the lanes run are its).
        if (field != &AmdgpuKernelText::waveSize || isSubgroupSize(*n))
          kernel.*field = *n;
      return true;
    }
  return false;
}

} // namespace

std::vector<AmdgpuKernelText> amdgpuKernelsOf(const std::string &text,
                                              std::string &arch) {
  std::vector<AmdgpuKernelText> kernels;
  std::vector<std::string> functions;
  std::istringstream in(text);
  std::string raw;
  size_t number = 0;
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t current = kNone;       // the kernel whose body is being read
  size_t described = kNone;     // by .amdhsa_kernel or the metadata's .name
  int64_t agprsBeforeName = -1; // a metadata item's first key (-1: none)
  bool readingShape = false;    // reqd_workgroup_size's list
  std::vector<int64_t> shape;
  auto named = [&](const std::string &name) {
    for (size_t k = 0; k < kernels.size(); ++k)
      if (kernels[k].name == name)
        return k;
    return kNone;
  };
  auto number64 = [&](const std::string &line, size_t from) {
    return parseInt64(trim(line.substr(from)));
  };
  while (std::getline(in, raw)) {
    ++number;
    std::string line = trim(raw.substr(0, raw.find(';')));
    if (line.empty())
      continue;
    if (line.starts_with("- .")) { // a metadata list's first key
      line = line.substr(2);
      // A kernel's entry in amdhsa.kernels (its arguments' entries are
      // indented deeper).
      if (raw.find_first_not_of(" \t") <= 2) {
        described = kNone;
        agprsBeforeName = -1;
      }
    }
    if (line.starts_with(".amdgcn_target")) {
      const size_t gfx = line.find("gfx");
      if (gfx != std::string::npos)
        arch = line.substr(gfx, line.find_first_of("\":", gfx) - gfx);
      continue;
    }
    if (line.starts_with(".type") &&
        line.find("@function") != std::string::npos) {
      std::string name = trim(line.substr(5));
      functions.push_back(name.substr(0, name.find(',')));
      continue;
    }
    // Metadata keys end in a colon too: not labels.
    if (line.starts_with(".reqd_workgroup_size:")) {
      readingShape = true;
      shape.clear();
      continue;
    }
    if (readingShape && line.starts_with("- ")) {
      if (auto n = number64(line, 2))
        shape.push_back(*n);
      if (shape.size() == 3) {
        // A shape beyond what a GPU runs is not taken.
        if (described != kNone &&
            isRunnableWorkgroup(shape[0], shape[1], shape[2])) {
          kernels[described].x = shape[0];
          kernels[described].y = shape[1];
          kernels[described].z = shape[2];
        }
        readingShape = false;
      }
      continue;
    }
    readingShape = false;
    if (line.back() == ':' && line.find(' ') == std::string::npos) {
      const std::string label = line.substr(0, line.size() - 1);
      if (std::find(functions.begin(), functions.end(), label) !=
          functions.end()) {
        kernels.emplace_back();
        kernels.back().name = label;
        current = kernels.size() - 1;
      } else if (label.starts_with(".Lfunc_end")) {
        current = kNone;
      } else if (current != kNone) {
        kernels[current].labels[label] = kernels[current].statements.size();
      }
      continue;
    }
    if (line.starts_with(".amdhsa_kernel")) {
      described = named(trim(line.substr(14)));
      continue;
    }
    if (described != kNone && readKernelFact(line, kernels[described]))
      continue;
    if (line.starts_with(".agpr_count:")) {
      if (auto n = number64(line, 12)) {
        if (described != kNone)
          kernels[described].agprCount = *n;
        else
          agprsBeforeName = *n;
      }
      continue;
    }
    if (line.starts_with(".name:")) {
      described = named(trim(line.substr(6)));
      if (described != kNone && agprsBeforeName >= 0)
        kernels[described].agprCount = agprsBeforeName;
      continue;
    }
    if (current != kNone && line[0] != '.')
      kernels[current].statements.push_back(amdgpuStatementOf(line, number));
  }
  return kernels;
}

std::vector<std::string> AmdgpuKernelText::workgroupIdRegisters() const {
  std::vector<std::string> names;
  if (userSgprs < 0)
    return names;
  int64_t next = userSgprs;
  for (bool enabled : workgroupIdEnabled)
    if (enabled)
      names.push_back("s" + std::to_string(next++));
  return names;
}

std::optional<DsShape> dsShapeOf(const AmdgpuStatement &s) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  if (!m.starts_with("ds_") || s.operands.empty())
    return std::nullopt;
  // Cross-lane moves through the LDS hardware touch no LDS memory.
  for (const char *lane : {"permute", "swizzle", "bpermute", "addtid", "gws",
                           "append", "consume", "nop", "ordered"})
    if (m.find(lane) != std::string::npos)
      return std::nullopt;
  DsShape shape;
  const bool read = m.starts_with("ds_read") || m.starts_with("ds_load");
  shape.store = !read;
  // ds_read vdst, vaddr; ds_write vaddr, vdata; atomics ds_op vaddr, ...;
  // atomics returning (_rtn_) vdst, vaddr, ...
  const bool returns = read || m.find("_rtn") != std::string::npos;
  if (returns && s.operands.size() < 2)
    return std::nullopt;
  shape.address = returns ? s.operands[1] : s.operands[0];
  static const std::vector<std::pair<const char *, int64_t>> kWidths = {
      {"b128", 16}, {"b96", 12}, {"b64", 8}, {"u64", 8}, {"i64", 8}, {"f64", 8},
      {"b32", 4},   {"u32", 4},  {"i32", 4}, {"f32", 4}, {"b16", 2}, {"u16", 2},
      {"i16", 2},   {"f16", 2},  {"b8", 1},  {"u8", 1},  {"i8", 1}};
  for (const auto &[suffix, bytes] : kWidths)
    if (m.find(suffix) != std::string::npos) {
      shape.bytes = bytes;
      break;
    }
  if (shape.bytes == 0)
    return std::nullopt;
  const bool two = m.find("read2") != std::string::npos ||
                   m.find("write2") != std::string::npos ||
                   m.find("load_2") != std::string::npos ||
                   m.find("store_2") != std::string::npos;
  if (two) {
    // Offsets in elements (times 64 for the st64 forms).
    const int64_t unit =
        shape.bytes * (m.find("st64") != std::string::npos ? 64 : 1);
    auto at = [&](const char *name) {
      auto found = s.modifiers.find(name);
      return found == s.modifiers.end() ? 0 : found->second * unit;
    };
    shape.offsets = {at("offset0"), at("offset1")};
  } else {
    auto found = s.modifiers.find("offset");
    shape.offsets = {found == s.modifiers.end() ? 0 : found->second};
  }
  return shape;
}

} // namespace tilescope::isa
