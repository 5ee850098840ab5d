#include "core/service/SplitK.h"

#include "core/document/SplitInput.h"
#include "core/util/Files.h"

#include <sstream>

namespace tilescope::service {
namespace {

constexpr const char *kSplitPass =
    "iree-dispatch-creation-set-split-reduction-sizes";

// The last module IREE printed after the split pass (once per function with
// module scope; the last holds every function's splits): from its header to
// the end of the module, its location aliases and resources, and nothing of
// whatever diagnostics later passes wrote after it.
Result<std::string> lastDump(const std::string &standardError) {
  const std::string header = "// -----// IR Dump After ";
  const size_t start = standardError.rfind(header);
  if (start == std::string::npos)
    return Error{"iree-compile printed no IR after " + std::string(kSplitPass) +
                 " (did the pipeline reach dispatch creation?)"};
  std::istringstream in(standardError.substr(start));
  std::string line, module;
  std::getline(in, line); // the header
  bool closed = false, inResources = false;
  while (std::getline(in, line)) {
    if (!closed) {
      module += line + "\n";
      closed = !line.empty() && line.front() == '}'; // at column 0
      continue;
    }
    if (inResources) {
      module += line + "\n";
      inResources = line.find("#-}") == std::string::npos;
      continue;
    }
    if (line.rfind("{-#", 0) == 0) {
      module += line + "\n";
      inResources = line.find("#-}") == std::string::npos;
      continue;
    }
    if (line.rfind("#", 0) != 0)
      break;
    module += line + "\n";
  }
  if (!closed)
    return Error{"the IR iree-compile printed after " +
                 std::string(kSplitPass) + " ends before its module does"};
  return module;
}

std::string describeFailure(const std::string &what,
                            const process::ProcessSpec &spec,
                            const process::ProcessResult &result) {
  return "iree-compile " + result.describe() + " " + what +
         "\n  command: " + spec.shellCommand() + "\n" +
         result.standardError.substr(0, 4000);
}

bool sameSource(const std::optional<document::SourceLocation> &a,
                const std::optional<document::SourceLocation> &b) {
  return a && b && a->file == b->file && a->line == b->line &&
         a->column == b->column;
}

std::string sizesText(const std::optional<std::vector<int64_t>> &sizes) {
  return sizes ? config::splitReductionAttributeText(*sizes) : "no split";
}

// Part `part` of the file alone, preceded by as many line breaks and spaces
// as the file holds before it: IREE's locations in it are the file's.
Result<std::string> partText(const std::filesystem::path &source, int part) {
  auto text = readTextFile(source);
  if (!text)
    return Error{text.error()};
  const document::SplitInput split =
      document::splitInputFile(*text, source.string());
  if (part < 0 || static_cast<size_t>(part) >= split.parts.size())
    return Error{source.string() + " has " +
                 std::to_string(split.parts.size()) + " part" +
                 (split.parts.size() == 1 ? "" : "s") + ", no part " +
                 std::to_string(part)};
  const document::TextPart &piece = split.parts[static_cast<size_t>(part)];
  return std::string(static_cast<size_t>(piece.firstLine - 1), '\n') +
         std::string(static_cast<size_t>(piece.firstColumn - 1), ' ') +
         std::string(piece.in(*text));
}

void relabel(std::optional<document::SourceLocation> &location,
             const std::string &from, const std::string &to) {
  if (location && !from.empty() && location->file == from)
    location->file = to;
}

void relabel(std::vector<document::FormedDispatch> &dispatches,
             const std::string &from, const std::string &to) {
  for (document::FormedDispatch &dispatch : dispatches)
    for (document::DispatchedOp &op : dispatch.ops)
      relabel(op.source, from, to);
}

} // namespace

Result<process::ProcessSpec>
splitPointCommand(const tools::IreeInstallation &iree,
                  const SplitKRequest &request,
                  const std::filesystem::path &input,
                  const std::filesystem::path &flowOutput) {
  auto tool = iree.tool(tools::kIreeCompile);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments.push_back(input.string());
  spec.arguments.insert(spec.arguments.end(),
                        request.target.compileFlags.begin(),
                        request.target.compileFlags.end());
  if (request.compileFrom != "input")
    spec.arguments.push_back("--compile-from=" + request.compileFrom);
  spec.arguments.insert(spec.arguments.end(),
                        {"--compile-to=flow",
                         "--iree-dispatch-creation-enable-split-reduction",
                         "--mlir-print-ir-after=" + std::string(kSplitPass),
                         "--mlir-print-ir-module-scope",
                         "--mlir-disable-threading", "--mlir-print-debuginfo"});
  if (request.options.lowParallelism)
    spec.arguments.push_back(
        "--iree-dispatch-creation-split-reduction-low-parallelism");
  spec.arguments.insert(spec.arguments.end(), request.extraFlags.begin(),
                        request.extraFlags.end());
  spec.arguments.insert(spec.arguments.end(), {"-o", flowOutput.string()});
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;
  return spec;
}

Result<SplitKAnalysis> analyzeSplitK(const tools::IreeInstallation &iree,
                                     DocumentWorker worker,
                                     const SplitKRequest &request) {
  if (request.options.targetSize != config::SplitOptions{}.targetSize)
    return Error{"iree-compile sets IREE's split-reduction target size only "
                 "through the pass option; Tilescope asks it with the "
                 "default (1024)"};
  worker.cancel = request.cancel;
  auto folder = TemporaryDirectory::create("tilescope-split-k");
  if (!folder)
    return Error{folder.error()};
  const std::filesystem::path flow = folder->file("flow.mlir");
  std::filesystem::path input = request.source;
  if (request.part) {
    auto part = partText(request.source, *request.part);
    if (!part)
      return Error{part.error()};
    input = folder->file(request.source.stem().string() + ".part" +
                         std::to_string(*request.part) + ".mlir");
    if (auto written = writeFileAtomically(input, *part); !written)
      return Error{written.error()};
  }
  auto spec = splitPointCommand(iree, request, input, flow);
  if (!spec)
    return Error{spec.error()};
  if (request.progress)
    request.progress("running IREE's split-reduction heuristic (iree-compile "
                     "to flow)");
  const process::ProcessResult result = runProcess(*spec);
  if (!result.succeeded()) {
    folder->keep();
    return Error{
        describeFailure("on " + request.source.string(), *spec, result)};
  }
  SplitKAnalysis analysis;
  if (request.part)
    analysis.compiledAs = input.string();
  analysis.commands.push_back(spec->shellCommand());
  auto dump = lastDump(result.standardError);
  if (!dump)
    return Error{dump.error()};
  analysis.splitPoint = std::move(*dump);
  if (request.progress)
    request.progress("reading the split point and the dispatches");
  auto reductions =
      worker.programReductions(analysis.splitPoint, "<split point>");
  if (!reductions)
    return Error{reductions.error()};
  for (document::ProgramReduction &op : *reductions) {
    SplitKReduction reduction;
    reduction.decision =
        config::decideSplitReduction(op.facts, request.options);
    reduction.agrees = reduction.decision.attributeTiles() == op.split;
    relabel(op.source, analysis.compiledAs, request.source.string());
    reduction.op = std::move(op);
    analysis.reductions.push_back(std::move(reduction));
  }
  auto dispatches = worker.formedDispatches(flow);
  if (!dispatches)
    return Error{dispatches.error()};
  analysis.dispatches = std::move(*dispatches);
  relabel(analysis.dispatches, analysis.compiledAs, request.source.string());
  return analysis;
}

Result<SplitKApplied>
applySplitK(const tools::IreeInstallation &iree, DocumentWorker worker,
            const SplitKRequest &request, const SplitKAnalysis &analysis,
            const std::vector<document::SplitChoice> &choices) {
  worker.cancel = request.cancel;
  auto program =
      worker.withSplits(analysis.splitPoint, "<split point>", choices);
  if (!program)
    return Error{program.error()};
  auto folder = TemporaryDirectory::create("tilescope-split-k");
  if (!folder)
    return Error{folder.error()};
  const std::filesystem::path input = folder->file("split.mlir");
  const std::filesystem::path flow = folder->file("flow.mlir");
  if (auto written = writeFileAtomically(input, *program); !written)
    return Error{written.error()};
  auto tool = iree.tool(tools::kIreeCompile);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {input.string(),
                    "--compile-from=global-optimization",
                    "--compile-to=flow",
                    "--mlir-print-debuginfo",
                    "-o",
                    flow.string()};
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;
  if (request.progress)
    request.progress("forming the dispatches with these splits (iree-compile "
                     "to flow)");
  const process::ProcessResult result = runProcess(spec);
  if (!result.succeeded()) {
    folder->keep();
    return Error{
        describeFailure("forming dispatches with the splits", spec, result)};
  }
  auto dispatches = worker.formedDispatches(flow);
  if (!dispatches)
    return Error{dispatches.error()};

  SplitKApplied applied;
  applied.program = std::move(*program);
  applied.command = spec.shellCommand();
  applied.dispatches = std::move(*dispatches);
  relabel(applied.dispatches, analysis.compiledAs, request.source.string());
  // Every split written (IREE's, unless a choice replaced it) must come out
  // as a dispatch of partial results.
  for (const SplitKReduction &reduction : analysis.reductions) {
    const document::ProgramReduction &op = reduction.op;
    std::optional<std::vector<int64_t>> split = op.split;
    for (const document::SplitChoice &choice : choices)
      if (choice.function == op.function && choice.index == op.index)
        split = choice.sizes;
    if (!split || !op.source)
      continue;
    bool formed = false;
    for (const document::FormedDispatch &dispatch : applied.dispatches)
      for (const document::DispatchedOp &inside : dispatch.ops)
        formed = formed || (sameSource(inside.source, op.source) &&
                            inside.split == split);
    if (!formed)
      applied.warnings.push_back(
          op.function + ":" + std::to_string(op.index) + " (" + op.name +
          ") was written with " + sizesText(split) +
          " but no dispatch of partial results carries it");
  }
  return applied;
}

} // namespace tilescope::service
