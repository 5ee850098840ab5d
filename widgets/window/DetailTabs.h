// The views in the middle of the main window, one tab each: the selected
// op's Layout picture, its configs as text (Configuration), the Diff of
// every edit, IREE's default config beside the edit, IREE's own layouts
// beside Tilescope's, and how IREE splits the program's reductions
// (Split-k). A lane marked in one picture is marked in the others coloured
// alike.
#pragma once

#include "core/document/Document.h"
#include "widgets/window/WindowServices.h"

#include <QTabWidget>

#include <string>

class QPlainTextEdit;

namespace tilescope::widgets {

class DefaultConfigView;
class IreeLayoutView;
class LayoutTab;
class SplitKView;

class DetailTabs : public QTabWidget {
  Q_OBJECT

public:
  // The IREE layouts and Split-k tabs ask through `services` (unset: they
  // say there is no IREE to ask).
  explicit DetailTabs(const WindowServices &services,
                      QWidget *parent = nullptr);

  LayoutTab *layout() const { return layoutTab; }
  DefaultConfigView *defaults() const { return defaultView; }
  IreeLayoutView *ireeLayouts() const { return ireeLayoutView; }
  SplitKView *splitK() const { return splitKView; }

  // The Configuration tab: `op`'s configs (nullptr: the dispatch's only)
  // and its dispatch's, as text.
  void showConfigs(const document::Dispatch &dispatch,
                   const document::RootOp *op);
  // The Diff tab: the edits against the file as opened, counted in its
  // title.
  void showDiff(const std::string &diff, size_t edits);

private:
  LayoutTab *layoutTab;
  QPlainTextEdit *configView;
  QPlainTextEdit *diffView;
  DefaultConfigView *defaultView;
  IreeLayoutView *ireeLayoutView;
  SplitKView *splitKView;
};

} // namespace tilescope::widgets
