#include "core/config/Validation.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>

namespace tilescope::config {
namespace {

using Severity = Problem::Severity;

std::string list(const std::vector<int64_t> &values) {
  return bracketedList(values);
}

std::string kib(int64_t bytes) {
  std::ostringstream out;
  if (bytes % 1024 == 0)
    out << bytes / 1024 << " KiB";
  else
    out << static_cast<double>(bytes) / 1024.0 << " KiB";
  return out.str();
}

std::string mmaTypeName(const std::string &token) {
  if (token.rfind("BF", 0) == 0)
    return "bf16";
  if (token.empty())
    return token;
  std::string name = token;
  name[0] =
      static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
  return name;
}

class Checker {
public:
  Checker(const LoweringConfig &config, const ValidationContext &context)
      : config(config), context(context) {}

  std::vector<Problem> run() {
    checkKeys();
    checkTileShapes();
    checkBases();
    checkPromotion();
    checkTranslationInfo();
    checkTarget();
    checkContraction();
    return std::move(problems);
  }

private:
  const LoweringConfig &config;
  const ValidationContext &context;
  std::vector<Problem> problems;

  void add(Severity severity, std::string field, std::string message,
           std::string rule) {
    problems.push_back(
        {severity, std::move(field), std::move(message), std::move(rule)});
  }

  const IterationSpace *space() const {
    return context.iterationSpace ? &*context.iterationSpace : nullptr;
  }

  std::string pipeline() const {
    return context.translationInfo ? context.translationInfo->pipelineName()
                                   : std::string();
  }

  std::optional<int64_t> subgroupSize() const {
    if (context.translationInfo && context.translationInfo->subgroupSize)
      return context.translationInfo->subgroupSize;
    if (context.target && context.target->subgroupSizeChoices.size() == 1)
      return context.target->subgroupSizeChoices.front();
    return std::nullopt;
  }

  void checkKeys() {
    for (const ReadNote &note : config.notes()) {
      switch (note.kind) {
      case ReadNote::Kind::UnknownKey:
        add(Severity::Warning, note.key, note.message, "unknown-key");
        break;
      case ReadNote::Kind::BadValue:
        add(Severity::Error, note.key, note.message, "value-shape");
        break;
      case ReadNote::Kind::LegacyKey: {
        const auto &keys = loweringConfigKeys();
        auto it = std::find_if(keys.begin(), keys.end(), [&](const auto &k) {
          return note.key == k.name;
        });
        // expand_dims has its own, more specific message below.
        if (it != keys.end() && note.key != "expand_dims" &&
            compareRelease(context.ireeRelease, it->removed) >= 0) {
          std::string advice;
          if (note.key == "thread_basis")
            advice = "; rename it lane_basis (conversion "
                     "thread-basis-to-lane-basis)";
          else if (note.key == "subgroup_m_count" ||
                   note.key == "subgroup_n_count")
            advice = "; write subgroup_basis = [[m_count, n_count, 1], [...]] "
                     "instead";
          add(Severity::Error, note.key,
              note.key + " is not read by IREE " + context.ireeRelease +
                  " (removed in " + it->removed + ")" + advice,
              "key-release");
        }
        break;
      }
      }
    }
    if (config.has("expand_dims") &&
        compareRelease(context.ireeRelease, "3.12") >= 0)
      add(Severity::Error, "expand_dims",
          "expand_dims exists only in IREE 3.11; IREE " + context.ireeRelease +
              " rejects the attribute. There is no conversion: drop it and "
              "keep "
              "partial_reduction and thread tiles on the original reduction "
              "dimension; since 3.12 GPUPackPartialReductions splits the "
              "partial reduction itself",
          "key-release");
  }

  void checkTileShapes() {
    const IterationSpace *s = space();
    for (TilingLevel level : kAllTilingLevels) {
      auto sizes = config.tileSizes(level);
      if (!sizes)
        continue;
      const std::string key = keyOf(level);
      const bool expanded = config.has("expand_dims") && config.expandDims();
      size_t rank = s ? s->rank() : sizes->size();
      if (expanded)
        rank = config.expandDims()->outputShape.size();
      if (s && sizes->size() != rank) {
        add(Severity::Error, key,
            key + " has " + std::to_string(sizes->size()) +
                " entries; the iteration space has " + std::to_string(rank) +
                " dimensions" + (expanded ? " after expand_dims" : ""),
            "tile-rank");
        continue;
      }
      for (size_t d = 0; d < sizes->size(); ++d) {
        const int64_t t = (*sizes)[d];
        const std::string field = key + "[" + std::to_string(d) + "]";
        if (t < 0) {
          add(Severity::Error, field,
              field + "=" + std::to_string(t) +
                  " is negative; use 0 for "
                  "\"not tiled\"",
              "tile-negative");
          continue;
        }
        if (!s || expanded || t == 0)
          continue;
        const int64_t bound = s->bounds[d];
        const bool reduction = s->isReduction(d);
        if (level == TilingLevel::Workgroup && reduction &&
            pipeline() != "TileAndFuse")
          add(Severity::Error, field,
              field + "=" + std::to_string(t) + " tiles reduction dimension d" +
                  std::to_string(d) +
                  "; workgroup tiles apply to parallel dimensions (use 0)",
              "workgroup-on-reduction");
        if ((level == TilingLevel::PartialReduction ||
             level == TilingLevel::Reduction) &&
            !reduction)
          add(Severity::Error, field,
              field + "=" + std::to_string(t) + " is on parallel dimension d" +
                  std::to_string(d) + "; " + key +
                  " tiles apply to reduction dimensions only (use 0)",
              "reduction-on-parallel");
        if (bound == kDynamicSize)
          continue;
        if (t > bound && level != TilingLevel::Thread)
          add(Severity::Warning, field,
              field + "=" + std::to_string(t) + " is larger than dimension d" +
                  std::to_string(d) + " (" + std::to_string(bound) +
                  "); the tile is mostly padding",
              "tile-exceeds-bound");
        else if ((level == TilingLevel::Workgroup ||
                  level == TilingLevel::PartialReduction) &&
                 bound % t != 0)
          add(Severity::Error, field,
              field + "=" + std::to_string(t) + " does not divide " +
                  std::to_string(bound) + " (" + std::to_string(bound) + " = " +
                  std::to_string(bound / t) + " x " + std::to_string(t) +
                  " + " + std::to_string(bound % t) + ")",
              level == TilingLevel::Workgroup
                  ? "workgroup-divides-bound"
                  : "partial-reduction-divides-bound");
      }
    }
  }

  void checkBasis(const std::string &key, const Basis &basis,
                  std::optional<int64_t> expectedProduct,
                  const std::string &expectedWhat) {
    const IterationSpace *s = space();
    for (size_t i = 0; i < basis.counts.size(); ++i)
      if (basis.counts[i] <= 0)
        add(Severity::Error, key + ".counts[" + std::to_string(i) + "]",
            key + " count " + std::to_string(basis.counts[i]) +
                " must be positive",
            "basis-count");
    std::set<int64_t> seen;
    bool duplicate = false;
    for (int64_t m : basis.mapping) {
      if (m < 0 || m >= static_cast<int64_t>(basis.counts.size())) {
        add(Severity::Error, key + ".mapping",
            key + " mapping " + list(basis.mapping) + " names basis axis " +
                std::to_string(m) + "; counts has " +
                std::to_string(basis.counts.size()) + " axes",
            "basis-mapping-range");
      } else if (!seen.insert(m).second) {
        duplicate = true;
      }
    }
    if (duplicate)
      add(Severity::Error, key + ".mapping",
          "mapping " + list(basis.mapping) +
              " is not a permutation: each "
              "iteration dimension needs its own basis axis",
          "basis-permutation");
    size_t rank = s ? s->rank() : basis.mapping.size();
    if (config.expandDims() && config.has("expand_dims"))
      rank = config.expandDims()->outputShape.size();
    if (s && basis.mapping.size() != rank)
      add(Severity::Error, key + ".mapping",
          key + " mapping has " + std::to_string(basis.mapping.size()) +
              " entries; the iteration space has " + std::to_string(rank) +
              " dimensions",
          "basis-rank");
    if (expectedProduct && basis.product() != *expectedProduct)
      add(Severity::Error, key,
          key + " counts multiply to " + std::to_string(basis.product()) +
              "; " + expectedWhat + " is " + std::to_string(*expectedProduct),
          "basis-product");
  }

  void checkBases() {
    if (auto lane = config.laneBasis()) {
      const std::string key =
          config.has("lane_basis") ? "lane_basis" : "thread_basis";
      checkBasis(key, *lane, subgroupSize(), "subgroup size");
    }
    if (auto subgroup = config.subgroupBasis()) {
      checkBasis("subgroup_basis", *subgroup, std::nullopt, "");
      if (context.translationInfo && context.translationInfo->workgroupSize &&
          subgroupSize()) {
        const auto &w = *context.translationInfo->workgroupSize;
        const int64_t threads = saturatingProduct(w);
        const int64_t expected =
            saturatingMultiply(subgroup->product(), *subgroupSize());
        if (threads != expected)
          add(Severity::Error, "translation_info.workgroup_size",
              "workgroup_size " + list(w) + " is not subgroup_basis (" +
                  join(subgroup->counts, " x ") + ") x subgroup_size " +
                  std::to_string(*subgroupSize()) + " = " +
                  std::to_string(expected) + " threads",
              "workgroup-size-from-bases");
      }
    }
  }

  void checkPromotion() {
    auto operands = config.promoteOperands();
    const Attribute *types = config.promotionTypes();
    if (types && operands && types->is(Attribute::Kind::Array) &&
        types->elements.size() != operands->size())
      add(Severity::Error, "promotion_types",
          "promote_operands has " + std::to_string(operands->size()) +
              " entries and promotion_types " +
              std::to_string(types->elements.size()) +
              "; IREE requires the same length",
          "promotion-length");
    if (types && !operands)
      add(Severity::Error, "promotion_types",
          "promotion_types without promote_operands", "promotion-length");
    if (operands && space() && !space()->operands.empty())
      for (int64_t index : *operands)
        if (index < 0 ||
            index >= static_cast<int64_t>(space()->operands.size()))
          add(Severity::Error, "promote_operands",
              "promote_operands names operand " + std::to_string(index) +
                  "; the op has " + std::to_string(space()->operands.size()),
              "promotion-operand");
  }

  void checkTranslationInfo() {
    if (!context.translationInfo)
      return;
    const TranslationInfo &info = *context.translationInfo;
    if (info.pipelineSyntax() == PipelineSyntax::LegacyKeyword &&
        compareRelease(context.ireeRelease, "3.12") >= 0)
      add(Severity::Error, "translation_info.pipeline",
          "pipeline = " + info.pipeline().text +
              " is the IREE <= 3.11 syntax; " + context.ireeRelease +
              " reads #iree_gpu.pipeline<" + info.pipelineName() +
              "> (conversion pipeline-keyword-to-attribute)",
          "pipeline-syntax");
    if (info.pipelineSyntax() == PipelineSyntax::GpuPipelineAttribute &&
        compareRelease(context.ireeRelease, "3.12") < 0)
      add(Severity::Error, "translation_info.pipeline",
          "#iree_gpu.pipeline<...> needs IREE 3.12 or later; " +
              context.ireeRelease + " reads pipeline = LLVMGPU" +
              info.pipelineName() +
              " (conversion pipeline-attribute-to-keyword)",
          "pipeline-syntax");
    if (info.pipelineSyntax() != PipelineSyntax::Other) {
      const auto &names = gpuPipelineNames();
      if (std::find(names.begin(), names.end(), info.pipelineName()) ==
          names.end())
        add(Severity::Error, "translation_info.pipeline",
            "unknown GPU pipeline '" + info.pipelineName() + "'",
            "pipeline-name");
    }
    if (auto options = info.pipelineOptions()) {
      if (options->prefetchSharedMemory &&
          compareRelease(context.ireeRelease, "3.10") >= 0)
        add(Severity::Error, "gpu_pipeline_options.prefetch_shared_memory",
            "prefetch_shared_memory was replaced by prefetch_num_stages in "
            "IREE 3.10 (conversion prefetch-shared-memory-to-num-stages)",
            "pipeline-options-release");
      if (options->prefetchNumStages &&
          compareRelease(context.ireeRelease, "3.10") < 0)
        add(Severity::Error, "gpu_pipeline_options.prefetch_num_stages",
            "prefetch_num_stages needs IREE 3.10 or later; earlier releases "
            "read prefetch_shared_memory",
            "pipeline-options-release");
    }
  }

  void checkTarget() {
    if (!context.target)
      return;
    const GpuTarget &target = *context.target;
    const TranslationInfo *info =
        context.translationInfo ? &*context.translationInfo : nullptr;
    if (info && info->subgroupSize && !target.subgroupSizeChoices.empty() &&
        !target.allowsSubgroupSize(*info->subgroupSize)) {
      std::vector<int64_t> choices = target.subgroupSizeChoices;
      add(Severity::Error, "translation_info.subgroup_size",
          "subgroup_size " + std::to_string(*info->subgroupSize) +
              " is not offered by " + target.arch +
              " (choices: " + join(choices, ", ") + ")",
          "target-subgroup-size");
    }
    if (info && info->workgroupSize) {
      const auto &w = *info->workgroupSize;
      int64_t threads = 1;
      for (size_t i = 0; i < w.size(); ++i) {
        threads = saturatingMultiply(threads, w[i]);
        if (i < 3 && target.maxWorkgroupSizes[i] > 0 &&
            w[i] > target.maxWorkgroupSizes[i])
          add(Severity::Error,
              "translation_info.workgroup_size[" + std::to_string(i) + "]",
              "workgroup_size[" + std::to_string(i) +
                  "]=" + std::to_string(w[i]) + " exceeds " + target.arch +
                  "'s maximum " + std::to_string(target.maxWorkgroupSizes[i]),
              "target-workgroup-size");
      }
      if (target.maxThreadCountPerWorkgroup > 0 &&
          threads > target.maxThreadCountPerWorkgroup)
        add(Severity::Error, "translation_info.workgroup_size",
            "workgroup_size " + list(w) + " has " + std::to_string(threads) +
                " threads; " + target.arch + " allows " +
                std::to_string(target.maxThreadCountPerWorkgroup),
            "target-thread-count");
    }
    if (auto mma = config.mmaKind()) {
      if (!mma->isVirtual() && !target.offersMma(mma->intrinsic))
        add(Severity::Error, "mma_kind",
            mma->intrinsic + " is not offered by " + target.arch, "target-mma");
      if (auto shape = intrinsicShape(mma->intrinsic);
          shape && info && info->subgroupSize &&
          shape->subgroupSize != *info->subgroupSize)
        add(Severity::Error, "mma_kind",
            mma->intrinsic + " runs on subgroups of " +
                std::to_string(shape->subgroupSize) + "; subgroup_size is " +
                std::to_string(*info->subgroupSize),
            "mma-subgroup-size");
    }
  }

  // The intrinsic reads LHS and RHS of its own element types (IREE only
  // offers an intrinsic whose A and B types are the operands' types; the
  // accumulator may differ, e.g. convert_acc_gemm).
  void checkIntrinsicInputTypes(const IterationSpace &s,
                                const IntrinsicShape &shape,
                                const std::string &intrinsic) {
    if (s.operands.size() < 2)
      return;
    const std::string &lhs = s.operands[0].elementType;
    const std::string &rhs = s.operands[1].elementType;
    if (lhs.empty() || rhs.empty() ||
        (lhs == shape.aType && rhs == shape.bType))
      return;
    add(Severity::Error, "mma_kind",
        intrinsic + " reads " + shape.aType + " x " + shape.bType +
            "; the op's LHS and RHS are " + lhs + " x " + rhs,
        "mma-element-types");
  }

  // TileAndFuse (LLVMGPUConstraintGenerator.cpp, emitTileAndFuseConstraints):
  // each of M and N runs workgroup / (subgroup x intrinsic) subgroups,
  // workgroup_size is [subgroups x subgroup_size, 1, 1], and the K dimension
  // (aligned up to the intrinsic's K) is a multiple of reduction x mma K.
  void checkTileAndFuseStructure(
      const IterationSpace &s, int k, int64_t wgM, int64_t wgN, int64_t sgM,
      int64_t sgN, const IntrinsicShape &shape, const std::string &intrinsic,
      const std::optional<std::vector<int64_t>> &reduction) {
    const int64_t unitM = saturatingMultiply(sgM, shape.m);
    const int64_t unitN = saturatingMultiply(sgN, shape.n);
    const TranslationInfo *info =
        context.translationInfo ? &*context.translationInfo : nullptr;
    if (info && info->workgroupSize && subgroupSize() && unitM > 0 &&
        unitN > 0 && wgM > 0 && wgN > 0 && wgM % unitM == 0 &&
        wgN % unitN == 0) {
      const int64_t countM = wgM / unitM, countN = wgN / unitN;
      std::vector<int64_t> expected = {
          saturatingMultiply(saturatingMultiply(countM, countN),
                             *subgroupSize()),
          1, 1};
      std::vector<int64_t> actual = *info->workgroupSize;
      actual.resize(3, 1);
      if (actual != expected)
        add(Severity::Error, "translation_info.workgroup_size",
            "workgroup_size " + list(*info->workgroupSize) + " is not " +
                list(expected) + ": TileAndFuse runs (" + std::to_string(wgM) +
                " / (" + std::to_string(sgM) + " x " + intrinsic + " M " +
                std::to_string(shape.m) + ") = " + std::to_string(countM) +
                ") x (" + std::to_string(wgN) + " / (" + std::to_string(sgN) +
                " x N " + std::to_string(shape.n) + ") = " +
                std::to_string(countN) + ") subgroups x subgroup_size " +
                std::to_string(*subgroupSize()),
            "tile-and-fuse-workgroup-size");
    }
    if (!reduction || reduction->size() != s.rank())
      return;
    const int64_t redK = (*reduction)[static_cast<size_t>(k)];
    const int64_t boundK = s.bounds[static_cast<size_t>(k)];
    if (redK <= 0 || boundK == kDynamicSize || boundK <= 0 || shape.k <= 0)
      return;
    const int64_t alignedK =
        saturatingMultiply((boundK + shape.k - 1) / shape.k, shape.k);
    const int64_t packedK = saturatingMultiply(redK, shape.k);
    if (alignedK % packedK != 0)
      add(Severity::Error, "reduction[" + std::to_string(k) + "]",
          "reduction[" + std::to_string(k) + "]=" + std::to_string(redK) +
              " x " + intrinsic + " K " + std::to_string(shape.k) + " = " +
              std::to_string(packedK) + " does not divide d" +
              std::to_string(k) + " = " + std::to_string(alignedK) +
              (alignedK != boundK ? " (" + std::to_string(boundK) +
                                        " aligned to the intrinsic's K)"
                                  : std::string()) +
              " (TileAndFuse counts reduction in intrinsic tiles)",
          "tile-and-fuse-reduction-multiple");
  }

  // Contractions with mma_kind: IREE's constraint generators
  // (LLVMGPUConstraintGenerator.cpp) for VectorDistribute (tiles in elements)
  // and TileAndFuse (subgroup/reduction in intrinsic tiles).
  void checkContraction() {
    const IterationSpace *s = space();
    auto mma = config.mmaKind();
    if (!s || !mma)
      return;
    auto dims = inferContraction(*s);
    auto shape = intrinsicShape(mma->intrinsic);
    if (!dims || !shape)
      return;
    const int m = dims->m.back(), n = dims->n.back(), k = dims->k.back();
    checkIntrinsicInputTypes(*s, *shape, mma->intrinsic);
    auto workgroup = config.tileSizes(TilingLevel::Workgroup);
    auto reduction = config.tileSizes(TilingLevel::Reduction);
    if (!workgroup || workgroup->size() != s->rank())
      return;
    const bool tileAndFuse = pipeline() == "TileAndFuse";
    const int64_t wgM = (*workgroup)[static_cast<size_t>(m)];
    const int64_t wgN = (*workgroup)[static_cast<size_t>(n)];
    int64_t redK = 0;
    if (reduction && reduction->size() == s->rank())
      redK = saturatingMultiply((*reduction)[static_cast<size_t>(k)],
                                tileAndFuse ? shape->k : 1);

    // col_major only transposes the accumulator's registers; the intrinsic
    // still covers M x N (IREE's getMNKShape ignores it).
    const int64_t mmaM = shape->m;
    const int64_t mmaN = shape->n;
    std::vector<int64_t> subgroupCounts(s->rank(), 1);
    if (auto basis = config.subgroupBasis();
        basis && basis->mapping.size() == s->rank()) {
      for (size_t d = 0; d < s->rank(); ++d) {
        const int64_t axis = basis->mapping[d];
        if (axis >= 0 && axis < static_cast<int64_t>(basis->counts.size()))
          subgroupCounts[d] = basis->counts[static_cast<size_t>(axis)];
      }
    }
    auto subgroupTiles = config.tileSizes(TilingLevel::Subgroup);
    auto checkDivides = [&](const char *name, int dim, int64_t wg, int64_t unit,
                            const std::string &why) {
      if (wg <= 0 || unit <= 0 || wg % unit == 0)
        return;
      add(Severity::Error,
          std::string("workgroup[") + std::to_string(dim) + "]",
          std::string("workgroup[") + std::to_string(dim) +
              "]=" + std::to_string(wg) + " (" + name +
              ") is not a multiple of " + std::to_string(unit) + " = " + why,
          "contraction-workgroup-multiple");
    };
    if (tileAndFuse && subgroupTiles && subgroupTiles->size() == s->rank()) {
      const int64_t sgM = (*subgroupTiles)[static_cast<size_t>(m)];
      const int64_t sgN = (*subgroupTiles)[static_cast<size_t>(n)];
      checkDivides("M", m, wgM, saturatingMultiply(sgM, mmaM),
                   "subgroup[" + std::to_string(m) + "] " +
                       std::to_string(sgM) + " x " + mma->intrinsic + " M " +
                       std::to_string(mmaM));
      checkDivides("N", n, wgN, saturatingMultiply(sgN, mmaN),
                   "subgroup[" + std::to_string(n) + "] " +
                       std::to_string(sgN) + " x " + mma->intrinsic + " N " +
                       std::to_string(mmaN));
      checkTileAndFuseStructure(*s, k, wgM, wgN, sgM, sgN, *shape,
                                mma->intrinsic, reduction);
    } else if (!tileAndFuse) {
      checkDivides(
          "M", m, wgM,
          saturatingMultiply(mmaM, subgroupCounts[static_cast<size_t>(m)]),
          mma->intrinsic + " M " + std::to_string(mmaM) + " x " +
              std::to_string(subgroupCounts[static_cast<size_t>(m)]) +
              " subgroups");
      checkDivides(
          "N", n, wgN,
          saturatingMultiply(mmaN, subgroupCounts[static_cast<size_t>(n)]),
          mma->intrinsic + " N " + std::to_string(mmaN) + " x " +
              std::to_string(subgroupCounts[static_cast<size_t>(n)]) +
              " subgroups");
      if (redK > 0 && redK % shape->k != 0)
        add(Severity::Error, "reduction[" + std::to_string(k) + "]",
            "reduction[" + std::to_string(k) + "]=" + std::to_string(redK) +
                " is not a multiple of " + mma->intrinsic + " K " +
                std::to_string(shape->k),
            "contraction-reduction-multiple");
    }

    // Shared memory: promoted LHS and RHS tiles of one reduction step.
    if (!context.target || redK <= 0 || s->operands.size() < 2)
      return;
    auto promoted = config.promoteOperands().value_or(std::vector<int64_t>{});
    auto isPromoted = [&](int64_t operand) {
      return std::find(promoted.begin(), promoted.end(), operand) !=
             promoted.end();
    };
    const int64_t lhsBytes = elementBytes(s->operands[0].elementType);
    const int64_t rhsBytes = elementBytes(s->operands[1].elementType);
    int64_t bytes = 0;
    if (isPromoted(0))
      bytes = saturatingAdd(
          bytes, saturatingMultiply(saturatingMultiply(lhsBytes, wgM), redK));
    if (isPromoted(1))
      bytes = saturatingAdd(
          bytes, saturatingMultiply(saturatingMultiply(rhsBytes, wgN), redK));
    const int64_t limit = context.target->maxWorkgroupMemoryBytes;
    if (limit > 0 && bytes > limit)
      add(Severity::Error, "promote_operands",
          "estimated shared memory " + kib(bytes) + " > " + kib(limit) +
              " on " + context.target->arch + " (LHS " + std::to_string(wgM) +
              "x" + std::to_string(redK) + " + RHS " + std::to_string(wgN) +
              "x" + std::to_string(redK) + " per reduction step)",
          "shared-memory");
  }
};

} // namespace

std::string toString(Problem::Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::vector<Problem> validate(const LoweringConfig &config,
                              const ValidationContext &context) {
  return Checker(config, context).run();
}

std::optional<IntrinsicShape> intrinsicShape(std::string_view name) {
  static const std::regex pattern(
      R"re(^(NV_MMA_SYNC|NV_WMMA|MFMA_SCALE|VDMFMA|VMFMA|MFMA|WMMAR3|WMMAR4|WMMA)_([A-Z0-9]+)_(\d+)x(\d+)x(\d+)(?:x(\d+)B?)?(?:_([A-Z0-9]+))?(?:_([A-Z0-9]+))?$)re");
  std::cmatch match;
  if (!std::regex_match(name.begin(), name.end(), match, pattern))
    return std::nullopt;
  IntrinsicShape shape;
  const std::string kind = match[1];
  shape.cType = mmaTypeName(match[2]);
  auto m = parseInt64(match[3].str()), n = parseInt64(match[4].str()),
       k = parseInt64(match[5].str());
  auto blocks =
      match[6].matched ? parseInt64(match[6].str()) : std::optional<int64_t>(1);
  // A name with a zero size (MFMA_F32_16x16x0_F16) names no intrinsic.
  if (!m || !n || !k || !blocks || *m <= 0 || *n <= 0 || *k <= 0 ||
      *blocks <= 0)
    return std::nullopt;
  shape.m = *m;
  shape.n = *n;
  shape.k = *k;
  shape.blocks = *blocks;
  shape.aType = mmaTypeName(match[7]);
  shape.bType = match[8].matched ? mmaTypeName(match[8]) : shape.aType;
  shape.subgroupSize = (kind == "MFMA" || kind == "VMFMA" || kind == "VDMFMA" ||
                        kind == "MFMA_SCALE")
                           ? 64
                           : 32;
  return shape;
}

int compareRelease(std::string_view a, std::string_view b) {
  auto parts = [](std::string_view text) {
    std::pair<int, int> version{0, 0};
    std::string s(text);
    std::sscanf(s.c_str(), "%d.%d", &version.first, &version.second);
    return version;
  };
  const auto x = parts(a), y = parts(b);
  if (x == y)
    return 0;
  return x < y ? -1 : 1;
}

} // namespace tilescope::config
