// IREE's own choice for the open file, asked in the background (the app's
// ireeDefaults service: IREE's strategy selection on the file with its
// configs stripped) and shown in the IREE default tab: the selected op
// against IREE's choice for it, drawn under that choice. The answer for a
// file closed since is dropped (LatestAnswer).
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/IreeDefaults.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"
#include "widgets/render/Scenes.h"
#include "widgets/views/LatestAnswer.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::widgets {

class DefaultConfigView;

class IreeDefault : public QObject {
  Q_OBJECT

public:
  using Ask = std::function<Result<service::DefaultConfigs>(
      const document::Document &)>;
  // `ask` unset: the view says there is no IREE to ask.
  IreeDefault(Ask ask, DefaultConfigView *view, QObject *parent = nullptr);
  ~IreeDefault() override;

  // Asks IREE about `document` (answered() follows).
  void ask(const document::Document &document);
  // Another file: the choice and a question still out no longer stand.
  void forget();
  bool busy() const { return answer->busy(); }
  // Shows `op` of `document` against IREE's choice (once there is one).
  void show(const document::Document &document, std::optional<edit::OpRef> op,
            render::ColorBy colorBy);
  // IREE's choice for `op`, as changes to put on `document`.
  std::vector<tries::ConfigChange>
  changesFor(const document::Document &document, edit::OpRef op) const;

signals:
  // IREE answered (ok: `message` is its command; show() draws the choice)
  // or could not (the view says why).
  void answered(bool ok, const QString &message);

private:
  Ask asker;
  DefaultConfigView *view;
  std::optional<document::Document> chosen;
  std::unique_ptr<LatestAnswer<Result<service::DefaultConfigs>>> answer;
};

} // namespace tilescope::widgets
