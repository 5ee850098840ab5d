#include "widgets/EditSession.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace tilescope::widgets {

// One edit of the core's model, already applied when it is pushed (so a
// refusal never leaves a command on the stack); later redos take it from
// the model's redo list, so the two stacks move together.
class EditCommand : public QUndoCommand {
public:
  EditCommand(EditSession &session, const edit::Edit &edit) : session(session) {
    setText(QString::fromStdString(
        edit.field.name() + " of " + opName(edit.op) + ": " +
        shortValue(edit.oldValue) + " → " + shortValue(edit.newValue)));
  }

  void redo() override {
    if (firstRedo)
      firstRedo = false; // push() calls it; the model has the edit already
    else
      session.editable->redo();
    emit session.changed();
  }
  void undo() override {
    session.editable->undo();
    emit session.changed();
  }

private:
  std::string opName(edit::OpRef op) const {
    const document::Dispatch &dispatch =
        session.editable->document().dispatches[op.dispatch];
    return dispatch.rootOps[op.op].name;
  }
  static std::string shortValue(const std::string &value) {
    if (value.empty())
      return "(absent)";
    return value.size() > 40 ? value.substr(0, 37) + "…" : value;
  }

  EditSession &session;
  bool firstRedo = true;
};

EditSession::EditSession(QObject *parent)
    : QObject(parent), stack(new QUndoStack(this)) {}

EditSession::~EditSession() = default;

void EditSession::reset(document::Document document) {
  stack->clear();
  opened = std::make_unique<document::Document>(document);
  editable =
      std::make_unique<edit::EditableDocument>(std::move(document), reader);
  emit changed();
}

void EditSession::setAttributeReader(edit::AttributeReader newReader) {
  reader = std::move(newReader);
  if (editable)
    editable->setReader(reader);
}

Result<edit::Edit>
EditSession::setField(edit::OpRef op, const std::string &field,
                      const std::optional<std::string> &value) {
  if (!editable)
    return Error{"no document is open"};
  auto edit = editable->prepare(op, field, value);
  if (!edit)
    return Error{edit.error()};
  const edit::Edit made = *edit;
  if (auto applied = editable->apply(std::move(*edit)); !applied)
    return Error{applied.error()};
  stack->push(new EditCommand(*this, made));
  return made;
}

Result<document::Dispatch> EditSession::draft(edit::OpRef op,
                                              const std::string &field,
                                              const std::string &value) const {
  if (!editable)
    return Error{"no document is open"};
  auto edit = editable->prepare(op, field, value, /*askIree=*/false);
  if (!edit)
    return Error{edit.error()};
  return editable->preview(*edit);
}

bool EditSession::edited(edit::OpRef op) const {
  if (!editable || op.dispatch >= opened->dispatches.size())
    return false;
  const document::Dispatch &before = opened->dispatches[op.dispatch];
  const document::Dispatch &now = editable->document().dispatches[op.dispatch];
  if (op.op >= before.rootOps.size() || op.op >= now.rootOps.size())
    return false;
  const document::RootOp &a = before.rootOps[op.op];
  const document::RootOp &b = now.rootOps[op.op];
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
