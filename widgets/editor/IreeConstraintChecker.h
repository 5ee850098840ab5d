// IREE's own verdict on the selected op's config, asked in the background
// 400 ms after the last change or selection: the pipeline constraints IREE
// states for the op, checked by the pinned iree-opt (service::
// ireeConstraintVerdict, reached through the window's services; no IREE
// call here). The newest request wins (widgets/views/LatestAnswer): an answer
// for an older document or op is dropped, and one still running is cancelled.
#pragma once

#include "core/config/rules/Validation.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/IreeConstraints.h"
#include "core/util/Result.h"
#include "widgets/views/LatestAnswer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace tilescope::widgets {

class IreeConstraintChecker : public QObject {
  Q_OBJECT

public:
  using Source = std::function<Result<service::ConstraintVerdict>(
      const document::Document &, edit::OpRef, const std::atomic<bool> *)>;

  // An unset source: the window has no IREE to ask, and nothing is asked.
  explicit IreeConstraintChecker(Source source, QObject *parent = nullptr);
  // Destroying it cancels a running check and waits for it.

  // The document as it stands and the selected op; no op: nothing to ask.
  void request(std::shared_ptr<const document::Document> document,
               std::optional<edit::OpRef> op);

  // A question is waiting to be asked or its answer is not in.
  bool waiting() const;

signals:
  // A new state is to be asked about: the last answer no longer holds.
  void pending();
  // IREE's problems for the op (errors per violated assert, on their
  // fields; a note where IREE did not check) and the verdict in a line.
  void answered(const std::vector<config::Problem> &problems,
                const QString &summary);

private:
  void ask();
  void onAnswer(Result<service::ConstraintVerdict> verdict);

  Source source;
  QTimer *timer;
  std::shared_ptr<const document::Document> wanted;
  std::optional<edit::OpRef> wantedOp;
  LatestAnswer<Result<service::ConstraintVerdict>> answer;
};

} // namespace tilescope::widgets
