// IREE's pipeline constraints, read as IREE reads them. Random TileAndFuse
// and VectorDistribute contractions on gfx942 and sm_90 (tiles varied,
// fields dropped or changed half of the time) are written as dispatches;
// IREE states their constraints and checks them in the pinned iree-opt
// (service::ireeConstraintVerdict). For every op:
//  - Tilescope's reading of the config through IREE's knobs template
//    (config::matchKnobs) predicts IREE's: a template entry the config lacks
//    if and only if IREE refuses to extract the knobs;
//  - where every knob matched, the knob values Tilescope read, handed to
//    IREE's own materialization (iree-codegen-test-materialize-smt-
//    constraint-assignments), give back the config's fields and the
//    translation_info's sizes: the values are the ones IREE means;
//  - every violation IREE reports names a field of the config.
#include "ConstraintCases.h"
#include "PropertySupport.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/AttributeLocator.h"
#include "core/edit/FieldEdit.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/DocumentParser.h"
#include "core/process/Process.h"
#include "core/service/IreeConstraints.h"
#include "core/util/Files.h"

#include <fstream>
#include <iostream>
#include <map>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct Materialization {
  std::string pipeline;
  std::string knobs;
  std::map<std::string, int64_t> values;
};

// IREE's materialization of each knob assignment: one compilation_info
// each, in order, or an error in IREE's words.
Result<std::vector<config::Attribute>>
materialize(const tools::IreeInstallation &installation,
            const std::vector<Materialization> &requests) {
  std::string text;
  for (const Materialization &m : requests) {
    std::string assignments;
    for (const auto &[knob, value] : m.values)
      assignments += (assignments.empty() ? "" : ", ") + knob + " = " +
                     std::to_string(value) + " : i64";
    text += "iree_codegen.smt.constraints target = <set = 0>, pipeline = "
            "#iree_gpu.pipeline<" +
            m.pipeline + ">, knobs = " + m.knobs +
            " dims() attributes {test.assignments = {" + assignments +
            "}} {\n}\n";
  }
  auto folder = TemporaryDirectory::create("tilescope-materialize");
  if (!folder)
    return Error{folder.error()};
  if (auto written = writeFileAtomically(folder->file("in.mlir"), text);
      !written)
    return Error{written.error()};
  process::ProcessSpec spec;
  spec.program = *installation.tool(tools::kIreeOpt);
  spec.arguments = {"--mlir-print-local-scope",
                    "--iree-codegen-test-materialize-smt-constraint-"
                    "assignments",
                    folder->file("in.mlir").string(), "-o",
                    folder->file("out.mlir").string()};
  const process::ProcessResult result = process::runProcess(spec);
  if (!result.succeeded())
    return Error{"iree-opt " + result.describe() + "\n" +
                 result.standardError.substr(0, 2000)};
  auto out = readTextFile(folder->file("out.mlir"));
  if (!out)
    return Error{out.error()};
  std::vector<config::Attribute> infos;
  const edit::TextRange whole{0, out->size()};
  for (size_t at = out->find("iree_codegen.smt.constraints");
       at != std::string::npos;
       at = out->find("iree_codegen.smt.constraints", at + 1)) {
    auto site = edit::locateAttribute(
        *out, at, "test.materialized_compilation_info", whole);
    if (!site)
      return Error{site.error()};
    auto info = config::parseResolvedAttribute(
        out->substr(site->value.offset, site->value.length));
    if (!info)
      return Error{info.error()};
    infos.push_back(*info);
  }
  if (infos.size() != requests.size())
    return Error{"IREE materialized " + std::to_string(infos.size()) + " of " +
                 std::to_string(requests.size())};
  return infos;
}

// Where IREE's materialized compilation_info differs from the case's config
// and translation_info, on the fields the template holds; empty if nowhere.
std::string difference(const config::Attribute &compilationInfo,
                       const Case &c) {
  auto info = config::CompilationInfo::fromAttribute(compilationInfo);
  if (!info)
    return "IREE's compilation_info does not read back: " + info.error();
  auto mine = config::parseResolvedAttribute(c.probe.loweringConfig);
  auto translation = config::TranslationInfo::parse(c.probe.translationInfo);
  if (!mine || !translation)
    return "the case does not read back";
  const auto theirs = info->loweringConfig.positional();
  const auto ours = mine->positional();
  if (theirs.empty() || ours.empty())
    return "no dictionary in a lowering config";
  std::string out;
  for (const config::Parameter &entry : theirs.front()->parameters) {
    const config::Attribute *value = ours.front()->find(entry.name);
    const std::string theirText = config::printAttribute(entry.get());
    const std::string ourText = value ? config::printAttribute(*value) : "";
    if (theirText != ourText)
      out += "\n    " + entry.name + ": IREE " + theirText + ", config " +
             (value ? ourText : "(none)");
  }
  if (info->translationInfo.workgroupSize != translation->workgroupSize)
    out += "\n    workgroup_size differs";
  if (info->translationInfo.subgroupSize != translation->subgroupSize)
    out += "\n    subgroup_size differs";
  return out;
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int perTarget = options.cases > 0 ? options.cases
                        : options.longRun ? 300
                                          : 40;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  iree::DocumentParser parser(projectLibrary());

  std::vector<Target> targets = defaultTargets();
  targets[0].executableTarget = gfx942ExecutableTarget();
  Tally tally;
  int index = 0;
  for (const Target &target : targets) {
    auto made = constraintCases(random, target, perTarget, index);
    std::vector<Case> &cases = made.cases;
    std::map<std::string, std::string> &changes = made.changes;
    auto document = casesDocument(parser, cases, target.name + ".mlir");
    if (!document) {
      std::cerr << document.error() << "\n";
      return 1;
    }
    auto verdict = service::ireeConstraintVerdict(installation, *document);
    if (!verdict) {
      std::cerr << verdict.error() << "\n";
      return 1;
    }

    // Asked about one op alone, IREE gives that op the same verdict.
    for (size_t k = 0; k < verdict->ops.size(); k += 7) {
      const service::OpConstraintVerdict &whole = verdict->ops[k];
      auto alone = service::ireeConstraintVerdict(
          installation, *document, std::chrono::minutes(2), nullptr,
          edit::OpRef{whole.dispatch, whole.op});
      const std::string family = target.name + " one op asked alone";
      tally.generated(family);
      if (alone && alone->ops.size() == 1 &&
          alone->ops.front().outcome == whole.outcome &&
          alone->ops.front().violations.size() == whole.violations.size())
        tally.agreed(family);
      else
        tally.disagreed(family,
                        document->dispatches[whole.dispatch].name +
                            ": asked alone, the verdict differs (" +
                            (alone ? std::to_string(alone->ops.size()) + " ops"
                                   : alone.error()) +
                            ")");
    }

    std::vector<Materialization> requests;
    std::vector<const Case *> requested;
    std::vector<std::string> requestFamilies;
    std::map<std::string, const Case *> byFunction;
    for (const Case &c : cases)
      byFunction[c.probe.function] = &c;
    for (const service::OpConstraintVerdict &v : verdict->ops) {
      const document::Dispatch &dispatch = document->dispatches[v.dispatch];
      const Case *c = byFunction[dispatch.name];
      if (!c) {
        std::cerr << "no case for " << dispatch.name << "\n";
        return 1;
      }
      const std::string family = target.name + " " + c->family + " (" +
                                 service::toString(v.outcome) + ")";
      tally.generated(family);
      const std::string description =
          c->probe.function + " [" + changes[c->probe.function] +
          "]\n  config " + c->probe.loweringConfig + "\n  translation " +
          c->probe.translationInfo + "\n  verdict " +
          service::toString(v.outcome) + ": " + v.reason;
      std::string violations;
      for (const service::ConstraintViolation &violation : v.violations)
        violations += "\n    " + violation.message;
      if (options.verbose)
        std::cout << family << ": " << description << violations << "\n";
      const bool ireeRefusedTemplate =
          v.outcome == service::OpConstraintVerdict::Outcome::NotChecked &&
          v.reason.find("failed to extract SMT knob values") !=
              std::string::npos;
      const bool weSayMissing =
          v.knobs.outcome == config::KnobMatch::Outcome::Missing;
      if (v.outcome != service::OpConstraintVerdict::Outcome::NoConstraints &&
          ireeRefusedTemplate != weSayMissing) {
        tally.disagreed(family,
                        description + "\n  IREE " +
                            (ireeRefusedTemplate ? "refuses" : "takes") +
                            " the template; Tilescope: " + v.knobs.describe());
        continue;
      }
      bool unplaced = false;
      for (const service::ConstraintViolation &violation : v.violations)
        if (violation.fields.empty() &&
            violation.message.rfind("dim_", 0) != 0) {
          tally.disagreed(family, description + "\n  IREE's violation '" +
                                      violation.message +
                                      "' names no field of the config");
          unplaced = true;
        }
      if (unplaced)
        continue;
      if (v.knobs.outcome != config::KnobMatch::Outcome::Matched) {
        tally.agreed(family);
        continue;
      }
      if (v.outcome == service::OpConstraintVerdict::Outcome::NoConstraints ||
          v.reason.find("crashed") != std::string::npos ||
          v.reason.find("killed by signal") != std::string::npos) {
        tally.skipped(
            family,
            v.outcome == service::OpConstraintVerdict::Outcome::NoConstraints
                ? "IREE states no constraints for it"
                : "IREE crashed stating its constraints");
        continue;
      }
      for (const service::ConstraintSet &set : v.sets)
        if (set.pipeline == v.pipeline) {
          requests.push_back({set.pipeline, set.knobs, v.knobs.values});
          requested.push_back(c);
          requestFamilies.push_back(family);
        }
    }
    auto infos = materialize(installation, requests);
    if (!infos) {
      std::cerr << "IREE's materialization failed: " << infos.error() << "\n";
      return 1;
    }
    for (size_t i = 0; i < infos->size(); ++i) {
      const std::string diff = difference((*infos)[i], *requested[i]);
      if (diff.empty())
        tally.agreed(requestFamilies[i]);
      else
        tally.disagreed(requestFamilies[i],
                        requested[i]->probe.function + " [" +
                            changes[requested[i]->probe.function] +
                            "]: the knob values Tilescope read give back, "
                            "through IREE, another config:" +
                            diff);
    }
  }
  tally.print(std::cout, options.seed);
  return tally.disagreements() == 0 ? 0 : 1;
}
