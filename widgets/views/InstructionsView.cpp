#include "widgets/views/InstructionsView.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTreeWidgetItemIterator>

#include <algorithm>
#include <map>
#include <optional>

namespace tilescope::widgets {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

enum Column { What, Lines, Class, Width, Banks, Live, Cells, FromPtx, Stalls };

// An instruction row's line, file and kernel.
constexpr int kLineRole = Qt::UserRole;
constexpr int kFileRole = Qt::UserRole + 1;
constexpr int kKernelRole = Qt::UserRole + 2;

// A shared-memory access's passes ("2-way", in red; "1" without
// conflicts), with each phase and the first lanes' addresses in its tip;
// "?" where its addresses could not be resolved, and why.
void showBanks(QTreeWidgetItem *row, const isa::SharedAccess *access) {
  if (!access)
    return;
  if (!access->resolved) {
    row->setText(Banks, "?");
    row->setToolTip(Banks, "Unresolved: " + qs(access->why));
    return;
  }
  const int64_t degree = access->degrees.worst;
  row->setText(Banks,
               degree <= 1 ? QString("1") : QString("%1-way").arg(degree));
  if (degree > 1)
    row->setForeground(Banks, QColor(0xa6, 0x1b, 0x1b));
  QString tip = QString("%1 lanes, %2 bytes each, %3 lanes a phase; passes "
                        "per phase:")
                    .arg(access->addresses.size())
                    .arg(access->accessBytes)
                    .arg(access->degrees.lanesPerPhase);
  for (int64_t d : access->degrees.perPhase)
    tip += " " + QString::number(d);
  tip += "\nbyte addresses:";
  for (size_t l = 0; l < access->addresses.size() && l < 16; ++l)
    tip += QString(" %1:%2")
               .arg(access->addresses[l].lane)
               .arg(access->addresses[l].address);
  if (access->addresses.size() > 16)
    tip += " ...";
  if (access->uniformBaseAssumed)
    tip += "\n(a base the same for every lane, unknown here, taken as "
           "bank-aligned)";
  row->setToolTip(Banks, tip);
}

// The vector registers live at an instruction; the kernel's peak in bold.
void showLive(QTreeWidgetItem *row, const isa::KernelLiveness &liveness,
              size_t line) {
  auto at = liveness.atLine.find(line);
  if (at == liveness.atLine.end())
    return;
  row->setText(Live, QString::number(at->second.vectorRegisters()));
  row->setToolTip(Live, qs(isa::describe(at->second, liveness)) + " live" +
                            (liveness.registerFile == "VGPRs"
                                 ? QString(" (%1 SGPRs)").arg(at->second.sgprs)
                                 : QString(", as nvdisasm counts them")));
  if (line == liveness.peakLine) {
    QFont bold = row->font(Live);
    bold.setBold(true);
    row->setFont(Live, bold);
    row->setToolTip(Live, row->toolTip(Live) + ": the kernel's peak");
  }
}

// A region's worst conflict over its shared-memory accesses ("2-way",
// "1"; "?" where one is unresolved), its summary in the tip.
void showRegionBanks(QTreeWidgetItem *item, const isa::Kernel &kernel,
                     const isa::Region &region, const QString &banks) {
  int64_t worst = 0;
  bool unresolved = false;
  for (const isa::SharedAccess &access : kernel.sharedAccesses)
    if (access.line >= region.firstLine && access.line <= region.lastLine) {
      unresolved |= !access.resolved;
      if (access.resolved)
        worst = std::max(worst, access.degrees.worst);
    }
  if (worst == 0 && !unresolved)
    return;
  item->setText(Banks, unresolved && worst == 0 ? QString("?")
                       : worst <= 1             ? QString("1")
                                                : QString("%1-way").arg(worst));
  if (worst > 1)
    item->setForeground(Banks, QColor(0xa6, 0x1b, 0x1b));
  item->setToolTip(Banks, banks);
}

// The PTX line a SASS instruction came from: its statement's first line,
// the statement in the tip.
void showPtxLine(QTreeWidgetItem *row, const isa::Instruction &instruction,
                 const isa::PtxStatements *statements) {
  const isa::Instruction *from =
      statements ? statements->of(instruction.ptxLine) : nullptr;
  row->setText(FromPtx,
               QString::number(from ? from->line : instruction.ptxLine));
  row->setToolTip(
      FromPtx, from ? QString("compiled from PTX line %1: %2%3")
                          .arg(from->line)
                          .arg(qs(from->text))
                          .arg(from->kind == instruction.kind
                                   ? QString()
                                   : QString(" (a %1: this %2 carries none of "
                                             "its cells)")
                                         .arg(isa::toString(from->kind))
                                         .arg(isa::toString(instruction.kind)))
                    : QString("PTX line %1, in no statement of the PTX "
                              "shown")
                          .arg(instruction.ptxLine));
}

// What the cells of each line are, in words: "MMA A elements, MMA B
// elements, the accumulator cells its result reaches". Once a kernel, not
// a scan of its moves per row shown.
std::map<size_t, QStringList> whatLinesTouch(const isa::Kernel &kernel) {
  std::map<size_t, QStringList> parts;
  for (const isa::OperandMove &move : kernel.operands.moves)
    parts[move.line] << qs(isa::nameOf(move.kind)) + " elements";
  for (const isa::MmaStep &mma : kernel.accumulators.mmas)
    parts[mma.line] << "the accumulator cells its result reaches";
  for (const isa::AccumulatorStore &store : kernel.accumulators.stores)
    parts[store.line] << "the accumulator cells it stores";
  return parts;
}

// Nsight Compute's counters at an instruction: its share of the kernel's
// warp stall samples, and in the tip their reasons, its executions and, for
// shared memory, the wavefronts counted beside those predicted.
void showCounters(QTreeWidgetItem *row, const isa::CountedInstruction &counted,
                  double kernelSamples, const isa::BankCheck *bank) {
  const double samples = counted.stallSamples.value_or(0);
  row->setText(
      Stalls, kernelSamples > 0 && samples > 0
                  ? QString("%1%").arg(100 * samples / kernelSamples, 0, 'f', 1)
                  : QString());
  QString tip = QString("%1 warp stall samples").arg(samples, 0, 'f', 0);
  // Concatenated: a reason's name is the page's text, never a pattern.
  for (size_t r = 0; r < counted.stalls.size() && r < 4; ++r)
    tip += QString(r ? ", " : " (") + qs(counted.stalls[r].first) + " " +
           QString::number(counted.stalls[r].second, 'f', 0);
  if (!counted.stalls.empty())
    tip += ")";
  if (counted.executed)
    tip += QString("\n%1 warp instructions executed")
               .arg(*counted.executed, 0, 'f', 0);
  if (auto measured = counted.wavefrontsPerExecution()) {
    tip += QString("\nshared memory: %1 wavefronts a warp instruction")
               .arg(*measured, 0, 'f', 2);
    if (auto ideal = counted.idealWavefrontsPerExecution())
      tip += QString(" (ideal %1)").arg(*ideal, 0, 'f', 2);
    if (bank) {
      tip += QString("; predicted %1 from the addresses of PTX line %2")
                 .arg(bank->predictedWavefronts)
                 .arg(bank->ptxLine);
      if (bank->measuredWavefronts > bank->predictedWavefronts * 1.05)
        row->setForeground(Stalls, QColor(0xa6, 0x1b, 0x1b));
    }
  }
  tip += "\nas Nsight Compute printed it: " + qs(counted.text);
  row->setToolTip(Stalls, tip);
}

} // namespace

CompiledInstructions
CompiledInstructions::read(const std::vector<std::filesystem::path> &paths,
                           const config::IterationSpace *space,
                           const config::ImplicitGemm *igemm,
                           const std::vector<isa::ProfiledKernel> &profiled) {
  CompiledInstructions compiled;
  for (const std::filesystem::path &path : paths) {
    File file;
    file.path = path;
    if (auto listing = isa::readAssemblyFile(path))
      file.listing = std::move(*listing);
    else
      file.error = qs(listing.error());
    for (const isa::Kernel &kernel : file.listing.kernels) {
      isa::CellLink link;
      if (space) {
        link = isa::linkCells(kernel.accumulators, *space);
        link.merge(
            isa::linkOperandCells(kernel.operands, *space, nullptr, igemm));
      }
      file.links.push_back(std::move(link));
    }
    compiled.files.push_back(std::move(file));
  }
  linkSassToPtx(compiled, profiled);
  return compiled;
}

void CompiledInstructions::linkSassToPtx(
    CompiledInstructions &compiled,
    const std::vector<isa::ProfiledKernel> &profiled) {
  bool laid = false;
  for (File &sass : compiled.files) {
    if (sass.listing.dialect != "sass")
      continue;
    std::filesystem::path ptxPath = sass.path;
    ptxPath.replace_extension(".ptx");
    auto ptx = std::find_if(
        compiled.files.begin(), compiled.files.end(), [&](const File &file) {
          return file.path == ptxPath && file.listing.dialect == "ptx";
        });
    const bool withPtx = ptx != compiled.files.end();
    if (!profiled.empty()) {
      sass.counters = isa::overlayListing(
          sass.listing, withPtx ? &ptx->listing : nullptr, profiled);
      laid |= !sass.counters.empty();
    }
    if (!withPtx)
      continue;
    sass.ptx = static_cast<size_t>(ptx - compiled.files.begin());
    sass.statements.resize(sass.listing.kernels.size());
    for (size_t k = 0; k < sass.listing.kernels.size(); ++k)
      for (size_t p = 0; p < ptx->listing.kernels.size(); ++p)
        if (ptx->listing.kernels[p].name == sass.listing.kernels[k].name) {
          const isa::PtxStatements &statements =
              sass.statements[k].emplace(ptx->listing.kernels[p]);
          if (p < ptx->links.size() && k < sass.links.size())
            sass.links[k] = isa::sassCells(sass.listing.kernels[k], statements,
                                           ptx->links[p]);
        }
  }
  if (!profiled.empty() && !laid)
    compiled.countersNote =
        "Nsight Compute's counters name no SASS kernel shown here";
}

InstructionsView::InstructionsView(QWidget *parent) : QTreeWidget(parent) {
  setObjectName("jobInstructions");
  setHeaderLabels({"Kernel, region, instruction", "Lines", "Class", "Bits",
                   "Banks", "Live", "Cells", "PTX", "Stalls"});
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(this, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem *item) { onCurrentChanged(item); });
  setUniformRowHeights(true);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(What, QHeaderView::Stretch);
  setToolTip(
      "The compiled kernel's instructions, cut by its loops: a loop's "
      "region is one pass of its body (one reduction step, or several where "
      "LLVM unrolled it). Banks: how many passes a shared-memory access "
      "takes for the first subgroup's lanes (1: no conflict), from the "
      "addresses its lanes compute. Live: the vector registers an "
      "instruction needs at once (AMDGPU's VGPRs + AGPRs by a liveness pass; "
      "SASS's GPRs as nvdisasm counts them), the kernel's peak in "
      "bold. Cells: the accumulator cells an MMA or a store of its results "
      "writes, the operand elements a load, a shared-memory access or an MMA "
      "moves; choose one to mark them in the Layout tab's subgroup picture, "
      "or click a cell there to select its instructions here. PTX: the PTX "
      "line a SASS instruction was compiled from (ptxas's line table); a "
      "SASS instruction has the cells of its PTX line where both are of one "
      "class. Stalls: where a run was profiled with Nsight Compute, the "
      "instruction's share of the kernel's warp stall samples, their reasons, "
      "executions and shared-memory wavefronts (counted beside those "
      "predicted) in its tip. Compile, Resources or Compile && run to fill "
      "it.");
}

void InstructionsView::show(const CompiledInstructions &compiled) {
  clear();
  shown = compiled;
  for (size_t f = 0; f < compiled.files.size(); ++f) {
    const CompiledInstructions::File &file = compiled.files[f];
    if (!file.error.isEmpty()) {
      // The file's name, then why (the whole path in the tip): a try
      // folder's path would push the reason out of sight.
      QString why = file.error;
      if (const QString path = qs(file.path.string()) + ": ";
          why.startsWith(path))
        why = qs(file.path.filename().string()) + ": " + why.mid(path.size());
      auto *item = new QTreeWidgetItem(this, {why});
      item->setToolTip(What, file.error);
      item->setFirstColumnSpanned(true);
      continue;
    }
    for (size_t k = 0; k < file.listing.kernels.size(); ++k) {
      const isa::Kernel &kernel = file.listing.kernels[k];
      const isa::CellLink *link =
          k < file.links.size() && !file.links[k].empty() ? &file.links[k]
                                                          : nullptr;
      std::map<size_t, QStringList> touched = whatLinesTouch(kernel);
      const isa::PtxStatements *statements =
          k < file.statements.size() && file.statements[k]
              ? &*file.statements[k]
              : nullptr;
      // SASS: the PTX kernel it was compiled from, whose shared-memory
      // accesses give a SASS access its banks.
      const isa::Kernel *ptxKernel = nullptr;
      if (statements && file.ptx)
        for (const isa::Kernel &source :
             compiled.files[*file.ptx].listing.kernels)
          if (source.name == kernel.name)
            ptxKernel = &source;
      auto *top = new QTreeWidgetItem(
          this, {qs(kernel.name) + " (" + qs(file.listing.dialect) + ")"});
      top->setToolTip(What, qs(file.path.string()));
      const isa::KernelCounters *counters = nullptr;
      for (const isa::KernelCounters &c : file.counters)
        if (c.kernel == k)
          counters = &c;
      std::map<size_t, const isa::BankCheck *> bankAt;
      if (counters) {
        for (const isa::BankCheck &check : counters->banks)
          bankAt[check.line] = &check;
        top->setText(Stalls, "ncu");
        top->setToolTip(Stalls,
                        QString("Nsight Compute, %1 stall samples: %2")
                            .arg(counters->overlay.stallSamples, 0, 'f', 0)
                            .arg(qs(counters->overlay.note)));
      }
      for (const isa::Region &region : kernel.regions) {
        QString heading = isa::toString(region.kind);
        if (region.kind == isa::Region::Kind::Loop)
          heading += " " + qs(region.label) + ", one pass";
        const QString summary = qs(isa::describe(region));
        const QString banks = qs(isa::describeBanks(
            kernel.sharedAccesses, region.firstLine, region.lastLine));
        auto *item = new QTreeWidgetItem(
            top, {heading + ": " + summary,
                  QString("%1-%2").arg(region.firstLine).arg(region.lastLine)});
        item->setToolTip(What, summary + (banks.isEmpty() ? "" : "\n" + banks));
        showRegionBanks(item, kernel, region, banks);
        if (counters)
          if (const std::string stalls = isa::describeCounters(
                  counters->overlay, region.firstLine, region.lastLine);
              !stalls.empty()) {
            item->setText(Stalls, qs(stalls.substr(0, stalls.find(" of "))));
            item->setToolTip(Stalls, qs(stalls));
          }
        if (kernel.liveness)
          if (auto peak = isa::peakBetween(*kernel.liveness, region.firstLine,
                                           region.lastLine)) {
            item->setText(Live, QString::number(peak->first.vectorRegisters()));
            item->setToolTip(
                Live, QString("at most %1 live (line %2)")
                          .arg(qs(isa::describe(peak->first, *kernel.liveness)))
                          .arg(peak->second));
          }
        // One pass of a loop is what a reduction step issues: shown open.
        item->setExpanded(region.kind == isa::Region::Kind::Loop);
        for (const isa::Instruction &i : region.instructions) {
          auto *row = new QTreeWidgetItem(
              item, {qs(i.text), QString::number(i.line), isa::toString(i.kind),
                     i.widthBits > 0 ? QString::number(i.widthBits) : ""});
          row->setToolTip(What, qs(i.text));
          const isa::SharedAccess *access = kernel.sharedAccessAt(i.line);
          if (!access && ptxKernel)
            if (const isa::Instruction *from = statements->of(i.ptxLine);
                from && from->kind == i.kind)
              access = ptxKernel->sharedAccessAt(from->line);
          showBanks(row, access);
          if (kernel.liveness)
            showLive(row, *kernel.liveness, i.line);
          if (i.ptxLine > 0)
            showPtxLine(row, i, statements);
          if (counters)
            if (auto counted = counters->overlay.atLine.find(i.line);
                counted != counters->overlay.atLine.end()) {
              auto bank = bankAt.find(i.line);
              showCounters(row, counted->second, counters->overlay.stallSamples,
                           bank == bankAt.end() ? nullptr : bank->second);
            }
          row->setData(What, kLineRole, qulonglong(i.line));
          row->setData(What, kFileRole, qulonglong(f));
          row->setData(What, kKernelRole, qulonglong(k));
          if (link)
            if (auto cells = link->cellsOfLine.find(i.line);
                cells != link->cellsOfLine.end()) {
              row->setText(Cells, QString::number(cells->second.size()));
              row->setToolTip(Cells,
                              QString("%1 cells: %2; choose the line to mark "
                                      "them in the Layout tab")
                                  .arg(cells->second.size())
                                  .arg(touched[i.line].join(", ")));
            }
        }
      }
      const std::string stored = isa::describe(kernel.accumulators);
      const std::string moved = isa::describe(kernel.operands);
      if (!stored.empty() || !moved.empty()) {
        top->setText(Cells, link ? QString::number(link->linesOfCell.size())
                                 : QString("?"));
        top->setToolTip(
            Cells,
            qs(stored) + (stored.empty() || moved.empty() ? "" : "\n") +
                qs(moved) +
                (link ? QString()
                      : "\n(not placed: the op's loops are not known here)"));
      }
      if (kernel.liveness) {
        top->setText(Live,
                     QString::number(kernel.liveness->peak.vectorRegisters()));
        top->setToolTip(Live, qs(isa::describe(*kernel.liveness)));
      }
      top->setExpanded(true);
    }
  }
  resizeColumnToContents(Lines);
  resizeColumnToContents(Class);
  resizeColumnToContents(Width);
  resizeColumnToContents(Banks);
  resizeColumnToContents(Live);
  resizeColumnToContents(Cells);
  resizeColumnToContents(FromPtx);
  resizeColumnToContents(Stalls);
  if (!compiled.countersNote.isEmpty()) {
    auto *note = new QTreeWidgetItem(this, {compiled.countersNote});
    note->setFirstColumnSpanned(true);
  }
}

void InstructionsView::onCurrentChanged(QTreeWidgetItem *item) {
  const QVariant line = item ? item->data(What, kLineRole) : QVariant();
  if (!line.isValid()) {
    emit cellsChosen({}, {});
    return;
  }
  const size_t f = item->data(What, kFileRole).toULongLong();
  const size_t k = item->data(What, kKernelRole).toULongLong();
  const isa::CellLink *link =
      f < shown.files.size() && k < shown.files[f].links.size()
          ? &shown.files[f].links[k]
          : nullptr;
  const auto cells = link ? link->cellsOfLine.find(line.toULongLong())
                          : decltype(link->cellsOfLine.end()){};
  if (!link || cells == link->cellsOfLine.end()) {
    emit cellsChosen({}, {});
    return;
  }
  emit cellsChosen(
      {cells->second.begin(), cells->second.end()},
      QString("the %1 cells of line %2 (%3)")
          .arg(cells->second.size())
          .arg(line.toULongLong())
          .arg(item->text(Class) +
               (item->text(FromPtx).isEmpty()
                    ? QString()
                    : ", SASS from PTX line " + item->text(FromPtx))));
}

bool InstructionsView::showCell(const std::vector<int64_t> &point) {
  // The lines of every file and kernel shown that link the point: the
  // PTX's and, through it, the SASS's.
  std::map<std::pair<size_t, size_t>, std::set<size_t>> wanted;
  for (size_t f = 0; f < shown.files.size(); ++f)
    for (size_t k = 0; k < shown.files[f].links.size(); ++k)
      for (size_t line : shown.files[f].links[k].linesAt(point))
        wanted[{f, k}].insert(line);
  if (wanted.empty())
    return false;
  QTreeWidgetItem *first = nullptr;
  const QSignalBlocker quiet(this); // not a choice of an instruction
  clearSelection();
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    QTreeWidgetItem *row = *it;
    const QVariant line = row->data(What, kLineRole);
    if (!line.isValid())
      continue;
    auto lines = wanted.find({row->data(What, kFileRole).toULongLong(),
                              row->data(What, kKernelRole).toULongLong()});
    if (lines == wanted.end() || !lines->second.count(line.toULongLong()))
      continue;
    if (!first) {
      first = row;
      setCurrentItem(row);
    }
    row->setSelected(true);
    for (QTreeWidgetItem *up = row->parent(); up; up = up->parent())
      up->setExpanded(true);
  }
  if (first)
    scrollToItem(first);
  return first != nullptr;
}

std::vector<size_t> InstructionsView::selectedLines() const {
  std::vector<size_t> lines;
  for (QTreeWidgetItem *item : selectedItems())
    if (const QVariant line = item->data(What, kLineRole); line.isValid())
      lines.push_back(line.toULongLong());
  std::sort(lines.begin(), lines.end());
  return lines;
}

QStringList InstructionsView::regionLines() const {
  QStringList lines;
  for (int k = 0; k < topLevelItemCount(); ++k) {
    const QTreeWidgetItem *kernel = topLevelItem(k);
    for (int r = 0; r < kernel->childCount(); ++r)
      lines << kernel->text(What) + ": " + kernel->child(r)->text(What) +
                   (kernel->child(r)->text(Banks).isEmpty()
                        ? QString()
                        : " | banks " + kernel->child(r)->text(Banks));
  }
  return lines;
}

} // namespace tilescope::widgets
