#include "widgets/InstructionsView.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QHeaderView>

namespace tilescope::widgets {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

enum Column { What, Lines, Class, Width, Banks, Live };

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
  row->setToolTip(Live, QString("%1 VGPRs + %2 AGPRs live (%3 SGPRs)")
                            .arg(at->second.vgprs)
                            .arg(at->second.agprs)
                            .arg(at->second.sgprs));
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

} // namespace

CompiledInstructions
CompiledInstructions::read(const std::vector<std::filesystem::path> &paths) {
  CompiledInstructions compiled;
  for (const std::filesystem::path &path : paths) {
    File file;
    file.path = path;
    if (auto listing = isa::readAssemblyFile(path))
      file.listing = std::move(*listing);
    else
      file.error = qs(listing.error());
    compiled.files.push_back(std::move(file));
  }
  return compiled;
}

InstructionsView::InstructionsView(QWidget *parent) : QTreeWidget(parent) {
  setObjectName("jobInstructions");
  setHeaderLabels({"Kernel, region, instruction", "Lines", "Class", "Bits",
                   "Banks", "Live"});
  setUniformRowHeights(true);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(What, QHeaderView::Stretch);
  setToolTip(
      "The compiled kernel's instructions, cut by its loops: a loop's "
      "region is one pass of its body (one reduction step, or several where "
      "LLVM unrolled it). Banks: how many passes a shared-memory access "
      "takes for the first subgroup's lanes (1: no conflict), from the "
      "addresses its lanes compute. Live: the vector registers (VGPRs + "
      "AGPRs) an AMDGPU instruction needs at once, the kernel's peak in "
      "bold. Compile, Resources or Compile && run to fill it.");
}

void InstructionsView::show(const CompiledInstructions &compiled) {
  clear();
  for (const CompiledInstructions::File &file : compiled.files) {
    if (!file.error.isEmpty()) {
      auto *item = new QTreeWidgetItem(this, {file.error});
      item->setToolTip(What, file.error);
      continue;
    }
    for (const isa::Kernel &kernel : file.listing.kernels) {
      auto *top = new QTreeWidgetItem(
          this, {qs(kernel.name) + " (" + qs(file.listing.dialect) + ")"});
      top->setToolTip(What, qs(file.path.string()));
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
        if (kernel.liveness)
          if (auto peak = isa::peakBetween(*kernel.liveness, region.firstLine,
                                           region.lastLine)) {
            item->setText(Live, QString::number(peak->first.vectorRegisters()));
            item->setToolTip(Live, QString("at most %1 VGPRs + %2 AGPRs live "
                                           "(line %3)")
                                       .arg(peak->first.vgprs)
                                       .arg(peak->first.agprs)
                                       .arg(peak->second));
          }
        // One pass of a loop is what a reduction step issues: shown open.
        item->setExpanded(region.kind == isa::Region::Kind::Loop);
        for (const isa::Instruction &i : region.instructions) {
          auto *row = new QTreeWidgetItem(
              item, {qs(i.text), QString::number(i.line), isa::toString(i.kind),
                     i.widthBits > 0 ? QString::number(i.widthBits) : ""});
          row->setToolTip(What, qs(i.text));
          showBanks(row, kernel.sharedAccessAt(i.line));
          if (kernel.liveness)
            showLive(row, *kernel.liveness, i.line);
        }
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
