// Everything known about one root op of a document, gathered for the rules
// and for a person: its loops and operands (read from IREE's IR), the
// dispatch's translation_info, and the target of its executable variant.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/rules/Validation.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/layout/OpCost.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::edit {

struct RootOpContext {
  const document::Dispatch *dispatch = nullptr;
  const document::RootOp *op = nullptr;
  // The GPU lowering config (standalone or inside compilation_info), when
  // the op has one Tilescope reads; otherwise why not.
  std::optional<config::LoweringConfig> loweringConfig;
  std::string loweringConfigError;
  // The variant's target, when it is a GPU target; otherwise why not
  // ("" for a CPU target or none at all).
  std::optional<config::GpuTarget> target;
  std::string targetNote;
  config::ValidationContext validation;
};

RootOpContext contextOf(const document::Document &document, OpRef op);

// The rules (core/config and core/layout) on the op's config as it stands.
std::vector<config::Problem> validateRootOp(const RootOpContext &context);

// The rules' verdict on an op as it stands, the one every client answers
// from: `check` and its exit code, `set-config` (no error written without
// --force), a sweep's plan (a candidate with an error is not compiled:
// IREE refuses it, or builds a kernel that cannot be right), the window's
// Problems and dispatch list.
struct RuleVerdict {
  std::vector<config::Problem> problems; // errors and warnings, rule order
  // The first error; none: the op may be compiled and written.
  const config::Problem *firstError() const;
  bool hasErrors() const { return firstError() != nullptr; }
  size_t warnings() const;
  // "FIELD: MESSAGE [RULE]" of the first error ("" without one).
  std::string whyNot() const;
};

RuleVerdict ruleVerdict(const RootOpContext &context);

// What the cost model needs of the op (layout::predictOpTime predicts from
// it): pointers into `context`, which must outlive them.
layout::OpCostInputs costInputsOf(const RootOpContext &context);

// An op named the way a person does: "DISPATCH:OP" where DISPATCH is an
// index or a dispatch name (a unique prefix will do) and OP an index into
// its root ops; without ":OP", the dispatch's root op (rootOpIndex).
Result<OpRef> findOp(const document::Document &document,
                     const std::string &spec);

// The op IREE marks as the dispatch's root (#iree_codegen.root_op, the one
// its other configs follow); where IREE marks none, the op that distributes
// the dispatch over workgroups: a CPU config's `distribution` (a CPU
// dispatch configures its fill too, with cache and vector tiles only) or a
// GPU config's workgroup tiles (a softmax's other reductions have thread and
// serial tiles only); else the first op that reduces, else the first.
size_t rootOpIndex(const document::Dispatch &dispatch);

} // namespace tilescope::edit
