// What the window does with tries and exports: put a try's configs back on
// the open file (one undoable step), open two tries side by side, export a
// tuning spec of the edited ops or the JSON report of the file's tries.
// All of it through the core's tries and export areas and the session; the
// window gives where the history lives, the selected op and the colouring.
#pragma once

#include "core/edit/EditableDocument.h"
#include "core/service/DocumentWorker.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"
#include "core/workbench/Workbench.h"
#include "widgets/render/Scenes.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QWidget;

namespace tilescope::widgets {

class EditSession;
class TryComparisonView;

class TryActions : public QObject {
  Q_OBJECT

public:
  struct Context {
    EditSession *edits = nullptr;
    QWidget *dialogParent = nullptr;
    std::function<std::filesystem::path()> workspace;
    std::function<std::optional<edit::OpRef>()> selectedOp;
    std::function<render::ColorBy()> colorBy;
    // The window's workbench: IREE's printer (its parse worker) for a
    // spec's body match; unset: contractions only.
    std::shared_ptr<const workbench::Workbench> bench;
  };
  explicit TryActions(Context context, QObject *parent = nullptr);

  // A tuning spec giving the edited ops (else the selected op) their
  // configs, as IREE's default specs match them.
  Result<std::string> tuningSpec() const;
  // Puts a try's configs back on the open file as one undoable step; how
  // many took, or why not.
  Result<int> loadTry(long long id);
  // Puts `changes` on the document as one undoable step named `stepName`
  // (none when nothing took); how many took, or the first refusal.
  Result<int> applyChanges(const QString &stepName,
                           const std::vector<tries::ConfigChange> &changes);
  // Two tries of the history side by side in a window of their own.
  Result<TryComparisonView *> compareTries(long long a, long long b);

  // The menu's actions: dialogs, and the outcome said.
  void exportSpec();
  void exportReport();
  void loadTryAndSay(long long id);

signals:
  // What the status line should say.
  void said(const QString &message);

private:
  Context context;
};

} // namespace tilescope::widgets
