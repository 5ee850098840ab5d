// Seeded generators of root ops and lowering configs the way IREE's own
// config selection shapes them (subgroups x lanes x element x a small batch
// per loop), for the property tests that run them through IREE.
#pragma once

#include "PropertySupport.h"

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/devices/ProbeModule.h"
#include "core/layout/MmaLayouts.h"
#include "core/service/IreeLowering.h"

#include <fstream>

namespace tilescope::property {

struct Target {
  std::string name;
  service::GpuBackend backend;
  std::string testTarget;
  std::string executableTarget;
  int64_t subgroupSize;
  std::vector<std::string> intrinsics; // with 2-D per-lane layouts
};

struct Case {
  std::string family;
  const Target *target = nullptr;
  devices::ProbeOp probe;
  std::vector<int64_t> workgroupSize;
  int64_t subgroupSize = 0;
};

inline std::string executableTargetFromDevice(const std::string &deviceText) {
  const size_t start = deviceText.find("#hal.executable.target<");
  const size_t end = deviceText.rfind("}>");
  return deviceText.substr(start, end + 2 - start);
}

inline std::vector<std::string> layoutIntrinsics(const std::string &arch) {
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

inline std::string translationInfo(const std::string &pipeline,
                                   const std::vector<int64_t> &workgroupSize,
                                   int64_t subgroupSize) {
  return "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<" +
         pipeline + "> workgroup_size = " + list(workgroupSize) +
         " subgroup_size = " + std::to_string(subgroupSize) + ">";
}

inline std::string basisText(const config::Basis &basis) {
  return "[" + list(basis.counts) + ", " + list(basis.mapping) + "]";
}

// A basis over `rank` loops for `total` resources: counts per loop, maybe an
// extra axis no loop takes (those ids replicate), mapping maybe permuted.
inline config::Basis randomBasis(property::Random &random, size_t rank,
                                 int64_t total,
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
    double r = std::uniform_real_distribution<double>(
        0, sum + (extra ? 0.3 : 0))(random.generator());
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

inline std::vector<int> identity(size_t rank) {
  std::vector<int> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

// --- VectorDistribute without an intrinsic -----------------------------------

// Per-loop sizes of a basis: counts[mapping[i]] (1 when out of range).
inline std::vector<int64_t> basisSizes(const config::Basis &basis) {
  std::vector<int64_t> sizes;
  for (int64_t axis : basis.mapping)
    sizes.push_back(axis >= 0 &&
                            axis < static_cast<int64_t>(basis.counts.size())
                        ? basis.counts[static_cast<size_t>(axis)]
                        : 1);
  return sizes;
}

// VectorDistribute on an elementwise op or a reduction. Tiles are built the
// way IREE's own config selection builds them (subgroups x lanes x element x
// a small batch), so no thread holds more than a few dozen elements and
// IREE's later passes stay fast.
inline Case reductionCase(property::Random &random, const Target &target,
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
        bound -= random.range(
            1, std::min<int64_t>(bound - 1, tile - 1 > 0 ? tile - 1 : 1));
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

  std::string config =
      "#iree_gpu.lowering_config<{lane_basis = " + basisText(lanes);
  if (partial)
    config += ", partial_reduction = " + list(partialTiles);
  if (std::any_of(reduction.begin(), reduction.end(),
                  [](int64_t t) { return t > 0; }))
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

// --- Contractions
// --------------------------------------------------------------

struct ContractionShape {
  config::IterationSpace space;
  int m = 0, n = 1, k = 2; // loop indices
  bool batch = false;
};

// `batchBound`: a batch loop of that size, always (a block intrinsic's
// blocks); otherwise one of 2 or 4 a fifth of the time.
inline ContractionShape
contractionSpace(property::Random &random,
                 const layout::MmaIntrinsic &intrinsic,
                 const std::vector<int64_t> &workgroupMN, int64_t kTile,
                 std::optional<int64_t> batchBound = std::nullopt) {
  ContractionShape s;
  s.batch = batchBound || random.chance(0.2);
  const int offset = s.batch ? 1 : 0;
  s.m = offset;
  s.n = offset + 1;
  s.k = offset + 2;
  config::IterationSpace &space = s.space;
  if (s.batch) {
    space.bounds.push_back(batchBound ? *batchBound
                                      : random.pick<int64_t>({2, 4}));
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
  const std::vector<int> lhsDims =
      transposeA ? std::vector<int>{s.k, s.m} : std::vector<int>{s.m, s.k};
  const std::vector<int> rhsDims =
      transposeB ? std::vector<int>{s.n, s.k} : std::vector<int>{s.k, s.n};
  lhs.dims.insert(lhs.dims.end(), lhsDims.begin(), lhsDims.end());
  rhs.dims.insert(rhs.dims.end(), rhsDims.begin(), rhsDims.end());
  acc.dims.push_back(s.m);
  acc.dims.push_back(s.n);
  space.operands = {lhs, rhs, acc};
  return s;
}

inline std::string mmaKindText(const layout::MmaIntrinsic &intrinsic,
                               bool colMajor) {
  return std::string("#iree_gpu.") +
         (intrinsic.isVirtual ? "virtual_mma_layout<" : "mma_layout<") +
         intrinsic.name + (colMajor ? ", col_major = true>" : ">");
}

// VectorDistribute with an intrinsic; a block intrinsic (3-D fragments)
// gets a batch loop of its blocks (times 1 or 2) and a workgroup tile of
// one block group along it.
inline Case contractionCase(property::Random &random, const Target &target,
                            const std::string &intrinsicName, int index) {
  const layout::MmaIntrinsic &intrinsic =
      *layout::findMmaIntrinsic(intrinsicName);
  const bool block = intrinsic.lhs.outer.size() == 3;
  Case c;
  c.family = block ? "contraction-block" : "contraction";
  c.target = &target;
  const int64_t sgM = random.pick<int64_t>({1, 1, 2}),
                sgN = random.pick<int64_t>({1, 2, 2});
  const int64_t wgM = intrinsic.m * sgM * random.pick<int64_t>({1, 2}),
                wgN = intrinsic.n * sgN * random.pick<int64_t>({1, 2});
  const int64_t redK = intrinsic.k * random.pick<int64_t>({1, 2, 4});
  ContractionShape s = contractionSpace(
      random, intrinsic, {wgM, wgN}, redK,
      block ? std::optional<int64_t>(intrinsic.blocks *
                                     random.pick<int64_t>({1, 2}))
            : std::nullopt);
  const size_t rank = s.space.rank();
  std::vector<int64_t> workgroup(rank, 0), reduction(rank, 0);
  config::Basis subgroupBasis;
  subgroupBasis.counts.assign(rank, 1);
  subgroupBasis.mapping.resize(rank);
  std::iota(subgroupBasis.mapping.begin(), subgroupBasis.mapping.end(), 0);
  if (s.batch)
    workgroup[0] = block ? intrinsic.blocks : 1;
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
  c.probe.body = devices::ProbeBody::MultiplyAdd;
  return c;
}

// --- TileAndFuse
// ---------------------------------------------------------------

inline Case tileAndFuseCase(property::Random &random, const Target &target,
                            int index) {
  Case c;
  c.family = "tile-and-fuse";
  c.target = &target;
  const bool matmul = random.chance(0.5);
  config::IterationSpace space;
  std::vector<int64_t> workgroup, thread, reduction;
  if (matmul) {
    const int64_t wgM = random.powerOfTwo(8, 64),
                  wgN = random.powerOfTwo(16, 128);
    space.bounds = {wgM * random.pick<int64_t>({1, 2}),
                    wgN * random.pick<int64_t>({1, 2}),
                    random.powerOfTwo(32, 256)};
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
      workgroup.push_back(random.divisor(
          space.bounds.back(), std::max<int64_t>(4096 / volume / 8, 1)));
      volume *= workgroup.back();
      thread.push_back(
          random.chance(0.2) ? 0 : random.divisor(workgroup.back(), 8));
      reduction.push_back(0);
    }
    if (std::all_of(thread.begin(), thread.end(),
                    [](int64_t t) { return t == 0; }))
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
      tiles *=
          (space.isReduction(d) ? space.bounds[d] : workgroup[d]) / thread[d];
  int64_t threads = std::clamp<int64_t>(tiles, target.subgroupSize, 1024);
  if (random.chance(0.3))
    threads =
        std::clamp<int64_t>(threads * random.pick<int64_t>({2, 4}), 1, 1024);
  else if (random.chance(0.3))
    threads = std::max<int64_t>(threads / 2, target.subgroupSize);
  const int64_t x =
      std::min<int64_t>(threads, random.pick<int64_t>({32, 64, threads}));
  c.workgroupSize = {x, threads / x, 1};
  std::string config = "#iree_gpu.lowering_config<{";
  if (matmul)
    config += "reduction = " + list(reduction) + ", ";
  config +=
      "thread = " + list(thread) + ", workgroup = " + list(workgroup) + "}>";
  c.subgroupSize = target.subgroupSize;
  c.probe.function = "tf_" + std::to_string(index);
  c.probe.space = space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  return c;
}

inline Case tileAndFuseMmaCase(property::Random &random, const Target &target,
                               const std::string &intrinsicName, int index) {
  const layout::MmaIntrinsic &intrinsic =
      *layout::findMmaIntrinsic(intrinsicName);
  Case c;
  c.family = "tile-and-fuse-mma";
  c.target = &target;
  const int64_t sM = random.pick<int64_t>({1, 2}),
                sN = random.pick<int64_t>({1, 2, 4});
  const int64_t subgroupsM = random.pick<int64_t>({1, 2}),
                subgroupsN = random.pick<int64_t>({1, 2});
  const int64_t wgM = intrinsic.m * sM * subgroupsM,
                wgN = intrinsic.n * sN * subgroupsN;
  const int64_t kTiles = random.pick<int64_t>({1, 2, 4});
  ContractionShape s =
      contractionSpace(random, intrinsic, {wgM, wgN}, intrinsic.k * kTiles);
  const size_t rank = s.space.rank();
  std::vector<int64_t> workgroup(rank, 0), subgroup(rank, 0),
      reduction(rank, 0);
  if (s.batch)
    workgroup[0] = 1;
  workgroup[static_cast<size_t>(s.m)] = wgM;
  workgroup[static_cast<size_t>(s.n)] = wgN;
  subgroup[static_cast<size_t>(s.m)] = sM;
  subgroup[static_cast<size_t>(s.n)] = sN;
  reduction[static_cast<size_t>(s.k)] = kTiles;
  const bool promote = random.chance(0.6);
  std::string config =
      "#iree_gpu.lowering_config<{mma_kind = " + mmaKindText(intrinsic, false);
  if (promote)
    config += ", promote_operands = [0, 1]";
  config += ", reduction = " + list(reduction) +
            ", subgroup = " + list(subgroup) +
            ", workgroup = " + list(workgroup) + "}>";
  c.subgroupSize = intrinsic.subgroupSize;
  c.workgroupSize = {subgroupsM * subgroupsN * intrinsic.subgroupSize, 1, 1};
  c.probe.function = "tfm_" + std::to_string(index);
  c.probe.space = s.space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  c.probe.body = devices::ProbeBody::MultiplyAdd;
  return c;
}

// An elementwise op IREE gives #iree_gpu.derived_thread_config (copies,
// gathers, promoted operands): random loops (not only powers of two),
// result type and workgroup size; IREE derives the thread tiles.
inline Case derivedThreadConfigCase(property::Random &random,
                                    const Target &target, int index) {
  Case c;
  c.family = "derived-thread-config";
  c.target = &target;
  const std::string type =
      random.pick<std::string>({"f16", "f32", "i8", "bf16", "i32"});
  const size_t rank = static_cast<size_t>(random.range(1, 3));
  config::IterationSpace space;
  for (size_t d = 0; d < rank; ++d) {
    space.bounds.push_back(random.chance(0.7) ? random.powerOfTwo(1, 256)
                                              : random.range(2, 160));
    space.kinds.push_back(config::LoopKind::Parallel);
  }
  std::vector<int> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  space.operands = {{type, dims, false}, {type, dims, true}};
  const int64_t threads = random.pick<int64_t>({64, 128, 256, 512});
  const int64_t y = random.chance(0.3) ? random.pick<int64_t>({2, 4}) : 1;
  c.workgroupSize = {threads / y, y, 1};
  c.subgroupSize = target.subgroupSize;
  c.probe.function = "dtc_" + std::to_string(index);
  c.probe.space = space;
  c.probe.loweringConfig = "#iree_gpu.derived_thread_config";
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  return c;
}

// TileAndFuse on a scaled (MX) contraction, as IREE configures gfx950's:
// loops M, N, K/block, block; LHS (M, K/block, block), RHS (N, K/block,
// block), their f8E8M0FNU scales (M, K/block) and (N, K/block), ACC f32.
// `reduction` counts intrinsic K/block steps along K/block and takes the
// block whole, as IREE's config selection does.
inline Case scaledContractionCase(property::Random &random,
                                  const Target &target,
                                  const std::string &intrinsicName, int index) {
  const layout::MmaIntrinsic &intrinsic =
      *layout::findMmaIntrinsic(intrinsicName);
  Case c;
  c.family = "tile-and-fuse-scaled";
  c.target = &target;
  const std::string input =
      random.pick<std::string>({"f4E2M1FN", "f8E4M3FN", "f8E5M2"});
  const int64_t block = intrinsic.blockSize;
  const int64_t kSteps = intrinsic.k / block; // K/block per intrinsic
  const int64_t sM = random.pick<int64_t>({1, 2}),
                sN = random.pick<int64_t>({1, 2});
  const int64_t subgroupsM = random.pick<int64_t>({1, 2}),
                subgroupsN = random.pick<int64_t>({1, 2});
  const int64_t wgM = intrinsic.m * sM * subgroupsM,
                wgN = intrinsic.n * sN * subgroupsN;
  const int64_t kTiles = random.pick<int64_t>({1, 2});
  config::IterationSpace space;
  space.bounds = {wgM * random.pick<int64_t>({1, 2}),
                  wgN * random.pick<int64_t>({1, 2}),
                  kSteps * kTiles * random.pick<int64_t>({1, 2, 4}), block};
  space.kinds = {config::LoopKind::Parallel, config::LoopKind::Parallel,
                 config::LoopKind::Reduction, config::LoopKind::Reduction};
  space.operands = {{input, {0, 2, 3}, false},
                    {input, {1, 2, 3}, false},
                    {"f8E8M0FNU", {0, 2}, false},
                    {"f8E8M0FNU", {1, 2}, false},
                    {"f32", {0, 1}, true}};
  const std::string config =
      "#iree_gpu.lowering_config<{mma_kind = "
      "#iree_gpu.scaled_mma_layout<intrinsic = " +
      intrinsic.name + ", lhs_elem_type = " + input +
      ", rhs_elem_type = " + input +
      ", acc_elem_type = f32>, promote_operands = [0, 1, 2, 3], reduction = " +
      list(std::vector<int64_t>{0, 0, kTiles, 1}) +
      ", subgroup = " + list(std::vector<int64_t>{sM, sN, 0, 0}) +
      ", workgroup = " + list(std::vector<int64_t>{wgM, wgN, 0, 0}) + "}>";
  c.subgroupSize = intrinsic.subgroupSize;
  c.workgroupSize = {subgroupsM * subgroupsN * intrinsic.subgroupSize, 1, 1};
  c.probe.function = "tfs_" + std::to_string(index);
  c.probe.space = space;
  c.probe.loweringConfig = config;
  c.probe.translationInfo =
      translationInfo("TileAndFuse", c.workgroupSize, c.subgroupSize);
  c.probe.executableTarget = target.executableTarget;
  c.probe.body = devices::ProbeBody::ScaledMultiplyAdd;
  return c;
}

// gfx950 (CDNA4), for its scaled intrinsics.
inline Target scaledTarget() {
  return {"gfx950", service::GpuBackend::Rocdl,
          "gfx950", "",
          64,       config::builtinTarget("gfx950")->scaledMmaIntrinsics};
}

// The block intrinsics (3-D [block, M, K] fragments) a target offers.
inline std::vector<std::string> blockIntrinsics(const std::string &arch) {
  std::vector<std::string> names;
  const auto target = config::builtinTarget(arch);
  for (const std::string &name : target->mmaIntrinsics) {
    const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(name);
    if (found && found->lhs.outer.size() == 3)
      names.push_back(name);
  }
  return names;
}

inline std::vector<Target> defaultTargets() {
  std::ifstream deviceFile(std::string(TILESCOPE_SOURCE_DIR) +
                           "/examples/targets/cuda_sm_90.device.mlir");
  const std::string device((std::istreambuf_iterator<char>(deviceFile)),
                           std::istreambuf_iterator<char>());
  return {{"gfx942", service::GpuBackend::Rocdl, "gfx942", "", 64,
           layoutIntrinsics("gfx942")},
          {"sm_90", service::GpuBackend::Nvvm, "",
           executableTargetFromDevice(device), 32, layoutIntrinsics("sm_90")}};
}

} // namespace tilescope::property
