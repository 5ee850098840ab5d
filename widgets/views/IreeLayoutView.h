// IREE's own layouts beside Tilescope's for the selected op's dispatch
// (core/service/IreeLayouts, run by the app in child processes): op by op and
// operand by operand, every field where the two differ marked, and the
// selected operand drawn twice, Tilescope's layout beside IREE's. Once
// shown, it asks IREE again whenever the document or the selection changes
// (after a pause), so it follows the edit; the answer of an older edit is
// never shown as the current one.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/IreeLayouts.h"
#include "core/util/Result.h"
#include "widgets/views/LatestAnswer.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace tilescope::widgets {

class SceneView;

class IreeLayoutView : public QWidget {
  Q_OBJECT

public:
  // IREE's answer for a document's dispatch (the app runs IREE; widgets do
  // not), given up when `cancel` turns true.
  using Runner = std::function<Result<service::IreeLayoutAnswer>(
      const document::Document &document, size_t dispatch,
      const std::atomic<bool> *cancel)>;

  explicit IreeLayoutView(QWidget *parent = nullptr);
  ~IreeLayoutView() override;

  // Unset: the view says IREE is not available to ask.
  void setRunner(Runner runner);
  // The document as it stands (edits included) and the selected op.
  void setSubject(std::shared_ptr<const document::Document> document,
                  std::optional<edit::OpRef> op);
  // Ask IREE now (the button).
  void compare();

  bool isRunning() const;
  // The answer on screen, for the current subject (nullopt: none yet, or
  // an error, or one for an older edit).
  const std::optional<service::IreeLayoutAnswer> &answer() const {
    return shown;
  }
  // The operand rows marked as differing, "op N OPERAND".
  QStringList differingOperands() const;

signals:
  // An answer for the current subject is on screen (agrees: every op
  // compared agrees), or IREE could not answer (error set).
  void compared(bool agrees, const QString &summary, const QString &error);

protected:
  void showEvent(QShowEvent *event) override;

private:
  void start();
  void onAnswer(Result<service::IreeLayoutAnswer> result);
  void showAnswer(const service::IreeLayoutAnswer &answer);
  void showMessage(const QString &text);
  void drawOperand(QTreeWidgetItem *item);

  Runner runner;
  std::shared_ptr<const document::Document> document;
  std::optional<edit::OpRef> op;
  bool askedOnce = false; // follow the selection once asked
  bool stale = true;      // the answer shown is not for the subject
  std::optional<service::IreeLayoutAnswer> shown;
  QTimer *pause;
  QLabel *summary, *command, *oursCaption, *ireeCaption;
  QPushButton *compareButton;
  QCheckBox *followBox;
  QTreeWidget *tree;
  SceneView *oursView, *ireeView;
  // The newest subject's answer only (declared last: destroyed first, it
  // stops the run in flight before the view's parts go).
  LatestAnswer<Result<service::IreeLayoutAnswer>> latest;
};

} // namespace tilescope::widgets
