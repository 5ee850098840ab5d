#include "core/export/TuningSpec.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tilescope::exporting {
namespace {

std::string sizesOf(const std::vector<int> &dims,
                    const std::vector<int64_t> &bounds) {
  std::string list = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    list +=
        (i ? ", " : "") + std::to_string(bounds[static_cast<size_t>(dims[i])]);
  return list + "]";
}

// A symbol-safe name for the matcher.
std::string symbolOf(const std::string &name) {
  std::string symbol;
  for (char c : name)
    symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return symbol;
}

std::string where(const document::Dispatch &dispatch,
                  const document::RootOp &op) {
  return "@" + dispatch.name + ": " + op.name + " (line " +
         std::to_string(op.line) + ")";
}

} // namespace

Result<std::string> compilationInfoOf(const document::Dispatch &dispatch,
                                      const document::RootOp &op) {
  if (!op.compilationInfo.empty())
    return op.compilationInfo;
  if (op.loweringConfig.empty())
    return Error{where(dispatch, op) + " has no lowering_config to export"};
  if (dispatch.translationInfo.empty())
    return Error{where(dispatch, op) +
                 ": its dispatch has no translation_info to export"};
  return "#iree_codegen.compilation_info<lowering_config = " +
         op.loweringConfig +
         ", translation_info = " + dispatch.translationInfo + ">";
}

namespace {

// How a spec finds the op: IREE's contraction matcher knows a static
// contraction's loops (a convolution read as its implicit GEMM is not one
// to it); any other op is matched by its dag.
Result<std::string> matchOf(const SpecOp &ref,
                            const document::Dispatch &dispatch,
                            const document::RootOp &op) {
  const bool contraction =
      op.kind == config::OpKind::Contraction && op.contraction && op.space &&
      op.space->operands.size() == 3 && !op.indexingMaps.empty() &&
      !op.implicitGemm &&
      std::find(op.space->bounds.begin(), op.space->bounds.end(), -1) ==
          op.space->bounds.end();
  if (contraction) {
    const auto &operands = op.space->operands;
    const auto &bounds = op.space->bounds;
    const config::ContractionDims &dims = *op.contraction;
    std::string match =
        "  %batch, %m, %n, %k = transform.iree.match.contraction %op,\n"
        "    lhs_type = " +
        operands[0].elementType + ", rhs_type = " + operands[1].elementType +
        ", output_type = " + operands[2].elementType +
        ",\n    indexing_maps = " + op.indexingMaps +
        " : !transform.any_op -> !transform.param<i64>\n";
    for (const auto &[handle, loops] :
         {std::pair{"batch", &dims.batch}, std::pair{"m", &dims.m},
          std::pair{"n", &dims.n}, std::pair{"k", &dims.k}})
      match += std::string("  transform.iree.match.dims_equal %") + handle +
               ", " + sizesOf(*loops, bounds) + " : !transform.param<i64>\n";
    return match;
  }
  if (!ref.dag.empty())
    return "  %inputs, %outputs = "
           "transform.iree.match.cast_compatible_dag_from_root %op {\n" +
           ref.dag +
           "  } : (!transform.any_op) -> (!transform.any_value, "
           "!transform.any_value)\n";
  return Error{where(dispatch, op) +
               " is no static contraction (IREE's contraction matcher) "
               "and has no dag (its body as IREE prints it) to match"};
}

// One matcher: the op found by `match`, not configured yet, given its
// compilation_info (and an attention its decomposition_config).
std::string matcherOf(const std::string &name, const std::string &match,
                      const std::string &info,
                      const std::string &decompositionConfig) {
  const bool attention = !decompositionConfig.empty();
  const std::string results = attention
                                  ? "(!transform.any_op, !transform.any_param, "
                                    "!transform.any_param)"
                                  : "(!transform.any_op, !transform.any_param)";
  std::string text = "transform.named_sequence @" + name +
                     "(%op: !transform.any_op {transform.readonly})\n"
                     "    -> " +
                     results +
                     " {\n"
                     "  transform.iree.match.has_no_lowering_config %op : "
                     "!transform.any_op\n" +
                     match + "  %config = transform.param.constant " + info +
                     " -> !transform.any_param\n";
  if (attention)
    text += "  %decomposition = transform.param.constant " +
            decompositionConfig +
            " -> !transform.any_param\n"
            "  transform.yield %op, %config, %decomposition : "
            "!transform.any_op, !transform.any_param, "
            "!transform.any_param\n}\n\n";
  else
    text += "  transform.yield %op, %config : !transform.any_op, "
            "!transform.any_param\n}\n\n";
  return text;
}

// The spec: the apply sequences, the matchers and the entry point.
std::string specText(const std::string &matchers, const std::string &entries,
                     bool usesAttention) {
  const std::string applyAttention =
      usesAttention
          ? "transform.named_sequence @apply_attention_config(%op: "
            "!transform.any_op {transform.readonly},\n"
            "    %config: !transform.any_param {transform.readonly},\n"
            "    %decomposition: !transform.any_param {transform.readonly}) "
            "{\n"
            "  transform.annotate %op \"compilation_info\" = %config : "
            "!transform.any_op, !transform.any_param\n"
            "  transform.annotate %op \"decomposition_config\" = "
            "%decomposition : !transform.any_op, !transform.any_param\n"
            "  transform.yield\n"
            "}\n\n"
          : "";
  return "// A tuning spec written by Tilescope: each matcher finds one root "
         "op\n// (a contraction by its element types, indexing maps and "
         "sizes; any other\n// op by its whole body, as IREE printed it) and "
         "gives it the\n// compilation_info below. Use with\n"
         "//   iree-compile ... --iree-codegen-tuning-spec-path=THIS_FILE\n"
         "// (for cuda, whose pipeline in IREE 3.13 drops that flag:\n"
         "//   iree-compile ... "
         "--iree-codegen-transform-dialect-library=THIS_FILE)\n"
         "// IREE 3.13 can deadlock loading a spec (now and then, when it\n"
         "// compiles two or more dispatches at once): a compile that sits at\n"
         "// no CPU is that; run it again, or add --mlir-disable-threading.\n"
         "module @tilescope_tuning_spec attributes "
         "{transform.with_named_sequence, "
         "iree_codegen.tuning_spec_with_default_entrypoint} {\n\n"
         "transform.named_sequence @apply_op_config(%op: !transform.any_op "
         "{transform.readonly},\n"
         "    %config: !transform.any_param {transform.readonly}) {\n"
         "  transform.annotate %op \"compilation_info\" = %config : "
         "!transform.any_op, !transform.any_param\n"
         "  transform.yield\n"
         "}\n\n" +
         applyAttention + matchers +
         "transform.named_sequence @__kernel_config(%variant_op: "
         "!transform.any_op {transform.consumed})\n"
         "    -> !transform.any_op attributes "
         "{iree_codegen.tuning_spec_entrypoint} {\n"
         "  %result = transform.foreach_match in %variant_op\n" +
         entries +
         "\n    : (!transform.any_op) -> !transform.any_op\n"
         "  transform.yield %result : !transform.any_op\n"
         "}\n\n}\n";
}

} // namespace

Result<std::string> tuningSpec(const document::Document &document,
                               const std::vector<SpecOp> &ops) {
  if (ops.empty())
    return Error{"no root op to export"};
  std::string matchers, entries;
  bool usesAttention = false;
  std::map<int, int> opOfDispatch;
  for (const SpecOp &ref : ops) {
    if (auto [first, isNew] = opOfDispatch.emplace(ref.dispatch, ref.op);
        !isNew && first->second != ref.op &&
        ref.dispatch < static_cast<int>(document.dispatches.size()))
      return Error{"@" +
                   document.dispatches[static_cast<size_t>(ref.dispatch)].name +
                   ": ops " + std::to_string(first->second) + " and " +
                   std::to_string(ref.op) +
                   " of one dispatch: a spec gives one op of a dispatch its "
                   "compilation_info (IREE refuses two: \"multiple ops within "
                   "dispatch trying to set the translation info\"); export its "
                   "root op"};
    if (ref.dispatch < 0 ||
        ref.dispatch >= static_cast<int>(document.dispatches.size()))
      return Error{"no dispatch " + std::to_string(ref.dispatch)};
    const document::Dispatch &dispatch =
        document.dispatches[static_cast<size_t>(ref.dispatch)];
    if (ref.op < 0 || ref.op >= static_cast<int>(dispatch.rootOps.size()))
      return Error{"@" + dispatch.name + " has no root op " +
                   std::to_string(ref.op)};
    const document::RootOp &op = dispatch.rootOps[static_cast<size_t>(ref.op)];
    auto info = compilationInfoOf(dispatch, op);
    if (!info)
      return Error{info.error()};
    const std::string name =
        "match_" + symbolOf(dispatch.name) + "_op" + std::to_string(ref.op);
    const bool attention = !op.decompositionConfig.empty();
    auto match = matchOf(ref, dispatch, op);
    if (!match)
      return Error{match.error()};
    matchers += matcherOf(name, *match, *info, op.decompositionConfig);
    usesAttention = usesAttention || attention;
    entries +=
        std::string(entries.empty() ? "" : ",\n") + "    @" + name +
        (attention ? " -> @apply_attention_config" : " -> @apply_op_config");
  }
  return specText(matchers, entries, usesAttention);
}

} // namespace tilescope::exporting
