#include "widgets/views/IreeDefault.h"

#include "widgets/render/RootOpScene.h"
#include "widgets/views/DefaultConfigView.h"

#include <QFileInfo>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

IreeDefault::IreeDefault(Ask ask, DefaultConfigView *shown, QObject *parent)
    : QObject(parent), asker(std::move(ask)), view(shown) {
  answer = std::make_unique<LatestAnswer<Result<service::DefaultConfigs>>>(
      [this](Result<service::DefaultConfigs> given) {
        if (!given) {
          chosen.reset();
          view->showMessage("IREE could not choose: " + qs(given.error()));
          emit answered(false, qs(given.error()));
          return;
        }
        chosen = std::move(given->document);
        emit answered(true, qs(given->command));
      });
}

// The question still out is cancelled and waited for, its answer dropped,
// before the view it would fill goes.
IreeDefault::~IreeDefault() { answer.reset(); }

void IreeDefault::ask(const document::Document &document) {
  if (!asker) {
    view->showMessage("No IREE to ask: this window was started without one.");
    emit answered(false, "no IREE to ask");
    return;
  }
  view->showMessage("Asking IREE what it would choose for " +
                    QFileInfo(qs(document.path.string())).fileName() + "…");
  answer->ask([ask = asker, document](const std::atomic<bool> *) {
    return ask(document);
  });
}

void IreeDefault::forget() {
  answer->drop();
  chosen.reset();
}

// Dispatches and root ops are matched in order.
void IreeDefault::show(const document::Document &document,
                       std::optional<edit::OpRef> op, render::ColorBy colorBy) {
  if (!chosen || !op)
    return;
  if (op->dispatch >= document.dispatches.size() ||
      op->dispatch >= chosen->dispatches.size() ||
      op->op >= chosen->dispatches[op->dispatch].rootOps.size() ||
      op->op >= document.dispatches[op->dispatch].rootOps.size()) {
    view->showMessage("IREE's choice has no root op to match this one.");
    return;
  }
  const document::Dispatch &dispatch = document.dispatches[op->dispatch];
  const document::Dispatch &choice = chosen->dispatches[op->dispatch];
  auto [scene, note] =
      render::rootOpScene(choice, choice.rootOps[op->op], colorBy, 0);
  view->showDefault(dispatch, dispatch.rootOps[op->op], choice,
                    choice.rootOps[op->op], std::move(scene), note);
}

// Put on the op the way a try's configs are (tries::configChanges).
std::vector<tries::ConfigChange>
IreeDefault::changesFor(const document::Document &document,
                        edit::OpRef op) const {
  std::vector<tries::ConfigChange> changes;
  if (!chosen)
    return changes;
  for (tries::ConfigChange &change :
       tries::configChanges(tries::configsOf(*chosen), document))
    if (change.op == op)
      changes.push_back(std::move(change));
  return changes;
}

} // namespace tilescope::widgets
