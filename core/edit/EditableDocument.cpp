#include "core/edit/EditableDocument.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/document/SplitInput.h"
#include "core/util/Files.h"
#include "core/util/UnifiedDiff.h"

#include <algorithm>

namespace tilescope::edit {
namespace {

int countNewlines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// Puts an edit's attribute text where the model keeps it.
void setAttribute(document::Dispatch &dispatch, const Edit &edit,
                  const std::string &attribute) {
  if (edit.onFunction) {
    dispatch.translationInfo = attribute;
  } else {
    document::RootOp &op = dispatch.rootOps.at(edit.op.op);
    if (edit.attributeKey == "lowering_config")
      op.loweringConfig = attribute;
    else if (edit.attributeKey == "decomposition_config")
      op.decompositionConfig = attribute;
    else
      op.compilationInfo = attribute;
  }
  // The edited text read once, for every view of this edit.
  document::readConfigs(dispatch);
}

} // namespace

std::string Edit::describe(const document::Document &document) const {
  std::string where;
  if (op.dispatch < document.dispatches.size()) {
    const document::Dispatch &dispatch = document.dispatches[op.dispatch];
    if (onFunction) {
      where = "@" + dispatch.name;
    } else if (op.op < dispatch.rootOps.size()) {
      const document::RootOp &root = dispatch.rootOps[op.op];
      where = root.name + " (line " + std::to_string(root.line) + ")";
    }
  }
  auto shown = [](const std::string &value) {
    return value.empty() ? std::string("(unset)") : value;
  };
  if (field.key.empty())
    return "replace " + field.name() + " of " + where;
  return field.name() + " of " + where + ": " + shown(oldValue) + " -> " +
         shown(newValue);
}

EditableDocument::EditableDocument(document::Document document,
                                   AttributeReader reader)
    : current(std::move(document)), original(current.text),
      reader(std::move(reader)) {
  if (current.partCount > 1) {
    document::SplitInput split =
        document::splitInputFile(current.text, current.path.string());
    for (const document::TextPart &part : split.parts) {
      parts.push_back({part.offset, part.length});
      partFirstLines.push_back(part.firstLine);
    }
  }
  if (parts.empty()) {
    parts.push_back({0, current.text.size()});
    partFirstLines.push_back(1);
  }
}

Result<size_t> EditableDocument::offsetOfOp(int part, int line,
                                            int column) const {
  if (part < 0 || static_cast<size_t>(part) >= parts.size())
    return Error{"part " + std::to_string(part + 1) + " is not in the file"};
  const TextRange &range = parts[static_cast<size_t>(part)];
  const std::string_view partText =
      std::string_view(current.text).substr(range.offset, range.length);
  // IREE's columns on a part's first line count from the part's start.
  const size_t offset = offsetOf(
      partText, line - partFirstLines[static_cast<size_t>(part)] + 1, column);
  if (offset == std::string_view::npos)
    return Error{"line " + std::to_string(line) + ", column " +
                 std::to_string(column) + " is not in the file"};
  return range.offset + offset;
}

Result<EditableDocument::Site> EditableDocument::siteOf(OpRef ref,
                                                        ConfigPart part) const {
  if (ref.dispatch >= current.dispatches.size())
    return Error{"dispatch " + std::to_string(ref.dispatch) +
                 " is not in the file (it has " +
                 std::to_string(current.dispatches.size()) + ")"};
  const document::Dispatch &dispatch = current.dispatches[ref.dispatch];
  if (ref.op >= dispatch.rootOps.size())
    return Error{"@" + dispatch.name + " has no root op " +
                 std::to_string(ref.op) + " (it has " +
                 std::to_string(dispatch.rootOps.size()) + ")"};
  const document::RootOp &op = dispatch.rootOps[ref.op];
  if (part == ConfigPart::Decomposition) {
    if (op.decompositionConfig.empty())
      return Error{op.name + " (line " + std::to_string(op.line) +
                   ") has no decomposition_config: qk_attrs and pv_attrs "
                   "are attention's"};
    return Site{"decomposition_config", false, op.decompositionConfig,
                document::decompositionReadingOf(op)->written()};
  }
  if (part == ConfigPart::TranslationInfo && !dispatch.translationInfo.empty())
    return Site{"translation_info", true, dispatch.translationInfo,
                document::translationReadingOf(dispatch)->written()};
  if (part == ConfigPart::LoweringConfig && !op.loweringConfig.empty())
    return Site{"lowering_config", false, op.loweringConfig,
                document::loweringReadingOf(op)->written()};
  if (!op.compilationInfo.empty())
    return Site{"compilation_info", false, op.compilationInfo,
                document::compilationReadingOf(op)->written()};
  if (part == ConfigPart::TranslationInfo)
    return Error{"@" + dispatch.name +
                 " has no translation_info (on its function or in a "
                 "compilation_info) to edit"};
  return Error{op.name + " (line " + std::to_string(op.line) +
               ") has no lowering_config or compilation_info to edit"};
}

namespace {

// What the rules say of a value IREE's parser refuses, where they know the
// key's shape ("mma_kind must be an #iree_gpu MMA attribute such as
// #iree_gpu.mma_layout<...>, not MFMA_F32_16x16x16_F16; "): IREE's own
// message names only a column. Empty otherwise.
std::string valueShapeHint(const std::string &siteKey,
                           const std::string &attribute,
                           const std::string &fieldName) {
  if (siteKey != "lowering_config")
    return {};
  auto config = config::LoweringConfig::parse(attribute);
  if (!config)
    return {};
  const std::string key = fieldName.substr(0, fieldName.find('['));
  for (const config::ReadNote &note : config->notes())
    if (note.kind == config::ReadNote::Kind::BadValue && note.key == key)
      return note.message + "; ";
  return {};
}

} // namespace

Result<Edit> EditableDocument::prepare(OpRef ref, const std::string &fieldName,
                                       const std::optional<std::string> &value,
                                       bool askIree) const {
  if (current.text.empty() && !current.dispatches.empty())
    return Error{"the document was opened without its text: nothing to "
                 "edit"};
  auto field = parseField(fieldName);
  if (!field)
    return Error{field.error()};
  auto site = siteOf(ref, field->part);
  if (!site)
    return Error{site.error()};
  auto change =
      changeField(site->attribute, std::move(site->written), *field, value);
  if (!change)
    return Error{change.error()};

  Edit edit;
  edit.op = ref;
  edit.field = *field;
  edit.oldValue = change->oldValue;
  edit.newValue = change->newValue;
  edit.attributeKey = site->key;
  edit.onFunction = site->onFunction;
  edit.oldAttribute = site->attribute;
  edit.newAttribute = change->attribute;
  if (reader && askIree) {
    auto ireePrint = reader(change->attribute);
    if (!ireePrint)
      return Error{field->name() + ": " +
                   valueShapeHint(site->key, change->attribute, field->name()) +
                   "IREE refuses the new " + site->key + ":\n" +
                   ireePrint.error()};
    edit.newAttribute = *ireePrint;
    edit.readByIree = true;
  }
  if (edit.newAttribute.find('\n') != std::string::npos ||
      document::hasSplitMarker(edit.newAttribute))
    return Error{field->name() +
                 ": the new value holds a line break or a `// -----` split "
                 "marker, which would change the file's structure"};

  const document::Dispatch &dispatch = current.dispatches[ref.dispatch];
  const document::RootOp &op = dispatch.rootOps[ref.op];
  const int line = site->onFunction ? dispatch.line : op.line;
  const int column = site->onFunction ? dispatch.column : op.column;
  auto opOffset = offsetOfOp(dispatch.part, line, column);
  if (!opOffset)
    return Error{opOffset.error()};
  auto located = locateAttribute(current.text, *opOffset, site->key,
                                 parts[static_cast<size_t>(dispatch.part)]);
  if (!located)
    return Error{field->name() + ": " + located.error()};
  edit.splice = replaceAttribute(current.text, *located, edit.newAttribute);
  // Its line, counted from the nearest known position before it: the op
  // (an inline attribute) or the start of its part (an alias definition).
  const TextRange &part = parts[static_cast<size_t>(dispatch.part)];
  const bool afterOp = edit.splice.offset >= *opOffset;
  const size_t from = afterOp ? *opOffset : part.offset;
  edit.line =
      (afterOp ? line : partFirstLines[static_cast<size_t>(dispatch.part)]) +
      countNewlines(std::string_view(current.text)
                        .substr(from, edit.splice.offset - from));
  return edit;
}

Result<bool> EditableDocument::apply(Edit edit) {
  if (edit.splice.offset + edit.splice.removed.size() > current.text.size() ||
      current.text.compare(edit.splice.offset, edit.splice.removed.size(),
                           edit.splice.removed) != 0)
    return Error{"the edit was prepared against another version of the text"};
  if (edit.changesNothing())
    return Error{edit.field.name() + " is already " +
                 (edit.newValue.empty() ? "unset" : edit.newValue)};
  applyToModel(edit, true);
  done.push_back(std::move(edit));
  undone.clear();
  return true;
}

Result<Edit> EditableDocument::set(OpRef op, const std::string &field,
                                   const std::optional<std::string> &value) {
  auto edit = prepare(op, field, value);
  if (!edit)
    return edit;
  auto applied = apply(*edit);
  if (!applied)
    return Error{applied.error()};
  return done.back();
}

bool EditableDocument::undo() {
  if (done.empty())
    return false;
  applyToModel(done.back(), false);
  undone.push_back(std::move(done.back()));
  done.pop_back();
  return true;
}

bool EditableDocument::redo() {
  if (undone.empty())
    return false;
  applyToModel(undone.back(), true);
  done.push_back(std::move(undone.back()));
  undone.pop_back();
  return true;
}

document::Dispatch EditableDocument::preview(const Edit &edit) const {
  document::Dispatch dispatch = current.dispatches.at(edit.op.dispatch);
  setAttribute(dispatch, edit, edit.newAttribute);
  return dispatch;
}

void EditableDocument::applyToModel(const Edit &edit, bool forward) {
  const std::string &removed =
      forward ? edit.splice.removed : edit.splice.inserted;
  const std::string &inserted =
      forward ? edit.splice.inserted : edit.splice.removed;
  current.text.replace(edit.splice.offset, removed.size(), inserted);
  const int lineDelta = countNewlines(inserted) - countNewlines(removed);
  shiftParts(edit.splice.offset,
             static_cast<long long>(inserted.size()) -
                 static_cast<long long>(removed.size()),
             lineDelta);
  // Lines after the splice's own line move when it adds or drops lines.
  if (lineDelta != 0)
    shiftLines(edit.line, lineDelta);

  setAttribute(current.dispatches[edit.op.dispatch], edit,
               forward ? edit.newAttribute : edit.oldAttribute);
}

void EditableDocument::shiftLines(int afterLine, int delta) {
  for (document::Dispatch &dispatch : current.dispatches) {
    if (dispatch.line > afterLine)
      dispatch.line += delta;
    for (document::RootOp &op : dispatch.rootOps)
      if (op.line > afterLine)
        op.line += delta;
    for (document::FusedOp &op : dispatch.fusedOps)
      if (op.line > afterLine)
        op.line += delta;
  }
}

void EditableDocument::shiftParts(size_t offset, long long delta,
                                  int lineDelta) {
  for (size_t i = 0; i < parts.size(); ++i) {
    TextRange &part = parts[i];
    // A splice replaces a value (never empty), so it starts inside a part.
    if (offset >= part.offset && offset < part.end()) {
      part.length =
          static_cast<size_t>(static_cast<long long>(part.length) + delta);
    } else if (part.offset > offset) {
      part.offset =
          static_cast<size_t>(static_cast<long long>(part.offset) + delta);
      partFirstLines[i] += lineDelta;
    }
  }
}

Result<bool>
EditableDocument::agreesWith(const document::Document &reparsed) const {
  auto differ = [](const std::string &where, const std::string &what,
                   const std::string &expected, const std::string &found) {
    return Error{where + ": IREE reads " + what + " back as\n  " + found +
                 "\nbut the edit made it\n  " + expected};
  };
  if (reparsed.dispatches.size() != current.dispatches.size())
    return Error{"IREE reads " + std::to_string(reparsed.dispatches.size()) +
                 " dispatches back, the model has " +
                 std::to_string(current.dispatches.size())};
  for (size_t i = 0; i < current.dispatches.size(); ++i) {
    const document::Dispatch &a = current.dispatches[i];
    const document::Dispatch &b = reparsed.dispatches[i];
    const std::string where = "@" + a.name;
    if (a.name != b.name || a.line != b.line)
      return differ(where, "dispatch " + std::to_string(i),
                    a.name + " at line " + std::to_string(a.line),
                    b.name + " at line " + std::to_string(b.line));
    if (a.translationInfo != b.translationInfo)
      return differ(where, "translation_info", a.translationInfo,
                    b.translationInfo);
    if (a.rootOps.size() != b.rootOps.size())
      return differ(where, "the number of root ops",
                    std::to_string(a.rootOps.size()),
                    std::to_string(b.rootOps.size()));
    for (size_t k = 0; k < a.rootOps.size(); ++k) {
      const document::RootOp &x = a.rootOps[k];
      const document::RootOp &y = b.rootOps[k];
      const std::string opWhere =
          where + " " + x.name + " (line " + std::to_string(x.line) + ")";
      if (x.name != y.name || x.line != y.line)
        return differ(opWhere, "root op " + std::to_string(k),
                      x.name + " at line " + std::to_string(x.line),
                      y.name + " at line " + std::to_string(y.line));
      if (x.loweringConfig != y.loweringConfig)
        return differ(opWhere, "lowering_config", x.loweringConfig,
                      y.loweringConfig);
      if (x.compilationInfo != y.compilationInfo)
        return differ(opWhere, "compilation_info", x.compilationInfo,
                      y.compilationInfo);
    }
  }
  return true;
}

std::string EditableDocument::diff(int context) const {
  const std::string name = current.path.empty() ? std::string("document.mlir")
                                                : current.path.generic_string();
  return unifiedDiff(original, current.text, "a/" + name, "b/" + name, context);
}

Result<bool> EditableDocument::save(const std::filesystem::path &path) const {
  return writeFileAtomically(path, current.text);
}

} // namespace tilescope::edit
