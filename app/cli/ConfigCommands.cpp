// tilescope-cli check / convert: the config model with no IREE installed
// (check FILE --op reads the root op from a file, through IREE).
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/LayoutInputs.h"
#include "app/common/IreeSettings.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Conversions.h"
#include "core/config/rules/Validation.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/edit/ReleaseConversion.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/export/JsonText.h"
#include "core/layout/LayoutValidation.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeTargets.h"
#include "core/util/Files.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;
using namespace tilescope;

namespace tilescope::cli {
namespace {

void printProblems(const std::vector<config::Problem> &problems) {
  if (problems.empty()) {
    std::cout << "no problems found\n";
    return;
  }
  for (const config::Problem &p : problems) {
    std::cout << config::toString(p.severity) << ": " << p.field << ": "
              << p.message << "  [" << p.rule
              << (p.origin == config::Problem::Origin::Tilescope
                      ? ""
                      : ", found by IREE")
              << "]\n";
    if (p.origin != config::Problem::Origin::Tilescope)
      std::cout << "    from " << p.source << "\n";
    else if (!p.source.empty())
      std::cout << "    " << config::toString(p.iree) << "; the rule mirrors "
                << p.source << "\n";
  }
}

json constraintsJson(const service::OpConstraintVerdict &verdict,
                     const std::vector<std::string> &commands) {
  json sets = json::array();
  for (const service::ConstraintSet &set : verdict.sets)
    sets.push_back({{"pipeline", set.pipeline},
                    {"assertions", set.assertions},
                    {"knobs", set.knobs}});
  json violations = json::array();
  for (const service::ConstraintViolation &v : verdict.violations)
    violations.push_back({{"message", v.message}, {"fields", v.fields}});
  json out = {{"outcome", service::toString(verdict.outcome)},
              {"pipeline", verdict.pipeline},
              {"sets", sets},
              {"violations", violations},
              {"knob_fields", verdict.knobs.fields},
              {"commands", commands}};
  if (!verdict.reason.empty())
    out["reason"] = verdict.reason;
  return out;
}

void printConstraints(const service::OpConstraintVerdict &verdict) {
  std::cout << service::describe(verdict) << "\n";
}

void printModel(const config::LoweringConfig &cfg) {
  std::cout << "lowering_config: " << cfg.print() << "\n";
  for (config::TilingLevel level : config::kAllTilingLevels)
    if (auto sizes = cfg.tileSizes(level)) {
      std::cout << "  " << config::keyOf(level) << ": [";
      for (size_t i = 0; i < sizes->size(); ++i)
        std::cout << (i ? ", " : "") << (*sizes)[i];
      std::cout << "]\n";
    }
  auto printBasis = [](const char *name, const config::Basis &b) {
    std::cout << "  " << name << ": counts [";
    for (size_t i = 0; i < b.counts.size(); ++i)
      std::cout << (i ? ", " : "") << b.counts[i];
    std::cout << "] (" << b.product() << "), mapping [";
    for (size_t i = 0; i < b.mapping.size(); ++i)
      std::cout << (i ? ", " : "") << b.mapping[i];
    std::cout << "]\n";
  };
  if (auto lane = cfg.laneBasis())
    printBasis("lane_basis", *lane);
  if (auto subgroup = cfg.subgroupBasis())
    printBasis("subgroup_basis", *subgroup);
  if (auto mma = cfg.mmaKind())
    std::cout << "  mma_kind: " << mma->intrinsic
              << (mma->colMajor ? " (col_major)" : "") << "\n";
  if (auto operands = cfg.promoteOperands()) {
    std::cout << "  promote_operands: [";
    for (size_t i = 0; i < operands->size(); ++i)
      std::cout << (i ? ", " : "") << (*operands)[i];
    std::cout << "]\n";
  }
}

} // namespace

namespace {

// check's options.
struct CheckOptions {
  QCommandLineOption config{"config",
                            "The #iree_gpu.lowering_config<...> or "
                            "#iree_codegen.compilation_info<...> "
                            "to check (#alias = ... lines allowed).",
                            "TEXT"};
  QCommandLineOption translation{
      "translation-info", "The #iree_codegen.translation_info<...>.", "TEXT"};
  QCommandLineOption space{
      "iteration-space",
      "Bounds and kinds of the root op's loops, e.g. 4x6656x16384:ppr.",
      "SPACE"};
  QCommandLineOption types{"types", kTypesHelp, "TYPES"};
  QCommandLineOption maps{"maps", kMapsHelp, "MAPS"};
  QCommandLineOption target{
      "target",
      "gfx942, gfx950, gfx1100, sm_80, sm_90 (or mi300x, h100, ...), "
      "or an #iree_gpu.target<...>.",
      "TARGET"};
  QCommandLineOption release{
      "iree-release", "The IREE release the config is for (default 3.13).",
      "X.Y", kPinnedRelease};
  QCommandLineOption json{"json", "Print JSON."};
  QCommandLineOption noConstraints{
      "no-iree-constraints",
      "With FILE: skip IREE's own verdict (its pipeline constraints for the "
      "op, checked by the pinned iree-opt)."};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({config, translation, space, types, maps, target, release,
                       json, kOpOption, kIreeOption, noConstraints});
  }
};

// What check judges: a config given as text, or FILE's root op in its
// dispatch (the context points into `opened`), judged as the window,
// Python and set-config judge it (edit::ruleVerdict, Session::verdict),
// with IREE's verdict on the file's op (its pipeline constraints).
struct CheckSubject {
  config::ValidationContext context;
  std::optional<config::LoweringConfig> loweringConfig;
  std::optional<OpenedOp> opened;
  std::optional<edit::RootOpContext> fileOp;
  std::optional<service::OpConstraintVerdict> ireeVerdict;
  std::string ireeVerdictError;
  std::vector<std::string> ireeCommands;
  std::string targetNote;
};

// A failure of check: "WHAT: MESSAGE" and the exit code.
struct CheckFailure {
  std::string what, message;
  int code = kExitFailure;
};

std::optional<CheckFailure> openFileOp(const QCommandLineParser &parser,
                                       const CheckOptions &options,
                                       const workbench::Workbench &bench,
                                       CheckSubject &subject) {
  const std::string path = parser.positionalArguments().front().toStdString();
  int code = kExitOk;
  auto file = openRootOp(path, opSpecOf(parser), bench, code);
  if (!file)
    return CheckFailure{"", file.error(), code};
  subject.opened = std::move(*file);
  subject.fileOp =
      edit::contextOf(subject.opened->document, subject.opened->ref);
  const edit::RootOpContext &op = *subject.fileOp;
  if (!op.loweringConfig)
    return CheckFailure{path, op.op->name + " (line " +
                                  std::to_string(op.op->line) +
                                  "): " + op.loweringConfigError};
  subject.context = op.validation;
  subject.loweringConfig = op.loweringConfig;
  if (parser.isSet(options.noConstraints))
    return std::nullopt;
  auto installation = bench.iree();
  auto worker = bench.worker();
  if (!installation || !worker) {
    subject.ireeVerdictError =
        installation ? worker.error() : installation.error();
    return std::nullopt;
  }
  auto verdict =
      service::ireeVerdictOn(*installation, *worker, subject.opened->document,
                             subject.opened->ref, &subject.ireeCommands);
  if (!verdict)
    subject.ireeVerdictError = verdict.error();
  else
    subject.ireeVerdict = std::move(*verdict);
  return std::nullopt;
}

// --config TEXT: a lowering config or a compilation_info, as written.
std::optional<CheckFailure> readConfigText(const std::string &text,
                                           CheckSubject &subject) {
  auto attribute = config::parseResolvedAttribute(text);
  if (!attribute)
    return CheckFailure{"--config", attribute.error()};
  // IREE's parser judges the text as written (a compilation_info whole).
  subject.context.loweringConfigText = *attribute;
  config::Attribute lowering = *attribute;
  if (attribute->isDialect("iree_codegen", "compilation_info")) {
    auto info = config::CompilationInfo::fromAttribute(*attribute);
    if (!info)
      return CheckFailure{"--config", info.error()};
    subject.context.translationInfo = info->translationInfo;
    lowering = info->loweringConfig;
  }
  auto cfg = config::LoweringConfig::fromAttribute(lowering);
  if (!cfg)
    return CheckFailure{"--config", cfg.error()};
  subject.loweringConfig = *cfg;
  return std::nullopt;
}

// --translation-info, --iteration-space (--types, --maps) and --target, over
// what the file or the config gave.
std::optional<CheckFailure> readContext(const QCommandLineParser &parser,
                                        const CheckOptions &options,
                                        const workbench::Workbench &bench,
                                        CheckSubject &subject) {
  config::ValidationContext &context = subject.context;
  if (parser.isSet(options.translation)) {
    const std::string text = parser.value(options.translation).toStdString();
    auto info = config::TranslationInfo::parse(text);
    if (!info)
      return CheckFailure{"--translation-info", info.error()};
    context.translationInfo = *info;
    if (auto written = config::parseResolvedAttribute(text))
      context.translationInfoText = *written;
  }
  if (parser.isSet(options.space)) {
    auto space = config::IterationSpace::parse(
        parser.value(options.space).toStdString());
    if (!space)
      return CheckFailure{"--iteration-space", space.error()};
    context.iterationSpace = *space;
    auto operands =
        operandsFor(*space, parser.value(options.types).toStdString(),
                    parser.value(options.maps).toStdString());
    if (!operands)
      return CheckFailure{parser.isSet(options.maps) ? "--maps" : "--types",
                          operands.error()};
    context.iterationSpace->operands = std::move(*operands);
  } else if (parser.isSet(options.types) || parser.isSet(options.maps)) {
    return CheckFailure{"--types",
                        "needs --iteration-space, e.g. 4x6656x16384:ppr"};
  }
  if (parser.isSet(options.target)) {
    // Asked of the IREE in use when there is one (its facts for the name),
    // else the built-in table: checking needs no IREE.
    auto installation = bench.iree();
    auto target =
        service::resolveTarget(installation ? &*installation : nullptr,
                               parser.value(options.target).toStdString());
    if (!target)
      return CheckFailure{"--target", target.error()};
    context.target = std::move(target->target);
    subject.targetNote = std::move(target->note);
  }
  return std::nullopt;
}

json checkJson(const CheckSubject &subject,
               const std::vector<config::Problem> &problems) {
  const config::ValidationContext &context = subject.context;
  json out = {{"lowering_config", exporting::toJson(*subject.loweringConfig)},
              {"iree_release", context.ireeRelease},
              {"problems", exporting::toJson(problems)}};
  if (context.translationInfo)
    out["translation_info"] = exporting::toJson(*context.translationInfo);
  if (context.iterationSpace)
    out["iteration_space"] = exporting::toJson(*context.iterationSpace);
  if (subject.ireeVerdict)
    out["iree_constraints"] =
        constraintsJson(*subject.ireeVerdict, subject.ireeCommands);
  else if (!subject.ireeVerdictError.empty())
    out["iree_constraints"] = {{"error", subject.ireeVerdictError}};
  if (context.target) {
    out["target"] = exporting::toJson(*context.target);
    if (!subject.targetNote.empty())
      out["target"]["note"] = subject.targetNote;
  }
  return out;
}

void printCheck(const CheckSubject &subject,
                const std::vector<config::Problem> &problems,
                bool constraintsAsked) {
  const config::ValidationContext &context = subject.context;
  printModel(*subject.loweringConfig);
  if (context.translationInfo)
    std::cout << "translation_info: " << context.translationInfo->print()
              << "\n  pipeline: " << context.translationInfo->pipelineName()
              << "\n";
  if (context.iterationSpace)
    std::cout << "iteration space: " << context.iterationSpace->toString()
              << "\n";
  if (context.target)
    std::cout << "target: " << context.target->arch
              << (context.target->product.empty()
                      ? ""
                      : " (" + context.target->product + ")")
              << ", "
              << (subject.targetNote.empty() ? context.target->source
                                             : subject.targetNote)
              << "\n";
  std::cout << "IREE release: " << context.ireeRelease << "\n";
  if (subject.ireeVerdict)
    printConstraints(*subject.ireeVerdict);
  else if (!subject.ireeVerdictError.empty())
    std::cout << "IREE's pipeline constraints: not asked: "
              << subject.ireeVerdictError << "\n";
  else if (constraintsAsked)
    std::cout << "IREE's pipeline constraints: IREE states them for GPU "
                 "lowering configs only\n";
  std::cout << "\n";
  printProblems(problems);
}

} // namespace

int check(const QStringList &arguments) {
  QCommandLineParser parser;
  const CheckOptions options;
  options.addTo(parser);
  parser.addPositionalArgument(
      "[FILE]", "An IREE file: check the config of its root op --op (its "
                "loops, types and target from the file) instead of --config.");
  if (!parseCommandLine(parser, arguments, "check"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  const bool fromFile = parser.positionalArguments().size() == 1;
  if (parser.positionalArguments().size() > 1 ||
      (fromFile && parser.isSet(options.config)) ||
      (!fromFile && !parser.isSet(options.config))) {
    std::cerr << "tilescope-cli check: give --config TEXT, or FILE --op "
                 "DISPATCH:OP\n";
    return kExitUsage;
  }

  CheckSubject subject;
  std::optional<CheckFailure> failed =
      fromFile
          ? openFileOp(parser, options, bench, subject)
          : readConfigText(parser.value(options.config).toStdString(), subject);
  subject.context.ireeRelease = parser.value(options.release).toStdString();
  if (!failed)
    failed = readContext(parser, options, bench, subject);
  if (failed) {
    std::cerr << "tilescope-cli check: "
              << (failed->what.empty() ? "" : failed->what + ": ")
              << failed->message << "\n";
    return failed->code;
  }

  std::vector<config::Problem> problems;
  if (subject.fileOp) {
    // With the file's loops, types and target as given on the command
    // line (--iteration-space, --target, ...) where they are.
    subject.fileOp->validation = subject.context;
    problems = edit::ruleVerdict(*subject.fileOp).problems;
  } else {
    problems = layout::validate(*subject.loweringConfig, subject.context);
  }
  if (subject.ireeVerdict)
    for (config::Problem &p : service::problemsOf(*subject.ireeVerdict))
      problems.push_back(std::move(p));
  const bool hasErrors = config::hasErrors(problems);
  if (parser.isSet(options.json))
    std::cout << exporting::jsonText(checkJson(subject, problems), 2) << "\n";
  else
    printCheck(subject, problems,
               fromFile && !parser.isSet(options.noConstraints));
  return hasErrors ? kExitFailure : kExitOk;
}

namespace {

// convert --file: every config of FILE rewritten for the release, IREE's
// reading of the result checked before anything is written.
int convertFile(const QCommandLineParser &parser, const std::string &release,
                const std::string &path, const QCommandLineOption &outputOption,
                const QCommandLineOption &inPlaceOption) {
  auto text = document::readMlirFile(path);
  if (!text) {
    std::cerr << "tilescope-cli convert: " << text.error() << "\n";
    return kExitBadInput;
  }
  const edit::FileConversion conversion =
      edit::convertFileForRelease(*text, release);
  for (const edit::ConvertedConfig &change : conversion.changes) {
    std::cout << path << ":" << change.line << ": ";
    for (size_t i = 0; i < change.applied.size(); ++i)
      std::cout << (i ? ", " : "") << change.applied[i];
    std::cout << "\n  - " << change.before << "\n  + " << change.after << "\n";
  }
  for (const std::string &note : conversion.notes)
    std::cerr << path << ": " << note << "\n";
  if (!conversion.changed()) {
    std::cout << path << ": nothing to convert for IREE " << release << "\n";
    return conversion.notes.empty() ? kExitOk : kExitFailure;
  }
  auto worker = workbenchOf(parser).worker();
  if (!worker) {
    std::cerr << "tilescope-cli convert: " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }
  if (auto read = worker->parseText(conversion.text, path); !read) {
    std::cerr << "tilescope-cli convert: " << path
              << ": the loaded IREE does not read the converted file either; "
                 "nothing written:\n"
              << read.error() << "\n";
    return kExitFailure;
  }
  if (!parser.isSet(outputOption) && !parser.isSet(inPlaceOption)) {
    std::cout << path << ": " << conversion.changes.size()
              << " config(s) convert and IREE reads the result; write it with "
                 "-o OUT or --in-place\n";
    return kExitOk;
  }
  const std::string output = parser.isSet(inPlaceOption)
                                 ? path
                                 : parser.value(outputOption).toStdString();
  if (auto written = writeFileAtomically(output, conversion.text); !written) {
    std::cerr << "tilescope-cli convert: " << written.error() << "\n";
    return kExitBadInput;
  }
  std::cout << "wrote " << output << " (" << conversion.changes.size()
            << " config(s) converted for IREE " << release
            << "; IREE reads it)\n";
  return kExitOk;
}

} // namespace

int convert(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli convert: rewrite a config (TEXT) or every config of a "
      "file (--file FILE) for another IREE release, with the config model's "
      "named conversions; a converted file is read by the loaded IREE before "
      "it is written.");
  const QCommandLineOption toOption("to", "The IREE release to convert for.",
                                    "X.Y", kPinnedRelease);
  const QCommandLineOption fileOption(
      "file", "Convert every config of FILE (a file from another release).",
      "FILE");
  const QCommandLineOption outputOption(
      {"o", "output"}, "With --file: write the result here.", "OUT");
  const QCommandLineOption inPlaceOption(
      "in-place", "With --file: replace FILE (atomically).");
  parser.addOptions(
      {toOption, fileOption, outputOption, inPlaceOption, kIreeOption});
  parser.addPositionalArgument("TEXT", "Attribute text (aliases allowed).");
  if (!parseCommandLine(parser, arguments, "convert"))
    return kExitUsage;
  const std::string release = parser.value(toOption).toStdString();
  if (parser.isSet(fileOption)) {
    if (!parser.positionalArguments().isEmpty() ||
        (parser.isSet(outputOption) && parser.isSet(inPlaceOption))) {
      std::cerr << "tilescope-cli convert: --file takes no TEXT, and -o and "
                   "--in-place exclude each other\n";
      return kExitUsage;
    }
    return convertFile(parser, release, parser.value(fileOption).toStdString(),
                       outputOption, inPlaceOption);
  }
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli convert: expected one attribute TEXT\n";
    return kExitUsage;
  }
  auto attribute = config::parseResolvedAttribute(
      parser.positionalArguments().front().toStdString());
  if (!attribute) {
    std::cerr << "tilescope-cli convert: " << attribute.error() << "\n";
    return kExitFailure;
  }
  const auto result = config::convertForRelease(*attribute, release);
  std::cout << config::printLikeIree(result.attribute) << "\n";
  for (const std::string &name : result.applied)
    std::cerr << "applied: " << name << "\n";
  for (const std::string &note : result.impossible)
    std::cerr << "no conversion: " << note << "\n";
  return result.impossible.empty() ? kExitOk : kExitFailure;
}

} // namespace tilescope::cli
