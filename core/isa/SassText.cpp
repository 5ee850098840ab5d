// nvdisasm's SASS (`nvdisasm -c -lrm count CUBIN`): each kernel's section
// ("//----- .text.NAME -----"), its instructions ("/*0560*/ @!P0 BRA
// `(.L_x_0) ;") with the registers live at each in the comment's columns
// ("// |  71   |   1    |   4    |         |": GPRs, predicates, uniform
// GPRs, uniform predicates), its labels (".L_x_0:"), and the PTX line of
// the instructions after a marker (`nvdisasm -gp`'s "//## File
// \".nv_debug_ptx_txt\", line N", merged in by sassWithPtxLines).
#include "core/isa/Assembly.h"
#include "core/isa/RawKernel.h"
#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

namespace tilescope::isa {

namespace {

// The columns of nvdisasm's life-range comment: live GPRs and uniform GPRs
// (an empty column: none).
std::optional<LiveCount> liveColumns(const std::string &comment) {
  std::vector<std::string> fields;
  std::stringstream in(comment);
  std::string field;
  while (std::getline(in, field, '|'))
    fields.push_back(std::string(trimmed(field)));
  // "// ", GPR, PRED, UGPR, UPRED, ""
  if (fields.size() < 4)
    return std::nullopt;
  auto number = [&](size_t i) -> std::optional<int> {
    if (fields[i].empty())
      return 0;
    auto n = parseInt64(fields[i]);
    return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
  };
  auto gprs = number(1), uniform = number(3);
  if (!gprs || !uniform)
    return std::nullopt;
  LiveCount count;
  count.vgprs = *gprs;
  count.sgprs = *uniform;
  return count;
}

// A PTX line marker of `nvdisasm -gp`: "//## File \".nv_debug_ptx_txt\",
// line 345" (the PTX ptxas read, embedded in the cubin by -lineinfo).
std::optional<size_t> ptxLineOf(const std::string &raw) {
  static const std::regex kMarker(
      R"(^\s*//## File "\.nv_debug_ptx_txt", line (\d+))");
  std::smatch match;
  if (!std::regex_search(raw, match, kMarker))
    return std::nullopt;
  auto n = parseInt64(match[1].str());
  return n && *n > 0 ? std::optional<size_t>(size_t(*n)) : std::nullopt;
}

// "/*0560*/" of an instruction's line, or empty.
std::string addressOf(const std::string &raw) {
  static const std::regex kAddress(R"(^\s*(/\*[0-9a-f]+\*/))");
  std::smatch match;
  return std::regex_search(raw, match, kAddress) ? match[1].str()
                                                 : std::string();
}

// A section's heading "//----- .text.NAME -----": NAME, or empty.
std::string sectionOf(const std::string &raw) {
  static const std::regex kSection(R"(^//-+ \.text\.(\S+) -+)");
  std::smatch match;
  return std::regex_search(raw, match, kSection) ? match[1].str()
                                                 : std::string();
}

} // namespace

std::string sassMnemonicOf(const std::string &statement) {
  std::string words(trimmed(statement));
  if (!words.empty() && words[0] == '@') {
    const size_t space = words.find_first_of(" \t");
    words = space == std::string::npos
                ? std::string()
                : std::string(trimmed(words.substr(space + 1)));
  }
  return words.substr(0, words.find_first_of(" \t;"));
}

bool sassHasPtxLines(const std::string &sass) {
  return sass.find("//## File \".nv_debug_ptx_txt\"") != std::string::npos;
}

std::string sassWithPtxLines(const std::string &lifeRanges,
                             const std::string &ptxLines) {
  // The markers in force at each instruction, by section and address.
  std::map<std::pair<std::string, std::string>, std::string> markerAt;
  {
    std::istringstream in(ptxLines);
    std::string raw, section, marker;
    while (std::getline(in, raw)) {
      if (std::string name = sectionOf(raw); !name.empty()) {
        section = name;
        marker.clear();
      } else if (ptxLineOf(raw)) {
        marker = std::string(trimmed(raw));
      } else if (std::string at = addressOf(raw);
                 !at.empty() && !marker.empty()) {
        markerAt[{section, at}] = marker;
      }
    }
  }
  std::string out;
  std::istringstream in(lifeRanges);
  std::string raw, section, last;
  while (std::getline(in, raw)) {
    if (std::string name = sectionOf(raw); !name.empty()) {
      section = name;
      last.clear();
    } else if (std::string at = addressOf(raw); !at.empty()) {
      auto marker = markerAt.find({section, at});
      if (marker != markerAt.end() && marker->second != last) {
        out += "\t" + marker->second + "\n";
        last = marker->second;
      }
    }
    out += raw + "\n";
  }
  return out;
}

PtxStatements::PtxStatements(const Kernel &ptx) {
  for (const Region &region : ptx.regions)
    for (const Instruction &i : region.instructions)
      byLastLine.emplace(std::max(i.line, i.lastLine), i);
}

const Instruction *PtxStatements::of(size_t ptxLine) const {
  auto found = byLastLine.lower_bound(ptxLine);
  return ptxLine > 0 && found != byLastLine.end() &&
                 found->second.line <= ptxLine
             ? &found->second
             : nullptr;
}

CellLink sassCells(const Kernel &sass, const PtxStatements &ptx,
                   const CellLink &ptxCells) {
  CellLink link;
  if (ptxCells.empty())
    return link;
  for (const Region &region : sass.regions)
    for (const Instruction &i : region.instructions) {
      const Instruction *from = ptx.of(i.ptxLine);
      if (!from || from->kind != i.kind)
        continue;
      auto cells = ptxCells.cellsOfLine.find(from->line);
      if (cells == ptxCells.cellsOfLine.end())
        continue;
      for (const std::vector<int64_t> &cell : cells->second)
        link.add(cell, i.line);
    }
  link.finish();
  return link;
}

InstructionClass classOfSass(const std::string &mnemonic) {
  using K = InstructionClass;
  const std::string op = mnemonic.substr(0, mnemonic.find('.'));
  if (op == "HMMA" || op == "IMMA" || op == "DMMA" || op == "HGMMA" ||
      op == "IGMMA" || op == "QGMMA" || op == "BMMA" || op == "QMMA" ||
      op == "OMMA" || op == "UTCHMMA" || op == "UTCQMMA")
    return K::Mma;
  if (op == "LDG" || op == "LD")
    return K::GlobalLoad;
  if (op == "STG" || op == "ST" || op == "RED" || op == "ATOMG")
    return K::GlobalStore;
  if (op == "LDS")
    return K::SharedLoad;
  if (op == "STS" || op == "ATOMS")
    return K::SharedStore;
  if (op == "LDSM")
    return K::MatrixLoad;
  if (op == "LDGSTS" || op == "UBLKCP" || op == "UTMALDG" || op == "UTMASTG")
    return K::AsyncCopy;
  if (op == "BAR" || op == "SYNCS" || op == "MEMBAR" || op == "WARPSYNC")
    return K::Barrier;
  if (op == "DEPBAR" || op == "LDGDEPBAR" || op == "WARPGROUP")
    return K::Wait;
  if (op == "SHFL" || op == "VOTE" || op == "REDUX")
    return K::Shuffle;
  if (op == "BRA" || op == "EXIT" || op == "RET" || op == "CALL" ||
      op == "BSSY" || op == "BSYNC" || op == "JMP" || op == "BRX")
    return K::Branch;
  if (op == "NOP")
    return K::Other;
  return K::Arithmetic;
}

int widthOfSass(const std::string &mnemonic) {
  const InstructionClass kind = classOfSass(mnemonic);
  if (!movesMemory(kind))
    return 0;
  std::stringstream in(mnemonic);
  std::string part;
  int bits = 32;
  while (std::getline(in, part, '.')) {
    if (part == "128")
      bits = 128;
    else if (part == "64")
      bits = 64;
    else if (part == "U16" || part == "S16")
      bits = 16;
    else if (part == "U8" || part == "S8")
      bits = 8;
  }
  // LDSM.16.M88.4: four 8x8 matrices, a 32-bit register of each a lane.
  if (kind == InstructionClass::MatrixLoad) {
    bits = 32;
    if (mnemonic.find(".4") != std::string::npos)
      bits = 128;
    else if (mnemonic.find(".2") != std::string::npos)
      bits = 64;
  }
  return bits;
}

Result<Listing> readSass(const std::string &text) {
  Listing listing;
  listing.dialect = "sass";
  std::optional<RawKernel> kernel;
  std::optional<KernelLiveness> live;
  static const std::regex kInstruction(R"(^/\*([0-9a-f]+)\*/\s*(.*)$)");
  static const std::regex kTarget(R"(`\(([^)]+)\))");
  auto finish = [&] {
    if (!kernel)
      return;
    Kernel cut = cutByLoops(*kernel);
    if (live && !live->atLine.empty())
      cut.liveness = std::move(*live);
    listing.kernels.push_back(std::move(cut));
    kernel.reset();
    live.reset();
  };
  std::istringstream in(text);
  std::string raw;
  size_t number = 0;
  size_t ptxLine = 0; // the last marker's, until the next
  while (std::getline(in, raw)) {
    ++number;
    const size_t slashes = raw.find("//");
    std::smatch match;
    if (std::string section =
            slashes == std::string::npos ? std::string() : sectionOf(raw);
        !section.empty()) {
      finish();
      kernel.emplace();
      kernel->name = section;
      ptxLine = 0;
      live.emplace();
      live->kernel = kernel->name;
      live->registerFile = "GPRs";
      continue;
    }
    if (slashes != std::string::npos)
      if (auto marked = ptxLineOf(raw)) {
        ptxLine = *marked;
        continue;
      }
    if (raw.starts_with("//"))
      continue;
    if (!kernel)
      continue;
    const std::string body(trimmed(raw.substr(0, slashes)));
    if (body.empty())
      continue;
    if (body.back() == ':' && body[0] == '.') { // ".L_x_0:"
      kernel->labels.emplace(body.substr(0, body.size() - 1),
                             kernel->instructions.size());
      continue;
    }
    if (!std::regex_match(body, match, kInstruction))
      continue; // directives
    std::string statement(trimmed(match[2].str()));
    if (!statement.empty() && statement.back() == ';')
      statement =
          std::string(trimmed(statement.substr(0, statement.size() - 1)));
    Instruction instruction;
    instruction.line = instruction.lastLine = number;
    instruction.ptxLine = ptxLine;
    {
      // Too many digits for 64 bits (not nvdisasm's) reads as 0.
      const std::string digits = match[1].str();
      std::from_chars(digits.data(), digits.data() + digits.size(),
                      instruction.address, 16);
    }
    instruction.mnemonic = sassMnemonicOf(statement);
    instruction.text = statement;
    instruction.kind = classOfSass(instruction.mnemonic);
    instruction.widthBits = widthOfSass(instruction.mnemonic);
    // A branch to itself just after its label is the spin nvdisasm shows
    // after the kernel's EXIT, not a loop.
    if (instruction.kind == InstructionClass::Branch &&
        std::regex_search(statement, match, kTarget)) {
      auto label = kernel->labels.find(match[1].str());
      if (label == kernel->labels.end() ||
          label->second != kernel->instructions.size())
        kernel->jumps.emplace_back(kernel->instructions.size(), match[1].str());
    }
    if (slashes != std::string::npos)
      if (auto count = liveColumns(raw.substr(slashes + 2))) {
        live->atLine[number] = *count;
        if (count->vgprs > live->peak.vgprs) {
          live->peak = *count;
          live->peakLine = number;
        }
      }
    kernel->instructions.push_back(std::move(instruction));
  }
  finish();
  if (listing.kernels.empty())
    return Error{"no kernel (a .text. section) found in the SASS"};
  return listing;
}

} // namespace tilescope::isa
