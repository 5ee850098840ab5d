// tilescope-cli split-k: which reductions of a program IREE's split-reduction
// heuristic splits, by how much and by which rule; splits set or cleared by
// hand, and the dispatches each choice forms.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/export/JsonText.h"
#include "core/service/SplitK.h"
#include "core/tries/JobJson.h"
#include "core/util/Files.h"
#include "core/util/Numbers.h"
#include "widgets/render/Palette.h"
#include "widgets/render/SceneExport.h"
#include "widgets/render/SplitKScene.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

std::string sourceText(const std::optional<document::SourceLocation> &source) {
  if (!source)
    return "";
  return source->file + ":" + std::to_string(source->line) + ":" +
         std::to_string(source->column);
}

void printReduction(const service::SplitKReduction &reduction) {
  const document::ProgramReduction &op = reduction.op;
  const std::vector<int64_t> bounds = config::reductionBounds(op.facts.space);
  std::cout << "\n"
            << op.function << ":" << op.index << "  " << op.name << "  "
            << op.facts.space.toString();
  if (op.source)
    std::cout << "  from " << sourceText(op.source);
  std::cout << "\n";
  if (op.split) {
    std::cout << "   IREE splits it: " << bracketedList(*op.split) << " -> "
              << bracketedList(config::splitCounts(bounds, *op.split))
              << " chunks per reduction loop " << bracketedList(bounds)
              << "  (rule: " << config::toString(reduction.decision.rule)
              << ")\n";
  } else {
    std::cout << "   IREE does not split it\n";
  }
  if (!reduction.agrees)
    std::cout << "   Tilescope's reading of the rule gives "
              << (reduction.decision.split()
                      ? bracketedList(reduction.decision.sizes)
                      : std::string("no split"))
              << "; IREE's answer is the one shown\n";
  for (size_t i = 0; i < reduction.decision.reasons.size(); ++i)
    std::cout << (i ? "        " : "   why: ") << reduction.decision.reasons[i]
              << "\n";
}

void printDispatches(const std::string &title,
                     const std::vector<document::FormedDispatch> &dispatches) {
  std::cout << "\n" << title << " (" << dispatches.size() << "):\n";
  for (const document::FormedDispatch &dispatch : dispatches) {
    std::cout << "  " << dispatch.name << "\n";
    for (const document::DispatchedOp &op : dispatch.ops) {
      std::cout << "     " << op.name;
      if (op.source)
        std::cout << "  from " << sourceText(op.source);
      if (op.split)
        std::cout << "  partial results, split " << bracketedList(*op.split);
      std::cout << "\n";
    }
  }
}

// "FUNC:N=SIZES" or "FUNC:N" (for --clear) against the program's reductions.
Result<document::SplitChoice>
choiceOf(const std::string &text, bool clear,
         const std::vector<service::SplitKReduction> &reductions,
         std::vector<std::string> &warnings) {
  const size_t equals = text.find('=');
  if (clear != (equals == std::string::npos))
    return Error{clear ? "--clear takes FUNC:N, not sizes ('" + text + "')"
                       : "--set takes FUNC:N=SIZES ('" + text + "')"};
  const std::string opText = clear ? text : text.substr(0, equals);
  const service::SplitKReduction *found = nullptr;
  for (const service::SplitKReduction &reduction : reductions)
    if (reduction.op.function + ":" + std::to_string(reduction.op.index) ==
        opText)
      found = &reduction;
  if (!found) {
    std::string known;
    for (const service::SplitKReduction &reduction : reductions)
      known += (known.empty() ? "" : ", ") + reduction.op.function + ":" +
               std::to_string(reduction.op.index);
    return Error{"no reduction '" + opText + "' (the program has: " +
                 (known.empty() ? std::string("none") : known) + ")"};
  }
  document::SplitChoice choice{found->op.function, found->op.index,
                               std::nullopt};
  if (clear)
    return choice;
  auto parsed = config::parseSplitSizes(
      text.substr(equals + 1), config::reductionBounds(found->op.facts.space));
  if (!parsed)
    return Error{opText + ": " + parsed.error()};
  for (const std::string &warning : parsed->warnings)
    warnings.push_back(opText + ": " + warning);
  choice.sizes = parsed->sizes;
  return choice;
}

// The picture of reduction `of` (the first when empty) with the split in
// effect: a choice made here, else IREE's.
Result<bool> drawSplit(const service::SplitKAnalysis &analysis,
                       const std::vector<document::SplitChoice> &choices,
                       const std::string &of, const QString &path) {
  if (analysis.reductions.empty())
    return Error{"the program has no reduction to draw"};
  const service::SplitKReduction *drawn = &analysis.reductions.front();
  if (!of.empty()) {
    drawn = nullptr;
    for (const service::SplitKReduction &reduction : analysis.reductions)
      if (reduction.op.function + ":" + std::to_string(reduction.op.index) ==
          of)
        drawn = &reduction;
    if (!drawn)
      return Error{"--of " + of + ": no such reduction"};
  }
  const document::ProgramReduction &op = drawn->op;
  render::SplitKPicture picture;
  picture.op = QString::fromStdString(op.function + ":" +
                                      std::to_string(op.index) + " " + op.name);
  picture.space = op.facts.space;
  picture.sizes = op.split;
  picture.whose = "IREE's split";
  for (const document::SplitChoice &choice : choices)
    if (choice.function == op.function && choice.index == op.index) {
      picture.sizes = choice.sizes;
      picture.whose = "your split";
    }
  auto scene = render::splitKScene(picture);
  if (!scene)
    return Error{scene.error()};
  QString error;
  if (!render::writeScene(*scene, path, render::Theme::light(), 0, &error))
    return Error{error.toStdString()};
  return true;
}

} // namespace

// splitK's options.
struct SplitKOptions {
  QCommandLineOption target{
      "target", "gfx942, rocm:gfx1100, sm_90, cuda:sm_80, llvm-cpu.", "TARGET"};
  QCommandLineOption low{
      "low-parallelism",
      "IREE's low-parallelism parameter set (RDNA-class GPUs)."};
  QCommandLineOption from{"from",
                          "The phase SOURCE is already at: input (default) or "
                          "global-optimization (a dump IREE printed there).",
                          "PHASE", "input"};
  QCommandLineOption set{
      "set",
      "Split reduction FUNC:N with tiles SIZES, one per reduction loop, e.g. "
      "'prog:0=640' or 'prog:1=[1,64]' (repeatable).",
      "FUNC:N=SIZES"};
  QCommandLineOption clear{
      "clear", "Do not split reduction FUNC:N (repeatable).", "FUNC:N"};
  QCommandLineOption part{
      "part",
      "Of a file split with `// -----`, the part to compile alone (0-based; "
      "lines and locations stay the file's).",
      "N"};
  QCommandLineOption picture{
      "picture",
      "Draw the split of one reduction (--of; the first by default) to OUT "
      "(.png, .svg, .pdf): its chunks and the partial results, with your "
      "--set or --clear where given, else IREE's split, as the window's "
      "Split-k tab draws it.",
      "OUT"};
  QCommandLineOption of{"of", "The reduction --picture draws (FUNC:N).",
                        "FUNC:N"};
  QCommandLineOption output{
      {"o", "output"},
      "Write the program at the split point, splits on it, to OUT.",
      "OUT"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({target, low, from, set, clear, part, picture, of, output,
                       kJsonOption, kIreeOption});
  }
};

namespace {

// The request the options ask for; an error is a usage error.
Result<service::SplitKRequest> requestOf(const QCommandLineParser &parser,
                                         const SplitKOptions &own) {
  if (parser.positionalArguments().size() != 1)
    return Error{"expected one SOURCE"};
  if (!parser.isSet(own.target))
    return Error{"--target is required"};
  auto target = service::compileTarget(parser.value(own.target).toStdString());
  if (!target)
    return Error{"--target: " + target.error()};
  const std::string from = parser.value(own.from).toStdString();
  if (from != "input" && from != "global-optimization")
    return Error{"--from takes input or global-optimization, not '" + from +
                 "'"};
  service::SplitKRequest request;
  request.source = parser.positionalArguments().front().toStdString();
  request.target = *target;
  request.options.lowParallelism = parser.isSet(own.low);
  request.compileFrom = from;
  if (parser.isSet(own.part)) {
    const std::optional<int64_t> part =
        parseInt64(parser.value(own.part).toStdString());
    if (!part || *part < 0 || *part > 1'000'000)
      return Error{"--part takes a part number (0, 1, ...), not '" +
                   parser.value(own.part).toStdString() + "'"};
    request.part = static_cast<int>(*part);
  }
  return request;
}

// --set and --clear against the program's reductions.
Result<std::vector<document::SplitChoice>>
choicesOf(const QCommandLineParser &parser, const SplitKOptions &own,
          const service::SplitKAnalysis &analysis,
          std::vector<std::string> &warnings) {
  std::vector<document::SplitChoice> choices;
  for (const auto &[option, clear] :
       {std::pair{&own.set, false}, std::pair{&own.clear, true}})
    for (const QString &value : parser.values(*option)) {
      auto choice =
          choiceOf(value.toStdString(), clear, analysis.reductions, warnings);
      if (!choice)
        return Error{choice.error()};
      choices.push_back(std::move(*choice));
    }
  return choices;
}

// What split-k found, and did, as --json has it.
struct SplitKOutcome {
  const service::SplitKRequest &request;
  const service::SplitKAnalysis &analysis;
  const std::optional<service::SplitKApplied> &applied;
  const std::vector<std::string> &warnings;
  std::optional<std::string> output; // -o, where given
};

json outcomeJson(const SplitKOutcome &outcome) {
  json out = tries::toJson(outcome.analysis);
  out["source"] = outcome.request.source.string();
  out["target"] = outcome.request.target.name;
  out["low_parallelism"] = outcome.request.options.lowParallelism;
  if (outcome.applied)
    out["applied"] = tries::toJson(*outcome.applied);
  out["warnings"] = outcome.warnings;
  if (outcome.output)
    out["output"] = *outcome.output;
  return out;
}

void printOutcome(const SplitKOutcome &outcome) {
  const service::SplitKAnalysis &analysis = outcome.analysis;
  size_t split = 0;
  for (const service::SplitKReduction &reduction : analysis.reductions)
    split += reduction.op.split ? 1 : 0;
  std::cout << outcome.request.source.string() << ": "
            << analysis.reductions.size() << " reduction"
            << (analysis.reductions.size() == 1 ? "" : "s")
            << " at IREE's split point for " << outcome.request.target.name
            << ", " << split << " split by IREE's heuristic"
            << (outcome.request.options.lowParallelism ? " (low parallelism)"
                                                       : "")
            << "\n";
  for (const service::SplitKReduction &reduction : analysis.reductions)
    printReduction(reduction);
  printDispatches("Dispatches with IREE's splits", analysis.dispatches);
  if (outcome.applied)
    printDispatches("Dispatches with your splits", outcome.applied->dispatches);
  for (const std::string &warning : outcome.warnings)
    std::cout << "warning: " << warning << "\n";
  if (outcome.output)
    std::cout << "\nWrote " << *outcome.output
              << ": build it with iree-compile " << *outcome.output
              << " --compile-from=global-optimization (its splits are "
                 "written on the ops; the heuristic flag is not needed)\n";
}

} // namespace

int splitK(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli split-k: run the pinned iree-compile on a program with "
      "IREE's split-reduction heuristic on, and list every reduction at the "
      "split point (inside dispatch creation, fusions done): IREE's split "
      "(iree_linalg_ext.split_reduction tiles, chunks per loop), the rule "
      "that decided (outer-reduction, convolution, matmul-like, arg_compare) "
      "with the numbers it compared, and the dispatches formed. --set and "
      "--clear change splits by hand and form the dispatches again; -o "
      "writes the program at the split point with the splits, for "
      "`iree-compile OUT --compile-from=global-optimization`.");
  const SplitKOptions own;
  own.addTo(parser);
  parser.addPositionalArgument("SOURCE", "An MLIR program.");
  if (!parseCommandLine(parser, arguments, "split-k"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto request = requestOf(parser, own);
  if (!request)
    return usageError("split-k", request.error());
  const std::filesystem::path &source = request->source;
  if (!std::filesystem::is_regular_file(source)) {
    std::cerr << "tilescope-cli split-k: " << source.string()
              << ": no such file\n";
    return kExitBadInput;
  }
  auto installation = bench.iree();
  if (!installation) {
    std::cerr << "tilescope-cli split-k: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  // IREE reads what iree-compile printed in the parse worker, as the
  // window's Split-k tab has it read.
  auto worker = bench.worker();
  if (!worker) {
    std::cerr << "tilescope-cli split-k: " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }

  const bool asJson = parser.isSet(kJsonOption);
  request->progress = [asJson](const std::string &step) {
    if (!asJson)
      std::cerr << step << "...\n";
  };
  auto analysis = service::analyzeSplitK(*installation, *worker, *request);
  if (!analysis) {
    std::cerr << "tilescope-cli split-k: " << source.string() << ": "
              << analysis.error() << "\n";
    return kExitBadInput;
  }

  std::vector<std::string> warnings;
  auto choices = choicesOf(parser, own, *analysis, warnings);
  if (!choices)
    return usageError("split-k", source.string() + ": " + choices.error());
  std::optional<service::SplitKApplied> applied;
  if (!choices->empty()) {
    auto result = service::applySplitK(*installation, *worker, *request,
                                       *analysis, *choices);
    if (!result) {
      std::cerr << "tilescope-cli split-k: " << source.string()
                << ": IREE refused these splits: " << result.error() << "\n";
      return kExitFailure;
    }
    applied = std::move(*result);
    warnings.insert(warnings.end(), applied->warnings.begin(),
                    applied->warnings.end());
  }
  SplitKOutcome outcome{*request, *analysis, applied, warnings, std::nullopt};
  if (parser.isSet(own.output)) {
    outcome.output = parser.value(own.output).toStdString();
    if (auto written = writeFileAtomically(
            *outcome.output, applied ? applied->program : analysis->splitPoint);
        !written) {
      std::cerr << "tilescope-cli split-k: " << written.error() << "\n";
      return kExitBadInput;
    }
  }
  if (parser.isSet(own.picture)) {
    if (auto drawn =
            drawSplit(*analysis, *choices,
                      parser.isSet(own.of) ? parser.value(own.of).toStdString()
                                           : std::string(),
                      parser.value(own.picture));
        !drawn) {
      std::cerr << "tilescope-cli split-k: --picture: " << drawn.error()
                << "\n";
      return kExitUsage;
    }
  }

  if (asJson)
    std::cout << exporting::jsonText(outcomeJson(outcome), 2) << "\n";
  else
    printOutcome(outcome);
  return applied && !applied->warnings.empty() ? kExitFailure : kExitOk;
}

} // namespace tilescope::cli
