#include "widgets/editor/EditSession.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace tilescope::widgets {

// One edit of the session, already applied when it is pushed (so a refusal
// never leaves a command on the stack); later redos take it from the
// session's redo list, so the two stacks move together.
class EditCommand : public QUndoCommand {
public:
  EditCommand(EditSession &session, const edit::Edit &edit) : session(session) {
    setText(QString::fromStdString(
        edit.field.name() + " of " + opName(edit.op) + ": " +
        shortValue(edit.oldValue) + " → " + shortValue(edit.newValue)));
  }

  void redo() override {
    if (firstRedo)
      firstRedo = false; // push() calls it; the session has the edit already
    else
      session.core.redo();
  }
  void undo() override { session.core.undo(); }

private:
  std::string opName(edit::OpRef op) const {
    const document::Dispatch &dispatch =
        session.core.document().dispatches[op.dispatch];
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
    : QObject(parent), stack(new QUndoStack(this)) {
  core.observe([this](const session::Change &change) {
    if (quiet || change.kind == session::Change::Kind::Selected)
      return;
    if (change.op)
      emit fieldChanged(*change.op, QString::fromStdString(change.field));
    emit changed();
  });
}

EditSession::~EditSession() = default;

void EditSession::reset(document::Document document) {
  stack->clear();
  core.open(std::move(document));
}

void EditSession::setServices(session::SessionServices services) {
  core.setServices(std::move(services));
}

Result<edit::Edit>
EditSession::setField(edit::OpRef op, const std::string &field,
                      const std::optional<std::string> &value) {
  quiet = true;
  session::SetOutcome outcome = core.set(op, field, value);
  quiet = false;
  if (!outcome)
    return Error{outcome.refusal};
  stack->push(new EditCommand(*this, *outcome.edit));
  emit fieldChanged(op, QString::fromStdString(outcome.edit->field.name()));
  emit changed();
  return *outcome.edit;
}

Result<document::Dispatch> EditSession::draft(edit::OpRef op,
                                              const std::string &field,
                                              const std::string &value) const {
  return core.draft(op, field, value);
}

Result<bool> EditSession::save(const std::filesystem::path &path) {
  // Read back by IREE where it is here (what it reads otherwise is not
  // written); rule errors do not hold a person's save of work in progress.
  session::SavePolicy policy;
  policy.readBack = session::SavePolicy::ReadBack::WhereIreeIs;
  quiet = true;
  auto saved = core.save(path, policy);
  quiet = false;
  if (!saved)
    return Error{saved.error()};
  if (!saved->notReadBack.empty())
    return Error{"IREE does not read the edited text back as edited, so "
                 "nothing was written: " +
                 saved->notReadBack};
  stack->setClean();
  emit changed();
  return true;
}

} // namespace tilescope::widgets
