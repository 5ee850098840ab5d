// Attention's layouts as the pinned IREE lays them out. Seeded random
// attention programs (batch, M, K1, K2 and N sizes; V read K2-major or
// N-major; f16; one in three of a shape no intrinsic tiles, which IREE
// configures without one: its SIMT config) are configured by iree-compile
// for gfx942 or sm_90 and read back through the parse worker. IREE's own
// config, or that config with one knob changed (the workgroup tile along M or
// N, the K2 step, on gfx942 the MMA intrinsic of both contractions), is laid
// out two ways:
//
//  - by Tilescope (layout::deriveAttentionLayouts: the Q.K^T and P.V
//    contractions IREE decomposes the op into, from the decomposition_config);
//  - by IREE: the dispatch run through its GPU lowering by iree-opt up to
//    configure-tensor-layouts, every to_layout on the two contractions'
//    operands read back (service::ireeLayouts, as `tilescope-cli
//    iree-layouts`).
//
// Each of the six operands (Q, K, S, P, V, O) must agree field by field, and
// IREE's own config must be no rule's error and be predicted by the cost
// model that follows it (the SIMT model where it names no intrinsic). A changed
// config IREE refuses is skipped and counted, never compared.
//
//   property_attention_layouts [--seed N] [--cases N] [--long] [--verbose]
#include "PropertySupport.h"

#include "core/edit/RootOpContext.h"
#include "core/layout/AttentionLayouts.h"
#include "core/layout/OpCost.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeLayouts.h"
#include "core/util/Files.h"

#include <filesystem>
#include <regex>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct AttentionCase {
  std::string target; // "gfx942", "sm_90"
  std::string change; // "none", "m-tile", "n-tile", "k2-step", "intrinsic"
  std::string text;
  std::string describe;
};

std::string tensor(const std::vector<int64_t> &shape) {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + "f16>";
}

AttentionCase randomCase(Random &random, int index) {
  // One case in three has a shape no intrinsic tiles (a head of 40, 72 or
  // 80, a text encoder's 77 keys, a decode step's one query), where IREE
  // gives the op its SIMT config: partial_reduction on K2, lane and
  // subgroup bases and thread tiles for both contractions.
  const bool simt = index % 3 == 2;
  const int64_t b = random.pick<int64_t>({1, 2, 4, 8, 16});
  const int64_t m = simt
                        ? random.pick<int64_t>({1, 64, 256, 4096})
                        : random.pick<int64_t>({64, 128, 256, 512, 1024, 2048});
  const int64_t k1 = simt ? random.pick<int64_t>({40, 64, 72, 80})
                          : random.pick<int64_t>({64, 128});
  const int64_t k2 = simt ? random.pick<int64_t>({77, 96, 100, 1024})
                          : random.pick<int64_t>({128, 256, 512, 1024});
  const int64_t n = simt ? k1 : random.pick<int64_t>({64, 128});
  const bool vTransposed = random.range(0, 1) == 1;
  AttentionCase c;
  c.target = index % 2 == 0 ? "gfx942" : "sm_90";
  c.change = random.pick<std::string>(
      simt ? std::vector<std::string>{"none", "n-tile", "k2-step"}
      : c.target == "gfx942"
          ? std::vector<std::string>{"none", "m-tile", "n-tile", "k2-step",
                                     "intrinsic"}
          : std::vector<std::string>{"none", "m-tile", "n-tile", "k2-step"});
  const std::string q = tensor({b, m, k1}), k = tensor({b, k2, k1}),
                    v = vTransposed ? tensor({b, n, k2}) : tensor({b, k2, n}),
                    o = tensor({b, m, n});
  const std::string vMap = vTransposed ? "(b, m, k1, k2, n) -> (b, n, k2)"
                                       : "(b, m, k1, k2, n) -> (b, k2, n)";
  c.text = "func.func @attention(%q: " + q + ", %k: " + k + ", %v: " + v +
           ") -> " + o +
           " {\n"
           "  %scale = arith.constant 0.125 : f16\n"
           "  %empty = tensor.empty() : " +
           o +
           "\n"
           "  %out = iree_linalg_ext.attention <{indexing_maps = "
           "[affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, "
           "k1, k2, n) -> (b, k2, k1)>, affine_map<" +
           vMap +
           ">, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, "
           "n) -> (b, m, n)>]}> ins(%q, %k, %v, %scale : " +
           q + ", " + k + ", " + v + ", f16) outs(%empty : " + o +
           ") {\n"
           "  ^bb0(%score: f32):\n"
           "    iree_linalg_ext.yield %score : f32\n"
           "  } -> " +
           o + "\n  return %out : " + o + "\n}\n";
  c.describe = "attention B" + std::to_string(b) + " M" + std::to_string(m) +
               " K1" + std::to_string(k1) + " K2" + std::to_string(k2) + " N" +
               std::to_string(n) + (vTransposed ? " (V N-major)" : "") +
               " on " + c.target + ", " + c.change;
  return c;
}

// `key = [a, b, ...]` in `text` (the only one), entry `index` multiplied by
// `factor` (0.5 halves); false where there is not exactly one such list or
// the entry cannot change.
bool scaleEntry(std::string &text, const std::string &key, size_t index,
                double factor, int64_t bound) {
  const std::regex list(key + R"( = \[([0-9, ]*)\])");
  auto begin = std::sregex_iterator(text.begin(), text.end(), list);
  if (std::distance(begin, std::sregex_iterator()) != 1)
    return false;
  const std::smatch match = *begin;
  std::vector<int64_t> values;
  std::stringstream in(match[1].str());
  for (std::string item; std::getline(in, item, ',');)
    values.push_back(std::stoll(item));
  if (index >= values.size() || values[index] <= 0)
    return false;
  const auto changed =
      static_cast<int64_t>(static_cast<double>(values[index]) * factor);
  if (changed < 16 || changed > bound || changed == values[index])
    return false;
  values[index] = changed;
  std::string replacement = key + " = [";
  for (size_t i = 0; i < values.size(); ++i)
    replacement += (i ? ", " : "") + std::to_string(values[i]);
  text.replace(static_cast<size_t>(match.position(0)),
               static_cast<size_t>(match.length(0)), replacement + "]");
  return true;
}

// The configured program's text with the case's knob changed; "" where it
// cannot change.
std::string changed(const AttentionCase &c, const document::Document &document,
                    size_t dispatch, const document::RootOp &op) {
  std::string text = document.text;
  if (c.change == "none")
    return text;
  auto dims = op.space ? layout::attentionDims(*op.space)
                       : Result<layout::AttentionDims>(Error{"no loops"});
  if (!dims)
    return "";
  auto bound = [&](int loop) {
    return op.space->bounds[static_cast<size_t>(loop)];
  };
  // Only this dispatch's text changes: the program has one.
  if (document.dispatches.size() != 1 || dispatch != 0)
    return "";
  if (c.change == "m-tile")
    return scaleEntry(text, "workgroup", static_cast<size_t>(dims->m.back()), 2,
                      bound(dims->m.back()))
               ? text
               : "";
  if (c.change == "n-tile")
    return scaleEntry(text, "workgroup", static_cast<size_t>(dims->n.back()),
                      0.5, bound(dims->n.back()))
               ? text
               : "";
  // The K2 step: `reduction` under an intrinsic, `partial_reduction` in
  // the SIMT config (the one list either way).
  const bool simt = text.find("partial_reduction = [") != std::string::npos;
  if (c.change == "k2-step")
    return scaleEntry(text, simt ? "partial_reduction" : "reduction",
                      static_cast<size_t>(dims->k2.back()), 2,
                      bound(dims->k2.back()))
               ? text
               : "";
  // Another intrinsic of the same types for both contractions. sm_90 has
  // one f16 -> f32 intrinsic with a fragment layout: its NV_WMMA ones have
  // none, and IREE 3.13 prints uninitialised layouts for them and then
  // dies (SIGFPE), where Tilescope refuses them.
  const std::vector<std::pair<std::string, std::string>> swaps = {
      {"MFMA_F32_16x16x16_F16", "MFMA_F32_32x32x8_F16"},
      {"MFMA_F32_32x32x8_F16", "MFMA_F32_16x16x16_F16"}};
  for (const auto &[from, to] : swaps)
    if (text.find("<" + from) != std::string::npos)
      return std::regex_replace(text, std::regex("<" + from + "\\b"), "<" + to);
  return "";
}

std::string check(const AttentionCase &c,
                  const tools::IreeInstallation &installation,
                  service::DocumentWorker &worker,
                  const TemporaryDirectory &folder, int index,
                  std::string &skipped) {
  const std::string stem = "case" + std::to_string(index);
  const auto source = folder.file(stem + ".mlir");
  if (!writeFileAtomically(source, c.text))
    return "cannot write the case";
  service::ConfigureRequest request;
  request.source = source;
  request.output = folder.file(stem + ".conf.mlir");
  auto compileTarget = service::compileTarget(c.target);
  if (!compileTarget)
    return compileTarget.error();
  request.target = *compileTarget;
  auto configured = service::configureProgram(installation, worker, request);
  if (!configured)
    return "IREE configures no kernel for it: " + configured.error();
  const document::Document &document = configured->document;
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    for (const document::RootOp &op : dispatch.rootOps) {
      if (op.kind != config::OpKind::Attention)
        continue;
      if (op.decompositionConfig.empty())
        return "IREE gave the attention no decomposition_config";
      // IREE's own config, which it compiles, is no rule's error.
      if (c.change == "none") {
        const auto context = edit::contextOf(
            document,
            edit::OpRef{d, static_cast<size_t>(&op - dispatch.rootOps.data())});
        const auto verdict = edit::ruleVerdict(context);
        if (verdict.hasErrors())
          return "IREE's own config is called an error: " + verdict.whyNot();
        // And it is predicted, on the units IREE runs it on.
        auto predicted = layout::predictOpTime(edit::costInputsOf(context));
        if (!predicted)
          return "IREE's own config is not predicted: " + predicted.error();
        const bool simt =
            op.decompositionConfig.find("mma_kind") == std::string::npos;
        if (simt != (predicted->model.find("SIMT") != std::string::npos) ||
            !(predicted->microseconds > 0) ||
            predicted->microseconds < predicted->floorMicroseconds)
          return "predicted as " + predicted->model + ": " +
                 predicted->summary();
      }
      const std::string text = changed(c, document, d, op);
      if (text.empty()) {
        skipped = "the knob cannot change here";
        return "";
      }
      const auto file = folder.file(stem + ".changed.mlir");
      if (!writeFileAtomically(file, text))
        return "cannot write the changed program";
      auto parsed = worker.parseFile(file);
      if (!parsed)
        return "the changed program does not read: " + parsed.error();
      service::IreeLayoutRequest layouts;
      layouts.dispatch = d;
      auto answer =
          service::ireeLayouts(installation, worker, *parsed, layouts);
      if (!answer) {
        if (c.change == "none")
          return "IREE does not lay out its own config: " + answer.error();
        skipped = "IREE refuses the changed config";
        return "";
      }
      for (const service::OpLayoutAnswer &opAnswer : answer->ops) {
        if (opAnswer.agrees())
          continue;
        std::string why = opAnswer.opName + ": " + opAnswer.problem;
        for (const service::OperandLayoutAnswer &operand : opAnswer.operands)
          for (const service::LayoutFieldDifference &f : operand.differences)
            why += "\n    " + operand.operand + " " + f.field + ": ours " +
                   f.ours + ", IREE " + f.iree;
        return why + "\n  reproduce: " + answer->command;
      }
      return "";
    }
  }
  return "the configured program has no attention op";
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int count = options.cases > 0 ? options.cases
                    : options.longRun ? 120
                                      : 12;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app" / "tilescope-iree-worker",
                                 installation.compilerLibrary);
  auto folder = TemporaryDirectory::create("property-attention-layouts");
  if (!folder) {
    std::cerr << folder.error() << "\n";
    return 1;
  }
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const AttentionCase c = randomCase(random, i);
    const std::string family =
        c.target + (i % 3 == 2 ? " simt " : " ") + c.change;
    tally.generated(family);
    std::string skipped;
    const std::string why = check(c, installation, worker, *folder, i, skipped);
    if (!skipped.empty())
      tally.skipped(family, skipped);
    else if (why.empty())
      tally.agreed(family);
    else
      tally.disagreed(family, c.describe + ": " + why);
    if (options.verbose)
      std::cout << c.describe << ": "
                << (!skipped.empty() ? "skipped: " + skipped
                    : why.empty()    ? std::string("all six layouts agree")
                                     : why)
                << "\n";
  }
  tally.print(std::cout, options.seed);
  for (const char *target : {"gfx942", "sm_90"})
    for (const char *kind : {" ", " simt "}) {
      int agreed = 0;
      for (const char *change :
           {"none", "m-tile", "n-tile", "k2-step", "intrinsic"})
        agreed += tally.agreedCount(std::string(target) + kind + change);
      if (agreed == 0) {
        std::cout << "no " << target << kind << "case agreed: not tested\n";
        return 1;
      }
    }
  return tally.disagreements() == 0 ? 0 : 1;
}
