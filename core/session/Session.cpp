#include "core/session/Session.h"

#include <utility>

namespace tilescope::session {

Session::Session(SessionServices services) : services(std::move(services)) {}

Session::~Session() = default;

void Session::setServices(SessionServices given) {
  services = std::move(given);
  if (editable)
    editable->setReader(services.printAttribute);
}

void Session::open(document::Document document) {
  opened = std::make_unique<document::Document>(document);
  editable = std::make_unique<edit::EditableDocument>(std::move(document),
                                                      services.printAttribute);
  selected.reset();
  tell({Change::Kind::Opened, std::nullopt, {}});
}

SetOutcome Session::set(edit::OpRef op, const std::string &field,
                        const std::optional<std::string> &value) {
  SetOutcome outcome;
  outcome.field = field;
  if (!editable) {
    outcome.refusal = "no document is open";
    return outcome;
  }
  auto prepared = editable->prepare(op, field, value);
  if (!prepared) {
    outcome.refusal = prepared.error();
    return outcome;
  }
  if (prepared->changesNothing()) {
    outcome.unchanged = true;
    outcome.refusal = prepared->field.name() + " is already " +
                      (value ? prepared->newValue : "unset") +
                      ": the edit changes nothing";
    return outcome;
  }
  if (auto applied = editable->apply(*prepared); !applied) {
    outcome.refusal = applied.error();
    return outcome;
  }
  outcome.edit = editable->edits().back();
  tell({Change::Kind::Edited, op, outcome.edit->field.name()});
  return outcome;
}

Result<document::Dispatch> Session::draft(edit::OpRef op,
                                          const std::string &field,
                                          const std::string &value) const {
  if (!editable)
    return Error{"no document is open"};
  auto prepared = editable->prepare(op, field, value, /*askIree=*/false);
  if (!prepared)
    return Error{prepared.error()};
  return editable->preview(*prepared);
}

bool Session::undo() {
  if (!canUndo())
    return false;
  const edit::Edit undone = editable->edits().back();
  editable->undo();
  tell({Change::Kind::Undone, undone.op, undone.field.name()});
  return true;
}

bool Session::redo() {
  if (!canRedo())
    return false;
  editable->redo();
  const edit::Edit &redone = editable->edits().back();
  tell({Change::Kind::Redone, redone.op, redone.field.name()});
  return true;
}

bool Session::edited(edit::OpRef op) const {
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

Result<document::Document> Session::readBack() const {
  if (!editable)
    return Error{"no document is open"};
  if (!services.parseText)
    return Error{"no IREE parser was given to read the text back"};
  const std::string name = editable->document().path.empty()
                               ? "<edited>"
                               : editable->document().path.string();
  auto reparsed = services.parseText(editable->text(), name);
  if (!reparsed)
    return Error{reparsed.error()};
  if (auto agrees = editable->agreesWith(*reparsed); !agrees)
    return Error{agrees.error()};
  return reparsed;
}

Result<SaveOutcome> Session::save(const std::filesystem::path &path,
                                  const SavePolicy &policy) {
  if (!editable)
    return Error{"no document is open"};
  SaveOutcome outcome;
  const bool ask = policy.readBack == SavePolicy::ReadBack::Required ||
                   (policy.readBack == SavePolicy::ReadBack::WhereIreeIs &&
                    services.parseText);
  if (ask) {
    if (auto reread = readBack(); !reread) {
      outcome.notReadBack = reread.error();
      return outcome;
    }
    outcome.readByIree = true;
  }
  if (policy.holdOnRuleErrors) {
    std::vector<edit::OpRef> judged = policy.judged;
    const auto &dispatches = editable->document().dispatches;
    if (judged.empty())
      for (size_t d = 0; d < dispatches.size(); ++d)
        for (size_t o = 0; o < dispatches[d].rootOps.size(); ++o)
          if (edited({d, o}))
            judged.push_back({d, o});
    for (const edit::OpRef &op : judged) {
      if (op.dispatch >= dispatches.size() ||
          op.op >= dispatches[op.dispatch].rootOps.size())
        continue;
      for (const config::Problem &p : verdict(op).problems)
        if (p.isError())
          outcome.heldFor.push_back(std::to_string(op.dispatch) + ":" +
                                    std::to_string(op.op) + " " + p.field +
                                    ": " + p.message);
    }
    if (!outcome.heldFor.empty())
      return outcome;
  }
  auto saved = editable->save(path);
  if (!saved)
    return Error{saved.error()};
  outcome.written = true;
  tell({Change::Kind::Saved, std::nullopt, {}});
  return outcome;
}

Result<bool> Session::select(edit::OpRef op) {
  if (!editable)
    return Error{"no document is open"};
  const auto &dispatches = editable->document().dispatches;
  if (op.dispatch >= dispatches.size() ||
      op.op >= dispatches[op.dispatch].rootOps.size())
    return Error{"no root op " + std::to_string(op.dispatch) + ":" +
                 std::to_string(op.op)};
  selected = op;
  tell({Change::Kind::Selected, op, {}});
  return true;
}

edit::RuleVerdict Session::verdict(edit::OpRef op) const {
  return edit::ruleVerdict(edit::contextOf(editable->document(), op));
}

int Session::observe(Observer observer) {
  observers.emplace(nextObserver, std::move(observer));
  return nextObserver++;
}

void Session::forget(int id) { observers.erase(id); }

void Session::tell(const Change &change) const {
  // A copy: an observer may forget itself (or another) while told.
  const std::map<int, Observer> told = observers;
  for (const auto &[id, observer] : told)
    observer(change);
}

} // namespace tilescope::session
