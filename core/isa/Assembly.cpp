#include "core/isa/Assembly.h"
#include "core/isa/PtxText.h"
#include "core/isa/RawKernel.h"

#include "core/util/Files.h"
#include "core/util/Text.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <utility>

namespace tilescope::isa {

const char *toString(InstructionClass kind) {
  switch (kind) {
  case InstructionClass::GlobalLoad:
    return "global load";
  case InstructionClass::GlobalStore:
    return "global store";
  case InstructionClass::SharedLoad:
    return "shared load";
  case InstructionClass::SharedStore:
    return "shared store";
  case InstructionClass::MatrixLoad:
    return "matrix load";
  case InstructionClass::AsyncCopy:
    return "async copy";
  case InstructionClass::Mma:
    return "mma";
  case InstructionClass::Barrier:
    return "barrier";
  case InstructionClass::Wait:
    return "wait";
  case InstructionClass::Shuffle:
    return "shuffle";
  case InstructionClass::Branch:
    return "branch";
  case InstructionClass::Arithmetic:
    return "arithmetic";
  case InstructionClass::Other:
    break;
  }
  return "other";
}

const char *toString(Region::Kind kind) {
  switch (kind) {
  case Region::Kind::Prologue:
    return "prologue";
  case Region::Kind::Loop:
    return "loop";
  case Region::Kind::Between:
    return "between loops";
  case Region::Kind::Epilogue:
    break;
  }
  return "epilogue";
}

namespace {

bool contains(const std::string &text, const char *part) {
  return text.find(part) != std::string::npos;
}

} // namespace

namespace {

// A mnemonic's class by its first letters: the first row whose prefix it
// starts with (more specific rows first), else arithmetic.
struct ClassPrefix {
  const char *prefix;
  InstructionClass kind;
};

InstructionClass classByPrefix(const std::string &mnemonic,
                               std::initializer_list<ClassPrefix> table) {
  for (const ClassPrefix &row : table)
    if (mnemonic.starts_with(row.prefix))
      return row.kind;
  return InstructionClass::Arithmetic;
}

using K = InstructionClass;

} // namespace

InstructionClass classOfPtx(const std::string &m) {
  return classByPrefix(m, {{"mma.", K::Mma},
                           {"wgmma.wait", K::Wait},
                           {"wgmma.commit", K::Wait},
                           {"wgmma.", K::Mma},
                           {"ldmatrix", K::MatrixLoad},
                           {"cp.async.wait", K::Wait},
                           {"cp.async.commit", K::Wait},
                           {"cp.async.bulk.wait", K::Wait},
                           {"cp.async.bulk.commit", K::Wait},
                           {"mbarrier.try", K::Wait},
                           {"cp.async", K::AsyncCopy},
                           {"ld.global", K::GlobalLoad},
                           {"ldu.global", K::GlobalLoad},
                           {"st.global", K::GlobalStore},
                           {"atom.global", K::GlobalStore},
                           {"red.global", K::GlobalStore},
                           {"ld.shared", K::SharedLoad},
                           {"st.shared", K::SharedStore},
                           {"atom.shared", K::SharedStore},
                           {"red.shared", K::SharedStore},
                           {"bar.", K::Barrier},
                           {"barrier", K::Barrier},
                           {"shfl.", K::Shuffle},
                           {"bra", K::Branch},
                           {"ret", K::Branch},
                           {"exit", K::Branch},
                           {"call", K::Branch},
                           {"mov", K::Other},
                           {"ld.param", K::Other},
                           {"cvta", K::Other},
                           {"ld.local", K::Other},
                           {"st.local", K::Other}});
}

int widthOfPtx(const std::string &m) {
  const InstructionClass kind = classOfPtx(m);
  if (kind == InstructionClass::MatrixLoad) {
    // ldmatrix .x1, .x2, .x4: one, two or four 32-bit registers a lane.
    for (int count : {4, 2, 1})
      if (contains(m, (".x" + std::to_string(count)).c_str()))
        return 32 * count;
    return 32;
  }
  if (kind != InstructionClass::GlobalLoad &&
      kind != InstructionClass::GlobalStore &&
      kind != InstructionClass::SharedLoad &&
      kind != InstructionClass::SharedStore)
    return 0;
  int vector = 1;
  if (contains(m, ".v8."))
    vector = 8;
  else if (contains(m, ".v4."))
    vector = 4;
  else if (contains(m, ".v2."))
    vector = 2;
  const size_t dot = m.rfind('.');
  return vector * ptxTypeBits(dot == std::string::npos ? m : m.substr(dot + 1));
}

InstructionClass classOfAmdgpu(const std::string &m) {
  // A load straight into LDS (global_load_lds_*, buffer_load_*_lds) is the
  // async copy of gfx942 and later; a DPP modifier makes an ALU op a
  // shuffle.
  if ((m.starts_with("global_load") || m.starts_with("buffer_load")) &&
      contains(m, "lds"))
    return K::AsyncCopy;
  if (contains(m, "_dpp"))
    return K::Shuffle;
  return classByPrefix(m, {{"v_mfma", K::Mma},
                           {"v_smfmac", K::Mma},
                           {"v_wmma", K::Mma},
                           {"v_swmmac", K::Mma},
                           {"global_load", K::GlobalLoad},
                           {"buffer_load", K::GlobalLoad},
                           {"flat_load", K::GlobalLoad},
                           {"global_store", K::GlobalStore},
                           {"buffer_store", K::GlobalStore},
                           {"flat_store", K::GlobalStore},
                           {"global_atomic", K::GlobalStore},
                           {"buffer_atomic", K::GlobalStore},
                           {"flat_atomic", K::GlobalStore},
                           {"ds_swizzle", K::Shuffle},
                           {"ds_bpermute", K::Shuffle},
                           {"ds_permute", K::Shuffle},
                           {"v_permlane", K::Shuffle},
                           {"ds_read", K::SharedLoad},
                           {"ds_load", K::SharedLoad},
                           {"ds_write", K::SharedStore},
                           {"ds_store", K::SharedStore},
                           {"ds_add", K::SharedStore},
                           {"ds_max", K::SharedStore},
                           {"ds_min", K::SharedStore},
                           {"s_barrier", K::Barrier},
                           {"s_waitcnt", K::Wait},
                           {"s_wait_", K::Wait},
                           {"s_branch", K::Branch},
                           {"s_cbranch", K::Branch},
                           {"s_endpgm", K::Branch},
                           {"s_setpc", K::Branch},
                           {"s_swappc", K::Branch},
                           {"s_mov", K::Other},
                           {"v_mov", K::Other},
                           {"s_load", K::Other},
                           {"s_nop", K::Other},
                           {"s_setprio", K::Other},
                           {"s_sleep", K::Other},
                           {"scratch_", K::Other}});
}

bool movesMemory(InstructionClass kind) {
  return kind == InstructionClass::GlobalLoad ||
         kind == InstructionClass::GlobalStore ||
         kind == InstructionClass::SharedLoad ||
         kind == InstructionClass::SharedStore ||
         kind == InstructionClass::MatrixLoad ||
         kind == InstructionClass::AsyncCopy;
}

int widthOfAmdgpu(const std::string &m) {
  const InstructionClass kind = classOfAmdgpu(m);
  if (!movesMemory(kind))
    return 0;
  // dwordx4, dwordx3, dwordx2, dword; b128, b96, b64, b32, u16, b8 ...
  static const std::regex kDwords(R"(dword(x(\d))?)");
  static const std::regex kBits(R"(_[bui](8|16|32|64|96|128)\b)");
  std::smatch match;
  int bits = 0;
  if (std::regex_search(m, match, kDwords))
    bits = 32 * (match[2].matched ? std::stoi(match[2].str()) : 1);
  else if (std::regex_search(m, match, kBits))
    bits = std::stoi(match[1].str());
  else if (contains(m, "short") || contains(m, "d16"))
    bits = 16;
  else if (contains(m, "byte"))
    bits = 8;
  // ds_read2 / ds_write2 (and their st64 forms) move two.
  if (m.starts_with("ds_read2") || m.starts_with("ds_write2") ||
      m.starts_with("ds_load_2") || m.starts_with("ds_store_2"))
    bits *= 2;
  return bits;
}

namespace {

std::string trimmedText(std::string_view text) {
  return std::string(trimmed(text));
}

// A label at the start of `line` ("$L__BB0_1:", ".LBB0_1:"), or none.
std::optional<std::string> labelOf(const std::string &line) {
  static const std::regex kLabel(R"(^\s*([$.A-Za-z_][\w$.]*):)");
  std::smatch m;
  if (std::regex_search(line, m, kLabel))
    return m[1].str();
  return std::nullopt;
}

// The loops of a kernel: for each branch back to a label before it, the
// statements from the label to the branch. Loops inside loops are kept
// inside the outer one.
std::vector<std::pair<size_t, size_t>> outerLoops(const RawKernel &kernel) {
  std::vector<std::pair<size_t, size_t>> loops;
  for (const auto &[at, target] : kernel.jumps) {
    auto label = kernel.labels.find(target);
    if (label != kernel.labels.end() && label->second <= at)
      loops.emplace_back(label->second, at);
  }
  std::sort(loops.begin(), loops.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  });
  std::vector<std::pair<size_t, size_t>> outer;
  for (const auto &loop : loops)
    if (outer.empty() || loop.first > outer.back().second)
      outer.push_back(loop);
    else
      outer.back().second = std::max(outer.back().second, loop.second);
  return outer;
}

Region regionOf(const RawKernel &kernel, Region::Kind kind, size_t begin,
                size_t end, std::string label = {}) {
  Region region;
  region.kind = kind;
  region.label = std::move(label);
  for (size_t i = begin; i < end; ++i) {
    const Instruction &instruction = kernel.instructions[i];
    region.instructions.push_back(instruction);
    ++region.counts[static_cast<size_t>(instruction.kind)];
  }
  if (!region.instructions.empty()) {
    region.firstLine = region.instructions.front().line;
    region.lastLine = region.instructions.back().line;
  }
  return region;
}

} // namespace

Kernel cutByLoops(const RawKernel &raw) {
  Kernel kernel;
  kernel.name = raw.name;
  const auto loops = outerLoops(raw);
  // Each statement's label (the last by name where several name it), found
  // once: not a scan of every label for every loop.
  std::map<size_t, std::string> labelAt;
  for (const auto &[name, index] : raw.labels)
    labelAt[index] = name;
  size_t at = 0;
  for (size_t i = 0; i < loops.size(); ++i) {
    const auto [begin, end] = loops[i];
    if (begin > at)
      kernel.regions.push_back(
          regionOf(raw, i == 0 ? Region::Kind::Prologue : Region::Kind::Between,
                   at, begin));
    const auto named = labelAt.find(begin);
    const std::string label = named == labelAt.end() ? "" : named->second;
    kernel.regions.push_back(
        regionOf(raw, Region::Kind::Loop, begin, end + 1, label));
    at = end + 1;
  }
  const Region::Kind last =
      loops.empty() ? Region::Kind::Prologue : Region::Kind::Epilogue;
  if (at < raw.instructions.size() || kernel.regions.empty())
    kernel.regions.push_back(regionOf(raw, last, at, raw.instructions.size()));
  return kernel;
}

namespace {

// The first whitespace-separated word of a statement, less a predicate
// (PTX's "@%p1", "@!%p1").
std::pair<std::string, std::string> mnemonicAndRest(std::string statement) {
  statement = trimmedText(statement);
  if (!statement.empty() && statement[0] == '@') {
    const size_t space = statement.find_first_of(" \t");
    statement =
        space == std::string::npos ? "" : trimmedText(statement.substr(space));
  }
  const size_t space = statement.find_first_of(" \t");
  if (space == std::string::npos)
    return {statement, ""};
  return {statement.substr(0, space), trimmedText(statement.substr(space))};
}

} // namespace

std::string withoutPtxComments(std::string line, bool &inBlockComment) {
  if (inBlockComment) {
    const size_t close = line.find("*/");
    if (close == std::string::npos)
      return "";
    line = line.substr(close + 2);
    inBlockComment = false;
  }
  while (true) {
    const size_t open = line.find("/*");
    const size_t lineComment = line.find("//");
    if (open == std::string::npos ||
        (lineComment != std::string::npos && lineComment < open))
      break;
    const size_t close = line.find("*/", open + 2);
    if (close == std::string::npos) {
      inBlockComment = true;
      line = line.substr(0, open);
      break;
    }
    line = line.substr(0, open) + " " + line.substr(close + 2);
  }
  if (const size_t comment = line.find("//"); comment != std::string::npos)
    line = line.substr(0, comment);
  return line;
}

Result<Listing> readPtx(const std::string &text) {
  Listing listing;
  listing.dialect = "ptx";
  // The entries' statements, read once for the listing, the banks, the
  // accumulators and the operands.
  const PtxText ptx = ptxTextOf(text);
  for (const PtxEntryText &entry : ptx.entries) {
    RawKernel kernel;
    kernel.name = entry.name;
    for (const auto &[label, index] : entry.labels)
      kernel.labels.emplace(label, index);
    for (const PtxStatement &s : entry.statements) {
      Instruction instruction;
      instruction.line = s.line;
      instruction.lastLine = s.lastLine;
      instruction.mnemonic = s.mnemonic;
      instruction.text = s.text;
      instruction.kind = classOfPtx(s.mnemonic);
      instruction.widthBits = instruction.kind == InstructionClass::AsyncCopy
                                  ? 8 * copiedBytesOf(s).value_or(0)
                                  : widthOfPtx(s.mnemonic);
      if (instruction.kind == InstructionClass::Branch &&
          s.mnemonic.starts_with("bra") && !s.operands.empty())
        kernel.jumps.emplace_back(kernel.instructions.size(),
                                  s.operands.back());
      kernel.instructions.push_back(std::move(instruction));
    }
    listing.kernels.push_back(cutByLoops(kernel));
  }
  if (listing.kernels.empty())
    return Error{"no kernel (.entry) found in the PTX"};
  // The banks of each kernel's shared-memory accesses: NVIDIA's shared
  // memory is 32 banks of 4 bytes for a warp of 32 on every sm_.
  for (KernelBanks &banks :
       sharedBanksOfPtx(ptx, layout::BankModel::forArch("sm_90")))
    for (Kernel &k : listing.kernels)
      if (k.name == banks.kernel)
        k.sharedAccesses = std::move(banks.accesses);
  for (KernelAccumulators &results : accumulatorsOfPtx(ptx))
    for (Kernel &k : listing.kernels)
      if (k.name == results.kernel)
        k.accumulators = std::move(results);
  for (KernelOperands &operands : operandsOfPtx(ptx))
    for (Kernel &k : listing.kernels)
      if (k.name == operands.kernel)
        k.operands = std::move(operands);
  return listing;
}

Result<Listing> readAmdgpu(const std::string &text) {
  Listing listing;
  listing.dialect = "amdgpu";
  std::optional<RawKernel> kernel;
  std::vector<std::string> functions; // from .type NAME,@function
  size_t lineNumber = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++lineNumber;
    if (const size_t comment = line.find(';'); comment != std::string::npos)
      line = line.substr(0, comment);
    const std::string body = trimmedText(line);
    if (body.empty())
      continue;
    static const std::regex kType(R"(^\.type\s+([\w$.]+),\s*@function)");
    std::smatch type;
    if (std::regex_search(body, type, kType)) {
      functions.push_back(type[1].str());
      continue;
    }
    if (auto label = labelOf(body)) {
      if (std::find(functions.begin(), functions.end(), *label) !=
          functions.end()) {
        if (kernel)
          listing.kernels.push_back(cutByLoops(*kernel));
        kernel.emplace();
        kernel->name = *label;
      } else if (kernel && label->starts_with(".Lfunc_end")) {
        listing.kernels.push_back(cutByLoops(*kernel));
        kernel.reset();
      } else if (kernel) {
        kernel->labels.emplace(*label, kernel->instructions.size());
      }
      continue;
    }
    if (!kernel || body[0] == '.')
      continue; // directives
    auto [mnemonic, operands] = mnemonicAndRest(body);
    Instruction instruction;
    instruction.line = instruction.lastLine = lineNumber;
    instruction.mnemonic = mnemonic;
    instruction.text = body;
    instruction.kind = classOfAmdgpu(mnemonic);
    instruction.widthBits = widthOfAmdgpu(mnemonic);
    if (mnemonic.starts_with("s_branch") || mnemonic.starts_with("s_cbranch"))
      kernel->jumps.emplace_back(kernel->instructions.size(), operands);
    kernel->instructions.push_back(std::move(instruction));
  }
  if (kernel)
    listing.kernels.push_back(cutByLoops(*kernel));
  if (listing.kernels.empty())
    return Error{"no kernel (.type NAME,@function) found in the AMDGPU "
                 "assembly"};
  // The LDS banks of each kernel's ds_ accesses (the bank model of the
  // assembly's own target; gfx942's where it names none).
  // Both read the kernels' statements, labels and metadata once.
  std::string arch;
  const std::vector<AmdgpuKernelText> texts = amdgpuKernelsOf(text, arch);
  for (KernelBanks &banks :
       sharedBanksOfAmdgpu(texts, arch, layout::BankModel::forArch("gfx942")))
    for (Kernel &k : listing.kernels)
      if (k.name == banks.kernel)
        k.sharedAccesses = std::move(banks.accesses);
  for (KernelAccumulators &results : accumulatorsOfAmdgpu(texts))
    for (Kernel &k : listing.kernels)
      if (k.name == results.kernel)
        k.accumulators = std::move(results);
  for (KernelOperands &operands : operandsOfAmdgpu(texts))
    for (Kernel &k : listing.kernels)
      if (k.name == operands.kernel)
        k.operands = std::move(operands);
  for (KernelLiveness &live : livenessOfAmdgpu(texts))
    for (Kernel &k : listing.kernels)
      if (k.name == live.kernel)
        k.liveness = std::move(live);
  return listing;
}

const SharedAccess *Kernel::sharedAccessAt(size_t line) const {
  // In program order: by line (the views ask once per instruction).
  auto at = std::lower_bound(
      sharedAccesses.begin(), sharedAccesses.end(), line,
      [](const SharedAccess &access, size_t l) { return access.line < l; });
  return at != sharedAccesses.end() && at->line == line ? &*at : nullptr;
}

std::string describe(const Region &region) {
  std::string text;
  for (InstructionClass kind : kReportOrder) {
    const size_t count = region.count(kind);
    if (count == 0 || kind == InstructionClass::Other)
      continue;
    std::map<int, size_t> byWidth;
    std::map<std::string, size_t> mnemonics;
    for (const Instruction &i : region.instructions)
      if (i.kind == kind) {
        if (i.widthBits > 0)
          ++byWidth[i.widthBits];
        ++mnemonics[i.mnemonic];
      }
    text += (text.empty() ? "" : ", ") + std::to_string(count) + " " +
            toString(kind);
    std::string detail;
    for (const auto &[bits, n] : byWidth)
      detail += (detail.empty() ? "" : " + ") + std::to_string(n) + " x " +
                std::to_string(bits) + "-bit";
    if (kind == InstructionClass::Mma)
      for (const auto &[name, n] : mnemonics)
        detail += (detail.empty() ? "" : ", ") + name;
    if (!detail.empty())
      text += " (" + detail + ")";
  }
  return text.empty() ? "nothing but moves" : text;
}

Result<Listing> readAssemblyFile(const std::filesystem::path &path) {
  const std::string extension = path.extension().string();
  if (extension != ".ptx" && extension != ".rocmasm" && extension != ".s" &&
      extension != ".sass")
    return Error{path.string() + ": not PTX (.ptx), SASS (.sass) or AMDGPU "
                                 "assembly (.rocmasm, .s)"};
  auto text = readTextFile(path);
  if (!text)
    return Error{text.error()};
  // llvm-cpu writes its x86-64 or AArch64 assembly as .s too: an AMDGPU
  // file names its target (.amdgcn_target, .amdhsa_kernel).
  if (extension == ".s" && text->find(".amdgcn_target") == std::string::npos &&
      text->find(".amdhsa_") == std::string::npos)
    return Error{path.string() +
                 ": not AMDGPU assembly (no .amdgcn_target): a CPU's "
                 "assembly; Tilescope reads PTX, SASS and AMDGPU kernels"};
  auto listing = extension == ".ptx"    ? readPtx(*text)
                 : extension == ".sass" ? readSass(*text)
                                        : readAmdgpu(*text);
  if (!listing)
    return Error{path.string() + ": " + listing.error()};
  return listing;
}

} // namespace tilescope::isa
