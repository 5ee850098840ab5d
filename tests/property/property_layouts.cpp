// Property test: the layouts and thread mappings Tilescope derives from a
// lowering config equal what the real IREE assigns, on random configs.
//
// Families (each seeded, printed on failure):
//   elementwise, reduction, partial-reduction   VectorDistribute without an
//       intrinsic: the to_layout of every operand after IREE's
//       configure-tensor-layouts pass;
//   contraction                                 VectorDistribute with each
//       MMA intrinsic of gfx942 and sm_90: LHS, RHS, ACC layouts;
//   tile-and-fuse                               TileAndFuse thread tiles: the
//       thread forall's trip counts and linear_dim mapping;
//   tile-and-fuse-mma                           TileAndFuse with mma_kind: the
//       subgroup (warp) forall, and the derived_thread_config copies of the
//       promoted operands.
// IREE runs once per target on all cases of a batch (iree-opt
// --split-input-file on probe functions); a crash is bisected to its case.
#include "PropertySupport.h"

#include "core/config/Attribute.h"
#include "core/config/GpuTarget.h"
#include "core/config/IterationSpace.h"
#include "core/config/LayoutAttributes.h"
#include "core/config/LoweringConfig.h"
#include "core/config/Validation.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/LoweredIr.h"
#include "core/jobs/IreeLowering.h"
#include "core/jobs/ProbeModule.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/ThreadDistribution.h"

#include <fstream>
#include <functional>
#include <set>

using namespace tilescope;
using property::list;

namespace {

struct Target {
  std::string name;
  jobs::GpuBackend backend;
  std::string testTarget;
  std::string executableTarget;
  int64_t subgroupSize;
  std::vector<std::string> intrinsics; // with 2-D per-lane layouts
};

struct Case {
  std::string family;
  const Target *target = nullptr;
  jobs::ProbeOp probe;
  std::vector<int64_t> workgroupSize;
  int64_t subgroupSize = 0;
};

std::string executableTargetFromDevice(const std::string &deviceText) {
  const size_t start = deviceText.find("#hal.executable.target<");
  const size_t end = deviceText.rfind("}>");
  return deviceText.substr(start, end + 2 - start);
}

std::vector<std::string> layoutIntrinsics(const std::string &arch) {
  std::vector<std::string> names;
  auto target = config::builtinTarget(arch);
  for (const std::string &name : target->mmaIntrinsics) {
    const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(name);
    if (found && found->lhs.outer.size() == 2)
      names.push_back(name);
  }
  if (arch == "gfx942")
    for (const layout::MmaIntrinsic &intrinsic : layout::mmaIntrinsics())
      if (intrinsic.isVirtual && intrinsic.lhs.outer.size() == 2 &&
          intrinsic.subgroupSize == 64 &&
          intrinsic.aType.find("FN") == std::string::npos)
        names.push_back(intrinsic.name);
  return names;
}

std::string translationInfo(const std::string &pipeline,
                            const std::vector<int64_t> &workgroupSize,
                            int64_t subgroupSize) {
  return "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<" +
         pipeline + "> workgroup_size = " + list(workgroupSize) +
         " subgroup_size = " + std::to_string(subgroupSize) + ">";
}

std::string basisText(const config::Basis &basis) {
  return "[" + list(basis.counts) + ", " + list(basis.mapping) + "]";
}

// A basis over `rank` loops for `total` resources: counts per loop, maybe an
// extra axis no loop takes (those ids replicate), mapping maybe permuted.
config::Basis randomBasis(property::Random &random, size_t rank, int64_t total,
                          const std::vector<double> &weights) {
  const bool extra = random.chance(0.2);
  const size_t axes = rank + (extra ? 1 : 0);
  config::Basis basis;
  basis.counts.assign(axes, 1);
  // Spread the resources over loops by weight (reductions take lanes).
  for (int64_t left = total; left > 1; left /= 2) {
    double sum = 0;
    for (double w : weights)
      sum += w;
    double r = std::uniform_real_distribution<double>(0, sum + (extra ? 0.3 : 0))(
        random.generator());
    size_t axis = axes - 1;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) {
        axis = i;
        break;
      }
      r -= weights[i];
    }
    basis.counts[axis] *= 2;
  }
  std::vector<int64_t> axisOf(rank);
  std::iota(axisOf.begin(), axisOf.end(), 0);
  if (extra || random.chance(0.3)) {
    // A permutation of `rank` axes out of `axes`, counts following their
    // loop so the distribution stays sensible.
    std::vector<int64_t> order = random.permutation(axes);
    config::Basis permuted;
    permuted.counts.assign(axes, 1);
    for (size_t i = 0; i < rank; ++i)
      permuted.counts[static_cast<size_t>(order[i])] = basis.counts[i];
    if (extra)
      permuted.counts[static_cast<size_t>(order[rank])] = basis.counts[rank];
    for (size_t i = 0; i < rank; ++i)
      axisOf[i] = order[i];
    basis.counts = permuted.counts;
  }
  basis.mapping = axisOf;
  return basis;
}

std::vector<int> identity(size_t rank) {
  std::vector<int> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

// --- VectorDistribute without an intrinsic -----------------------------------

// Per-loop sizes of a basis: counts[mapping[i]] (1 when out of range).
std::vector<int64_t> basisSizes(const config::Basis &basis) {
  std::vector<int64_t> sizes;
  for (int64_t axis : basis.mapping)
    sizes.push_back(axis >= 0 && axis < static_cast<int64_t>(basis.counts.size())
                        ? basis.counts[static_cast<size_t>(axis)]
                        : 1);
  return sizes;
}

// VectorDistribute on an elementwise op or a reduction. Tiles are built the
// way IREE's own config selection builds them (subgroups x lanes x element x
// a small batch), so no thread holds more than a few dozen elements and
// IREE's later passes stay fast.
Case reductionCase(property::Random &random, const Target &target,
                   const std::string &family, int index) {
  Case c;
  c.family = family;
  c.target = &target;
  const bool elementwise = family == "elementwise";
  const bool partial = family == "partial-reduction";
  const size_t rank = static_cast<size_t>(random.range(elementwise ? 1 : 2, 3));
  config::IterationSpace space;
  space.kinds.assign(rank, config::LoopKind::Parallel);
  if (!elementwise) {
    const size_t reductions = rank > 2 && random.chance(0.4) ? 2 : 1;
    const std::vector<int64_t> order = random.permutation(rank);
    for (size_t i = 0; i < reductions; ++i)
      space.kinds[static_cast<size_t>(order[i])] = config::LoopKind::Reduction;
  }
  const int64_t subgroups = random.pick<int64_t>({1, 1, 2, 4});
  std::vector<double> laneWeights(rank), subgroupWeights(rank);
  for (size_t d = 0; d < rank; ++d) {
    laneWeights[d] = space.isReduction(d) ? 4 : (elementwise ? 1 : 0.3);
    subgroupWeights[d] = space.isReduction(d) ? 2 : 1;
  }
  const config::Basis lanes =
      randomBasis(random, rank, target.subgroupSize, laneWeights);
  const config::Basis subgroupBasis =
      randomBasis(random, rank, subgroups, subgroupWeights);
  const std::vector<int64_t> laneSizes = basisSizes(lanes),
                             subgroupSizes = basisSizes(subgroupBasis);

  std::vector<int64_t> workgroup(rank, 0), thread(rank, 0), reduction(rank, 0),
      partialTiles(rank, 0);
  int64_t perThread = 1;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t spread = laneSizes[d] * subgroupSizes[d];
    int64_t element = random.pick<int64_t>({1, 1, 2, 4, 8});
    int64_t batch = random.pick<int64_t>({1, 1, 2, 3});
    while (perThread * element * batch > 64 && (element > 1 || batch > 1)) {
      if (element > 1)
        element /= 2;
      else
        batch = 1;
    }
    perThread *= element * batch;
    const int64_t tile = spread * element * batch;
    thread[d] = element == 1 && random.chance(0.3) ? 0 : element;
    if (space.isReduction(d)) {
      const int64_t iterations = random.pick<int64_t>({1, 2, 4, 8});
      space.bounds.push_back(tile * iterations);
      if (partial) {
        partialTiles[d] = random.chance(0.1) ? 0 : tile;
      } else if (random.chance(0.6)) {
        reduction[d] = tile;
      }
    } else {
      workgroup[d] = tile;
      int64_t bound = tile * random.pick<int64_t>({1, 2, 4});
      if (random.chance(0.1) && bound > 2)
        bound -= random.range(1, std::min<int64_t>(bound - 1, tile - 1 > 0 ? tile - 1 : 1));
      space.bounds.push_back(std::max<int64_t>(bound, 1));
    }
  }

  const std::string type = random.pick<std::string>({"f16", "f32"});
  const std::string outType = elementwise ? type : "f32";
  const int inputs = elementwise && random.chance(0.5) ? 2 : 1;
  for (int i = 0; i < inputs; ++i) {
    config::OperandAccess input;
    input.elementType = type;
    input.dims = identity(rank);
    if (random.chance(0.3))
      std::shuffle(input.dims.begin(), input.dims.end(), random.generator());
    space.operands.push_back(input);
  }
  config::OperandAccess output;
  output.elementType = outType;
  output.isOutput = true;
  for (size_t d = 0; d < rank; ++d)
    if (!space.isReduction(d))
      output.dims.push_back(static_cast<int>(d));
  space.operands.push_back(output);

  std::string config = "#iree_gpu.lowering_config<{lane_basis = " +
                       basisText(lanes);
  if (partial)
    config += ", partial_reduction = " + list(partialTiles);
  if (std::any_of(reduction.begin(), reduction.end(), [](int64_t t) { return t > 0; }))
    config += ", reduction = " + list(reduction);
  config += ", subgroup_basis = " + basisText(subgroupBasis) +
            ", thread = " + list(thread) + ", workgroup = " + list(workgroup) +
            "}>";
  c.subgroupSize = target.subgroupSize;
  c.workgroupSize = {subgroups * target.subgroupSize, 1, 1};
  c.probe.function = family.substr(0, 3) + "_" + std::to_string(index);
  c.probe.space = space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("VectorDistribute", c.workgroupSize, target.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  return c;
}

// --- Contractions --------------------------------------------------------------

struct ContractionShape {
  config::IterationSpace space;
  int m = 0, n = 1, k = 2; // loop indices
  bool batch = false;
};

ContractionShape contractionSpace(property::Random &random,
                                  const layout::MmaIntrinsic &intrinsic,
                                  const std::vector<int64_t> &workgroupMN,
                                  int64_t kTile) {
  ContractionShape s;
  s.batch = random.chance(0.2);
  const int offset = s.batch ? 1 : 0;
  s.m = offset;
  s.n = offset + 1;
  s.k = offset + 2;
  config::IterationSpace &space = s.space;
  if (s.batch) {
    space.bounds.push_back(random.pick<int64_t>({2, 4}));
    space.kinds.push_back(config::LoopKind::Parallel);
  }
  space.bounds.push_back(workgroupMN[0] * random.pick<int64_t>({1, 2}));
  space.bounds.push_back(workgroupMN[1] * random.pick<int64_t>({1, 2}));
  space.bounds.push_back(kTile * random.pick<int64_t>({1, 2, 4}));
  space.kinds.push_back(config::LoopKind::Parallel);
  space.kinds.push_back(config::LoopKind::Parallel);
  space.kinds.push_back(config::LoopKind::Reduction);
  config::OperandAccess lhs, rhs, acc;
  lhs.elementType = intrinsic.aType;
  rhs.elementType = intrinsic.bType;
  acc.elementType = intrinsic.cType;
  acc.isOutput = true;
  if (s.batch) {
    lhs.dims.push_back(0);
    rhs.dims.push_back(0);
    acc.dims.push_back(0);
  }
  const bool transposeA = random.chance(0.25), transposeB = random.chance(0.5);
  const std::vector<int> lhsDims = transposeA ? std::vector<int>{s.k, s.m}
                                              : std::vector<int>{s.m, s.k};
  const std::vector<int> rhsDims = transposeB ? std::vector<int>{s.n, s.k}
                                              : std::vector<int>{s.k, s.n};
  lhs.dims.insert(lhs.dims.end(), lhsDims.begin(), lhsDims.end());
  rhs.dims.insert(rhs.dims.end(), rhsDims.begin(), rhsDims.end());
  acc.dims.push_back(s.m);
  acc.dims.push_back(s.n);
  space.operands = {lhs, rhs, acc};
  return s;
}

std::string mmaKindText(const layout::MmaIntrinsic &intrinsic, bool colMajor) {
  return std::string("#iree_gpu.") +
         (intrinsic.isVirtual ? "virtual_mma_layout<" : "mma_layout<") +
         intrinsic.name + (colMajor ? ", col_major = true>" : ">");
}

Case contractionCase(property::Random &random, const Target &target,
                     const std::string &intrinsicName, int index) {
  const layout::MmaIntrinsic &intrinsic = *layout::findMmaIntrinsic(intrinsicName);
  Case c;
  c.family = "contraction";
  c.target = &target;
  const int64_t sgM = random.pick<int64_t>({1, 1, 2}),
                sgN = random.pick<int64_t>({1, 2, 2});
  const int64_t wgM = intrinsic.m * sgM * random.pick<int64_t>({1, 2}),
                wgN = intrinsic.n * sgN * random.pick<int64_t>({1, 2});
  const int64_t redK = intrinsic.k * random.pick<int64_t>({1, 2, 4});
  ContractionShape s = contractionSpace(random, intrinsic, {wgM, wgN}, redK);
  const size_t rank = s.space.rank();
  std::vector<int64_t> workgroup(rank, 0), reduction(rank, 0);
  config::Basis subgroupBasis;
  subgroupBasis.counts.assign(rank, 1);
  subgroupBasis.mapping.resize(rank);
  std::iota(subgroupBasis.mapping.begin(), subgroupBasis.mapping.end(), 0);
  if (s.batch)
    workgroup[0] = 1;
  workgroup[static_cast<size_t>(s.m)] = wgM;
  workgroup[static_cast<size_t>(s.n)] = wgN;
  reduction[static_cast<size_t>(s.k)] = redK;
  subgroupBasis.counts[static_cast<size_t>(s.m)] = sgM;
  subgroupBasis.counts[static_cast<size_t>(s.n)] = sgN;
  if (random.chance(0.25) && !s.batch) {
    // Swap the basis axes of M and N.
    std::swap(subgroupBasis.counts[0], subgroupBasis.counts[1]);
    std::swap(subgroupBasis.mapping[0], subgroupBasis.mapping[1]);
  }
  const bool colMajor = random.chance(0.2);
  std::string config = "#iree_gpu.lowering_config<{mma_kind = " +
                       mmaKindText(intrinsic, colMajor);
  if (random.chance(0.5))
    config += ", promote_operands = [0, 1]";
  config += ", reduction = " + list(reduction) +
            ", subgroup_basis = " + basisText(subgroupBasis) +
            ", workgroup = " + list(workgroup) + "}>";
  c.subgroupSize = intrinsic.subgroupSize;
  c.workgroupSize = {sgM * sgN * intrinsic.subgroupSize, 1, 1};
  c.probe.function = "mma_" + std::to_string(index);
  c.probe.space = s.space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("VectorDistribute", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  c.probe.body = jobs::ProbeBody::MultiplyAdd;
  return c;
}

// --- TileAndFuse ---------------------------------------------------------------

Case tileAndFuseCase(property::Random &random, const Target &target, int index) {
  Case c;
  c.family = "tile-and-fuse";
  c.target = &target;
  const bool matmul = random.chance(0.5);
  config::IterationSpace space;
  std::vector<int64_t> workgroup, thread, reduction;
  if (matmul) {
    const int64_t wgM = random.powerOfTwo(8, 64), wgN = random.powerOfTwo(16, 128);
    space.bounds = {wgM * random.pick<int64_t>({1, 2}),
                    wgN * random.pick<int64_t>({1, 2}), random.powerOfTwo(32, 256)};
    space.kinds = {config::LoopKind::Parallel, config::LoopKind::Parallel,
                   config::LoopKind::Reduction};
    config::OperandAccess lhs{"f32", {0, 2}, false}, rhs{"f32", {2, 1}, false},
        acc{"f32", {0, 1}, true};
    space.operands = {lhs, rhs, acc};
    workgroup = {wgM, wgN, 0};
    thread = {random.divisor(wgM, 4), random.divisor(wgN, 16), 0};
    if (random.chance(0.2))
      thread[0] = 0;
    reduction = {0, 0, random.divisor(space.bounds[2], 64)};
  } else {
    const size_t rank = static_cast<size_t>(random.range(1, 3));
    int64_t volume = 1;
    for (size_t d = 0; d < rank; ++d) {
      space.bounds.push_back(random.powerOfTwo(8, 256));
      space.kinds.push_back(config::LoopKind::Parallel);
      workgroup.push_back(random.divisor(space.bounds.back(),
                                         std::max<int64_t>(4096 / volume / 8, 1)));
      volume *= workgroup.back();
      thread.push_back(random.chance(0.2) ? 0 : random.divisor(workgroup.back(), 8));
      reduction.push_back(0);
    }
    if (std::all_of(thread.begin(), thread.end(), [](int64_t t) { return t == 0; }))
      thread.back() = 1;
    config::OperandAccess in{"f32", identity(rank), false};
    config::OperandAccess out{"f32", identity(rank), true};
    if (random.chance(0.3))
      std::shuffle(in.dims.begin(), in.dims.end(), random.generator());
    space.operands = {in, out};
  }
  // A workgroup with as many threads as tiles, or fewer or more.
  int64_t tiles = 1;
  for (size_t d = 0; d < space.rank(); ++d)
    if (thread[d] > 0)
      tiles *= (space.isReduction(d) ? space.bounds[d] : workgroup[d]) / thread[d];
  int64_t threads = std::clamp<int64_t>(tiles, target.subgroupSize, 1024);
  if (random.chance(0.3))
    threads = std::clamp<int64_t>(threads * random.pick<int64_t>({2, 4}), 1, 1024);
  else if (random.chance(0.3))
    threads = std::max<int64_t>(threads / 2, target.subgroupSize);
  const int64_t x = std::min<int64_t>(threads, random.pick<int64_t>({32, 64, threads}));
  c.workgroupSize = {x, threads / x, 1};
  std::string config = "#iree_gpu.lowering_config<{";
  if (matmul)
    config += "reduction = " + list(reduction) + ", ";
  config += "thread = " + list(thread) + ", workgroup = " + list(workgroup) + "}>";
  c.subgroupSize = target.subgroupSize;
  c.probe.function = "tf_" + std::to_string(index);
  c.probe.space = space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  return c;
}

Case tileAndFuseMmaCase(property::Random &random, const Target &target,
                        const std::string &intrinsicName, int index) {
  const layout::MmaIntrinsic &intrinsic = *layout::findMmaIntrinsic(intrinsicName);
  Case c;
  c.family = "tile-and-fuse-mma";
  c.target = &target;
  const int64_t sM = random.pick<int64_t>({1, 2}), sN = random.pick<int64_t>({1, 2, 4});
  const int64_t subgroupsM = random.pick<int64_t>({1, 2}),
                subgroupsN = random.pick<int64_t>({1, 2});
  const int64_t wgM = intrinsic.m * sM * subgroupsM,
                wgN = intrinsic.n * sN * subgroupsN;
  const int64_t kTiles = random.pick<int64_t>({1, 2, 4});
  ContractionShape s =
      contractionSpace(random, intrinsic, {wgM, wgN}, intrinsic.k * kTiles);
  const size_t rank = s.space.rank();
  std::vector<int64_t> workgroup(rank, 0), subgroup(rank, 0), reduction(rank, 0);
  if (s.batch)
    workgroup[0] = 1;
  workgroup[static_cast<size_t>(s.m)] = wgM;
  workgroup[static_cast<size_t>(s.n)] = wgN;
  subgroup[static_cast<size_t>(s.m)] = sM;
  subgroup[static_cast<size_t>(s.n)] = sN;
  reduction[static_cast<size_t>(s.k)] = kTiles;
  const bool promote = random.chance(0.6);
  std::string config = "#iree_gpu.lowering_config<{mma_kind = " +
                       mmaKindText(intrinsic, false);
  if (promote)
    config += ", promote_operands = [0, 1]";
  config += ", reduction = " + list(reduction) + ", subgroup = " +
            list(subgroup) + ", workgroup = " + list(workgroup) + "}>";
  c.subgroupSize = intrinsic.subgroupSize;
  c.workgroupSize = {subgroupsM * subgroupsN * intrinsic.subgroupSize, 1, 1};
  c.probe.function = "tfm_" + std::to_string(index);
  c.probe.space = s.space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  c.probe.body = jobs::ProbeBody::MultiplyAdd;
  return c;
}

// --- Comparison ------------------------------------------------------------------

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

std::string compareAnchors(const Case &c, const iree::LoweredFunction &lowered) {
  std::vector<const iree::AnchoredOp *> configured;
  for (const iree::AnchoredOp &op : lowered.anchoredOps)
    if (!op.loweringConfig.empty())
      configured.push_back(&op);
  if (configured.size() != 1)
    return "IREE anchored " + std::to_string(configured.size()) +
           " configured ops; expected 1";
  const iree::AnchoredOp &theirs = *configured.front();
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  std::vector<config::NestedLayoutAttr> ours;
  if (config->mmaKind()) {
    auto layouts = layout::deriveContractionLayouts(*config, c.probe.space);
    if (!layouts)
      return "Tilescope cannot derive the contraction layouts: " + layouts.error();
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
    const std::string diff = layoutDifference(theirs.operands[i]->layout, ours[i]);
    if (!diff.empty())
      report += std::string("  ") + names[std::min<size_t>(i, 3)] + " " +
                list(theirs.operands[i]->shape) + ":\n" + diff;
  }
  return report;
}

std::string compareForall(const iree::ForallLoop &theirs,
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

std::string compareThreads(const Case &c, const iree::LoweredFunction &lowered) {
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  auto ours = layout::tileAndFuseThreads(*config, c.probe.space, c.workgroupSize);
  if (!ours)
    return "Tilescope cannot distribute threads: " + ours.error();
  std::vector<const iree::ForallLoop *> threadLoops;
  for (const iree::ForallLoop &loop : lowered.foralls)
    if (loop.mappedTo("thread"))
      threadLoops.push_back(&loop);
  if (threadLoops.size() != 1)
    return "IREE made " + std::to_string(threadLoops.size()) +
           " thread foralls; expected 1";
  return compareForall(*threadLoops.front(), *ours, "thread forall");
}

std::string compareSubgroups(const Case &c, const iree::LoweredFunction &lowered) {
  auto config = config::LoweringConfig::parse(c.probe.loweringConfig);
  auto ours = layout::tileAndFuseSubgroups(*config, c.probe.space,
                                           c.workgroupSize, c.subgroupSize);
  if (!ours)
    return "Tilescope cannot distribute subgroups: " + ours.error();
  std::vector<const iree::ForallLoop *> warpLoops, threadLoops;
  for (const iree::ForallLoop &loop : lowered.foralls) {
    if (loop.mappedTo("warp"))
      warpLoops.push_back(&loop);
    if (loop.mappedTo("thread"))
      threadLoops.push_back(&loop);
  }
  if (warpLoops.size() != 1)
    return "IREE made " + std::to_string(warpLoops.size()) +
           " subgroup foralls; expected 1";
  std::string report = compareForall(*warpLoops.front(), *ours, "subgroup forall");
  // The promoted operands' copies: derived_thread_config over the operand's
  // workgroup tile (M or N by the K tile), in the operand's dimension order.
  if (config->promoteOperands()) {
    const int64_t threads = c.workgroupSize[0] * c.workgroupSize[1] * c.workgroupSize[2];
    std::multiset<std::vector<int64_t>> expected, found;
    for (int operand : {0, 1}) {
      std::vector<int64_t> shape;
      std::vector<config::LoopKind> kinds;
      for (int loop : c.probe.space.operands[static_cast<size_t>(operand)].dims) {
        const size_t l = static_cast<size_t>(loop);
        shape.push_back(ours->bounds[l] * ours->unit[l]);
        kinds.push_back(config::LoopKind::Parallel);
      }
      const int64_t bits =
          config::elementBytes(c.probe.space.operands[static_cast<size_t>(operand)].elementType) * 8;
      auto tiles = layout::derivedThreadTileSizes(shape, kinds, threads, bits);
      expected.insert(layout::distributeForall("thread", shape, tiles, threads).tripCounts);
    }
    for (const iree::ForallLoop *loop : threadLoops)
      found.insert(loop->tripCounts());
    if (expected != found) {
      std::string e, f;
      for (const auto &t : expected)
        e += " " + list(t);
      for (const auto &t : found)
        f += " " + list(t);
      report += "  promoted copies' thread foralls: IREE" + f + ", ours" + e + "\n";
    }
  }
  return report;
}

// Runs IREE on a batch of cases of one target; a crash is bisected so every
// other case still gets its answer.
void runBatch(const iree::IreeInstallation &installation,
              const iree::LoweredIrReader &reader,
              const std::vector<const Case *> &batch, property::Tally &tally,
              bool verbose) {
  if (batch.empty())
    return;
  std::vector<jobs::ProbeOp> probes;
  for (const Case *c : batch)
    probes.push_back(c->probe);
  auto text = jobs::probeModuleText(probes);
  if (!text) {
    for (const Case *c : batch)
      tally.disagreed(c->family, "cannot write the probe: " + text.error());
    return;
  }
  jobs::LoweringProbeRequest request;
  request.moduleText = *text;
  request.backend = batch.front()->target->backend;
  request.testTarget = batch.front()->target->testTarget;
  request.printAfter = {jobs::kConfigureTensorLayoutsPass,
                        jobs::kApplyTilingLevelPass};
  request.timeout = std::chrono::seconds(60 + 2 * static_cast<int>(batch.size()));
  auto result = jobs::runLoweringProbe(installation, request);
  if (!result) {
    for (const Case *c : batch)
      tally.disagreed(c->family, "iree-opt did not run: " + result.error());
    return;
  }
  if (result->process.outcome == jobs::ProcessResult::Outcome::Signaled ||
      result->process.outcome == jobs::ProcessResult::Outcome::TimedOut) {
    if (batch.size() == 1) {
      tally.skipped(batch.front()->family, "crash or hang IREE");
      if (verbose)
        std::cout << "IREE " << result->process.describe() << " on "
                  << describeCase(*batch.front()) << "\n";
      return;
    }
    const auto middle = batch.begin() + static_cast<long>(batch.size() / 2);
    runBatch(installation, reader, {batch.begin(), middle}, tally, verbose);
    runBatch(installation, reader, {middle, batch.end()}, tally, verbose);
    return;
  }
  for (const Case *c : batch) {
    const std::string &f = c->probe.function;
    const bool vectorDistribute = c->family != "tile-and-fuse" &&
                                  c->family != "tile-and-fuse-mma";
    const jobs::IrDump *dump =
        vectorDistribute
            ? result->dump(f, jobs::kConfigureTensorLayoutsPass)
            : result->dump(f, jobs::kApplyTilingLevelPass, "tiling-level",
                           "subgroup");
    if (!dump) {
      std::string why = "refused by IREE before the layout pass";
      tally.skipped(c->family, why);
      if (verbose) {
        std::cout << "IREE refused " << describeCase(*c) << "\n";
        for (const auto &d : result->diagnostics[f])
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
  const iree::IreeInstallation installation = property::projectIree();
  auto library = iree::CompilerLibrary::load(installation.compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    return 1;
  }
  auto reader = iree::LoweredIrReader::create(*library);
  if (!reader) {
    std::cerr << reader.error() << "\n";
    return 1;
  }
  std::ifstream deviceFile(std::string(TILESCOPE_SOURCE_DIR) +
                           "/examples/targets/cuda_sm_90.device.mlir");
  const std::string device((std::istreambuf_iterator<char>(deviceFile)),
                           std::istreambuf_iterator<char>());
  const std::vector<Target> targets = {
      {"gfx942", jobs::GpuBackend::Rocdl, "gfx942", "", 64,
       layoutIntrinsics("gfx942")},
      {"sm_90", jobs::GpuBackend::Nvvm, "", executableTargetFromDevice(device),
       32, layoutIntrinsics("sm_90")}};

  std::vector<Case> cases;
  int index = 0;
  for (const Target &target : targets) {
    for (const std::string family :
         {"elementwise", "reduction", "partial-reduction"})
      for (int i = 0; i < perFamily / 2; ++i)
        cases.push_back(reductionCase(random, target, family, index++));
    for (int i = 0; i < perFamily / 2; ++i)
      cases.push_back(tileAndFuseCase(random, target, index++));
    // Every intrinsic of the target at least once, then random ones.
    const int contractions = std::max<int>(
        static_cast<int>(target.intrinsics.size()), perFamily / 2);
    for (int i = 0; i < contractions; ++i)
      cases.push_back(contractionCase(
          random, target,
          i < static_cast<int>(target.intrinsics.size())
              ? target.intrinsics[static_cast<size_t>(i)]
              : random.pick(target.intrinsics),
          index++));
    for (int i = 0; i < contractions; ++i)
      cases.push_back(tileAndFuseMmaCase(
          random, target,
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
    // Batches of at most 200 functions keep each iree-opt run short.
    for (size_t start = 0; start < batch.size(); start += 200)
      runBatch(installation, *reader,
               {batch.begin() + static_cast<long>(start),
                batch.begin() + static_cast<long>(std::min(start + 200, batch.size()))},
               tally, options.verbose);
  }
  tally.print(std::cout, options.seed);
  // A family that compared nothing proves nothing.
  int failures = tally.disagreements();
  for (const std::string family :
       {"elementwise", "reduction", "partial-reduction", "contraction",
        "tile-and-fuse", "tile-and-fuse-mma"})
    if (tally.agreedCount(family) < std::max(1, perFamily / 8)) {
      std::cout << "too few " << family << " cases compared\n";
      ++failures;
    }
  return failures == 0 ? 0 : 1;
}
