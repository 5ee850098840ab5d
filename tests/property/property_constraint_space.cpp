// IREE's pipeline constraints run by Tilescope, and the space they describe
// listed by Tilescope. Random contractions on gfx942 and sm_90 (as
// property_constraints makes them) are written as dispatches and IREE
// states and checks their constraints in the pinned iree-opt. For every op:
//  - the evaluator: Tilescope's reading of IREE's constraint program
//    (config::parseSmtProgram), run on the config's knob values, breaks the
//    same asserts IREE's verifier reports, with the same filled-in messages;
//  - the space: the knob assignments Tilescope lists (config::
//    enumerateSmtSpace through sweep::ireeSweepSpace, a random choice of
//    fields varied, the others held) are exactly the ones Z3 finds in
//    IREE's own SMT-LIB translation of the same constraints op
//    (ireeCodegenConvertConstraintsOpToSMTLIB), enumerated the way IREE's
//    tuner does (a model, then a clause blocking it, until unsat);
//  - the points: two listed neighbours of each op, written into its config
//    by the edit model, pass IREE's own verifier.
#include "ConstraintCases.h"
#include "PropertySupport.h"
#include "SmtLibSpace.h"

#include "core/config/smt/SmtProgram.h"
#include "core/iree/ConstraintsSmtLib.h"
#include "core/service/IreeConstraints.h"
#include "core/sweep/SweepSpace.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

using namespace tilescope;
using namespace tilescope::property;

namespace {

std::vector<std::string> sortedMessages(std::vector<std::string> messages) {
  std::sort(messages.begin(), messages.end());
  return messages;
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int perTarget = options.cases > 0 ? options.cases
                        : options.longRun ? 120
                                          : 24;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  const std::shared_ptr<iree::CompilerLibrary> library = projectLibrary();
  iree::DocumentParser parser(library);
  static const std::vector<std::string> kFields = {
      "workgroup", "subgroup", "reduction", "mma_kind", "subgroup_basis"};

  std::vector<Target> targets = defaultTargets();
  targets[0].executableTarget = gfx942ExecutableTarget();
  Tally tally;
  int index = 0;
  for (const Target &target : targets) {
    ConstraintCases made =
        constraintCases(random, target, perTarget, index, 0.5);
    auto document = casesDocument(parser, made.cases, target.name + ".mlir");
    if (!document) {
      std::cerr << document.error() << "\n";
      return 1;
    }
    auto verdict = service::ireeConstraintVerdict(installation, *document);
    if (!verdict) {
      std::cerr << verdict.error() << "\n";
      return 1;
    }
    std::map<std::string, Case *> byFunction;
    for (Case &c : made.cases)
      byFunction[c.probe.function] = &c;
    std::vector<Case> neighbours;

    for (const service::OpConstraintVerdict &v : verdict->ops) {
      const document::Dispatch &dispatch = document->dispatches[v.dispatch];
      Case *c = byFunction[dispatch.name];
      const service::ConstraintSet *set = nullptr;
      for (const service::ConstraintSet &s : v.sets)
        if (s.pipeline == v.pipeline)
          set = &s;
      const std::string what = dispatch.name + " [" +
                               made.changes[dispatch.name] + "] " +
                               (c ? c->probe.loweringConfig : "");
      if (!set || v.knobs.outcome != config::KnobMatch::Outcome::Matched ||
          (v.outcome != service::OpConstraintVerdict::Outcome::Holds &&
           v.outcome != service::OpConstraintVerdict::Outcome::Violated)) {
        tally.skipped(target.name + " evaluator",
                      "IREE does not check the op (" +
                          service::toString(v.outcome) + ")");
        continue;
      }
      auto program = config::parseSmtProgram(set->body, set->dims);
      const std::string evaluator = target.name + " " + v.pipeline +
                                    " evaluator (" +
                                    service::toString(v.outcome) + ")";
      tally.generated(evaluator);
      if (!program) {
        tally.disagreed(evaluator, what + "\n  " + program.error());
        continue;
      }
      std::vector<std::string> ours, ireeSays;
      for (const config::SmtViolation &violation :
           config::violatedAsserts(*program, v.knobs.values))
        ours.push_back(violation.message);
      for (const service::ConstraintViolation &violation : v.violations)
        ireeSays.push_back(violation.message);
      if (sortedMessages(ours) == sortedMessages(ireeSays))
        tally.agreed(evaluator);
      else {
        std::string both = "\n  IREE:";
        for (const std::string &m : ireeSays)
          both += "\n    " + m;
        both += "\n  Tilescope:";
        for (const std::string &m : ours)
          both += "\n    " + m;
        tally.disagreed(evaluator, what + both);
      }
      if (!c)
        continue;

      // The space around the config, some fields varied (a config IREE
      // rejects has neighbours too: the held fields may still allow some).
      sweep::IreeSpaceRequest asked;
      asked.document = &*document;
      asked.op = edit::OpRef{v.dispatch, v.op};
      asked.nearest = 8;
      for (const std::string &field : kFields)
        if (random.chance(0.5) &&
            set->knobs.find(field + " =") != std::string::npos)
          asked.vary.push_back(field);
      if (asked.vary.empty())
        asked.vary.push_back("workgroup");
      const std::string spaceFamily =
          target.name + " " + v.pipeline + " space vs Z3 on IREE's SMT-LIB";
      tally.generated(spaceFamily);
      auto space = sweep::ireeSweepSpace(installation, asked);
      if (!space) {
        tally.disagreed(spaceFamily, what + "\n  " + space.error());
        continue;
      }
      auto smtlib = iree::constraintsAsSmtLib(library, constraintsModule(*set),
                                              "space.mlir");
      if (!smtlib || smtlib->size() != 1) {
        tally.disagreed(spaceFamily,
                        what + "\n  IREE's SMT-LIB: " +
                            (smtlib ? std::to_string(smtlib->size()) + " ops"
                                    : smtlib.error()));
        continue;
      }
      std::map<std::string, int64_t> held;
      for (size_t k = 0; k < space->knobs.size(); ++k)
        if (std::find(space->held.begin(), space->held.end(),
                      space->knobs[k]) != space->held.end())
          held[space->knobs[k]] = space->current[k];
      const Z3Space z3 =
          z3Space(smtlib->front().smtlib, space->knobs, held, 20000);
      const std::set<std::vector<int64_t>> listed(space->space.points.begin(),
                                                  space->space.points.end());
      std::string varied;
      for (const std::string &f : asked.vary)
        varied += " " + f;
      if (!z3.error.empty()) {
        tally.disagreed(spaceFamily, what + "\n  " + z3.error);
      } else if (z3.truncated) {
        tally.skipped(spaceFamily, "Z3 found more than 20000");
      } else if (listed == z3.points && !space->space.truncated) {
        tally.agreed(spaceFamily);
        if (options.verbose)
          std::cout << dispatch.name << " vary" << varied << ": "
                    << listed.size() << " assignments, both\n";
      } else {
        std::string diff;
        int shown = 0;
        auto show = [&](const std::vector<int64_t> &p, const char *who) {
          if (++shown > 6)
            return;
          diff += std::string("\n    only ") + who + ":";
          for (size_t k = 0; k < p.size(); ++k)
            diff += " " + space->knobs[k] + "=" + std::to_string(p[k]);
        };
        for (const auto &p : listed)
          if (!z3.points.count(p))
            show(p, "Tilescope");
        for (const auto &p : z3.points)
          if (!listed.count(p))
            show(p, "Z3");
        tally.disagreed(spaceFamily,
                        what + "\n  vary" + varied + ": Tilescope " +
                            std::to_string(listed.size()) + ", Z3 " +
                            std::to_string(z3.points.size()) + diff);
      }

      // Two of the nearest neighbours, written into the config.
      for (int pick = 0; pick < 2 && !space->points.empty(); ++pick) {
        const sweep::SweepPoint &point = random.pick(space->points);
        Case neighbour = *c;
        neighbour.probe.function =
            c->probe.function + "_n" + std::to_string(pick);
        bool written = true;
        for (const auto &[field, value] : point.settings)
          written = written && setField(neighbour, field, value);
        if (!written) {
          tally.generated(target.name + " listed neighbour");
          tally.disagreed(target.name + " listed neighbour",
                          what + "\n  the edit model refuses " + point.name);
          continue;
        }
        made.changes[neighbour.probe.function] = point.name;
        neighbours.push_back(std::move(neighbour));
      }
    }

    if (neighbours.empty())
      continue;
    auto neighbourDocument =
        casesDocument(parser, neighbours, target.name + "-neighbours.mlir");
    if (!neighbourDocument) {
      std::cerr << neighbourDocument.error() << "\n";
      return 1;
    }
    auto checked =
        service::ireeConstraintVerdict(installation, *neighbourDocument);
    if (!checked) {
      std::cerr << checked.error() << "\n";
      return 1;
    }
    for (const service::OpConstraintVerdict &v : checked->ops) {
      const std::string family =
          target.name + " listed neighbour (IREE's verifier)";
      const std::string name = neighbourDocument->dispatches[v.dispatch].name;
      tally.generated(family);
      if (v.outcome == service::OpConstraintVerdict::Outcome::Holds)
        tally.agreed(family);
      else {
        std::string why = v.reason;
        for (const service::ConstraintViolation &violation : v.violations)
          why += "\n    " + violation.message;
        tally.disagreed(family, name + " [" + made.changes[name] +
                                    "]: IREE says " +
                                    service::toString(v.outcome) + why);
      }
    }
  }
  tally.print(std::cout, options.seed);
  return tally.disagreements() == 0 ? 0 : 1;
}
