// Property test: what the rules say IREE does, held to the pinned
// iree-compile. A rule labelled "IREE compiles it" (a warning) makes a
// claim; so does every config the rules find nothing wrong with, and every
// error a rule says IREE refuses. Each case is a TileAndFuse contraction of
// the examples (gfx942 and sm_90 f16 matmuls) with seeded random workgroup,
// subgroup and reduction tiles and workgroup size, the gfx942
// VectorDistribute reduction with random rows, lanes, chunk and vector per
// step (alone, and a matvec of 1000 rows with its bias add fused after it,
// where rows that do not divide 1000 are refused), or the gfx942 attention with
// random outer tiles, qk and pv intrinsics (one shape or two, col_major or not)
// and subgroups along its query rows (attention-layout, attention-intrinsics,
// attention-subgroups), edited through the edit model with IREE reading every
// attribute; the whole dispatch is then compiled by iree-compile, as a person's
// compile would (bufferization, shared-memory limits and code generation
// included, which a pipeline run to the LLVM dialect does not reach).
//
//   claims compile: no error the rules say IREE refuses  -> iree-compile ok
//   claims refusal: such an error                        -> iree-compile fails
//
// Rules whose response is "asserts" or "unchecked" claim nothing and are
// not judged.
//
//   property_compile_claims [--seed N] [--cases N] [--long] [--verbose]
#include "PropertySupport.h"

#include "core/edit/EditableDocument.h"
#include "core/edit/RootOpContext.h"
#include "core/iree/DocumentParser.h"
#include "core/service/CompileJob.h"
#include "core/util/Files.h"
#include "core/util/Parallel.h"

#include <filesystem>
#include <mutex>
#include <set>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct Template {
  std::string family;
  std::filesystem::path file;
  int64_t intrinsicM = 16, intrinsicN = 16, subgroupSize = 64;
  enum class Kind { Matmul, Reduction, FusedMatvec, Attention };
  Kind kind = Kind::Matmul;
};

struct Case {
  std::string family, name;
  document::Document document; // edited
  bool claimsCompile = true;
  std::set<std::string> warnings; // the "IREE compiles it" rules that fired
  std::string refusal;            // the first refusing error, if any
};

struct Tiles {
  int64_t wgM, wgN, sgM, sgN, red, threads;
};

// Random tiles for a template: half the time the workgroup size its
// subgroups need, else another.
Tiles randomTiles(Random &random, const Template &t) {
  Tiles v;
  v.wgM = random.pick<int64_t>({16, 32, 48, 64, 96, 128, 256});
  v.wgN = random.pick<int64_t>({16, 32, 64, 128, 192, 256});
  v.sgM = random.pick<int64_t>({1, 2, 3, 4});
  v.sgN = random.pick<int64_t>({1, 2, 4, 8});
  v.red = random.pick<int64_t>({1, 2, 3, 4, 5, 8, 16, 64, 65});
  if (v.wgM % (v.sgM * t.intrinsicM) == 0 &&
      v.wgN % (v.sgN * t.intrinsicN) == 0 && random.chance(0.5))
    v.threads = (v.wgM / (v.sgM * t.intrinsicM)) *
                (v.wgN / (v.sgN * t.intrinsicN)) * t.subgroupSize;
  else
    v.threads = random.pick<int64_t>({1, 2, 3, 4, 8}) * t.subgroupSize;
  return v;
}

// A template's config with `settings` applied through the model; nullopt
// when IREE's parser or the edit model refuses the text (nothing to
// compile) or a rule that claims nothing fires.
std::optional<Case>
caseOf(const std::vector<std::pair<std::string, std::string>> &settings,
       const Template &t, const document::Document &original,
       const edit::AttributeReader &reader, const std::string &index) {
  Case c;
  c.family = t.family;
  c.name = "#" + index + " " + t.family;
  edit::EditableDocument editable(original, reader);
  const edit::OpRef op{0, 0};
  for (const auto &[field, value] : settings) {
    c.name += " " + field + "=" + value;
    auto prepared = editable.prepare(op, field, value);
    if (!prepared)
      return std::nullopt;
    if (!prepared->changesNothing() && !editable.apply(std::move(*prepared)))
      return std::nullopt;
  }
  c.document = editable.document();
  for (const config::Problem &p :
       edit::validateRootOp(edit::contextOf(c.document, op))) {
    if (p.iree == config::Problem::IreeResponse::Refuses &&
        p.severity == config::Problem::Severity::Error && c.refusal.empty()) {
      c.claimsCompile = false;
      c.refusal = p.rule + ": " + p.message;
    }
    if (p.iree == config::Problem::IreeResponse::Compiles)
      c.warnings.insert(p.rule);
    // A rule that claims nothing (asserts, unchecked) leaves the case
    // unjudged.
    if (p.severity == config::Problem::Severity::Error &&
        p.iree != config::Problem::IreeResponse::Refuses)
      return std::nullopt;
  }
  return c;
}

std::vector<std::pair<std::string, std::string>>
matmulSettings(const Tiles &v) {
  return {{"workgroup", list({v.wgM, v.wgN, 0})},
          {"subgroup", list({v.sgM, v.sgN, 0})},
          {"reduction", list({0, 0, v.red})},
          {"workgroup_size", list({v.threads, 1, 1})}};
}

// A VectorDistribute reduction (26624 rows of 16384, or the matvec's 1000
// rows of 2048): rows per workgroup, lanes split between them and the
// reduction, the chunk and vector of a step.
std::vector<std::pair<std::string, std::string>>
reductionSettings(Random &random, const std::vector<int64_t> &rowChoices) {
  const int64_t rows = random.pick<int64_t>(rowChoices);
  const int64_t lanes = random.pick<int64_t>({8, 16, 32, 64});
  const int64_t partial = random.pick<int64_t>({64, 128, 256, 512, 1024});
  const int64_t thread = random.pick<int64_t>({1, 2, 4, 8});
  return {{"workgroup", list({rows, 0})},
          {"lane_basis", "[" + list({64 / lanes, lanes}) + ", [0, 1]]"},
          {"partial_reduction", list({0, partial})},
          {"thread", list({0, thread})}};
}

// The gfx942 attention (16 heads x 1024 x 64, f16; loops b, m, k1, k2, n)
// with its outer tiles, both contractions' intrinsics, their subgroups along
// the query rows and the workgroup size drawn at random: intrinsics of one
// or two shapes, col_major as IREE marks it or not at all, a workgroup size
// the subgroups need or another.
std::vector<std::pair<std::string, std::string>>
attentionSettings(Random &random) {
  struct Intrinsic {
    const char *text, *colMajor;
  };
  const std::vector<Intrinsic> intrinsics = {
      {"#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
       "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16, col_major = true>"},
      {"#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>",
       "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16, col_major = true>"},
      {"#iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16>",
       "#iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16, col_major = "
       "true>"},
      {"#iree_gpu.virtual_mma_layout<VMFMA_F32_32x32x16_F16>",
       "#iree_gpu.virtual_mma_layout<VMFMA_F32_32x32x16_F16, col_major = "
       "true>"}};
  const size_t qk = static_cast<size_t>(random.range(0, 3));
  const size_t pv = random.chance(0.6)
                        ? qk ^ 2 // the same M x N
                        : static_cast<size_t>(random.range(0, 3));
  const bool colMajor = random.chance(0.5);
  const int64_t rows = random.pick<int64_t>({1, 2, 4, 8});
  const int64_t m = random.pick<int64_t>({32, 64, 128, 256});
  const int64_t n = random.pick<int64_t>({32, 64});
  const int64_t k2 = random.pick<int64_t>({16, 32, 64, 128});
  const int64_t threads =
      random.chance(0.7) ? rows * 64 : random.pick<int64_t>({1, 2, 4, 8}) * 64;
  const std::string counts = "[1, " + std::to_string(rows) + ", 1, 1, 1]";
  return {{"workgroup", list({1, m, 0, 0, n})},
          {"reduction", list({0, 0, 0, k2, 0})},
          {"qk_attrs.mma_kind",
           colMajor ? intrinsics[qk].colMajor : intrinsics[qk].text},
          {"pv_attrs.mma_kind",
           colMajor ? intrinsics[pv].colMajor : intrinsics[pv].text},
          {"qk_attrs.subgroup_basis", "[" + counts + ", [0, 1, 2, 3]]"},
          {"pv_attrs.subgroup_basis", "[" + counts + ", [0, 1, 3, 4]]"},
          {"workgroup_size", list({threads, 1, 1})}};
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int cases = options.cases > 0 ? options.cases
                    : options.longRun ? 400
                                      : 80;
  Random random(options.seed);
  const auto installation = projectIree();
  const auto library = projectLibrary();
  auto attributes = std::make_shared<iree::AttributeParser>(library);
  const edit::AttributeReader reader = [attributes](const std::string &text) {
    return attributes->print(text);
  };
  const std::filesystem::path examples =
      std::filesystem::path(TILESCOPE_SOURCE_DIR) / "examples";
  const std::vector<Template> templates = {
      {"gfx942 f16 matmul",
       examples / "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir", 16,
       16, 64},
      {"sm_90 f16 matmul",
       examples / "cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir", 16, 8,
       32},
      {"gfx942 f16 reduction",
       examples /
           "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir",
       1, 1, 64, Template::Kind::Reduction},
      {"gfx942 f16 matvec + bias",
       examples / "rocm_gfx942/matvec_bias_f16_dispatch_0.benchmark.mlir", 1, 1,
       64, Template::Kind::FusedMatvec},
      {"gfx942 f16 attention",
       examples / "rocm_gfx942/attention_f16_dispatch_0.benchmark.mlir", 16, 16,
       64, Template::Kind::Attention},
  };
  std::vector<document::Document> originals;
  for (const Template &t : templates) {
    auto opened = iree::DocumentParser(library).parseFile(t.file);
    if (!opened) {
      std::cerr << t.file << ": " << opened.error() << "\n";
      return 1;
    }
    originals.push_back(std::move(*opened));
  }

  // Edits on this thread (IREE's library is not thread-safe), compiles in
  // child processes two at a time.
  Tally tally;
  std::vector<Case> made;
  // Pinned first: the two claims the pinned iree-compile once disproved
  // (gfx942 matmul, TileAndFuse): a padded reduction loop of 3 intrinsic
  // K's ("Yield operand #0 is not equivalent to the corresponding iter
  // bbArg"), and a workgroup size that is not the subgroups' keeping the
  // accumulator in shared memory (81920 bytes > 65536).
  const std::vector<Tiles> pinned = {{64, 128, 2, 4, 3, 256},
                                     {64, 128, 2, 4, 8, 128}};
  for (size_t i = 0; i < pinned.size(); ++i) {
    tally.generated(templates[0].family);
    if (auto c = caseOf(matmulSettings(pinned[i]), templates[0], originals[0],
                        reader, "pinned " + std::to_string(i)))
      made.push_back(std::move(*c));
    else
      tally.skipped(templates[0].family, "pinned case not made");
  }
  for (int i = 0; i < cases; ++i) {
    const size_t which = static_cast<size_t>(i) % templates.size();
    tally.generated(templates[which].family);
    const Template &t = templates[which];
    auto c =
        caseOf(t.kind == Template::Kind::Reduction
                   ? reductionSettings(random, {1, 2, 4, 8})
               : t.kind == Template::Kind::FusedMatvec
                   ? reductionSettings(random, {1, 2, 3, 4, 6, 8, 16, 20, 40})
               : t.kind == Template::Kind::Attention
                   ? attentionSettings(random)
                   : matmulSettings(randomTiles(random, t)),
               t, originals[which], reader, std::to_string(i));
    if (!c) {
      tally.skipped(templates[which].family,
                    "refused before IREE compiles or claiming nothing");
      continue;
    }
    made.push_back(std::move(*c));
  }
  auto folder = TemporaryDirectory::create("tilescope-claims");
  if (!folder) {
    std::cerr << folder.error() << "\n";
    return 1;
  }
  std::mutex mutex;
  std::map<std::string, std::pair<int, int>> warningsHeld; // rule: held, all
  parallelFor(made.size(), 2, [&](size_t i) {
    const Case &c = made[i];
    service::CompileJobRequest request;
    request.document = &c.document;
    request.directory = folder->file("case-" + std::to_string(i));
    request.timeout = std::chrono::minutes(3);
    auto compiled = service::compileDocument(installation, request);
    const bool ok = compiled && compiled->succeeded();
    const bool agrees = ok == c.claimsCompile;
    std::string said;
    if (compiled)
      for (const service::CompileDiagnostic &d : compiled->diagnostics)
        if (said.empty())
          said = d.diagnostic.message;
    std::lock_guard lock(mutex);
    for (const std::string &rule : c.warnings) {
      auto &[held, all] = warningsHeld[rule];
      ++all;
      held += agrees ? 1 : 0;
    }
    if (options.verbose)
      std::cout << (agrees ? "agree    " : "DISAGREE ") << c.name << "\n";
    if (agrees) {
      tally.agreed(c.family);
      return;
    }
    std::string warnings;
    for (const std::string &rule : c.warnings)
      warnings += (warnings.empty() ? "" : ", ") + rule;
    tally.disagreed(
        c.family,
        c.name + "\n  the rules " +
            (c.claimsCompile
                 ? "claim IREE compiles it" +
                       (warnings.empty() ? std::string(" (no problem found)")
                                         : " (warnings: " + warnings + ")")
                 : "claim IREE refuses it: " + c.refusal) +
            "\n  iree-compile: " +
            (ok ? std::string("compiled")
             : compiled
                 ? compiled->summary() + (said.empty() ? "" : ": " + said)
                 : compiled.error()));
  });
  tally.print(std::cout, options.seed);
  std::cout << "\"IREE compiles it\" claims held to iree-compile:\n";
  for (const auto &[rule, counts] : warningsHeld)
    std::cout << "  " << rule << ": " << counts.first << " of " << counts.second
              << "\n";
  return tally.disagreements() == 0 ? 0 : 1;
}
