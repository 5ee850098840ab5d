#include "core/isa/SourceCounters.h"

#include "core/isa/RawKernel.h"

#include "core/util/Csv.h"
#include "core/util/Text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace tilescope::isa {

namespace {

// "0x7f3a2e000100": the address; nullopt for anything else.
std::optional<uint64_t> hexAddress(const std::string &cell) {
  const std::string_view text = trimmed(cell);
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' ||
      (text[1] != 'x' && text[1] != 'X'))
    return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

// ncu names about 20 stall reasons; a page with more columns than this
// of them is not read past it.
constexpr size_t kMostStallReasons = 64;
// Instructions a page may list (IREE's kernels have thousands).
constexpr size_t kMostCountedInstructions = 1'000'000;

// The source page's columns Tilescope reads, by index in its header.
struct Columns {
  size_t address = 0, source = 0;
  std::optional<size_t> executed, threads, samples, notIssued;
  std::optional<size_t> wavefronts, wavefrontsIdeal, sectors, sectorsIdeal;
  std::vector<std::pair<std::string, size_t>> stalls; // "stall_REASON"
};

// The header row: one with an "Address" and a "Source" column.
std::optional<Columns> headerOf(const CsvRow &row) {
  Columns columns;
  bool address = false, source = false;
  for (size_t i = 0; i < row.size(); ++i) {
    const std::string name(trimmed(row[i]));
    if (name == "Address") {
      columns.address = i;
      address = true;
    } else if (name == "Source") {
      columns.source = i;
      source = true;
    } else if (name == "Instructions Executed") {
      columns.executed = i;
    } else if (name == "Thread Instructions Executed") {
      columns.threads = i;
    } else if (name == "Warp Stall Sampling (All Samples)" ||
               name == "Warp Stall Sampling (All Cycles)") {
      columns.samples = i; // "Cycles" in older releases
    } else if (name == "Warp Stall Sampling (Not-issued Samples)" ||
               name == "Warp Stall Sampling (Not-issued Cycles)") {
      columns.notIssued = i;
    } else if (name == "L1 Wavefronts Shared") {
      columns.wavefronts = i;
    } else if (name == "L1 Wavefronts Shared Ideal") {
      columns.wavefrontsIdeal = i;
    } else if (name == "L2 Theoretical Sectors Global") {
      columns.sectors = i;
    } else if (name == "L2 Theoretical Sectors Global Ideal") {
      columns.sectorsIdeal = i;
    } else if (name.starts_with("stall_") &&
               name.find("Not Issued") == std::string::npos &&
               columns.stalls.size() < kMostStallReasons) {
      columns.stalls.emplace_back(name.substr(6), i);
    }
  }
  if (!address || !source)
    return std::nullopt;
  return columns;
}

std::optional<double> numberAt(const CsvRow &row, std::optional<size_t> at) {
  if (!at || *at >= row.size())
    return std::nullopt;
  auto value = parseCsvNumber(row[*at]);
  if (value && (*value < 0 || !std::isfinite(*value)))
    return std::nullopt;
  return value;
}

CountedInstruction instructionOf(const CsvRow &row, const Columns &columns,
                                 uint64_t address) {
  CountedInstruction out;
  out.address = address;
  if (columns.source < row.size())
    out.text = std::string(trimmed(row[columns.source]));
  out.mnemonic = sassMnemonicOf(out.text);
  out.executed = numberAt(row, columns.executed);
  out.threadsExecuted = numberAt(row, columns.threads);
  out.stallSamples = numberAt(row, columns.samples);
  out.notIssuedSamples = numberAt(row, columns.notIssued);
  out.sharedWavefronts = numberAt(row, columns.wavefronts);
  out.sharedWavefrontsIdeal = numberAt(row, columns.wavefrontsIdeal);
  out.globalSectors = numberAt(row, columns.sectors);
  out.globalSectorsIdeal = numberAt(row, columns.sectorsIdeal);
  // "selected" is the warp issuing, not stalled: counted in the samples,
  // not named a reason.
  double summed = 0;
  for (const auto &[reason, at] : columns.stalls) {
    if (at >= row.size())
      break; // the columns are in the header's order
    if (auto samples = numberAt(row, at); samples && *samples > 0) {
      summed += *samples;
      if (reason != "selected")
        out.stalls.emplace_back(reason, *samples);
    }
  }
  if (!out.stallSamples && !columns.stalls.empty())
    out.stallSamples = summed; // a page without the sampling's total
  std::stable_sort(
      out.stalls.begin(), out.stalls.end(),
      [](const auto &a, const auto &b) { return a.second > b.second; });
  return out;
}

std::optional<double> perExecution(const std::optional<double> &count,
                                   const std::optional<double> &executed) {
  if (!count || !executed || *executed <= 0)
    return std::nullopt;
  return *count / *executed;
}

// Whether ncu's name of a kernel is `name`: itself, or a signature of it
// ("name(...)", "void name(...)").
bool names(const std::string &profiled, const std::string &name) {
  return profiled == name || profiled.starts_with(name + "(") ||
         profiled.find(" " + name + "(") != std::string::npos;
}

// Every instruction of a kernel, in the order of its lines.
std::vector<const Instruction *> inLineOrder(const Kernel &kernel) {
  std::vector<const Instruction *> out;
  for (const Region &region : kernel.regions)
    for (const Instruction &i : region.instructions)
      out.push_back(&i);
  std::sort(out.begin(), out.end(),
            [](const Instruction *a, const Instruction *b) {
              return a->line < b->line;
            });
  return out;
}

// Whether the two are the same code: the same mnemonics at the same
// offsets from each one's first instruction.
bool sameCode(const std::vector<const Instruction *> &sass,
              const std::vector<CountedInstruction> &profiled) {
  if (sass.empty() || sass.size() != profiled.size())
    return false;
  for (size_t i = 0; i < sass.size(); ++i)
    if (sass[i]->mnemonic != profiled[i].mnemonic ||
        sass[i]->address - sass[0]->address !=
            profiled[i].address - profiled[0].address)
      return false;
  return true;
}

// The longest common sequence of the two's mnemonics, as pairs of
// indices (its table, a 16-bit count a cell, fits kernels this size).
constexpr size_t kMostAlignedCells = 25'000'000;

std::vector<std::pair<size_t, size_t>>
alignedPairs(const std::vector<const Instruction *> &sass,
             const std::vector<CountedInstruction> &profiled) {
  const size_t n = sass.size(), m = profiled.size();
  // suffix[i][j]: the longest common sequence of sass[i..] and
  // profiled[j..].
  std::vector<uint16_t> suffix((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint16_t & {
    return suffix[i * (m + 1) + j];
  };
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      at(i, j) = sass[i]->mnemonic == profiled[j].mnemonic
                     ? uint16_t(at(i + 1, j + 1) + 1)
                     : std::max(at(i + 1, j), at(i, j + 1));
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0, j = 0; i < n && j < m;) {
    if (sass[i]->mnemonic == profiled[j].mnemonic) {
      pairs.emplace_back(i++, j++);
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

std::string count(double value) {
  const std::string digits = formatted("%.0f", value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-')
      out += ',';
    out += digits[i];
  }
  return out;
}

std::string percent(double part, double whole) {
  return formatted("%.0f %%", whole > 0 ? 100.0 * part / whole : 0.0);
}

} // namespace

std::optional<double> CountedInstruction::wavefrontsPerExecution() const {
  return perExecution(sharedWavefronts, executed);
}

std::optional<double> CountedInstruction::idealWavefrontsPerExecution() const {
  return perExecution(sharedWavefrontsIdeal, executed);
}

double ProfiledKernel::stallSamples() const {
  double total = 0;
  for (const CountedInstruction &i : instructions)
    total += i.stallSamples.value_or(0);
  return total;
}

Result<std::vector<ProfiledKernel>>
readNsightSourceCounters(const std::string &text) {
  std::vector<ProfiledKernel> kernels;
  std::optional<Columns> columns;
  size_t listed = 0;
  const auto table = parseCsv(text);
  if (!table)
    return Error{"Nsight Compute's source counters: " + table.error()};
  const std::vector<CsvRow> &rows = *table;
  for (size_t r = 0; r < rows.size(); ++r) {
    const CsvRow &row = rows[r];
    if (row.size() >= 2 && trimmed(row[0]) == "Kernel Name") {
      kernels.push_back(ProfiledKernel{std::string(trimmed(row[1])), {}});
      continue;
    }
    if (auto header = headerOf(row)) {
      columns = std::move(header);
      continue;
    }
    if (!columns || columns->address >= row.size())
      continue; // ncu's or the application's lines
    const std::string &cell = row[columns->address];
    if (const std::string_view start = trimmed(cell);
        !start.starts_with("0x") && !start.starts_with("0X"))
      continue; // a line of source, not an instruction
    auto address = hexAddress(cell);
    if (!address)
      return Error{"Nsight Compute's source page, row " +
                   std::to_string(r + 1) + ": address \"" + cell.substr(0, 40) +
                   "\" is not one"};
    if (kernels.empty())
      kernels.push_back(ProfiledKernel{});
    if (++listed > kMostCountedInstructions)
      return Error{"Nsight Compute's source page lists more than " +
                   std::to_string(kMostCountedInstructions) +
                   " instructions: not one of a kernel"};
    kernels.back().instructions.push_back(
        instructionOf(row, *columns, *address));
  }
  std::erase_if(kernels, [](const ProfiledKernel &kernel) {
    return kernel.instructions.empty();
  });
  if (kernels.empty())
    return Error{columns
                     ? "Nsight Compute's source page lists no SASS instruction "
                       "(was it printed with --print-source sass?)"
                     : "not Nsight Compute's source page (no \"Address\", "
                       "\"Source\" header row; `ncu --import R.ncu-rep --page "
                       "source --print-source sass --csv` prints it)"};
  for (ProfiledKernel &kernel : kernels)
    std::stable_sort(
        kernel.instructions.begin(), kernel.instructions.end(),
        [](const CountedInstruction &a, const CountedInstruction &b) {
          return a.address < b.address;
        });
  return kernels;
}

const ProfiledKernel *
profiledKernelFor(const std::vector<ProfiledKernel> &kernels,
                  const std::string &name, bool onlyOne) {
  for (const ProfiledKernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  for (const ProfiledKernel &kernel : kernels)
    if (names(kernel.name, name))
      return &kernel;
  return onlyOne && kernels.size() == 1 ? &kernels.front() : nullptr;
}

CounterOverlay overlayCounters(const Kernel &sass,
                               const ProfiledKernel &profiled) {
  CounterOverlay overlay;
  overlay.kernel = profiled.name;
  overlay.profiledInstructions = profiled.instructions.size();
  overlay.stallSamples = profiled.stallSamples();
  const std::vector<const Instruction *> here = inLineOrder(sass);
  overlay.sassInstructions = here.size();
  std::vector<std::pair<size_t, size_t>> pairs;
  if (sameCode(here, profiled.instructions)) {
    overlay.sameCode = true;
    for (size_t i = 0; i < here.size(); ++i)
      pairs.emplace_back(i, i);
    overlay.note = "the profiled kernel is this SASS, instruction for "
                   "instruction: counters linked by offset";
  } else if ((here.size() + 1) * (profiled.instructions.size() + 1) <=
             kMostAlignedCells) {
    pairs = alignedPairs(here, profiled.instructions);
    overlay.note =
        "the profiled kernel's SASS (" +
        std::to_string(profiled.instructions.size()) +
        " instructions) is not this one (" + std::to_string(here.size()) +
        "; the GPU's driver may have compiled the PTX with its own ptxas): " +
        std::to_string(pairs.size()) +
        " linked by aligning their mnemonics, the rest left without counters";
  } else {
    overlay.note = "the profiled kernel's SASS (" +
                   std::to_string(profiled.instructions.size()) +
                   " instructions) is not this one (" +
                   std::to_string(here.size()) +
                   ") and too long to align: no counters linked";
  }
  for (const auto &[i, j] : pairs)
    overlay.atLine.emplace(here[i]->line, profiled.instructions[j]);
  overlay.matched = pairs.size();
  return overlay;
}

std::vector<BankCheck> checkBanks(const CounterOverlay &overlay,
                                  const Kernel &sass, const Kernel &ptx,
                                  const PtxStatements &statements) {
  std::vector<BankCheck> checks;
  for (const Instruction *i : inLineOrder(sass)) {
    if (i->kind != InstructionClass::SharedLoad &&
        i->kind != InstructionClass::SharedStore &&
        i->kind != InstructionClass::MatrixLoad)
      continue;
    auto counted = overlay.atLine.find(i->line);
    if (counted == overlay.atLine.end())
      continue;
    auto measured = counted->second.wavefrontsPerExecution();
    auto ideal = counted->second.idealWavefrontsPerExecution();
    const Instruction *from = statements.of(i->ptxLine);
    const SharedAccess *access = from && from->kind == i->kind
                                     ? ptx.sharedAccessAt(from->line)
                                     : nullptr;
    if (!measured || !access || !access->resolved)
      continue;
    BankCheck check;
    check.line = i->line;
    check.ptxLine = from->line;
    check.mnemonic = i->mnemonic;
    check.predictedDegree = std::max<int64_t>(1, access->degrees.worst);
    for (int64_t degree : access->degrees.perPhase)
      check.predictedWavefronts += double(degree);
    check.measuredWavefronts = *measured;
    check.idealWavefronts = ideal.value_or(0);
    checks.push_back(std::move(check));
  }
  return checks;
}

std::vector<KernelCounters>
overlayListing(const Listing &sass, const Listing *ptx,
               const std::vector<ProfiledKernel> &profiled) {
  std::vector<KernelCounters> out;
  for (size_t k = 0; k < sass.kernels.size(); ++k) {
    const Kernel &kernel = sass.kernels[k];
    // A page of one kernel of another name fits a listing of one kernel
    // only (ncu may name it otherwise than nvdisasm).
    const bool onlyOne = sass.kernels.size() == 1;
    const ProfiledKernel *counted =
        profiledKernelFor(profiled, kernel.name, onlyOne);
    if (!counted)
      continue;
    KernelCounters entry;
    entry.kernel = k;
    entry.overlay = overlayCounters(kernel, *counted);
    if (!names(counted->name, kernel.name))
      entry.overlay.note += " (the page's only kernel, named \"" +
                            counted->name.substr(0, 80) +
                            "\", taken for this one)";
    if (ptx)
      for (const Kernel &source : ptx->kernels)
        if (source.name == kernel.name)
          entry.banks =
              checkBanks(entry.overlay, kernel, source, PtxStatements(source));
    out.push_back(std::move(entry));
  }
  return out;
}

std::vector<std::vector<KernelCounters>>
overlayFiles(const std::vector<std::filesystem::path> &files,
             const std::vector<Listing> &listings,
             const std::vector<ProfiledKernel> &profiled) {
  std::vector<std::vector<KernelCounters>> out(listings.size());
  if (profiled.empty())
    return out;
  for (size_t f = 0; f < listings.size() && f < files.size(); ++f) {
    if (listings[f].dialect != "sass")
      continue;
    std::filesystem::path ptxFile = files[f];
    ptxFile.replace_extension(".ptx");
    const Listing *ptx = nullptr;
    for (size_t p = 0; p < listings.size() && p < files.size(); ++p)
      if (files[p] == ptxFile && listings[p].dialect == "ptx")
        ptx = &listings[p];
    out[f] = overlayListing(listings[f], ptx, profiled);
  }
  return out;
}

std::vector<std::pair<size_t, const CountedInstruction *>>
hottestLines(const CounterOverlay &overlay, size_t most) {
  std::vector<std::pair<size_t, const CountedInstruction *>> lines;
  for (const auto &[line, counted] : overlay.atLine)
    if (counted.stallSamples.value_or(0) > 0)
      lines.emplace_back(line, &counted);
  // atLine is by line: a stable sort keeps ties in line order.
  std::stable_sort(lines.begin(), lines.end(),
                   [](const auto &a, const auto &b) {
                     return *a.second->stallSamples > *b.second->stallSamples;
                   });
  if (lines.size() > most)
    lines.resize(most);
  return lines;
}

std::string describeCounters(const CounterOverlay &overlay, size_t firstLine,
                             size_t lastLine) {
  double samples = 0, executed = 0;
  std::map<std::string, double> reasons;
  bool any = false;
  for (auto at = overlay.atLine.lower_bound(firstLine);
       at != overlay.atLine.end() && at->first <= lastLine; ++at) {
    any = true;
    samples += at->second.stallSamples.value_or(0);
    executed += at->second.executed.value_or(0);
    for (const auto &[reason, n] : at->second.stalls)
      reasons[reason] += n;
  }
  if (!any)
    return {};
  std::vector<std::pair<std::string, double>> top(reasons.begin(),
                                                  reasons.end());
  std::stable_sort(top.begin(), top.end(), [](const auto &a, const auto &b) {
    return a.second > b.second;
  });
  std::string out = percent(samples, overlay.stallSamples) +
                    " of the kernel's " + count(overlay.stallSamples) +
                    " stall samples";
  if (!top.empty()) {
    out += " (";
    for (size_t i = 0; i < top.size() && i < 3; ++i)
      out += (i ? ", " : "") + top[i].first + " " +
             percent(top[i].second, samples);
    out += ")";
  }
  out += "; " + count(executed) + " warp instructions executed";
  return out;
}

} // namespace tilescope::isa
