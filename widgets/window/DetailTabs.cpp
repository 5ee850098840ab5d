#include "widgets/window/DetailTabs.h"

#include "widgets/editor/DispatchModel.h"
#include "widgets/views/DefaultConfigView.h"
#include "widgets/views/IreeLayoutView.h"
#include "widgets/views/LayoutTab.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/SplitKView.h"

#include <QFontDatabase>
#include <QPlainTextEdit>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// The configs of a root op and its dispatch as text, what a person tunes
// first.
QString configText(const document::Dispatch &dispatch,
                   const document::RootOp *op) {
  QString details;
  if (op) {
    details += opLabel(*op) + "\n";
    if (!op->loweringConfig.empty())
      details += "lowering_config: " + qs(op->loweringConfig) + "\n";
    if (!op->compilationInfo.empty())
      details += "compilation_info: " + qs(op->compilationInfo) + "\n";
    if (!op->decompositionConfig.empty())
      details += "decomposition_config: " + qs(op->decompositionConfig) + "\n";
    QStringList operands, results;
    for (const std::string &type : op->operandTypes)
      operands << qs(type);
    for (const std::string &type : op->resultTypes)
      results << qs(type);
    details += "operands: " + operands.join(", ") + "\n";
    details += "results: " + results.join(", ") + "\n\n";
  }
  details += "dispatch: " + qs(dispatch.name) + "\n";
  if (!dispatch.translationInfo.empty())
    details += "translation_info: " + qs(dispatch.translationInfo) + "\n";
  if (!dispatch.target.empty())
    details += "target: " + qs(dispatch.target) + "\n";
  return details;
}

} // namespace

DetailTabs::DetailTabs(const WindowServices &services, QWidget *parent)
    : QTabWidget(parent) {
  setObjectName("detailTabs");
  // The layout picture of the selected root op, with its controls.
  layoutTab = new LayoutTab;
  const QFont monospace = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  configView = new QPlainTextEdit;
  configView->setObjectName("configView");
  configView->setReadOnly(true);
  configView->setFont(monospace);
  configView->setPlaceholderText(
      "Select a dispatch or root op to see its configuration.");
  diffView = new QPlainTextEdit;
  diffView->setObjectName("diffView");
  diffView->setReadOnly(true);
  diffView->setLineWrapMode(QPlainTextEdit::NoWrap);
  diffView->setFont(monospace);
  diffView->setPlaceholderText("No edits yet: the diff against the file as "
                               "opened shows here.");
  defaultView = new DefaultConfigView;
  ireeLayoutView = new IreeLayoutView;
  if (services.ireeLayouts)
    ireeLayoutView->setRunner(services.ireeLayouts);
  connect(ireeLayoutView, &IreeLayoutView::compared, this,
          [this](bool agrees, const QString &, const QString &error) {
            setTabText(indexOf(ireeLayoutView),
                       !error.isEmpty() ? "IREE layouts (no answer)"
                       : agrees         ? "IREE layouts (agree)"
                                        : "IREE layouts (differ)");
          });
  splitKView = new SplitKView;
  if (services.splitK && services.applySplitK)
    splitKView->setRunners(services.splitK, services.applySplitK);
  addTab(layoutTab, "Layout");
  addTab(configView, "Configuration");
  addTab(diffView, "Diff");
  addTab(defaultView, "IREE default");
  addTab(ireeLayoutView, "IREE layouts");
  addTab(splitKView, "Split-k");
  // A lane marked in one picture is marked in the others coloured alike
  // (the edit, IREE's default, ours and IREE's layouts).
  SceneView::linkMarks(findChildren<SceneView *>());
}

void DetailTabs::showConfigs(const document::Dispatch &dispatch,
                             const document::RootOp *op) {
  configView->setPlainText(configText(dispatch, op));
}

void DetailTabs::showDiff(const std::string &diff, size_t edits) {
  diffView->setPlainText(qs(diff));
  setTabText(
      indexOf(diffView),
      diff.empty()
          ? QString("Diff")
          : QString("Diff (%1 edit%2)").arg(edits).arg(edits == 1 ? "" : "s"));
}

} // namespace tilescope::widgets
