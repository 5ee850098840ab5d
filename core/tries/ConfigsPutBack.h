// A try's configs put back on a document: what the window draws for a try,
// what "apply this try" edits and what a tune's spec is written from.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/tries/TriedConfigs.h"

#include <string>
#include <vector>

namespace tilescope::tries {

// What putting a try's configs back on `document` changes: for each op of
// the try found in it (its dispatch by name, the op by index), the whole
// lowering config (or compilation_info) and the dispatch's
// translation_info, where they differ.
struct ConfigChange {
  edit::OpRef op;
  std::string field; // "lowering_config" or "translation_info"
  std::string value;
};
std::vector<ConfigChange> configChanges(const TriedConfigs &configs,
                                        const document::Document &document);

// `document` as it would be with a try's configs put back (changes the edit
// model refuses are left out): what the window draws for a try.
document::Document withConfigs(const TriedConfigs &configs,
                               const document::Document &document);

} // namespace tilescope::tries
