// What differs between two versions of a root op's configs, field by field
// (the lowering config's keys, translation_info's parameters and its
// configuration entries), in the names FieldEdit takes: the diff a person
// reads beside the text diff, and what `tilescope-cli diff` prints.
#pragma once

#include "core/config/syntax/Attribute.h"
#include "core/document/Document.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::edit {

struct FieldDifference {
  std::string field;  // "workgroup", "translation_info.workgroup_size", ...
  std::string before; // "" = absent
  std::string after;
  // A whole config that differs (one Tilescope does not read field by field:
  // a CPU lowering_config), its parameters by name on each side, printed,
  // equal ones included; empty where neither side has any.
  std::vector<FieldDifference> entries;
};

// Every field of a root op's GPU lowering config (standalone or in
// compilation_info) and of the translation_info it compiles with (its
// compilation_info's, else its dispatch's), in the names FieldEdit takes
// ("workgroup", "translation_info.workgroup_size") with their printed
// values, in the attributes' order. A config Tilescope cannot read field by
// field has none.
struct FieldValue {
  std::string field;
  std::string value;
  bool operator==(const FieldValue &) const = default;
};
std::vector<FieldValue> opFields(const document::Dispatch &dispatch,
                                 const document::RootOp &op);
// opFields' fields with their values as read too, not only printed.
struct FieldEntry {
  std::string field;
  config::Attribute value;
  std::string text; // FieldValue::value
};
std::vector<FieldEntry> opFieldEntries(const document::Dispatch &dispatch,
                                       const document::RootOp &op);
// One of them ("workgroup", "translation_info.pipeline"); none where the
// op has no such field.
std::optional<FieldEntry> opField(const document::Dispatch &dispatch,
                                  const document::RootOp &op,
                                  const std::string &field);

// Lowering config (standalone or in compilation_info) of two versions of a
// root op, as the document read them (no text parsed again); a config Tilescope
// cannot read field by field differs as a whole.
std::vector<FieldDifference>
loweringConfigDifferences(const document::RootOp &a, const document::RootOp &b);
// Two versions of a dispatch's translation_info.
std::vector<FieldDifference>
translationInfoDifferences(const document::Dispatch &a,
                           const document::Dispatch &b);

// Root ops of two documents matched up: dispatches by name (else by
// position), root ops by position. Unmatched ones are listed.
struct OpDifference {
  std::string dispatch;
  std::string op; // "linalg.generic (line 23)"; empty for the dispatch itself
  std::vector<FieldDifference> fields;
};
struct DocumentDifference {
  std::vector<OpDifference> ops;
  std::vector<std::string> onlyBefore, onlyAfter; // dispatch names
  bool empty() const {
    return ops.empty() && onlyBefore.empty() && onlyAfter.empty();
  }
};
// Each op is named by its line in `after` (an edited file), or in
// `before` where `after` is another's print of it (IREE's defaults beside
// the file: the user's file is the one whose lines mean something).
enum class LinesFrom { After, Before };
DocumentDifference documentDifferences(const document::Document &before,
                                       const document::Document &after,
                                       LinesFrom lines = LinesFrom::After);

} // namespace tilescope::edit
