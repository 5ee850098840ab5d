// tilescope-cli explain: who holds what, in words (or --json).
//
//   explain --basis '[[16, 4], [1, 0]]' --thread 42
//   explain --layout '#iree_vector_ext.nested_layout<...>' [--element 3,17]
//           [--subgroup 0 --lane 5] [--subgroups 4 --subgroup-size 64]
//   explain --mma MFMA_F32_32x32x8_F16 [--operand acc] [--lane 0]
//   explain --config '...' --iteration-space 4x6656x16384:ppr
//           [--target gfx942 --types f16,f32]
//   explain --swizzle '#iree_codegen.xor_shuffle<128, 8>' --access column
//   explain FILE --op DISPATCH:OP  (a root op of an IREE file, as --config)
//   explain FILE --op DISPATCH:OP --tiles  (what each tile list's numbers
//           mean under the pipeline, loop by loop)
#include "app/cli/Commands.h"
#include "app/cli/ExplainAttention.h"
#include "app/cli/LayoutInputs.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/export/ConfigJson.h"
#include "core/export/JsonText.h"
#include "core/export/LayoutJson.h"
#include "core/layout/Basis.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/OpLayouts.h"
#include "core/layout/Roofline.h"
#include "core/layout/Swizzle.h"

#include <QCommandLineParser>

#include <iostream>
#include <sstream>
#include <variant>

using nlohmann::json;

namespace tilescope::cli {
namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

int explainBasis(const LayoutInputs &in, bool asJson) {
  auto basis = in.basis();
  if (!basis)
    return fail("--basis", basis.error());
  auto map = layout::BasisMap::create(*basis);
  if (!map)
    return fail("--basis", map.error());
  std::vector<int64_t> ids;
  if (in.thread)
    ids.push_back(*in.thread);
  else
    for (int64_t id = 0; id < std::min<int64_t>(map->idCount(), 256); ++id)
      ids.push_back(id);
  json out = {{"counts", basis->counts},
              {"mapping", basis->mapping},
              {"sizes", map->sizes()},
              {"strides", map->strides()},
              {"threads", json::array()}};
  for (int64_t id : ids) {
    if (id < 0 || id >= map->idCount())
      return fail("--thread", "thread " + std::to_string(id) +
                                  " is outside the basis (" +
                                  std::to_string(map->idCount()) + " threads)");
    out["threads"].push_back({{"thread", id},
                              {"digits", map->digits(id)},
                              {"iteration", map->coordinates(id)}});
    if (!asJson)
      std::cout << "thread " << id << " -> basis digits "
                << list(map->digits(id)) << " -> iteration "
                << list(map->coordinates(id)) << "\n";
  }
  if (asJson)
    std::cout << exporting::jsonText(out, 2) << "\n";
  else
    std::cout << "(iteration dimension i takes digit mapping[i]; sizes "
              << list(map->sizes()) << ", strides " << list(map->strides())
              << ")\n";
  return kExitOk;
}

int explainLayout(const LayoutInputs &in, bool asJson) {
  auto created = in.nestedLayout();
  if (!created)
    return fail("--layout", created.error());
  const layout::NestedLayout &layout = *created;
  json out = {{"shape", layout.shape()},
              {"distributed_shape", layout.distributedShape()},
              {"simt_shape", layout.simtShape()},
              {"registers_per_thread", layout.registersPerThread()},
              {"subgroups", layout.subgroupCount()},
              {"subgroup_size", layout.subgroupSize()},
              {"problems", layout.problems()}};
  std::ostringstream text;
  text << "vector shape " << list(layout.shape()) << ", "
       << layout.subgroupCount() << " subgroup(s) x " << layout.subgroupSize()
       << " lanes\n"
       << "each thread holds vector" << list(layout.simtShape())
       << " (distributed shape [batch, outer, element] = "
       << list(layout.distributedShape()) << ", " << layout.registersPerThread()
       << " registers)\n";
  if (in.element) {
    const auto owners = layout.ownersOf(*in.element);
    json list_ = json::array();
    text << "element " << list(*in.element) << ":";
    if (owners.empty())
      text << " no owner\n";
    for (const layout::Owner &o : owners) {
      list_.push_back({{"subgroup", o.subgroup},
                       {"lane", o.lane},
                       {"register", o.registerIndex}});
      text << "\n  subgroup " << o.subgroup << ", lane " << o.lane
           << ", register " << o.registerIndex;
    }
    if (!owners.empty())
      text << (owners.size() > 1 ? "\n  (replicated)\n" : "\n");
    const layout::TileCoordinates c = layout.decompose(*in.element);
    text << "  tiles: subgroup " << list(c.subgroup) << " batch "
         << list(c.batch) << " outer " << list(c.outer) << " thread "
         << list(c.thread) << " element " << list(c.element) << "\n";
    out["owners"] = list_;
  }
  if (in.lane) {
    const int64_t subgroup = in.subgroup.value_or(0);
    const auto held = layout.elementsOf(subgroup, *in.lane);
    json elements = json::array();
    text << "subgroup " << subgroup << ", lane " << *in.lane
         << " holds (register order):";
    for (size_t r = 0; r < held.size(); ++r) {
      elements.push_back(held[r]);
      if (r < 64)
        text << (r % 8 == 0 ? "\n  " : " ") << list(held[r]);
    }
    if (held.size() > 64)
      text << "\n  ... " << held.size() - 64 << " more";
    text << "\n";
    out["elements"] = elements;
  }
  for (const std::string &problem : layout.problems())
    text << "note: " << problem << "\n";
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

int explainMma(const LayoutInputs &in, bool asJson) {
  const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(in.mma);
  if (!found)
    return fail("--mma", "unknown intrinsic '" + in.mma +
                             "' (tilescope-cli mma-layouts lists them)");
  const layout::MmaIntrinsic intrinsic =
      in.colMajor ? found->colMajor() : *found;
  json out = {{"name", intrinsic.name},
              {"m", intrinsic.m},
              {"n", intrinsic.n},
              {"k", intrinsic.k},
              {"subgroup_size", intrinsic.subgroupSize}};
  std::ostringstream text;
  text << intrinsic.name << (in.colMajor ? " (col_major)" : "") << ": M "
       << intrinsic.m << ", N " << intrinsic.n << ", K " << intrinsic.k
       << ", subgroup of " << intrinsic.subgroupSize << "\n";
  if (intrinsic.isScaled) {
    text << "scaled: LHS [M, K/block, block], RHS [K/block, block, N], one "
            "scale per "
         << intrinsic.blockSize
         << " K elements; input types are parameters of "
            "#iree_gpu.scaled_mma_layout\n";
    out["block_size"] = intrinsic.blockSize;
  }
  const auto operands = intrinsic.operands();
  if (in.operand && std::find(operands.begin(), operands.end(), *in.operand) ==
                        operands.end())
    return fail("--operand", intrinsic.name + " has no " +
                                 layout::toString(*in.operand) + " operand");
  for (layout::MmaOperand operand : operands) {
    if (in.operand && *in.operand != operand)
      continue;
    const layout::FragmentLayout &f = intrinsic.fragment(operand);
    const int64_t perLane =
        static_cast<int64_t>(intrinsic.laneElements(operand, 0).size());
    out[layout::toString(operand)] = {
        {"outer", f.outer},       {"thread", f.thread},
        {"tstrides", f.tstrides}, {"element", f.element},
        {"shape", f.shape()},     {"elements_per_lane", perLane}};
    text << layout::toString(operand) << " " << list(f.shape()) << ": outer "
         << list(f.outer) << " thread " << list(f.thread) << " tstrides "
         << list(f.tstrides) << " element " << list(f.element) << " -> "
         << perLane << " per lane\n";
    if (auto split = intrinsic.laneSplit(operand)) {
      text << "  " << split->parts << " lanes share each thread position: "
           << "IREE splits dimension " << split->dim
           << "'s elements among them (lane group = (lane / "
           << split->laneStride << ") % " << split->parts << ")\n";
      out[layout::toString(operand)]["lane_split"] = {
          {"dim", split->dim},
          {"parts", split->parts},
          {"lane_stride", split->laneStride}};
    }
    if (in.lane) {
      const auto held = intrinsic.laneElements(operand, *in.lane);
      text << "  lane " << *in.lane << " holds:";
      for (const auto &e : held)
        text << " " << list(e);
      text << "\n";
      out[layout::toString(operand)]["lane_elements"] = held;
    }
  }
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

std::string ranges(const std::vector<std::pair<int64_t, int64_t>> &box) {
  std::string text = "[";
  for (size_t i = 0; i < box.size(); ++i)
    text += (i ? ", " : "") + std::to_string(box[i].first) + ":" +
            std::to_string(box[i].second);
  return text + "]";
}

json rangesJson(const std::vector<std::pair<int64_t, int64_t>> &box) {
  json out = json::array();
  for (const auto &[begin, end] : box)
    out.push_back({begin, end});
  return out;
}

// A convolution IREE builds as an implicit GEMM: how its loops are made
// from the convolution's, its workgroup grid, and which input elements
// workgroup 0 reads (the im2col map) in all and in its first reduction
// step. `tile`: per IGEMM loop, the workgroup tile in elements (a reduction
// loop's: one step; 0 or absent: the whole loop).
void explainImplicitGemm(const config::ImplicitGemm &igemm,
                         const std::vector<int64_t> &tile, json &out,
                         std::ostream &text) {
  text << "implicit GEMM (use_igemm_convolution): the config tiles IREE's "
       << igemm.gemm.rank() << " IGEMM loops, not the convolution's "
       << igemm.convolution.rank() << " (" << igemm.convolution.toString()
       << ")\n";
  json loops = json::array();
  for (size_t g = 0; g < igemm.gemm.rank(); ++g) {
    const std::string made = igemm.describeLoop(static_cast<int>(g));
    text << "  IGEMM d" << g << " = convolution " << made << "\n";
    loops.push_back(
        {{"loop", g},
         {"convolution_loops", igemm.convolutionLoopsOf(static_cast<int>(g))},
         {"made_of", made}});
  }
  json section = {{"convolution_space", exporting::toJson(igemm.convolution)},
                  {"loops", loops},
                  {"contraction", exporting::toJson(igemm.contraction)}};
  std::vector<std::pair<int64_t, int64_t>> whole, firstStep;
  int64_t workgroups = 1;
  for (size_t g = 0; g < igemm.gemm.rank(); ++g) {
    const int64_t bound = igemm.gemm.bounds[g];
    const int64_t size =
        g < tile.size() && tile[g] > 0 ? std::min(tile[g], bound) : bound;
    if (igemm.gemm.isReduction(g)) {
      whole.emplace_back(0, bound);
    } else {
      whole.emplace_back(0, size);
      if (bound > 0 && size > 0)
        workgroups *= (bound + size - 1) / size;
    }
    firstStep.emplace_back(0, size);
  }
  text << "workgroups: " << workgroups << "\n";
  section["workgroups"] = workgroups;
  const auto inputWhole = igemm.inputBox(igemm.convolutionBox(whole));
  const auto inputStep = igemm.inputBox(igemm.convolutionBox(firstStep));
  if (!inputWhole.empty()) {
    text << "workgroup 0 reads input " << ranges(inputWhole)
         << " (im2col: output pixel x stride + filter tap x dilation)";
    if (inputStep != inputWhole)
      text << ", its first reduction step " << ranges(inputStep);
    text << "\n";
    section["workgroup_0_input"] = rangesJson(inputWhole);
    section["workgroup_0_first_step_input"] = rangesJson(inputStep);
  }
  out["implicit_gemm"] = std::move(section);
}

// TileAndFuse: which linear thread (or subgroup) runs which tile, as IREE's
// GPUApplyTilingLevel + GPUDistributeForall do (the same OpLayouts the
// window and render draw).
int explainForall(const LayoutInputs &in, const layout::OpLayouts &layouts,
                  bool asJson) {
  const layout::ForallDistribution &f =
      layouts.threads ? *layouts.threads : *layouts.subgroups;
  json out = {{"pipeline", layouts.pipeline},
              {"pipeline_inferred", layouts.pipelineInferred},
              {"level", f.level},
              {"bounds", f.bounds},
              {"tiles", f.tiles},
              {"unit", f.unit},
              {"forall_loops", f.loops},
              {"trip_counts", f.tripCounts},
              {"linear_dims", f.linearDims},
              {"workers", f.workers},
              {"rounds", f.rounds()},
              {"idle_workers", f.idleWorkers()},
              {"notes", layouts.notes}};
  std::ostringstream text;
  text << layouts.pipeline << (layouts.pipelineInferred ? " (inferred)" : "")
       << ": a " << f.level << " forall over";
  for (size_t i = 0; i < f.loops.size(); ++i)
    text << (i ? "," : "") << " d" << f.loops[i] << " (" << f.tripCounts[i]
         << " tiles, linear_dim_" << f.linearDims[i] << ")";
  text << "; " << f.workers << " " << f.level << "s";
  if (f.level == "subgroup")
    text << " of " << f.subgroupSize << " lanes";
  text << ", " << f.iterations() << " tiles in " << f.rounds() << " round"
       << (f.rounds() == 1 ? "" : "s");
  if (f.idleWorkers() > 0)
    text << ", " << f.idleWorkers() << " idle";
  // Bounds and tiles count units (an intrinsic's M/N/K at the subgroup
  // level of an MMA config); say them in elements.
  std::vector<int64_t> boundElements, tileElements;
  for (size_t d = 0; d < f.bounds.size(); ++d) {
    const int64_t unit = d < f.unit.size() ? f.unit[d] : 1;
    boundElements.push_back(f.bounds[d] * unit);
    tileElements.push_back(f.tiles[d] * unit);
  }
  const bool units = std::any_of(f.unit.begin(), f.unit.end(),
                                 [](int64_t u) { return u != 1; });
  text << "\nworkgroup tile " << list(boundElements) << ", " << f.level
       << " tile " << list(tileElements) << " elements";
  if (units)
    text << " (" << list(f.bounds) << " and " << list(f.tiles)
         << " intrinsic tiles of " << list(f.unit) << ")";
  text << "\n";
  out["bound_elements"] = boundElements;
  out["tile_elements"] = tileElements;
  if (in.implicitGemm)
    explainImplicitGemm(*in.implicitGemm, boundElements, out, text);
  if (!layouts.intrinsic.empty()) {
    text << "each subgroup tile is intrinsics of " << layouts.intrinsic
         << (layouts.colMajor ? " (col_major)" : "")
         << " (tilescope-cli explain --mma " << layouts.intrinsic
         << " shows its fragments)\n";
    out["intrinsic"] = layouts.intrinsic;
  }
  const std::optional<int64_t> worker =
      f.level == "thread" ? in.thread : in.subgroup;
  if (worker) {
    if (*worker >= f.workers)
      return fail(f.level == "thread" ? "--thread" : "--subgroup",
                  std::to_string(*worker) + " is past the " +
                      std::to_string(f.workers) + " " + f.level + "s");
    json tiles = json::array();
    text << f.level << " " << *worker << " runs:";
    for (int64_t iteration : f.iterationsOf(*worker)) {
      const auto origin = f.tileOrigin(iteration);
      text << " tile " << iteration << " at " << list(origin);
      tiles.push_back({{"iteration", iteration}, {"origin", origin}});
    }
    text << "\n";
    out["worker"] = {{"id", *worker}, {"tiles", tiles}};
  }
  for (const std::string &note : layouts.notes)
    text << "note: " << note << "\n";
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

// A config, the loops it tiles and the translation_info it runs with (when
// given): what --config and --tiles read.
struct ConfigInputs {
  std::optional<config::LoweringConfig> config;
  std::optional<config::IterationSpace> space;
  std::optional<config::TranslationInfo> info;
};

// The inputs, or the exit code of the option that is wrong (said on stderr).
std::variant<ConfigInputs, int> configInputs(const LayoutInputs &in) {
  ConfigInputs read;
  auto config = in.loweringConfig();
  if (!config)
    return fail("--config", config.error());
  read.config = std::move(*config);
  auto space = in.iterationSpace();
  if (!space)
    return fail("--iteration-space", space.error());
  read.space = std::move(*space);
  auto info = in.translationInfo();
  if (!info)
    return fail("--translation-info", info.error());
  read.info = std::move(*info);
  return read;
}

// The reduction loops and what one iteration covers, said in `text` and
// `out`.
void explainReductionLoops(const layout::DerivedLayout &derived,
                           const config::LoweringConfig &config, json &out,
                           std::ostringstream &text) {
  json loops = json::array();
  for (const layout::ReductionLoop &loop : derived.reductionLoops) {
    text << loop.level << " loop over d" << loop.dimension << ": " << loop.size
         << " / " << loop.chunk << " = " << loop.iterations << " iterations\n";
    loops.push_back({{"level", loop.level},
                     {"dimension", loop.dimension},
                     {"size", loop.size},
                     {"chunk", loop.chunk},
                     {"iterations", loop.iterations}});
  }
  out["reduction_loops"] = loops;
  if (derived.reductionElementsPerSubgroup > 0 && !config.mmaKind()) {
    text << "per iteration: " << derived.reductionElementsPerSubgroup
         << " reduction elements per subgroup, "
         << derived.reductionElementsPerThread << " per thread\n";
    out["reduction_elements_per_subgroup"] =
        derived.reductionElementsPerSubgroup;
    out["reduction_elements_per_thread"] = derived.reductionElementsPerThread;
  }
}

// The layouts the config gives: an mma_kind contraction's per operand (as
// IREE's getContractionLayout makes them), else the op-wide layout and each
// operand's.
Result<bool>
explainLayouts(const layout::DerivedLayout &derived,
               const config::LoweringConfig &config,
               const config::IterationSpace &space,
               const std::optional<layout::OpLayouts> &pipelineLayouts,
               json &out, std::ostringstream &text) {
  if (config.mmaKind()) {
    // IREE lays out an mma_kind contraction with getContractionLayout, not
    // with the op-wide layout of setGPULoweringConfigLayout.
    out.erase("layout");
    out.erase("accumulator_layout");
    auto contraction =
        pipelineLayouts && pipelineLayouts->contraction
            ? Result<layout::ContractionLayouts>(*pipelineLayouts->contraction)
            : layout::deriveContractionLayouts(config, space);
    if (!contraction)
      return Error{contraction.error()};
    text << "contraction layouts (" << contraction->intrinsic
         << ", per operand):\n"
         << "  lhs: " << contraction->lhs.print() << "\n"
         << "  rhs: " << contraction->rhs.print() << "\n"
         << "  acc: " << contraction->acc.print() << "\n";
    out["operand_layouts"] = {{"lhs", contraction->lhs.print()},
                              {"rhs", contraction->rhs.print()},
                              {"acc", contraction->acc.print()}};
  } else {
    text << "layout (";
    for (size_t i = 0; i < derived.dimensions.size(); ++i)
      text << (i ? ", " : "") << derived.dimensions[i].name;
    text << "): " << derived.layout.print() << "\n";
    if (!derived.accumulatorLayout.subgroupTile.empty())
      text << "accumulator: " << derived.accumulatorLayout.print() << "\n";
    if (!space.operands.empty()) {
      json operands = json::array();
      const auto layouts = layout::operandLayouts(derived, space);
      for (size_t i = 0; i < layouts.size() && i < space.operands.size(); ++i) {
        const auto &operand = space.operands[i];
        text << "  operand " << i << (operand.isOutput ? " (output)" : "")
             << " " << operand.elementType << ": " << layouts[i].print()
             << "\n";
        operands.push_back({{"operand", i},
                            {"output", operand.isOutput},
                            {"element_type", operand.elementType},
                            {"layout", layouts[i].print()}});
      }
      out["operand_layouts"] = operands;
    }
  }
  return true;
}

// The op's roofline floor on the target, where the target and the operands
// are known.
void explainRoofline(const LayoutInputs &in,
                     const config::IterationSpace &space, json &out,
                     std::ostringstream &text) {
  if (auto target = in.target()) {
    if (!space.operands.empty()) {
      auto floor = layout::rooflineFloor(space, *target);
      if (floor) {
        text << "roofline floor on " << target->arch << ": "
             << floor->floorSeconds * 1e6 << " us (" << floor->boundBy
             << "-bound: " << floor->bytes / 1e6 << " MB at peak bandwidth, "
             << floor->operations / 1e9 << " G"
             << " ops at " << floor->computePeak << " peak)\n";
        out["roofline"] = {{"bytes", floor->bytes},
                           {"operations", floor->operations},
                           {"memory_seconds", floor->memorySeconds},
                           {"compute_seconds", floor->computeSeconds},
                           {"floor_seconds", floor->floorSeconds},
                           {"bound_by", floor->boundBy}};
      } else {
        text << "roofline: " << floor.error() << "\n";
      }
    }
  }
}

int explainConfig(const LayoutInputs &in, bool asJson) {
  if (in.attention)
    return explainAttention(in, asJson);
  auto inputs = configInputs(in);
  if (const int *code = std::get_if<int>(&inputs))
    return *code;
  auto &[config, space, info] = std::get<ConfigInputs>(inputs);
  layout::DeriveOptions options;
  options.ireeRelease = in.ireeRelease;
  options.subgroupSize = in.subgroupSize;
  options.fusedWorkgroupTile = in.fusedWorkgroupTile;
  // What the config means under its pipeline, derived once: a TileAndFuse
  // forall is explained as such; a VectorDistribute layout or contraction
  // is reused below.
  std::optional<layout::OpLayouts> pipelineLayouts;
  {
    layout::OpLayoutRequest request{&*config, &*space, info ? &*info : nullptr,
                                    options};
    auto computed = layout::opLayouts(request);
    if (computed && (computed->threads || computed->subgroups))
      return explainForall(in, *computed, asJson);
    // Where the pipeline's own reading fails, no other reading stands in:
    // a derived_thread_config without the result's type would otherwise
    // come out as one thread holding everything.
    if (!computed && config->isDerivedThreadConfig())
      return fail("--config",
                  computed.error() +
                      (space->operands.empty()
                           ? "; give the operands with --types and --maps, "
                             "e.g. --types f16,f16 --maps '(d0, d1) -> (d0, "
                             "d1), (d0, d1) -> (d0, d1)'"
                           : ""));
    if (!computed && computed.error().find("TileAndFuse") != std::string::npos)
      return fail("--config", computed.error());
    if (computed)
      pipelineLayouts = std::move(*computed);
  }
  auto derived = pipelineLayouts && pipelineLayouts->derived
                     ? Result<layout::DerivedLayout>(*pipelineLayouts->derived)
                     : layout::deriveLayout(*config, *space, options);
  if (!derived)
    return fail("--config", derived.error());
  json out = {{"iteration_space", exporting::toJson(derived->space)},
              {"workgroup_tile", derived->workgroupTile},
              {"workgroup_counts", derived->workgroupCounts},
              {"workgroup_count", derived->workgroupCount},
              {"layout", derived->layout.print()},
              {"accumulator_layout", derived->accumulatorLayout.print()},
              {"notes", derived->notes}};
  std::ostringstream text;
  text << "iteration space " << derived->space.toString() << "\n"
       << "workgroup tile " << list(derived->workgroupTile) << ", grid "
       << list(derived->workgroupCounts) << " = " << derived->workgroupCount
       << " workgroups\n";
  if (in.implicitGemm) {
    std::vector<int64_t> tile = derived->workgroupTile;
    for (const layout::ReductionLoop &loop : derived->reductionLoops)
      if (loop.dimension < tile.size() && loop.chunk > 0)
        tile[loop.dimension] = loop.chunk;
    explainImplicitGemm(*in.implicitGemm, tile, out, text);
  }
  explainReductionLoops(*derived, *config, out, text);
  if (auto laid =
          explainLayouts(*derived, *config, *space, pipelineLayouts, out, text);
      !laid)
    return fail("--config", laid.error());
  for (const std::string &note : derived->notes)
    text << "note: " << note << "\n";
  if (!in.targetNote.empty())
    text << "note: target: " << in.targetNote << "\n";
  explainRoofline(in, *space, out, text);
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

int explainSwizzle(const LayoutInputs &in, bool asJson) {
  auto swizzle = in.swizzle();
  if (!swizzle)
    return fail("--swizzle", swizzle.error());
  const auto accesses = in.accesses(*swizzle);
  const layout::BankModel banks = in.bankModel();
  const layout::BankComparison compared =
      layout::compareBanks(*swizzle, accesses, in.elementBytes, banks);
  const layout::BankReport &before = compared.before;
  const layout::BankReport &after = compared.after;
  const json out = exporting::toJson(*swizzle, compared);
  std::ostringstream text;
  text << swizzle->describe() << ", " << accesses.size() << " lanes reading "
       << swizzle->accessWidth() << " x " << in.elementBytes
       << "-byte elements (" << in.accessPattern << "), " << banks.bankCount
       << " banks of " << banks.bankWidthBytes << " bytes\n"
       << "worst bank conflict: " << before.worstConflictDegree
       << "-way before, " << after.worstConflictDegree << "-way after\n";
  for (size_t i = 0; i < after.accesses.size() && i < 16; ++i) {
    const auto &a = after.accesses[i];
    text << "  lane " << a.lane << ": row " << a.row << ", column " << a.column
         << " -> column " << a.physicalColumn << ", bank " << a.firstBank
         << "\n";
  }
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

} // namespace

// Each tile level of the config, loop by loop, as the pipeline reads it
// (the window's tile editor says the same).
int explainTiles(const LayoutInputs &in, bool asJson) {
  auto inputs = configInputs(in);
  if (const int *code = std::get_if<int>(&inputs))
    return *code;
  auto &[config, space, info] = std::get<ConfigInputs>(inputs);
  const std::string pipeline = info ? info->pipelineName() : std::string();
  const json meanings = exporting::tileMeaningsJson(*config, *space, pipeline);
  if (asJson) {
    std::cout << exporting::jsonText(meanings, 2) << "\n";
    return kExitOk;
  }
  std::ostringstream text;
  const json &tiles = meanings["tiles"];
  for (config::TilingLevel level : config::kAllTilingLevels) {
    const std::string key = config::keyOf(level);
    if (!tiles.contains(key))
      continue;
    text << key << " " << list(*config->tileSizes(level))
         << (pipeline.empty() ? "" : " (") << pipeline
         << (pipeline.empty() ? "" : ")") << "\n";
    for (const json &entry : tiles[key]["entries"])
      text << "  " << entry["text"].get<std::string>() << "\n";
  }
  std::cout << (tiles.empty() ? std::string("the config has no tile lists\n")
                              : text.str());
  return kExitOk;
}

int explain(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli explain: who holds what. Give one of --basis, --layout, "
      "--mma, --config, --swizzle, or an IREE FILE and --op DISPATCH:OP.");
  LayoutOptions options;
  options.addTo(parser);
  const QCommandLineOption jsonOption("json", "Print JSON.");
  const QCommandLineOption tilesOption(
      "tiles", "With --config (or FILE --op): what each tile list's numbers "
               "mean under the pipeline, loop by loop (elements or intrinsic "
               "tiles; workgroups, steps, tiles).");
  parser.addOptions({jsonOption, tilesOption});
  if (!parseCommandLine(parser, arguments, "explain"))
    return kExitUsage;
  auto inputs = options.read(parser);
  if (!inputs)
    return fail("explain", inputs.error());
  const bool asJson = parser.isSet(jsonOption);
  if (parser.isSet(tilesOption)) {
    if (inputs->kind != LayoutInputs::Kind::Config)
      return fail("explain", "--tiles reads a lowering config: give --config "
                             "or FILE --op DISPATCH:OP");
    return explainTiles(*inputs, asJson);
  }
  switch (inputs->kind) {
  case LayoutInputs::Kind::Basis:
    return explainBasis(*inputs, asJson);
  case LayoutInputs::Kind::Layout:
    return explainLayout(*inputs, asJson);
  case LayoutInputs::Kind::Mma:
    return explainMma(*inputs, asJson);
  case LayoutInputs::Kind::Config:
    return explainConfig(*inputs, asJson);
  case LayoutInputs::Kind::Swizzle:
    return explainSwizzle(*inputs, asJson);
  }
  return kExitUsage;
}

} // namespace tilescope::cli
