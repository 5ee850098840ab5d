// What the layout engine needs of a document's root op, gathered once for
// every front end (the window's views, `tilescope-cli iree-layouts`): its
// GPU lowering config, its loops as IREE's IR gives them, its dispatch's
// translation_info, and the workgroup tile it inherits from the dispatch's
// root op when it is fused into it.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/document/Document.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/OpLayouts.h"
#include "core/util/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::edit {

struct OpLayoutInputs {
  config::LoweringConfig config;
  config::IterationSpace space;
  std::optional<config::TranslationInfo> info;
  layout::DeriveOptions options;
  // Attention's qk and pv configs (the op is laid out as its two
  // contractions); unset for every other op.
  std::optional<config::DecompositionConfig> decomposition;
};

// An attention op's decomposition_config read; an Error says why there is
// none to read (absent, or not the dictionary IREE writes).
Result<config::DecompositionConfig> decompositionOf(const document::RootOp &op);

// Why Tilescope does not lay out this op, in words; "" where it does.
// Attention is laid out as its two contractions, which needs the
// decomposition_config's qk_attrs and pv_attrs configs (IREE distributes
// Q.K^T and P.V by them, not by the op's own lowering config).
std::string kindNotLaidOut(const document::RootOp &op);

// An Error says why the op cannot be laid out ("This op carries no
// lowering_config.", or kindNotLaidOut's words).
Result<OpLayoutInputs> opLayoutInputs(const document::Dispatch &dispatch,
                                      const document::RootOp &op);

// The op's layouts under its pipeline (layout::opLayouts).
Result<layout::OpLayouts> opLayoutsOf(const OpLayoutInputs &inputs);

// Each operand's nested layout as IREE prints it, inputs then outputs,
// where the pipeline gives operands layouts (VectorDistribute); empty for
// TileAndFuse, which tiles to threads or subgroups instead.
std::vector<std::string>
operandLayoutTexts(const layout::OpLayouts &layouts,
                   const config::IterationSpace &space);

} // namespace tilescope::edit
