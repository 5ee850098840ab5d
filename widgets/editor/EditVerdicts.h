// What the Problems panel says of the selected op as it is typed and
// edited, gathered from its four sources: a typed value the config model
// refused (the draft), the rules' verdict (edit::ruleVerdict, as `check`
// gives it), IREE's reading of the whole edited text (asked 400 ms after
// the last change, out of process; the newest question wins) and IREE's
// pipeline constraints for the op (IreeConstraintChecker). Each source
// updates its part; changed() says the contents moved.
#pragma once

#include "core/config/rules/Validation.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/util/Result.h"
#include "widgets/editor/IreeConstraintChecker.h"
#include "widgets/editor/ProblemList.h"
#include "widgets/views/LatestAnswer.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <string>

class QTimer;

namespace tilescope::widgets {

class EditSession;

class EditVerdicts : public QObject {
  Q_OBJECT

public:
  using ParseText = std::function<Result<document::Document>(
      const std::string &text, const std::string &bufferName)>;
  // `parseText` or `constraints` unset: that source says nothing.
  EditVerdicts(const EditSession *session, ParseText parseText,
               IreeConstraintChecker::Source constraints,
               QObject *parent = nullptr);
  ~EditVerdicts() override;

  ProblemList::Contents contents() const { return now; }
  // What is still asked of IREE ("IREE's pipeline constraints", ...).
  QStringList pending() const;

  // A file was opened whose text IREE has just read.
  void opened(const std::string &textReadByIree);
  // The session's document changed: the draft goes, IREE is asked again
  // (after a pause) when the text differs from what it last read.
  void documentChanged();
  // A typed value of `field` and why the model refused it (empty: taken).
  void setDraft(const QString &field, const QString &error);
  // The rules' verdict on `op` of `dispatch` (nullptr: no op).
  void judge(const document::Dispatch &dispatch, const document::RootOp *op,
             size_t rootOp);
  // IREE's pipeline constraints for `op` of `document`.
  void askConstraints(std::shared_ptr<const document::Document> document,
                      std::optional<edit::OpRef> op);
  // Asks IREE to read the edited text now (asking(), then ireeRead()).
  void askIree();

signals:
  void changed();
  // IREE's reading of the edited text came back (ok: as the model says);
  // `message` in a line.
  void ireeRead(bool ok, const QString &message);
  // IREE is being asked about the edited text.
  void asking();

private:
  const EditSession *edits;
  ParseText parseText;
  ProblemList::Contents now;
  std::string readText; // the text IREE was last asked about
  QTimer *timer;
  std::unique_ptr<LatestAnswer<Result<document::Document>>> reading;
  IreeConstraintChecker *constraints;
};

} // namespace tilescope::widgets
