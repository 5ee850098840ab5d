#include "core/config/rules/Validation.h"

#include "core/config/rules/detail/ValidationReporter.h"
#include "core/config/syntax/IreeSyntax.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>

namespace tilescope::config {

using detail::Reporter;

namespace {

std::string list(const std::vector<int64_t> &values) {
  return bracketedList(values);
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

void checkKeys(Reporter &r) {
  for (const ReadNote &note : r.config.notes()) {
    switch (note.kind) {
    case ReadNote::Kind::UnknownKey:
      r.add(note.key, note.message, "unknown-key");
      break;
    case ReadNote::Kind::BadValue:
      r.add(note.key, note.message, "value-shape");
      break;
    case ReadNote::Kind::LegacyKey: {
      const auto &keys = loweringConfigKeys();
      auto it = std::find_if(keys.begin(), keys.end(),
                             [&](const auto &k) { return note.key == k.name; });
      // expand_dims has its own, more specific message below.
      if (it != keys.end() && note.key != "expand_dims" &&
          compareRelease(r.context.ireeRelease, it->removed) >= 0) {
        std::string advice;
        if (note.key == "thread_basis")
          advice = "; rename it lane_basis (conversion "
                   "thread-basis-to-lane-basis)";
        else if (note.key == "subgroup_m_count" ||
                 note.key == "subgroup_n_count")
          advice = "; write subgroup_basis = [[m_count, n_count, 1], [...]] "
                   "instead";
        r.add(note.key,
              note.key + " is not read by IREE " + r.context.ireeRelease +
                  " (removed in " + it->removed + ")" + advice,
              "key-release");
      }
      break;
    }
    }
  }
  if (r.config.has("expand_dims") &&
      compareRelease(r.context.ireeRelease, "3.12") >= 0)
    r.add("expand_dims",
          "expand_dims exists only in IREE 3.11; IREE " +
              r.context.ireeRelease +
              " rejects the attribute. There is no conversion: drop it and "
              "keep "
              "partial_reduction and thread tiles on the original reduction "
              "dimension; since 3.12 GPUPackPartialReductions splits the "
              "partial reduction itself",
          "key-release");
}

void checkTileShapes(Reporter &r) {
  const IterationSpace *s = r.space();
  for (TilingLevel level : kAllTilingLevels) {
    auto sizes = r.config.tileSizes(level);
    if (!sizes)
      continue;
    const std::string key = keyOf(level);
    const bool expanded = r.config.has("expand_dims") && r.config.expandDims();
    size_t rank = s ? s->rank() : sizes->size();
    if (expanded)
      rank = r.config.expandDims()->outputShape.size();
    if (s && sizes->size() != rank) {
      r.add(key,
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
        r.add(field,
              field + "=" + std::to_string(t) +
                  " is negative: IREE does not check it and builds layouts "
                  "and loops with a tile of " +
                  std::to_string(t) + "; use 0 for \"not tiled\"",
              "tile-negative");
        continue;
      }
      if (!s || expanded || t == 0)
        continue;
      const int64_t bound = s->bounds[d];
      const bool reduction = s->isReduction(d);
      if (level == TilingLevel::Workgroup && reduction &&
          r.pipeline() != "TileAndFuse")
        r.add(field,
              field + "=" + std::to_string(t) + " is on reduction dimension d" +
                  std::to_string(d) +
                  ": IREE ignores it (workgroup tiling only partitions "
                  "parallel loops and sets this tile to 0); use 0",
              "workgroup-on-reduction");
      if ((level == TilingLevel::PartialReduction ||
           level == TilingLevel::Reduction) &&
          !reduction)
        r.add(field,
              field + "=" + std::to_string(t) + " is on parallel dimension d" +
                  std::to_string(d) + "; " + key +
                  " tiles apply to reduction dimensions only (use 0)",
              "reduction-on-parallel");
      if (bound == kDynamicSize)
        continue;
      if (t > bound && level != TilingLevel::Thread)
        r.add(field,
              field + "=" + std::to_string(t) + " is larger than dimension d" +
                  std::to_string(d) + " (" + std::to_string(bound) +
                  "); the tile is mostly padding",
              "tile-exceeds-bound");
      else if (level == TilingLevel::Workgroup && bound % t != 0 &&
               r.pipeline() == "VectorDistribute" &&
               r.config.has("lane_basis") &&
               r.context.fusedConsumer.value_or(false))
        r.add(field,
              field + "=" + std::to_string(t) + " does not divide " +
                  std::to_string(bound) + " (" + std::to_string(bound) + " = " +
                  std::to_string(bound / t) + " x " + std::to_string(t) +
                  " + " + std::to_string(bound % t) +
                  ") and the dispatch fuses an op after this one: IREE 3.13 "
                  "refuses the partial last workgroup ('tensor.empty' op "
                  "incorrect number of dynamic sizes); use a tile that "
                  "divides " +
                  std::to_string(bound),
              "workgroup-divides-bound-fused-consumer");
      else if ((level == TilingLevel::Workgroup ||
                level == TilingLevel::PartialReduction) &&
               bound % t != 0)
        r.add(field,
              field + "=" + std::to_string(t) + " does not divide " +
                  std::to_string(bound) + " (" + std::to_string(bound) + " = " +
                  std::to_string(bound / t) + " x " + std::to_string(t) +
                  " + " + std::to_string(bound % t) + "): IREE compiles it" +
                  (level == TilingLevel::Workgroup
                       ? ", the last workgroup along d" + std::to_string(d) +
                             " covering only " + std::to_string(bound % t) +
                             " of its " + std::to_string(t) +
                             " (its loads and stores are masked)" +
                             (r.pipeline() == "VectorDistribute" &&
                                      r.config.has("lane_basis") &&
                                      !r.context.fusedConsumer
                                  ? "; but where the dispatch fuses an op "
                                    "after this one (a bias add), IREE 3.13 "
                                    "refuses it ('tensor.empty' op incorrect "
                                    "number of dynamic sizes)"
                                  : "")
                       : ", padding the last chunk of d" + std::to_string(d) +
                             " from " + std::to_string(bound % t) + " to " +
                             std::to_string(t) + " elements"),
              level == TilingLevel::Workgroup
                  ? "workgroup-divides-bound"
                  : "partial-reduction-divides-bound");
    }
  }
}

// GPUPackPartialReductions packs a reduction loop with partial_reduction > 1
// and thread > 1 by the thread tile, asserting the first is a multiple of
// the second (3.12 and later).
void checkPartialReductionPacking(Reporter &r) {
  if (compareRelease(r.context.ireeRelease, "3.12") < 0)
    return;
  auto partial = r.config.tileSizes(TilingLevel::PartialReduction);
  auto thread = r.config.tileSizes(TilingLevel::Thread);
  const IterationSpace *s = r.space();
  if (!partial || !thread)
    return;
  for (size_t d = 0; d < partial->size() && d < thread->size(); ++d) {
    const int64_t p = (*partial)[d], t = (*thread)[d];
    if (p <= 1 || t <= 1 || p % t == 0 || (s && !s->isReduction(d)))
      continue;
    r.add("partial_reduction[" + std::to_string(d) + "]",
          "partial_reduction[" + std::to_string(d) + "]=" + std::to_string(p) +
              " is not a multiple of thread[" + std::to_string(d) +
              "]=" + std::to_string(t) + ": GPUPackPartialReductions splits d" +
              std::to_string(d) + " into " + std::to_string(p) + " / " +
              std::to_string(t) + " x " + std::to_string(t) +
              " and asserts it divides (a release build drops the " +
              std::to_string(p % t) + " left over)",
          "partial-reduction-thread-multiple");
  }
}

// VectorDistribute spreads each loop of a partial-reduction step over the
// basis digit it walks (distributeTilingSizes): lanes x subgroups of the
// loop. Where they outnumber what the step holds of the loop (the
// workgroup tile of a parallel loop, partial_reduction / thread vectors of
// a reduction loop), the layout is larger than the tile and the lanes past
// it hold nothing (measured with the pinned iree-compile: it compiles,
// property_compile_claims; IREE's to_layout shows thread_tile 64 over a
// dimension of 32 for the gfx942 reduction with partial_reduction [0, 256]).
void checkLanesPastTheStep(Reporter &r) {
  const IterationSpace *s = r.space();
  auto lanes = r.config.laneBasis();
  if (!s || !lanes || r.pipeline() != "VectorDistribute" || r.config.mmaKind())
    return;
  auto partial = r.config.tileSizes(TilingLevel::PartialReduction);
  auto thread = r.config.tileSizes(TilingLevel::Thread);
  auto workgroup = r.config.tileSizes(TilingLevel::Workgroup);
  if (!partial)
    return;
  auto along = [](const std::optional<Basis> &basis, size_t d) -> int64_t {
    if (!basis || d >= basis->mapping.size())
      return 1;
    const int64_t digit = basis->mapping[d];
    if (digit < 0 || digit >= static_cast<int64_t>(basis->counts.size()))
      return 1;
    return basis->counts[static_cast<size_t>(digit)];
  };
  const auto subgroups = r.config.subgroupBasis();
  for (size_t d = 0; d < s->rank(); ++d) {
    const int64_t bound = s->bounds[d];
    const int64_t t =
        thread && d < thread->size() && (*thread)[d] > 0 ? (*thread)[d] : 1;
    int64_t extent = 0;
    std::string what;
    if (s->isReduction(d)) {
      const int64_t p = d < partial->size() ? (*partial)[d] : 0;
      if (p <= 0 || p % t != 0)
        continue;
      extent = p / t;
      what = "partial_reduction[" + std::to_string(d) +
             "]=" + std::to_string(p) + " / thread[" + std::to_string(d) +
             "]=" + std::to_string(t) + " = " + std::to_string(extent) +
             " vectors";
    } else {
      const int64_t w =
          workgroup && d < workgroup->size() ? (*workgroup)[d] : 0;
      extent = w > 0 ? w : bound;
      if (extent <= 0 || extent == kDynamicSize || extent % t != 0)
        continue;
      extent /= t;
      what = "the workgroup's " + std::to_string(extent) +
             (t > 1 ? " vectors" : " rows") + " of d" + std::to_string(d);
    }
    const int64_t laneCount = along(lanes, d);
    const int64_t workers = saturatingMultiply(laneCount, along(subgroups, d));
    if (workers <= extent || laneCount <= 1)
      continue;
    r.add(r.config.has("lane_basis") ? "lane_basis" : "thread_basis",
          "d" + std::to_string(d) + " gets " + std::to_string(laneCount) +
              " lanes" +
              (along(subgroups, d) > 1
                   ? " x " + std::to_string(along(subgroups, d)) + " subgroups"
                   : std::string()) +
              " but a step holds " + what +
              ": the layout is larger than "
              "the tile, and " +
              std::to_string(workers - extent) + " of the " +
              std::to_string(workers) + " hold nothing of it",
          "lanes-past-the-step");
  }
}

void checkBasis(Reporter &r, const std::string &key, const Basis &basis,
                std::optional<int64_t> expectedProduct,
                const std::string &expectedWhat) {
  const IterationSpace *s = r.space();
  bool positive = true;
  for (size_t i = 0; i < basis.counts.size(); ++i)
    if (basis.counts[i] <= 0) {
      positive = false;
      r.add(key + ".counts[" + std::to_string(i) + "]",
            key + " count " + std::to_string(basis.counts[i]) +
                " must be positive",
            "basis-count");
    }
  std::set<int64_t> seen;
  bool duplicate = false;
  for (int64_t m : basis.mapping) {
    if (m < 0 || m >= static_cast<int64_t>(basis.counts.size())) {
      r.add(key + ".mapping",
            key + " mapping " + list(basis.mapping) + " names basis axis " +
                std::to_string(m) + "; counts has " +
                std::to_string(basis.counts.size()) + " axes",
            "basis-mapping-range");
    } else if (!seen.insert(m).second) {
      duplicate = true;
    }
  }
  if (duplicate)
    r.add(key + ".mapping",
          "mapping " + list(basis.mapping) +
              " is not a permutation: each "
              "iteration dimension needs its own basis axis",
          "basis-permutation");
  size_t rank = s ? s->rank() : basis.mapping.size();
  if (r.config.expandDims() && r.config.has("expand_dims"))
    rank = r.config.expandDims()->outputShape.size();
  if (s && basis.mapping.size() != rank)
    r.add(key + ".mapping",
          key + " mapping has " + std::to_string(basis.mapping.size()) +
              " entries; the iteration space has " + std::to_string(rank) +
              " dimensions",
          "basis-rank");
  // A count that is not positive is reported above; the lanes its product
  // would name mean nothing (and a negative count saturates the product).
  if (!positive || !expectedProduct || basis.product() == *expectedProduct)
    return;
  const int64_t product = basis.product(), lanes = *expectedProduct;
  if (product < lanes)
    r.add(key, lanesWrapMessage(key, product, lanes), "basis-product");
  else
    r.add(key,
          key + " counts multiply to " + std::to_string(product) + "; " +
              expectedWhat + " is " + std::to_string(lanes) +
              ": the basis names lanes " + std::to_string(lanes) + " to " +
              std::to_string(product - 1) +
              " that do not exist, so no lane holds the elements it gives "
              "them (IREE does not check this)",
          "basis-product-over");
}

void checkBases(Reporter &r) {
  if (auto lane = r.config.laneBasis()) {
    const std::string key =
        r.config.has("lane_basis") ? "lane_basis" : "thread_basis";
    checkBasis(r, key, *lane, r.subgroupSize(), "subgroup size");
  }
  if (auto subgroup = r.config.subgroupBasis()) {
    checkBasis(r, "subgroup_basis", *subgroup, std::nullopt, "");
    if (r.context.translationInfo && r.context.translationInfo->workgroupSize &&
        r.subgroupSize()) {
      const auto &w = *r.context.translationInfo->workgroupSize;
      const int64_t threads = saturatingProduct(w);
      const int64_t expected =
          saturatingMultiply(subgroup->product(), *r.subgroupSize());
      const std::string needs =
          "subgroup_basis (" + join(subgroup->counts, " x ") +
          ") x subgroup_size " + std::to_string(*r.subgroupSize()) + " = " +
          std::to_string(expected) + " threads";
      if (threads > expected)
        r.add("translation_info.workgroup_size",
              "workgroup_size " + list(w) + " has " + std::to_string(threads) +
                  " threads; " + needs + ": IREE compiles it, and the " +
                  "subgroups past the basis repeat the work of the first " +
                  "ones (subgroup ids wrap)",
              "workgroup-size-from-bases");
      else if (threads < expected)
        r.add("translation_info.workgroup_size",
              "workgroup_size " + list(w) + " has " + std::to_string(threads) +
                  " threads; " + needs + ": the subgroups the basis names " +
                  "past the workgroup do not exist, so no one holds their " +
                  "elements (IREE does not check this)",
              "workgroup-size-short");
    }
  }
}

void checkPromotion(Reporter &r) {
  auto operands = r.config.promoteOperands();
  const Attribute *types = r.config.promotionTypes();
  if (types && operands && types->is(Attribute::Kind::Array) &&
      types->elements.size() != operands->size())
    r.add("promotion_types",
          "promote_operands has " + std::to_string(operands->size()) +
              " entries and promotion_types " +
              std::to_string(types->elements.size()) +
              "; IREE requires the same length",
          "promotion-length");
  if (types && !operands)
    r.add("promotion_types", "promotion_types without promote_operands",
          "promotion-length");
  if (operands && r.space() && !r.space()->operands.empty())
    for (int64_t index : *operands)
      if (index < 0 ||
          index >= static_cast<int64_t>(r.space()->operands.size()))
        r.add("promote_operands",
              "promote_operands names operand " + std::to_string(index) +
                  "; the op has " + std::to_string(r.space()->operands.size()),
              "promotion-operand");
}

void checkTranslationInfo(Reporter &r) {
  if (!r.context.translationInfo)
    return;
  const TranslationInfo &info = *r.context.translationInfo;
  if (info.pipelineSyntax() == PipelineSyntax::LegacyKeyword &&
      compareRelease(r.context.ireeRelease, "3.12") >= 0)
    r.add("translation_info.pipeline",
          "pipeline = " + info.pipeline().text +
              " is the IREE <= 3.11 syntax; " + r.context.ireeRelease +
              " reads #iree_gpu.pipeline<" + info.pipelineName() +
              "> (conversion pipeline-keyword-to-attribute)",
          "pipeline-syntax");
  if (info.pipelineSyntax() == PipelineSyntax::GpuPipelineAttribute &&
      compareRelease(r.context.ireeRelease, "3.12") < 0)
    r.add("translation_info.pipeline",
          "#iree_gpu.pipeline<...> needs IREE 3.12 or later; " +
              r.context.ireeRelease + " reads pipeline = LLVMGPU" +
              info.pipelineName() +
              " (conversion pipeline-attribute-to-keyword)",
          "pipeline-syntax");
  if (info.pipelineSyntax() != PipelineSyntax::Other) {
    const auto &names = gpuPipelineNames();
    if (std::find(names.begin(), names.end(), info.pipelineName()) ==
        names.end())
      r.add("translation_info.pipeline",
            "unknown GPU pipeline '" + info.pipelineName() + "'",
            "pipeline-name");
  }
  if (auto options = info.pipelineOptions()) {
    if (options->prefetchSharedMemory &&
        compareRelease(r.context.ireeRelease, "3.10") >= 0)
      r.add("gpu_pipeline_options.prefetch_shared_memory",
            "prefetch_shared_memory was replaced by prefetch_num_stages in "
            "IREE 3.10 (conversion prefetch-shared-memory-to-num-stages)",
            "pipeline-options-release");
    if (options->prefetchNumStages &&
        compareRelease(r.context.ireeRelease, "3.10") < 0)
      r.add("gpu_pipeline_options.prefetch_num_stages",
            "prefetch_num_stages needs IREE 3.10 or later; earlier releases "
            "read prefetch_shared_memory",
            "pipeline-options-release");
  }
}

void checkTarget(Reporter &r) {
  if (!r.context.target)
    return;
  const GpuTarget &target = *r.context.target;
  const TranslationInfo *info =
      r.context.translationInfo ? &*r.context.translationInfo : nullptr;
  if (info && info->subgroupSize && !target.subgroupSizeChoices.empty() &&
      !target.allowsSubgroupSize(*info->subgroupSize)) {
    std::vector<int64_t> choices = target.subgroupSizeChoices;
    r.add("translation_info.subgroup_size",
          "subgroup_size " + std::to_string(*info->subgroupSize) +
              " is not offered by " + target.arch +
              " (choices: " + join(choices, ", ") +
              "): IREE does not check it against the target and compiles "
              "for subgroups the hardware does not have",
          "target-subgroup-size");
  }
  if (info && info->workgroupSize) {
    const auto &w = *info->workgroupSize;
    int64_t threads = 1;
    for (size_t i = 0; i < w.size(); ++i) {
      threads = saturatingMultiply(threads, w[i]);
      if (i < 3 && target.maxWorkgroupSizes[i] > 0 &&
          w[i] > target.maxWorkgroupSizes[i])
        r.add("translation_info.workgroup_size[" + std::to_string(i) + "]",
              "workgroup_size[" + std::to_string(i) +
                  "]=" + std::to_string(w[i]) + " exceeds " + target.arch +
                  "'s maximum " + std::to_string(target.maxWorkgroupSizes[i]),
              "target-workgroup-size");
    }
    if (target.maxThreadCountPerWorkgroup > 0 &&
        threads > target.maxThreadCountPerWorkgroup)
      r.add("translation_info.workgroup_size",
            "workgroup_size " + list(w) + " has " + std::to_string(threads) +
                " threads; " + target.arch + " allows " +
                std::to_string(target.maxThreadCountPerWorkgroup),
            "target-thread-count");
  }
  if (auto mma = r.config.mmaKind()) {
    if (!mma->isVirtual() && !target.offersMma(mma->intrinsic))
      r.add("mma_kind",
            mma->intrinsic + " is not offered by " + target.arch +
                ": IREE does not check mma_kind against the target before "
                "generating code, and " +
                target.arch + " has no such instruction",
            "target-mma");
    if (auto shape = intrinsicShape(mma->intrinsic);
        shape && info && info->subgroupSize &&
        shape->subgroupSize != *info->subgroupSize)
      r.add("mma_kind",
            mma->intrinsic + " runs on subgroups of " +
                std::to_string(shape->subgroupSize) + "; subgroup_size is " +
                std::to_string(*info->subgroupSize) +
                ": IREE does not check it and lays the intrinsic's lanes "
                "over subgroups of the wrong size",
            "mma-subgroup-size");
  }
}

} // namespace

namespace {

// What IREE's parser (3.12 and later) refuses in the texts as written.
void checkSyntax(Reporter &r) {
  if (compareRelease(r.context.ireeRelease, "3.12") < 0)
    return;
  auto report = [&](const Attribute &text, const char *prefix) {
    for (const SyntaxProblem &problem :
         ireeParserProblems(text, r.context.ireeRelease)) {
      std::string field = problem.field.empty() ? prefix : problem.field;
      // Covered by a rule with more to say.
      if (field == "expand_dims" || field == "promotion_types")
        continue;
      r.add(field, problem.message, "iree-parser");
    }
  };
  report(r.context.loweringConfigText ? *r.context.loweringConfigText
                                      : r.config.toAttribute(),
         "lowering_config");
  if (r.context.translationInfoText)
    report(*r.context.translationInfoText, "translation_info");
}

} // namespace

std::vector<Problem> validate(const LoweringConfig &config,
                              const ValidationContext &context) {
  Reporter r(config, context);
  checkSyntax(r);
  checkKeys(r);
  checkTileShapes(r);
  checkPartialReductionPacking(r);
  checkBases(r);
  checkLanesPastTheStep(r);
  checkPromotion(r);
  checkTranslationInfo(r);
  checkTarget(r);
  detail::checkContraction(r);
  return std::move(r.problems);
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

std::string lanesWrapMessage(const std::string &subject, int64_t product,
                             int64_t lanes) {
  return subject + " counts multiply to " + std::to_string(product) +
         " of the " + std::to_string(lanes) +
         " lanes of a subgroup: IREE compiles it, and lanes " +
         std::to_string(product) + " to " + std::to_string(lanes - 1) +
         " hold the same elements as " +
         (product == 1 ? std::string("lane 0")
                       : "lanes 0 to " + std::to_string(product - 1)) +
         " (lane ids wrap), repeating their work";
}

} // namespace tilescope::config
