#include "widgets/InstructionsView.h"

#include <QFontDatabase>
#include <QHeaderView>

namespace tilescope::widgets {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

enum Column { What, Lines, Class, Width };

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
  setHeaderLabels({"Kernel, region, instruction", "Lines", "Class", "Bits"});
  setUniformRowHeights(true);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(What, QHeaderView::Stretch);
  setToolTip(
      "The compiled kernel's instructions, cut by its loops: a loop's "
      "region is one pass of its body (one reduction step, or several where "
      "LLVM unrolled it). Compile, "
      "Resources or Compile && run to fill it.");
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
        auto *item = new QTreeWidgetItem(
            top, {heading + ": " + summary,
                  QString("%1-%2").arg(region.firstLine).arg(region.lastLine)});
        item->setToolTip(What, summary);
        for (const isa::Instruction &i : region.instructions) {
          auto *row = new QTreeWidgetItem(
              item, {qs(i.text), QString::number(i.line), isa::toString(i.kind),
                     i.widthBits > 0 ? QString::number(i.widthBits) : ""});
          row->setToolTip(What, qs(i.text));
        }
      }
      top->setExpanded(true);
    }
  }
  resizeColumnToContents(Lines);
  resizeColumnToContents(Class);
  resizeColumnToContents(Width);
}

QStringList InstructionsView::regionLines() const {
  QStringList lines;
  for (int k = 0; k < topLevelItemCount(); ++k) {
    const QTreeWidgetItem *kernel = topLevelItem(k);
    for (int r = 0; r < kernel->childCount(); ++r)
      lines << kernel->text(What) + ": " + kernel->child(r)->text(What);
  }
  return lines;
}

} // namespace tilescope::widgets
