// Property test: Tilescope's validation against whether IREE compiles the
// config. Each case is a generated config as IREE's config selection shapes
// it, with at most one of the mistakes people make applied; IREE's verdict
// is its GPU codegen pipeline run to the LLVM dialect
// (iree-opt --iree-codegen-llvmgpu-*-lowering-pipeline): an error
// diagnostic or a crash is a refusal.
//
// Ours: config::validate with the op's iteration space, the target and the
// translation_info; an Error problem is a refusal, warnings are not. A rule
// that flags what IREE's code asserts against (undefined in a release
// build) is counted apart: IREE's code, not a release binary's luck, is the
// truth there.
#include "ConfigCases.h"
#include "ProbeRunner.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Validation.h"
#include "core/layout/LayoutValidation.h"

#include <functional>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct Mistake {
  std::string name;
  std::function<bool(Random &, Case &, config::LoweringConfig &)> apply;
};

std::optional<size_t>
pickDim(Random &random, const config::IterationSpace &space, bool reduction) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < space.rank(); ++d)
    if (space.isReduction(d) == reduction)
      dims.push_back(d);
  if (dims.empty())
    return std::nullopt;
  return random.pick(dims);
}

std::vector<int64_t> tiles(const config::LoweringConfig &c,
                           config::TilingLevel level, size_t rank) {
  auto sizes = c.tileSizes(level).value_or(std::vector<int64_t>{});
  sizes.resize(rank, 0);
  return sizes;
}

std::vector<Mistake> mistakes() {
  using config::TilingLevel;
  return {
      {"none", [](Random &, Case &, config::LoweringConfig &) { return true; }},
      {"scaled reduction does not divide K",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         if (c.family != "tile-and-fuse-scaled")
           return false;
         auto reduction =
             tiles(config, TilingLevel::Reduction, c.probe.space.rank());
         reduction[2] = random.pick<int64_t>({3, 5});
         config.setTileSizes(TilingLevel::Reduction, reduction);
         return true;
       }},
      {"workgroup tile does not divide its dimension",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto d = pickDim(random, c.probe.space, false);
         auto workgroup =
             tiles(config, TilingLevel::Workgroup, c.probe.space.rank());
         if (!d || workgroup[*d] <= 1)
           return false;
         c.probe.space.bounds[*d] = workgroup[*d] * 2 + workgroup[*d] / 2 + 1;
         return true;
       }},
      {"reduction tile does not divide its dimension",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto d = pickDim(random, c.probe.space, true);
         auto reduction =
             tiles(config, TilingLevel::Reduction, c.probe.space.rank());
         if (!d || reduction[*d] <= 1)
           return false;
         c.probe.space.bounds[*d] = reduction[*d] * 3 + reduction[*d] / 2;
         return true;
       }},
      {"partial_reduction not a multiple of thread",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto d = pickDim(random, c.probe.space, true);
         auto partial =
             tiles(config, TilingLevel::PartialReduction, c.probe.space.rank());
         auto thread = tiles(config, TilingLevel::Thread, c.probe.space.rank());
         if (!d || partial[*d] <= 0 || thread[*d] <= 1)
           return false;
         partial[*d] += thread[*d] / 2;
         config.setTileSizes(TilingLevel::PartialReduction, partial);
         return true;
       }},
      {"lane_basis covers half a subgroup",
       [](Random &, Case &c, config::LoweringConfig &config) {
         auto lanes = config.laneBasis();
         if (!lanes)
           return false;
         for (int64_t &count : lanes->counts)
           if (count > 1) {
             count /= 2;
             config.setLaneBasis(*lanes);
             (void)c;
             return true;
           }
         return false;
       }},
      {"lane_basis covers two subgroups",
       [](Random &, Case &, config::LoweringConfig &config) {
         auto lanes = config.laneBasis();
         if (!lanes || lanes->counts.empty())
           return false;
         lanes->counts[static_cast<size_t>(lanes->mapping.front())] *= 2;
         config.setLaneBasis(*lanes);
         return true;
       }},
      {"workgroup_size off by a subgroup",
       [](Random &, Case &c, config::LoweringConfig &) {
         c.workgroupSize[0] += c.subgroupSize;
         return true;
       }},
      {"negative thread tile",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto thread = tiles(config, TilingLevel::Thread, c.probe.space.rank());
         thread[static_cast<size_t>(
             random.range(0, static_cast<int64_t>(thread.size()) - 1))] = -8;
         config.setTileSizes(TilingLevel::Thread, thread);
         return true;
       }},
      {"subgroup_size the target does not offer",
       [](Random &, Case &c, config::LoweringConfig &) {
         c.subgroupSize = c.subgroupSize == 64 ? 32 : 64;
         return true;
       }},
      {"intrinsic the target does not offer",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto mma = config.mmaKind();
         if (!mma)
           return false;
         const std::vector<std::string> other =
             c.target->name == "gfx942"
                 ? std::vector<std::string>{"WMMAR3_F32_16x16x16_F16",
                                            "MFMA_F32_16x16x32_F16"}
                 : std::vector<std::string>{"MFMA_F32_16x16x16_F16"};
         mma->intrinsic = random.pick(other);
         config.setMmaKind(*mma);
         return true;
       }},
      {"workgroup_size a subgroup short",
       [](Random &, Case &c, config::LoweringConfig &) {
         if (c.workgroupSize[0] < 2 * c.subgroupSize)
           return false;
         c.workgroupSize[0] -= c.subgroupSize;
         return true;
       }},
      {"reduction tile not a multiple of the intrinsic's K",
       [](Random &, Case &c, config::LoweringConfig &config) {
         auto mma = config.mmaKind();
         if (!mma || c.family.rfind("contraction", 0) != 0)
           return false;
         auto reduction =
             tiles(config, TilingLevel::Reduction, c.probe.space.rank());
         for (size_t d = 0; d < reduction.size(); ++d)
           if (reduction[d] > 4) {
             reduction[d] += reduction[d] / 2;
             c.probe.space.bounds[d] = reduction[d] * 2;
             config.setTileSizes(TilingLevel::Reduction, reduction);
             return true;
           }
         return false;
       }},
      {"operand types the intrinsic does not read",
       [](Random &, Case &c, config::LoweringConfig &config) {
         if (!config.mmaKind() || c.probe.space.operands.size() != 3)
           return false;
         // Another type of the same kind as the accumulator (the probe
         // body converts floats to floats, integers to integers).
         const std::string &current = c.probe.space.operands[0].elementType;
         const bool integer = c.probe.space.operands[2].elementType[0] == 'i';
         const std::string swap = integer ? (current == "i16" ? "i8" : "i16")
                                  : current == "f32" ? "f16"
                                                     : "f32";
         c.probe.space.operands[0].elementType = swap;
         c.probe.space.operands[1].elementType = swap;
         return true;
       }},
      {"thread tile larger than its workgroup tile",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         if (config.mmaKind())
           return false;
         auto d = pickDim(random, c.probe.space, false);
         auto workgroup =
             tiles(config, TilingLevel::Workgroup, c.probe.space.rank());
         auto thread = tiles(config, TilingLevel::Thread, c.probe.space.rank());
         if (!d || workgroup[*d] <= 0)
           return false;
         thread[*d] = workgroup[*d] * 2;
         config.setTileSizes(TilingLevel::Thread, thread);
         return true;
       }},
      {"promote_operands names a missing operand",
       [](Random &, Case &c, config::LoweringConfig &config) {
         config.setPromoteOperands(
             {static_cast<int64_t>(c.probe.space.operands.size()) + 1});
         return true;
       }},
      {"lane_basis mapping repeats an axis",
       [](Random &, Case &, config::LoweringConfig &config) {
         auto lanes = config.laneBasis();
         if (!lanes || lanes->mapping.size() < 2)
           return false;
         lanes->mapping[1] = lanes->mapping[0];
         config.setLaneBasis(*lanes);
         return true;
       }},
      {"workgroup tile on a reduction dimension",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto d = pickDim(random, c.probe.space, true);
         if (!d || config.mmaKind())
           return false;
         auto workgroup =
             tiles(config, TilingLevel::Workgroup, c.probe.space.rank());
         workgroup[*d] = std::max<int64_t>(c.probe.space.bounds[*d] / 2, 1);
         config.setTileSizes(TilingLevel::Workgroup, workgroup);
         return true;
       }},
      {"partial_reduction on a parallel dimension",
       [](Random &random, Case &c, config::LoweringConfig &config) {
         auto d = pickDim(random, c.probe.space, false);
         if (!d || c.family != "partial-reduction")
           return false;
         auto partial =
             tiles(config, TilingLevel::PartialReduction, c.probe.space.rank());
         partial[*d] = 2;
         config.setTileSizes(TilingLevel::PartialReduction, partial);
         return true;
       }},
      {"contraction workgroup tile not a multiple of the intrinsic",
       [](Random &, Case &c, config::LoweringConfig &config) {
         if (!config.mmaKind())
           return false;
         auto workgroup =
             tiles(config, TilingLevel::Workgroup, c.probe.space.rank());
         for (size_t d = 0; d < workgroup.size(); ++d)
           if (workgroup[d] > 8) {
             workgroup[d] += workgroup[d] / 2;
             c.probe.space.bounds[d] = workgroup[d] * 2;
             config.setTileSizes(TilingLevel::Workgroup, workgroup);
             return true;
           }
         return false;
       }},
  };
}

} // namespace

// --intrinsic-matrix: every intrinsic of each target once under each
// pipeline, with a canonical config; prints what IREE says (the data behind
// the intrinsic rules in core/config).
int intrinsicMatrix() {
  Random random(1);
  const tools::IreeInstallation installation = projectIree();
  for (const Target &target : defaultTargets()) {
    std::vector<Case> cases;
    int index = 0;
    for (const std::string &name : target.intrinsics) {
      for (bool tileAndFuse : {false, true}) {
        for (int attempt = 0; attempt < 50; ++attempt) {
          Case c = tileAndFuse ? tileAndFuseMmaCase(random, target, name, index)
                               : contractionCase(random, target, name, index);
          if (c.probe.loweringConfig.find("col_major") == std::string::npos &&
              c.probe.space.rank() == 3) {
            ++index;
            cases.push_back(c);
            break;
          }
        }
      }
    }
    std::vector<devices::ProbeOp> probes;
    for (const Case &c : cases)
      probes.push_back(c.probe);
    service::LoweringProbeRequest request;
    request.backend = target.backend;
    request.testTarget = target.testTarget;
    request.executableForm = !target.executableTarget.empty();
    request.includeLlvmLowering = true;
    auto outcomes = runProbes(installation, request, probes, 100);
    for (const Case &c : cases) {
      const ProbeOutcome &o = outcomes[c.probe.function];
      std::string why = o.crash;
      for (const auto &d : o.diagnostics)
        if (d.severity == "error" && why.empty())
          why = d.message.substr(0, 150);
      const size_t at = c.probe.loweringConfig.find("mma_layout<");
      const std::string name = c.probe.loweringConfig.substr(
          at + 11, c.probe.loweringConfig.find('>', at) - at - 11);
      std::cout << target.name << " " << c.family << " " << name << ": "
                << (o.failed() ? "REFUSED " + why : "ok") << "\n";
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "--intrinsic-matrix")
    return intrinsicMatrix();
  // --mistake NAME: apply only that mistake (to study one rule).
  std::string only;
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--mistake" && i + 1 < argc)
      only = argv[++i];
    else
      rest.push_back(argv[i]);
  }
  const Options options =
      parseOptions(static_cast<int>(rest.size()), rest.data());
  const int perFamily = options.cases > 0 ? options.cases
                        : options.longRun ? 300
                                          : 24;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  std::vector<Target> targets = defaultTargets();
  // gfx950 for the scaled (MX) contractions only it runs.
  targets.push_back(scaledTarget());
  const std::vector<Mistake> all = mistakes();

  struct Run {
    Case c;
    std::string mistake;
    std::vector<config::Problem> problems;
  };
  std::vector<Run> runs;
  int index = 0;
  for (const Target &target : targets) {
    const bool scaledOnly = target.name == "gfx950";
    for (int i = 0; i < (scaledOnly ? perFamily / 2 : perFamily); ++i) {
      Case c;
      if (scaledOnly)
        c = scaledContractionCase(random, target,
                                  random.pick(target.intrinsics), index++);
      else
        switch (i % 5) {
        case 0:
          c = reductionCase(random, target, "elementwise", index++);
          break;
        case 1:
          c = reductionCase(random, target, "reduction", index++);
          break;
        case 2:
          c = reductionCase(random, target, "partial-reduction", index++);
          break;
        case 3:
          c = contractionCase(random, target, random.pick(target.intrinsics),
                              index++);
          break;
        default:
          c = tileAndFuseMmaCase(random, target, random.pick(target.intrinsics),
                                 index++);
          break;
        }
      auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
      // Pick a mistake that applies to this case (none half of the time).
      std::string mistake = "none";
      if (!only.empty() || random.chance(0.6)) {
        for (int attempt = 0; attempt < (only.empty() ? 8 : 1); ++attempt) {
          const Mistake &m =
              only.empty() ? all[static_cast<size_t>(random.range(
                                 1, static_cast<int64_t>(all.size()) - 1))]
                           : *std::find_if(all.begin(), all.end(),
                                           [&](const Mistake &x) {
                                             return x.name == only;
                                           });
          Case trial = c;
          config::LoweringConfig trialConfig = *config;
          if (m.apply(random, trial, trialConfig)) {
            c = trial;
            *config = trialConfig;
            mistake = m.name;
            break;
          }
        }
      }
      if (!only.empty() && mistake != only)
        continue;
      c.family += " / " + mistake;
      c.probe.loweringConfig = config->print();
      const std::string pipeline = c.family.rfind("tile-and-fuse", 0) == 0
                                       ? "TileAndFuse"
                                       : "VectorDistribute";
      c.probe.translationInfo =
          translationInfo(pipeline, c.workgroupSize, c.subgroupSize);
      config::ValidationContext context;
      context.iterationSpace = c.probe.space;
      context.target = config::builtinTarget(target.name);
      context.translationInfo =
          *config::TranslationInfo::parse(c.probe.translationInfo);
      runs.push_back({c, mistake, layout::validate(*config, context)});
    }
  }

  Tally tally;
  for (const Target &target : targets) {
    std::vector<const Run *> batch;
    std::vector<devices::ProbeOp> probes;
    for (const Run &run : runs)
      if (run.c.target == &target) {
        batch.push_back(&run);
        probes.push_back(run.c.probe);
      }
    service::LoweringProbeRequest request;
    request.backend = target.backend;
    request.testTarget = target.testTarget;
    request.executableForm = !target.executableTarget.empty();
    request.includeLlvmLowering = true;
    auto outcomes = runProbes(installation, request, probes, 100);
    for (const Run *run : batch) {
      const std::string &family = run->c.family;
      tally.generated(family);
      const ProbeOutcome &outcome = outcomes[run->c.probe.function];
      if (!outcome.notWritten.empty()) {
        tally.skipped(family,
                      "no probe function for it (" + outcome.notWritten + ")");
        continue;
      }
      const bool ireeRefuses = outcome.failed();
      std::vector<const config::Problem *> errors;
      for (const config::Problem &p : run->problems)
        if (p.severity == config::Problem::Severity::Error)
          errors.push_back(&p);
      const bool weRefuse = !errors.empty();
      std::string ours;
      for (const config::Problem *p : errors)
        ours += "\n    " + p->field + ": " + p->message + " [" + p->rule + "]";
      std::string theirs;
      if (!outcome.crash.empty())
        theirs = "\n    IREE " + outcome.crash;
      for (const auto &d : outcome.diagnostics)
        if (d.severity == "error")
          theirs += "\n    " + d.message.substr(0, 240);
      const std::string description =
          run->c.probe.function + " on " + target.name + "\n  space " +
          run->c.probe.space.toString() + "\n  config " +
          run->c.probe.loweringConfig + "\n  translation " +
          run->c.probe.translationInfo;
      if (weRefuse == ireeRefuses) {
        tally.agreed(family);
        if (options.verbose)
          std::cout << "agree (" << (weRefuse ? "refuse" : "accept") << ") "
                    << description << ours << theirs << "\n";
        continue;
      }
      // IREE compiled a config that only a rule of the "IREE asserts" or
      // "IREE does not check" kind refuses: counted apart, the rule names what
      // IREE's code builds instead.
      const bool onlyUnchecked = std::all_of(
          errors.begin(), errors.end(), [](const config::Problem *p) {
            return p->iree == config::Problem::IreeResponse::Asserts ||
                   p->iree == config::Problem::IreeResponse::Unchecked;
          });
      if (weRefuse && !ireeRefuses && onlyUnchecked) {
        tally.skipped(family, "refused by a rule IREE does not check or "
                              "asserts (IREE compiled it)");
        continue;
      }
      tally.disagreed(
          family, description + "\n  IREE " +
                      (ireeRefuses ? "refuses:" + theirs : "accepts") +
                      "\n  ours " + (weRefuse ? "refuses:" + ours : "accepts"));
    }
  }
  tally.print(std::cout, options.seed);
  return tally.disagreements() == 0 ? 0 : 1;
}
