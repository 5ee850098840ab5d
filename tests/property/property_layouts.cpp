// Property test: the layouts and thread mappings Tilescope derives from a
// lowering config equal what the real IREE assigns, on random configs.
//
// Families (each seeded, printed on failure):
//   elementwise, reduction, partial-reduction   VectorDistribute without an
//       intrinsic: the to_layout of every operand after IREE's
//       configure-tensor-layouts pass;
//   contraction                                 VectorDistribute with each
//       MMA intrinsic of gfx942 and sm_90: LHS, RHS, ACC layouts;
//   contraction-block                           the same with gfx942's block
//       intrinsics (3-D fragments) on batch contractions;
//   tile-and-fuse                               TileAndFuse thread tiles: the
//       thread forall's trip counts and linear_dim mapping;
//   tile-and-fuse-mma                           TileAndFuse with mma_kind: the
//       subgroup (warp) forall, and the derived_thread_config copies of the
//       promoted operands;
//   derived-thread-config                       ops IREE gives
//       #iree_gpu.derived_thread_config: the thread forall of the tiles it
//       derives;
//   tile-and-fuse-scaled                        the same for scaled (MX)
//       contractions on gfx950, all four inputs promoted (FP4 copies in
//       bits).
// IREE runs once per target on all cases of a batch (iree-opt
// --split-input-file on probe functions); a crash is bisected to its case.
#include "ConfigCases.h"
#include "ProbeRunner.h"

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Validation.h"
#include "core/config/syntax/Attribute.h"
#include "core/devices/ProbeModule.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/LoweredIrReader.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/OpLayouts.h"
#include "core/layout/ThreadDistribution.h"
#include "core/service/IreeLowering.h"

#include <fstream>
#include <functional>
#include <set>

using namespace tilescope;
using property::list;

namespace {

using namespace property;

// --- Comparison
// ------------------------------------------------------------------

std::string describeCase(const Case &c) {
  return c.probe.function + " on " + c.target->name + "\n  space " +
         c.probe.space.toString() + "\n  config " + c.probe.loweringConfig +
         "\n  workgroup_size " + list(c.workgroupSize);
}

// Field-by-field differences of two nested layouts; empty when equal.
std::string layoutDifference(const std::string &theirs,
                             const config::NestedLayoutAttr &ours) {
  if (theirs == ours.print())
    return {};
  auto parsed = config::NestedLayoutAttr::parse(theirs);
  if (!parsed)
    return "IREE printed a layout Tilescope cannot read: " + theirs;
  std::string out;
  auto field = [&](const char *name, const std::vector<int64_t> &a,
                   const std::vector<int64_t> &b) {
    if (a != b)
      out += std::string("    ") + name + ": IREE " + list(a) + ", ours " +
             list(b) + "\n";
  };
  field("subgroup_tile", parsed->subgroupTile, ours.subgroupTile);
  field("batch_tile", parsed->batchTile, ours.batchTile);
  field("outer_tile", parsed->outerTile, ours.outerTile);
  field("thread_tile", parsed->threadTile, ours.threadTile);
  field("element_tile", parsed->elementTile, ours.elementTile);
  field("subgroup_strides", parsed->subgroupStrides, ours.subgroupStrides);
  field("thread_strides", parsed->threadStrides, ours.threadStrides);
  return out.empty() ? "    (same fields, different print)\n" : out;
}

std::string compareAnchors(const Case &c,
                           const document::LoweredFunction &lowered) {
  std::vector<const document::AnchoredOp *> configured;
  for (const document::AnchoredOp &op : lowered.anchoredOps)
    if (!op.loweringConfig.empty())
      configured.push_back(&op);
  if (configured.size() != 1)
    return "IREE anchored " + std::to_string(configured.size()) +
           " configured ops; expected 1";
  const document::AnchoredOp &theirs = *configured.front();
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  std::vector<config::NestedLayoutAttr> ours;
  if (config->mmaKind()) {
    auto layouts = layout::deriveContractionLayouts(*config, c.probe.space);
    if (!layouts)
      return "Tilescope cannot derive the contraction layouts: " +
             layouts.error();
    ours = {layouts->lhs, layouts->rhs, layouts->acc};
  } else {
    layout::DeriveOptions options;
    options.subgroupSize = c.subgroupSize;
    auto derived = layout::deriveLayout(*config, c.probe.space, options);
    if (!derived)
      return "Tilescope cannot derive the layout: " + derived.error();
    ours = layout::operandLayouts(*derived, c.probe.space);
  }
  if (theirs.operands.size() != ours.size())
    return "IREE's op has " + std::to_string(theirs.operands.size()) +
           " operands, ours " + std::to_string(ours.size());
  std::string report;
  const char *names[] = {"operand 0", "operand 1", "operand 2", "operand 3"};
  for (size_t i = 0; i < ours.size(); ++i) {
    if (!theirs.operands[i]) {
      report += std::string("  ") + names[std::min<size_t>(i, 3)] +
                ": IREE set no layout\n";
      continue;
    }
    const std::string diff =
        layoutDifference(theirs.operands[i]->layout, ours[i]);
    if (!diff.empty())
      report += std::string("  ") + names[std::min<size_t>(i, 3)] + " " +
                list(theirs.operands[i]->shape) + ":\n" + diff;
  }
  return report;
}

std::string compareForall(const document::ForallLoop &theirs,
                          const layout::ForallDistribution &ours,
                          const std::string &what) {
  std::string report;
  if (theirs.tripCounts() != ours.tripCounts)
    report += "  " + what + " trip counts: IREE " + list(theirs.tripCounts()) +
              ", ours " + list(ours.tripCounts) + "\n";
  std::vector<int64_t> a, b;
  for (int d : theirs.linearDims())
    a.push_back(d);
  for (int d : ours.linearDims)
    b.push_back(d);
  if (a != b)
    report += "  " + what + " linear_dim mapping: IREE " + list(a) + ", ours " +
              list(b) + "\n";
  return report;
}

// IREE's one thread forall against ours.
std::string compareOneThreadForall(const document::LoweredFunction &lowered,
                                   const layout::ForallDistribution &ours) {
  std::vector<const document::ForallLoop *> threadLoops;
  for (const document::ForallLoop &loop : lowered.foralls)
    if (loop.mappedTo("thread"))
      threadLoops.push_back(&loop);
  if (threadLoops.size() != 1)
    return "IREE made " + std::to_string(threadLoops.size()) +
           " thread foralls; expected 1";
  return compareForall(*threadLoops.front(), ours, "thread forall");
}

std::string compareThreads(const Case &c,
                           const document::LoweredFunction &lowered) {
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  auto ours =
      layout::tileAndFuseThreads(*config, c.probe.space, c.workgroupSize);
  if (!ours)
    return "Tilescope cannot distribute threads: " + ours.error();
  return compareOneThreadForall(lowered, *ours);
}

// #iree_gpu.derived_thread_config: the thread forall IREE makes from the
// tiles it derives, against the one Tilescope's OpLayouts draws.
std::string compareDerivedThreads(const Case &c,
                                  const document::LoweredFunction &lowered) {
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  auto info = config::TranslationInfo::parse(c.probe.translationInfo);
  if (!config || !info)
    return "the case's config or translation_info does not read back";
  layout::OpLayoutRequest request{&*config, &c.probe.space, &*info, {}};
  auto ours = layout::opLayouts(request);
  if (!ours || !ours->threads)
    return "Tilescope cannot derive the threads: " +
           (ours ? std::string("no thread forall") : ours.error());
  return compareOneThreadForall(lowered, *ours->threads);
}

std::string compareSubgroups(const Case &c,
                             const document::LoweredFunction &lowered) {
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  auto ours = layout::tileAndFuseSubgroups(*config, c.probe.space,
                                           c.workgroupSize, c.subgroupSize);
  if (!ours)
    return "Tilescope cannot distribute subgroups: " + ours.error();
  std::vector<const document::ForallLoop *> warpLoops, threadLoops;
  for (const document::ForallLoop &loop : lowered.foralls) {
    if (loop.mappedTo("warp"))
      warpLoops.push_back(&loop);
    if (loop.mappedTo("thread"))
      threadLoops.push_back(&loop);
  }
  if (warpLoops.size() != 1)
    return "IREE made " + std::to_string(warpLoops.size()) +
           " subgroup foralls; expected 1";
  std::string report =
      compareForall(*warpLoops.front(), *ours, "subgroup forall");
  // The promoted operands' copies: derived_thread_config over the operand's
  // workgroup tile (M or N by the K tile), in the operand's dimension order.
  if (config->promoteOperands()) {
    const int64_t threads =
        c.workgroupSize[0] * c.workgroupSize[1] * c.workgroupSize[2];
    std::multiset<std::vector<int64_t>> expected, found;
    const std::vector<int64_t> promoted = *config->promoteOperands();
    for (int64_t operand : promoted) {
      if (operand < 0 ||
          operand + 1 >= static_cast<int64_t>(c.probe.space.operands.size()))
        continue;
      std::vector<int64_t> shape;
      std::vector<config::LoopKind> kinds;
      for (int loop :
           c.probe.space.operands[static_cast<size_t>(operand)].dims) {
        const size_t l = static_cast<size_t>(loop);
        shape.push_back(ours->bounds[l] * ours->unit[l]);
        kinds.push_back(config::LoopKind::Parallel);
      }
      const std::string &type =
          c.probe.space.operands[static_cast<size_t>(operand)].elementType;
      // Sub-byte types (a scaled contraction's f4E2M1FN) count in bits.
      const int64_t bits = type.rfind("f4E", 0) == 0 ? 4
                           : type.rfind("f6E", 0) == 0
                               ? 6
                               : config::elementBytes(type) * 8;
      auto tiles = layout::derivedThreadTileSizes(shape, kinds, threads, bits);
      expected.insert(
          layout::distributeForall("thread", shape, tiles, threads).tripCounts);
    }
    for (const document::ForallLoop *loop : threadLoops)
      found.insert(loop->tripCounts());
    if (expected != found) {
      std::string e, f;
      for (const auto &t : expected)
        e += " " + list(t);
      for (const auto &t : found)
        f += " " + list(t);
      report +=
          "  promoted copies' thread foralls: IREE" + f + ", ours" + e + "\n";
    }
  }
  return report;
}

// Runs IREE on all cases of one target (crashes bisected to their case) and
// compares what it decided with what Tilescope derives.
void runTarget(const tools::IreeInstallation &installation,
               const iree::LoweredIrReader &reader,
               const std::vector<const Case *> &batch, property::Tally &tally,
               bool verbose) {
  if (batch.empty())
    return;
  std::vector<devices::ProbeOp> probes;
  for (const Case *c : batch)
    probes.push_back(c->probe);
  service::LoweringProbeRequest request;
  request.backend = batch.front()->target->backend;
  request.testTarget = batch.front()->target->testTarget;
  request.executableForm = !batch.front()->target->executableTarget.empty();
  request.printAfter = {service::kConfigureTensorLayoutsPass,
                        service::kApplyTilingLevelPass};
  auto outcomes = runProbes(installation, request, probes);
  for (const Case *c : batch) {
    const ProbeOutcome &outcome = outcomes[c->probe.function];
    const bool vectorDistribute = c->family != "tile-and-fuse" &&
                                  c->family != "tile-and-fuse-mma" &&
                                  c->family != "tile-and-fuse-scaled" &&
                                  c->family != "derived-thread-config";
    const service::IrDump *dump =
        vectorDistribute ? outcome.dump(service::kConfigureTensorLayoutsPass)
                         : outcome.dump(service::kApplyTilingLevelPass,
                                        "tiling-level", "subgroup");
    if (!dump) {
      tally.skipped(c->family, !outcome.notWritten.empty()
                                   ? "no probe function for it"
                               : outcome.crash.empty()
                                   ? "refused by IREE before the layout pass"
                                   : "crash or hang IREE");
      if (verbose) {
        std::cout << "IREE refused " << describeCase(*c) << "\n";
        for (const auto &d : outcome.diagnostics)
          std::cout << "    " << d.severity << ": " << d.message << "\n";
      }
      continue;
    }
    auto lowered = reader.read(dump->text);
    if (!lowered) {
      tally.disagreed(c->family, describeCase(*c) + "\n" + lowered.error());
      continue;
    }
    std::string report;
    if (vectorDistribute)
      report = compareAnchors(*c, *lowered);
    else if (c->family == "tile-and-fuse")
      report = compareThreads(*c, *lowered);
    else if (c->family == "derived-thread-config")
      report = compareDerivedThreads(*c, *lowered);
    else
      report = compareSubgroups(*c, *lowered);
    if (report.empty())
      tally.agreed(c->family);
    else
      tally.disagreed(c->family, describeCase(*c) + "\n" + report);
  }
}

} // namespace

int main(int argc, char **argv) {
  const property::Options options = property::parseOptions(argc, argv);
  const int perFamily = options.cases > 0 ? options.cases
                        : options.longRun ? 600
                                          : 40;
  property::Random random(options.seed);
  const tools::IreeInstallation installation = property::projectIree();
  auto reader = iree::LoweredIrReader::create(property::projectLibrary());
  if (!reader) {
    std::cerr << reader.error() << "\n";
    return 1;
  }
  std::vector<Target> targets = property::defaultTargets();
  targets.push_back(property::scaledTarget());

  std::vector<Case> cases;
  int index = 0;
  for (const Target &target : targets) {
    if (target.name == "gfx950") {
      // gfx950 for its scaled intrinsics only.
      for (int i = 0; i < perFamily / 2; ++i)
        cases.push_back(scaledContractionCase(
            random, target,
            target
                .intrinsics[static_cast<size_t>(i) % target.intrinsics.size()],
            index++));
      continue;
    }
    for (const std::string family :
         {"elementwise", "reduction", "partial-reduction"})
      for (int i = 0; i < perFamily / 2; ++i)
        cases.push_back(reductionCase(random, target, family, index++));
    for (int i = 0; i < perFamily / 2; ++i)
      cases.push_back(tileAndFuseCase(random, target, index++));
    for (int i = 0; i < perFamily / 2; ++i)
      cases.push_back(derivedThreadConfigCase(random, target, index++));
    // Every intrinsic of the target at least once, then random ones.
    const int contractions = std::max<int>(
        static_cast<int>(target.intrinsics.size()), perFamily / 2);
    for (int i = 0; i < contractions; ++i)
      cases.push_back(
          contractionCase(random, target,
                          i < static_cast<int>(target.intrinsics.size())
                              ? target.intrinsics[static_cast<size_t>(i)]
                              : random.pick(target.intrinsics),
                          index++));
    // Every block intrinsic of the target (VectorDistribute only: IREE's
    // TileAndFuse lane distribution refuses some of them).
    const auto blocks = property::blockIntrinsics(target.name);
    for (size_t i = 0;
         i < std::max<size_t>(blocks.size(), perFamily / 4) && !blocks.empty();
         ++i)
      cases.push_back(contractionCase(
          random, target, i < blocks.size() ? blocks[i] : random.pick(blocks),
          index++));
    for (int i = 0; i < contractions; ++i)
      cases.push_back(
          tileAndFuseMmaCase(random, target,
                             i < static_cast<int>(target.intrinsics.size())
                                 ? target.intrinsics[static_cast<size_t>(i)]
                                 : random.pick(target.intrinsics),
                             index++));
  }

  property::Tally tally;
  for (const Target &target : targets) {
    std::vector<const Case *> batch;
    for (const Case &c : cases)
      if (c.target == &target) {
        tally.generated(c.family);
        batch.push_back(&c);
      }
    runTarget(installation, *reader, batch, tally, options.verbose);
  }
  tally.print(std::cout, options.seed);
  // A family that compared nothing proves nothing.
  int failures = tally.disagreements();
  for (const std::string family :
       {"elementwise", "reduction", "partial-reduction", "contraction",
        "tile-and-fuse", "tile-and-fuse-mma", "tile-and-fuse-scaled",
        "derived-thread-config", "contraction-block"})
    if (tally.agreedCount(family) < std::max(1, perFamily / 8)) {
      std::cout << "too few " << family << " cases compared\n";
      ++failures;
    }
  return failures == 0 ? 0 : 1;
}
