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
  // The op as IREE's cast_compatible_dag_from_root body
  // (core/document/RootOpDag.h; core/iree prints it, DocumentWorker::
  // rootOpDags brings it): how an op that is not a contraction is matched.
  std::string dag;
};

// The spec's text. A contraction is matched by IREE's contraction matcher
// (element types, indexing maps and sizes); any other op (a reduction, a
// convolution, attention) by its dag, which the SpecOp must carry; an
// attention op's decomposition_config (its qk/pv configs) is annotated
// with its compilation_info. An Error names an op with neither (a dynamic
// contraction needs its dag too) or a config that is missing.
Result<std::string> tuningSpec(const document::Document &document,
                               const std::vector<SpecOp> &ops);

// The compilation_info an op gets: its own, or its lowering_config with the
// dispatch's translation_info.
Result<std::string> compilationInfoOf(const document::Dispatch &dispatch,
                                      const document::RootOp &op);

} // namespace tilescope::exporting
