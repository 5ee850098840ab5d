#include "widgets/EditSession.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace tilescope::widgets {

// One edit of the core's model. The first redo applies the prepared edit;
// later ones redo it from the model's redo list, so the two stacks move
// together.
class EditCommand : public QUndoCommand {
public:
  EditCommand(EditSession &session, edit::Edit edit)
      : session(session), pending(std::move(edit)) {
    setText(QString::fromStdString(
        pending->field.name() + " of " + opName(pending->op) + ": " +
        shortValue(pending->oldValue) + " → " + shortValue(pending->newValue)));
  }

  void redo() override {
    if (pending) {
      // apply() refuses only what prepare() already caught.
      (void)session.editable->apply(std::move(*pending));
      pending.reset();
    } else {
      session.editable->redo();
    }
    emit session.changed();
  }
  void undo() override {
    session.editable->undo();
    emit session.changed();
  }

private:
  std::string opName(edit::OpRef op) const {
    const iree::Dispatch &dispatch =
        session.editable->document().dispatches[op.dispatch];
    return dispatch.rootOps[op.op].name;
  }
  static std::string shortValue(const std::string &value) {
    if (value.empty())
      return "(absent)";
    return value.size() > 40 ? value.substr(0, 37) + "…" : value;
  }

  EditSession &session;
  std::optional<edit::Edit> pending;
};

EditSession::EditSession(QObject *parent)
    : QObject(parent), stack(new QUndoStack(this)) {}

EditSession::~EditSession() = default;

void EditSession::reset(iree::Document document) {
  stack->clear();
  opened = std::make_unique<iree::Document>(document);
  editable = std::make_unique<edit::EditableDocument>(std::move(document));
  emit changed();
}

Result<edit::Edit>
EditSession::setField(edit::OpRef op, const std::string &field,
                      const std::optional<std::string> &value) {
  if (!editable)
    return Error{"no document is open"};
  auto edit = editable->prepare(op, field, value);
  if (!edit)
    return Error{edit.error()};
  if (edit->splice.removed == edit->splice.inserted)
    return Error{field + " is already " + (value ? *value : "absent")};
  edit::Edit made = *edit;
  stack->push(new EditCommand(*this, std::move(*edit)));
  return made;
}

Result<iree::Dispatch> EditSession::draft(edit::OpRef op,
                                          const std::string &field,
                                          const std::string &value) const {
  if (!editable)
    return Error{"no document is open"};
  auto edit = editable->prepare(op, field, value);
  if (!edit)
    return Error{edit.error()};
  return editable->preview(*edit);
}

bool EditSession::edited(edit::OpRef op) const {
  if (!editable || op.dispatch >= opened->dispatches.size())
    return false;
  const iree::Dispatch &before = opened->dispatches[op.dispatch];
  const iree::Dispatch &now = editable->document().dispatches[op.dispatch];
  if (op.op >= before.rootOps.size() || op.op >= now.rootOps.size())
    return false;
  const iree::RootOp &a = before.rootOps[op.op];
  const iree::RootOp &b = now.rootOps[op.op];
  return before.translationInfo != now.translationInfo ||
         a.loweringConfig != b.loweringConfig ||
         a.compilationInfo != b.compilationInfo;
}

Result<bool> EditSession::save(const std::filesystem::path &path) {
  if (!editable)
    return Error{"no document is open"};
  auto saved = editable->save(path);
  if (!saved)
    return saved;
  stack->setClean();
  emit changed();
  return true;
}

} // namespace tilescope::widgets
