// Two tries of the history side by side, as the window shows them: each
// try's row (kind, outcome, time, check, target), how many times faster B
// is, their configs field by field, each kernel's resources in both (what
// changed in bold), and the root op's picture under each try's configs. The
// numbers come from core/tries' comparison, the same `tilescope-cli compare`
// prints; either try loads back into the editor from here.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/tries/History.h"
#include "core/tries/TryComparison.h"
#include "widgets/render/GridScene.h"
#include "widgets/render/Scenes.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class QTreeWidget;

class QSplitter;

namespace tilescope::widgets {

// A compared resource's value as the comparisons show it (this view and the
// Run panel's "since try N"): "–" where the kernel has none.
QString resourceText(const std::optional<long long> &value);

class TryComparisonView : public QWidget {
  Q_OBJECT

public:
  // A try and the picture of its op under its configs (with a note saying
  // what was drawn or why nothing could be).
  struct Side {
    tries::TryRecord record;
    render::GridScene scene;
    QString note;
  };
  TryComparisonView(Side a, Side b, const tries::TryComparison &comparison,
                    QWidget *parent = nullptr);

  // The rows that differ between the two ("workgroup", "vgprs", ...).
  QStringList changedRows() const;

  // A try's side: the root op it concerns (its "D:O", else `fallback`)
  // drawn from `open` with the try's configs put back; a try of another
  // file, or one that names no op here, is listed but not drawn.
  static Side sideOf(tries::TryRecord record, const document::Document &open,
                     std::optional<edit::OpRef> fallback,
                     render::ColorBy colorBy);

signals:
  // "Load A" / "Load B": put that try's configs back on the editor.
  void loadRequested(long long id);

private:
  // A's and B's pictures side by side; a side with none says why in
  // `undrawn`.
  static QSplitter *picturesOf(Side &a, Side &b, QStringList &undrawn);

  QTreeWidget *table;
};

} // namespace tilescope::widgets
