// tilescope-cli check / convert: the config model with no IREE installed
// (check FILE --op reads the root op from a file, through IREE).
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/LayoutInputs.h"
#include "app/common/IreeSettings.h"
#include "core/config/Conversions.h"
#include "core/config/IreeSyntax.h"
#include "core/config/TranslationInfo.h"
#include "core/config/Validation.h"
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

int check(const QStringList &arguments) {
  QCommandLineParser parser;
  const QCommandLineOption configOption(
      "config",
      "The #iree_gpu.lowering_config<...> or "
      "#iree_codegen.compilation_info<...> "
      "to check (#alias = ... lines allowed).",
      "TEXT");
  const QCommandLineOption translationOption(
      "translation-info", "The #iree_codegen.translation_info<...>.", "TEXT");
  const QCommandLineOption spaceOption(
      "iteration-space",
      "Bounds and kinds of the root op's loops, e.g. 4x6656x16384:ppr.",
      "SPACE");
  const QCommandLineOption typesOption("types", kTypesHelp, "TYPES");
  const QCommandLineOption mapsOption("maps", kMapsHelp, "MAPS");
  const QCommandLineOption targetOption(
      "target",
      "gfx942, gfx950, gfx1100, sm_80, sm_90 (or mi300x, h100, ...), "
      "or an #iree_gpu.target<...>.",
      "TARGET");
  const QCommandLineOption releaseOption(
      "iree-release", "The IREE release the config is for (default 3.13).",
      "X.Y", kPinnedRelease);
  const QCommandLineOption jsonOption("json", "Print JSON.");
  const QCommandLineOption noConstraintsOption(
      "no-iree-constraints",
      "With FILE: skip IREE's own verdict (its pipeline constraints for the "
      "op, checked by the pinned iree-opt).");
  parser.addOptions({configOption, translationOption, spaceOption, typesOption,
                     mapsOption, targetOption, releaseOption, jsonOption,
                     kOpOption, kIreeOption, noConstraintsOption});
  parser.addPositionalArgument(
      "[FILE]", "An IREE file: check the config of its root op --op (its "
                "loops, types and target from the file) instead of --config.");
  if (!parseCommandLine(parser, arguments, "check"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  const bool fromFile = parser.positionalArguments().size() == 1;
  if (parser.positionalArguments().size() > 1 ||
      (fromFile && parser.isSet(configOption)) ||
      (!fromFile && !parser.isSet(configOption))) {
    std::cerr << "tilescope-cli check: give --config TEXT, or FILE --op "
                 "DISPATCH:OP\n";
    return kExitUsage;
  }

  auto fail = [](const std::string &what, const std::string &message) {
    std::cerr << "tilescope-cli check: " << what << ": " << message << "\n";
    return kExitFailure;
  };

  config::ValidationContext context;
  std::optional<config::LoweringConfig> loweringConfig;
  // IREE's verdict on the file's op: its pipeline constraints.
  std::optional<service::OpConstraintVerdict> ireeVerdict;
  std::string ireeVerdictError;
  std::vector<std::string> ireeCommands;
  // FILE's root op in its dispatch (the context points into `opened`),
  // judged as the window, Python and set-config judge it (edit::ruleVerdict,
  // Session::verdict).
  std::optional<OpenedOp> opened;
  std::optional<edit::RootOpContext> fileOp;
  if (fromFile) {
    const std::string path = parser.positionalArguments().front().toStdString();
    int code = kExitOk;
    auto file = openRootOp(path, opSpecOf(parser), bench, code);
    if (!file) {
      std::cerr << "tilescope-cli check: " << file.error() << "\n";
      return code;
    }
    opened = std::move(*file);
    fileOp = edit::contextOf(opened->document, opened->ref);
    const edit::RootOpContext &op = *fileOp;
    if (!op.loweringConfig)
      return fail(path, op.op->name + " (line " + std::to_string(op.op->line) +
                            "): " + op.loweringConfigError);
    context = op.validation;
    loweringConfig = op.loweringConfig;
    if (!parser.isSet(noConstraintsOption)) {
      auto installation = bench.iree();
      auto worker = bench.worker();
      auto verdict =
          !installation ? Result<std::optional<service::OpConstraintVerdict>>(
                              Error{installation.error()})
          : !worker
              ? Result<std::optional<service::OpConstraintVerdict>>(
                    Error{worker.error()})
              : service::ireeVerdictOn(*installation, *worker, opened->document,
                                       opened->ref, &ireeCommands);
      if (!verdict)
        ireeVerdictError = verdict.error();
      else
        ireeVerdict = std::move(*verdict);
    }
  }
  context.ireeRelease = parser.value(releaseOption).toStdString();

  auto attribute = fromFile ? Result<config::Attribute>(config::Attribute{})
                            : config::parseResolvedAttribute(
                                  parser.value(configOption).toStdString());
  if (!attribute)
    return fail("--config", attribute.error());
  if (fromFile) {
    // The file's config, loops, types and target are in `context`.
  } else if (attribute->isDialect("iree_codegen", "compilation_info")) {
    // IREE's parser judges the text as written (a compilation_info whole).
    context.loweringConfigText = *attribute;
    auto info = config::CompilationInfo::fromAttribute(*attribute);
    if (!info)
      return fail("--config", info.error());
    context.translationInfo = info->translationInfo;
    auto cfg = config::LoweringConfig::fromAttribute(info->loweringConfig);
    if (!cfg)
      return fail("--config", cfg.error());
    loweringConfig = *cfg;
  } else {
    context.loweringConfigText = *attribute;
    auto cfg = config::LoweringConfig::fromAttribute(*attribute);
    if (!cfg)
      return fail("--config", cfg.error());
    loweringConfig = *cfg;
  }
  if (parser.isSet(translationOption)) {
    const std::string text = parser.value(translationOption).toStdString();
    auto info = config::TranslationInfo::parse(text);
    if (!info)
      return fail("--translation-info", info.error());
    context.translationInfo = *info;
    if (auto written = config::parseResolvedAttribute(text))
      context.translationInfoText = *written;
  }
  if (parser.isSet(spaceOption)) {
    auto space =
        config::IterationSpace::parse(parser.value(spaceOption).toStdString());
    if (!space)
      return fail("--iteration-space", space.error());
    context.iterationSpace = *space;
    auto operands = operandsFor(*space, parser.value(typesOption).toStdString(),
                                parser.value(mapsOption).toStdString());
    if (!operands)
      return fail(parser.isSet(mapsOption) ? "--maps" : "--types",
                  operands.error());
    context.iterationSpace->operands = std::move(*operands);
  } else if (parser.isSet(typesOption) || parser.isSet(mapsOption)) {
    return fail("--types", "needs --iteration-space, e.g. 4x6656x16384:ppr");
  }
  std::string targetNote;
  if (parser.isSet(targetOption)) {
    // Asked of the IREE in use when there is one (its facts for the name),
    // else the built-in table: checking needs no IREE.
    auto installation = bench.iree();
    auto target =
        service::resolveTarget(installation ? &*installation : nullptr,
                               parser.value(targetOption).toStdString());
    if (!target)
      return fail("--target", target.error());
    context.target = std::move(target->target);
    targetNote = std::move(target->note);
  }

  std::vector<config::Problem> problems;
  if (fileOp) {
    // With the file's loops, types and target as given on the command
    // line (--iteration-space, --target, ...) where they are.
    fileOp->validation = context;
    problems = edit::ruleVerdict(*fileOp).problems;
  } else {
    problems = layout::validate(*loweringConfig, context);
  }
  if (ireeVerdict)
    for (config::Problem &p : service::problemsOf(*ireeVerdict))
      problems.push_back(std::move(p));
  const bool hasErrors =
      std::any_of(problems.begin(), problems.end(), [](const auto &p) {
        return p.severity == config::Problem::Severity::Error;
      });

  if (parser.isSet(jsonOption)) {
    json out = {{"lowering_config", exporting::toJson(*loweringConfig)},
                {"iree_release", context.ireeRelease},
                {"problems", exporting::toJson(problems)}};
    if (context.translationInfo)
      out["translation_info"] = exporting::toJson(*context.translationInfo);
    if (context.iterationSpace)
      out["iteration_space"] = exporting::toJson(*context.iterationSpace);
    if (ireeVerdict)
      out["iree_constraints"] = constraintsJson(*ireeVerdict, ireeCommands);
    else if (!ireeVerdictError.empty())
      out["iree_constraints"] = {{"error", ireeVerdictError}};
    if (context.target) {
      out["target"] = exporting::toJson(*context.target);
      if (!targetNote.empty())
        out["target"]["note"] = targetNote;
    }
    std::cout << exporting::jsonText(out, 2) << "\n";
    return hasErrors ? kExitFailure : kExitOk;
  }
  printModel(*loweringConfig);
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
              << (targetNote.empty() ? context.target->source : targetNote)
              << "\n";
  std::cout << "IREE release: " << context.ireeRelease << "\n";
  if (ireeVerdict)
    printConstraints(*ireeVerdict);
  else if (!ireeVerdictError.empty())
    std::cout << "IREE's pipeline constraints: not asked: " << ireeVerdictError
              << "\n";
  else if (fromFile && !parser.isSet(noConstraintsOption))
    std::cout << "IREE's pipeline constraints: IREE states them for GPU "
                 "lowering configs only\n";
  std::cout << "\n";
  printProblems(problems);
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
