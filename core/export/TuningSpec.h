// A tuning spec IREE consumes (--iree-codegen-tuning-spec-path): a
// transform-dialect library whose iree_codegen.tuning_spec_entrypoint
// matches each chosen root op the way IREE's shipped default specs do (a
// contraction by its element types, indexing maps and batch/M/N/K sizes) and
// annotates it with the root op's compilation_info as the document holds it
// (edits included). Several ops make one spec, one matcher each.
#pragma once

#include "core/document/Document.h"
#include "core/util/Result.h"

#include <string>
#include <vector>

namespace tilescope::exporting {

struct SpecOp {
  int dispatch = 0;
  int op = 0;
};

// The spec's text; an Error names the op IREE's matchers cannot describe
// (only contractions are matched today: IREE's spec matchers for
// reductions and elementwise ops need the whole op's body) or a config
// that is missing.
Result<std::string> tuningSpec(const document::Document &document,
                               const std::vector<SpecOp> &ops);

// The compilation_info an op gets: its own, or its lowering_config with the
// dispatch's translation_info.
Result<std::string> compilationInfoOf(const document::Dispatch &dispatch,
                                      const document::RootOp &op);

} // namespace tilescope::exporting
