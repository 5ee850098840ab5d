#include "core/service/IreeLayouts.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/service/IreeLowering.h"
#include "core/util/Files.h"

#include <algorithm>

namespace tilescope::service {
namespace {

template <typename T> std::string listText(const std::vector<T> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// The HAL backend named by a #hal.executable.target<"rocm", ...>.
std::string backendOf(const std::string &target) {
  const size_t open = target.find('"');
  const size_t close =
      open == std::string::npos ? open : target.find('"', open + 1);
  return close == std::string::npos ? std::string()
                                    : target.substr(open + 1, close - open - 1);
}

std::vector<std::string> operandNames(const layout::OpLayouts &layouts,
                                      const config::IterationSpace &space) {
  if (layouts.view == layout::OpView::ContractionLayout)
    return {"LHS", "RHS", "ACC"};
  if (layouts.view == layout::OpView::AttentionLayout)
    return {"Q (Q.K^T LHS)", "K (Q.K^T RHS)", "S (Q.K^T ACC)",
            "P (P.V LHS)",   "V (P.V RHS)",   "O (P.V ACC)"};
  std::vector<std::string> names;
  int input = 0;
  for (const config::OperandAccess &operand : space.operands)
    names.push_back(operand.isOutput ? "output"
                                     : "input " + std::to_string(input++));
  return names;
}

// IREE's errors for the run, in its words (every function's: a document's
// parts are named by their first function only).
std::string ireeErrors(const LoweringProbeResult &result) {
  std::string text;
  for (const auto &[function, diagnostics] : result.diagnostics)
    for (const ProbeDiagnostic &diagnostic : diagnostics)
      if (diagnostic.severity == "error")
        text += "\n  line " + std::to_string(diagnostic.line) + ": " +
                diagnostic.message;
  return text;
}

// The command IREE ran, naming `input` rather than the private copy it was
// given (gone once the run is over).
std::string reproducer(std::string command, const std::string &input) {
  const size_t probe = command.find("/probe.mlir");
  if (input.empty() || probe == std::string::npos)
    return command;
  const size_t start = command.rfind(' ', probe) + 1;
  return command.replace(start, probe + 11 - start, process::shellQuote(input));
}

// The file a person runs the command on: the document's own when it holds
// the text IREE was given; else the text kept at `copy` (when asked).
void nameInput(IreeLayoutAnswer &answer, const document::Document &document,
               const IreeLayoutRequest &request) {
  answer.input = document.path.string();
  answer.inputIsTheDocument = true;
  if (document.path.empty())
    return;
  auto saved = readTextFile(document.path);
  if ((saved && *saved == document.text) || request.inputCopy.empty())
    return;
  // Not the document's file: the kept copy, or none (the label says so).
  answer.inputIsTheDocument = false;
  answer.input.clear();
  std::error_code ignored;
  std::filesystem::create_directories(request.inputCopy.parent_path(), ignored);
  if (writeFileAtomically(request.inputCopy, document.text))
    answer.input = request.inputCopy.string();
}

// How many configured ops IREE anchors for one of ours: attention is
// decomposed into its two contractions, each carrying its config.
size_t anchoredOpsFor(const document::RootOp &op) {
  return op.kind == config::OpKind::Attention ? 2 : 1;
}

// Ours against IREE's operands: `theirs` holds the ops IREE anchored for
// ours, their operands taken in turn (attention: Q.K^T's, then P.V's).
void compareOperands(OpLayoutAnswer &answer, const layout::OpLayouts &ours,
                     const config::IterationSpace &space,
                     const std::vector<const document::AnchoredOp *> &theirs) {
  const std::vector<std::string> oursTexts =
      edit::operandLayoutTexts(ours, space);
  const std::vector<std::string> names = operandNames(ours, space);
  std::vector<std::optional<document::AnchorLayout>> theirOperands;
  for (const document::AnchoredOp *op : theirs)
    theirOperands.insert(theirOperands.end(), op->operands.begin(),
                         op->operands.end());
  const size_t count = std::max(oursTexts.size(), theirOperands.size());
  for (size_t i = 0; i < count; ++i) {
    OperandLayoutAnswer operand;
    operand.operand =
        i < names.size() ? names[i] : "operand " + std::to_string(i);
    if (i < oursTexts.size())
      operand.ours = oursTexts[i];
    if (i < theirOperands.size() && theirOperands[i])
      operand.iree = theirOperands[i]->layout;
    if (operand.ours.empty() != operand.iree.empty())
      operand.differences.push_back(
          {"layout", operand.ours.empty() ? "none" : operand.ours,
           operand.iree.empty() ? "none" : operand.iree});
    else if (!operand.ours.empty())
      operand.differences = compareNestedLayouts(operand.ours, operand.iree);
    answer.operands.push_back(std::move(operand));
  }
}

void compareForall(OpLayoutAnswer &answer, const layout::OpLayouts &ours,
                   const document::LoweredFunction &lowered) {
  const bool threads = ours.view == layout::OpView::ThreadTiles;
  const layout::ForallDistribution &distribution =
      threads ? *ours.threads : *ours.subgroups;
  std::vector<const document::ForallLoop *> loops;
  for (const document::ForallLoop &loop : lowered.foralls)
    if (loop.mappedTo(threads ? "thread" : "warp"))
      loops.push_back(&loop);
  if (loops.size() != 1) {
    answer.problem = "IREE made " + std::to_string(loops.size()) + " " +
                     (threads ? "thread" : "subgroup") +
                     " foralls in this dispatch; Tilescope compares one";
    return;
  }
  ForallAnswer forall;
  forall.level = threads ? "thread" : "subgroup";
  forall.oursTrips = distribution.tripCounts;
  forall.oursLinearDims = distribution.linearDims;
  forall.ireeTrips = loops.front()->tripCounts();
  forall.ireeLinearDims = loops.front()->linearDims();
  if (forall.oursTrips != forall.ireeTrips)
    forall.differences.push_back({"trip counts", listText(forall.oursTrips),
                                  listText(forall.ireeTrips)});
  if (forall.oursLinearDims != forall.ireeLinearDims)
    forall.differences.push_back({"linear ids", listText(forall.oursLinearDims),
                                  listText(forall.ireeLinearDims)});
  answer.forall = std::move(forall);
}

} // namespace

std::vector<LayoutFieldDifference>
compareNestedLayouts(const std::string &ours, const std::string &iree) {
  auto a = config::NestedLayoutAttr::parse(ours);
  auto b = config::NestedLayoutAttr::parse(iree);
  if (!a || !b)
    return {{"layout", a ? ours : "unreadable: " + a.error(),
             b ? iree : "unreadable: " + b.error()}};
  std::vector<LayoutFieldDifference> differences;
  auto field = [&](const char *name, const std::vector<int64_t> &x,
                   const std::vector<int64_t> &y) {
    if (x != y)
      differences.push_back({name, listText(x), listText(y)});
  };
  field("subgroup_tile", a->subgroupTile, b->subgroupTile);
  field("batch_tile", a->batchTile, b->batchTile);
  field("outer_tile", a->outerTile, b->outerTile);
  field("thread_tile", a->threadTile, b->threadTile);
  field("element_tile", a->elementTile, b->elementTile);
  field("subgroup_strides", a->subgroupStrides, b->subgroupStrides);
  field("thread_strides", a->threadStrides, b->threadStrides);
  return differences;
}

bool OpLayoutAnswer::agrees() const {
  if (!problem.empty())
    return false;
  if (forall)
    return forall->differences.empty();
  return std::all_of(operands.begin(), operands.end(),
                     [](const OperandLayoutAnswer &o) { return o.agrees(); });
}

bool IreeLayoutAnswer::agrees() const {
  return !ops.empty() &&
         std::all_of(ops.begin(), ops.end(),
                     [](const OpLayoutAnswer &op) { return op.agrees(); });
}

namespace {

// What Tilescope derives for a configured op of the dispatch.
struct Ours {
  size_t index;
  Result<edit::OpLayoutInputs> inputs;
  Result<layout::OpLayouts> layouts;
};

std::vector<Ours> oursOf(const document::Dispatch &dispatch) {
  std::vector<Ours> ours;
  for (size_t i = 0; i < dispatch.rootOps.size(); ++i) {
    const document::RootOp &op = dispatch.rootOps[i];
    if (op.loweringConfig.empty())
      continue;
    auto inputs = edit::opLayoutInputs(dispatch, op);
    Result<layout::OpLayouts> layouts =
        inputs ? edit::opLayoutsOf(*inputs)
               : Result<layout::OpLayouts>(Error{inputs.error()});
    ours.push_back({i, std::move(inputs), std::move(layouts)});
  }
  return ours;
}

// Each configured op's layouts against IREE's in `lowered`: TileAndFuse's
// foralls, or VectorDistribute's anchored ops, taken in order.
void compareEach(IreeLayoutAnswer &answer, const document::Dispatch &dispatch,
                 const std::vector<Ours> &ours,
                 const document::LoweredFunction &lowered) {
  // The configured ops IREE anchored, in the order they come (the order of
  // the dispatch's configured ops).
  std::vector<const document::AnchoredOp *> anchored;
  for (const document::AnchoredOp &op : lowered.anchoredOps)
    if (!op.loweringConfig.empty())
      anchored.push_back(&op);
  size_t expected = 0;
  for (const Ours &op : ours)
    expected += anchoredOpsFor(dispatch.rootOps[op.index]);
  size_t next = 0; // the first of IREE's anchored ops for `op`
  for (size_t k = 0; k < ours.size(); ++k) {
    const Ours &op = ours[k];
    const size_t first = next;
    next += anchoredOpsFor(dispatch.rootOps[op.index]);
    OpLayoutAnswer opAnswer;
    opAnswer.rootOp = op.index;
    opAnswer.opName = dispatch.rootOps[op.index].name;
    if (!op.layouts) {
      opAnswer.problem = "Tilescope derives no layout: " + op.layouts.error();
    } else if (answer.pipeline == "TileAndFuse") {
      if (op.layouts->view == layout::OpView::ThreadTiles ||
          op.layouts->view == layout::OpView::SubgroupTiles)
        compareForall(opAnswer, *op.layouts, lowered);
      else
        opAnswer.problem = "not tiled to threads or subgroups by its config";
    } else if (anchored.size() != expected) {
      opAnswer.problem = "IREE anchored " + std::to_string(anchored.size()) +
                         " configured ops where the dispatch's configured "
                         "ops make " +
                         std::to_string(expected) +
                         ": which is which is not certain";
    } else {
      compareOperands(opAnswer, *op.layouts, op.inputs->space,
                      {anchored.begin() + static_cast<std::ptrdiff_t>(first),
                       anchored.begin() + static_cast<std::ptrdiff_t>(next)});
    }
    answer.ops.push_back(std::move(opAnswer));
  }
}

} // namespace

Result<IreeLayoutAnswer> ireeLayouts(const tools::IreeInstallation &iree,
                                     DocumentWorker &worker,
                                     const document::Document &document,
                                     const IreeLayoutRequest &request) {
  if (request.dispatch >= document.dispatches.size())
    return Error{"no dispatch " + std::to_string(request.dispatch)};
  const document::Dispatch &dispatch = document.dispatches[request.dispatch];
  const std::string backend = backendOf(dispatch.target);
  if (backend != "rocm" && backend != "cuda")
    return Error{dispatch.name +
                 ": IREE lays out values on subgroups and lanes for "
                 "GPU targets (rocm, cuda); this dispatch's target is " +
                 (backend.empty() ? std::string("not in an executable variant")
                                  : "\"" + backend + "\"")};
  const auto reading = document::translationReadingOf(dispatch);
  const Result<config::TranslationInfo> &info = reading->model();
  if (!info)
    return Error{dispatch.name +
                 ": its translation_info does not read: " + info.error()};
  const std::string pipeline = info->pipelineName();
  if (pipeline != "VectorDistribute" && pipeline != "TileAndFuse")
    return Error{dispatch.name + ": IREE's " + pipeline +
                 " pipeline sets no layouts Tilescope compares (it compares "
                 "VectorDistribute's and TileAndFuse's)"};

  IreeLayoutAnswer answer;
  answer.dispatch = dispatch.name;
  answer.pipeline = pipeline;

  // Tilescope's side first: what it derives for each configured op.
  const std::vector<Ours> ours = oursOf(dispatch);
  if (ours.empty())
    return Error{dispatch.name + ": no op of it carries a lowering_config"};

  // TileAndFuse: the level the root op's view draws.
  std::string tilingLevel = "thread";
  for (const Ours &op : ours)
    if (op.layouts && op.layouts->view == layout::OpView::SubgroupTiles)
      tilingLevel = "subgroup";

  LoweringProbeRequest probe;
  probe.moduleText = document.text;
  probe.backend = backend == "rocm" ? GpuBackend::Rocdl : GpuBackend::Nvvm;
  probe.printAfter = {pipeline == "VectorDistribute"
                          ? kConfigureTensorLayoutsPass
                          : kApplyTilingLevelPass};
  probe.executableForm = true;
  probe.timeout = request.timeout;
  probe.cancel = request.cancel;
  auto result = runLoweringProbe(iree, probe);
  if (!result)
    return Error{result.error()};
  nameInput(answer, document, request);
  answer.command = reproducer(result->command, answer.input);
  const IrDump *dump =
      pipeline == "VectorDistribute"
          ? result->dump(dispatch.name, kConfigureTensorLayoutsPass)
          : result->dump(dispatch.name, kApplyTilingLevelPass, "tiling-level",
                         tilingLevel);
  if (!dump) {
    const std::string errors = ireeErrors(*result);
    return Error{dispatch.name +
                 ": IREE stopped before it laid the dispatch out (" +
                 result->process.describe() + ")" +
                 (errors.empty() ? std::string() : ":" + errors) +
                 "\n  command: " + result->command};
  }
  auto lowered =
      worker.readLowered(dump->text, dispatch.name + " (" + dump->pass + ")");
  if (!lowered)
    return Error{lowered.error()};

  compareEach(answer, dispatch, ours, *lowered);
  return answer;
}

} // namespace tilescope::service
