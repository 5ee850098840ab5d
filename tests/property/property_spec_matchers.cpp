// Tuning-spec matchers as the pinned IREE applies them. Seeded random
// programs (reductions over any loops in any operand order, f16 and f32;
// matmuls; NHWC convolutions that IREE builds as implicit GEMMs) are
// configured by iree-compile for gfx942 or sm_90 and read back through the
// parse worker. Their root op's config is changed (a workgroup or reduction
// tile doubled), written as a spec the way `tune` and `export-spec` write it
// (a contraction by IREE's contraction matcher, anything else by its body as
// IREE prints it, DocumentWorker::rootOpDags), and:
//
//  - configuring the program with the spec gives the op the changed config
//    (tune::proveSpec: field by field against IREE's choice);
//  - configuring the same program with one size changed gives exactly the
//    config IREE chooses for it without the spec: the matcher took no op
//    that is not the one it was written for.
//
//   property_spec_matchers [--seed N] [--cases N] [--long]
#include "PropertySupport.h"

#include "core/export/TuningSpec.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/DocumentWorker.h"
#include "core/tune/SpecProof.h"
#include "core/util/Files.h"

#include <filesystem>
#include <regex>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct SpecCase {
  std::string family; // "reduction", "matmul", "convolution"
  std::string target; // "gfx942", "sm_90"
  std::string text;   // the program
  std::string other;  // the same program with one size changed
  std::string describe;
};

std::string tensor(const std::vector<int64_t> &shape, const std::string &type) {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + type + ">";
}

std::string dims(const std::vector<int> &loops) {
  std::string text;
  for (size_t i = 0; i < loops.size(); ++i)
    text += (i ? ", d" : "d") + std::to_string(loops[i]);
  return text;
}

// A reduction over some of `sizes`' loops, reading its input in the loop
// order `order`.
std::string reduction(const std::vector<int64_t> &sizes,
                      const std::vector<bool> &reduces,
                      const std::vector<int> &order, const std::string &type,
                      bool maximum) {
  const size_t rank = sizes.size();
  std::vector<int64_t> inputShape, outputShape;
  std::vector<int> outputLoops;
  for (int loop : order)
    inputShape.push_back(sizes[static_cast<size_t>(loop)]);
  for (size_t i = 0; i < rank; ++i)
    if (!reduces[i]) {
      outputShape.push_back(sizes[i]);
      outputLoops.push_back(static_cast<int>(i));
    }
  std::vector<int> all(rank);
  std::iota(all.begin(), all.end(), 0);
  std::string iterators;
  for (size_t i = 0; i < rank; ++i)
    iterators += std::string(i ? ", " : "") +
                 (reduces[i] ? "\"reduction\"" : "\"parallel\"");
  const std::string in = tensor(inputShape, type);
  const std::string out = tensor(outputShape, "f32");
  const std::string value = type == "f16" ? "%e" : "%in";
  return "func.func @reduce(%x: " + in + ") -> " + out +
         " {\n"
         "  %init = arith.constant " +
         std::string(maximum ? "-3.0e+38" : "0.0") +
         " : f32\n"
         "  %empty = tensor.empty() : " +
         out +
         "\n"
         "  %acc = linalg.fill ins(%init : f32) outs(%empty : " +
         out + ") -> " + out +
         "\n"
         "  %r = linalg.generic {indexing_maps = [affine_map<(" +
         dims(all) + ") -> (" + dims(order) + ")>, affine_map<(" + dims(all) +
         ") -> (" + dims(outputLoops) + ")>], iterator_types = [" + iterators +
         "]} ins(%x : " + in + ") outs(%acc : " + out +
         ") {\n"
         "  ^bb0(%in: " +
         type + ", %out: f32):\n" +
         (type == "f16" ? "    %e = arith.extf %in : f16 to f32\n" : "") +
         "    %s = arith." + (maximum ? "maximumf " : "addf ") + value +
         ", %out : f32\n"
         "    linalg.yield %s : f32\n"
         "  } -> " +
         out + "\n  return %r : " + out + "\n}\n";
}

std::string matmul(int64_t m, int64_t n, int64_t k) {
  const std::string a = tensor({m, k}, "f16"), b = tensor({k, n}, "f16"),
                    c = tensor({m, n}, "f32");
  return "func.func @mm(%a: " + a + ", %b: " + b + ") -> " + c +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %empty = tensor.empty() : " +
         c +
         "\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%empty : " +
         c + ") -> " + c +
         "\n"
         "  %r = linalg.matmul ins(%a, %b : " +
         a + ", " + b + ") outs(%acc : " + c + ") -> " + c +
         "\n  return %r : " + c + "\n}\n";
}

std::string convolution(int64_t n, int64_t h, int64_t c, int64_t f, int64_t k) {
  const int64_t o = h - k + 1;
  const std::string in = tensor({n, h, h, c}, "f16"),
                    filter = tensor({k, k, c, f}, "f16"),
                    out = tensor({n, o, o, f}, "f32");
  return "func.func @conv(%x: " + in + ", %w: " + filter + ") -> " + out +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %empty = tensor.empty() : " +
         out +
         "\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%empty : " +
         out + ") -> " + out +
         "\n"
         "  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
         "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : " +
         in + ", " + filter + ") outs(%acc : " + out + ") -> " + out +
         "\n  return %r : " + out + "\n}\n";
}

// Half the cases reductions, a quarter each matmuls and convolutions.
SpecCase randomCase(Random &random, int index) {
  SpecCase c;
  c.target = random.chance(0.5) ? "gfx942" : "sm_90";
  const int family = index % 4;
  if (family <= 1) {
    c.family = "reduction";
    const size_t rank = static_cast<size_t>(random.range(2, 4));
    std::vector<int64_t> sizes(rank);
    std::vector<bool> reduces(rank);
    for (size_t i = 0; i < rank; ++i) {
      sizes[i] = random.chance(0.8) ? random.powerOfTwo(2, 1024)
                                    : random.range(3, 300);
      reduces[i] = random.chance(0.5);
    }
    reduces[0] = false; // one parallel loop at least
    if (std::none_of(reduces.begin(), reduces.end(), [](bool r) { return r; }))
      reduces[rank - 1] = true;
    std::vector<int> order(rank);
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = rank - 1; i > 0; --i)
      std::swap(
          order[i],
          order[static_cast<size_t>(random.range(0, static_cast<int64_t>(i)))]);
    const std::string type = random.chance(0.5) ? "f16" : "f32";
    const bool maximum = random.chance(0.3);
    c.text = reduction(sizes, reduces, order, type, maximum);
    std::vector<int64_t> changed = sizes;
    const size_t which =
        static_cast<size_t>(random.range(0, static_cast<int64_t>(rank) - 1));
    changed[which] += changed[which] > 2 ? -1 : 1;
    c.other = reduction(changed, reduces, order, type, maximum);
    c.describe = std::string(maximum ? "max" : "sum") + " reduction of " +
                 type + " over";
    for (size_t i = 0; i < rank; ++i)
      c.describe += " " + std::to_string(sizes[i]) + (reduces[i] ? "r" : "p");
  } else if (family == 2) {
    c.family = "matmul";
    const int64_t m = 16 * random.range(1, 64), n = 16 * random.range(1, 64),
                  k = 16 * random.range(1, 64);
    c.text = matmul(m, n, k);
    c.other = matmul(m, n, k + 16);
    c.describe = "matmul " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                 std::to_string(k);
  } else {
    c.family = "convolution";
    const int64_t n = random.range(1, 4), h = random.range(8, 66),
                  ch = 16 * random.range(1, 16), f = 16 * random.range(1, 16),
                  k = random.chance(0.7) ? 3 : 1;
    c.text = convolution(n, h, ch, f, k);
    c.other = convolution(n, h + 2, ch, f, k);
    c.describe = "conv nhwc n=" + std::to_string(n) + " " + std::to_string(h) +
                 "x" + std::to_string(h) + "x" + std::to_string(ch) +
                 " filter " + std::to_string(k) + "x" + std::to_string(k) +
                 " f=" + std::to_string(f);
  }
  c.describe += " on " + c.target;
  return c;
}

// The config with its first workgroup (else reduction) tile above zero
// doubled; empty when it has neither.
std::string changedConfig(const std::string &config) {
  for (const char *field : {"workgroup = [", "reduction = ["}) {
    const size_t at = config.find(field);
    if (at == std::string::npos)
      continue;
    const size_t start = at + std::string(field).size();
    const size_t end = config.find(']', start);
    std::string list = config.substr(start, end - start);
    static const std::regex number("[1-9][0-9]*");
    std::smatch found;
    if (!std::regex_search(list, found, number))
      continue;
    const long long doubled = std::stoll(found.str()) * 2;
    list.replace(static_cast<size_t>(found.position()),
                 static_cast<size_t>(found.length()), std::to_string(doubled));
    return config.substr(0, start) + list + config.substr(end);
  }
  return {};
}

struct Configured {
  document::Document document;
  std::string error;
};

Configured configure(const tools::IreeInstallation &installation,
                     service::DocumentWorker &worker, const std::string &target,
                     const std::filesystem::path &source,
                     const std::filesystem::path &output,
                     const std::vector<std::string> &extraFlags = {}) {
  service::ConfigureRequest request;
  request.source = source;
  request.output = output;
  request.extraFlags = extraFlags;
  auto compileTarget = service::compileTarget(target);
  if (!compileTarget)
    return {{}, compileTarget.error()};
  request.target = *compileTarget;
  auto configured = service::configureProgram(installation, worker, request);
  if (!configured)
    return {{}, configured.error()};
  return {std::move(configured->document), ""};
}

// The configs of every root op of a configured program, in order.
std::vector<std::string> configsOf(const document::Document &document) {
  std::vector<std::string> configs;
  for (const document::Dispatch &dispatch : document.dispatches)
    for (const document::RootOp &op : dispatch.rootOps)
      configs.push_back(op.loweringConfig);
  return configs;
}

std::string check(const SpecCase &c,
                  const tools::IreeInstallation &installation,
                  service::DocumentWorker &worker,
                  const TemporaryDirectory &folder, int index,
                  std::string &skipped) {
  const std::string stem = "case" + std::to_string(index);
  const auto source = folder.file(stem + ".mlir");
  const auto other = folder.file(stem + ".other.mlir");
  if (!writeFileAtomically(source, c.text) ||
      !writeFileAtomically(other, c.other))
    return "cannot write the case";
  Configured configured = configure(installation, worker, c.target, source,
                                    folder.file(stem + ".conf.mlir"));
  if (!configured.error.empty()) {
    skipped = "IREE configures no kernel for it";
    return "";
  }
  document::Document &document = configured.document;
  // The root op: the one with a config that can change.
  std::optional<exporting::SpecOp> chosen;
  for (size_t d = 0; d < document.dispatches.size() && !chosen; ++d)
    for (size_t o = 0; o < document.dispatches[d].rootOps.size(); ++o) {
      document::RootOp &op = document.dispatches[d].rootOps[o];
      const std::string changed = changedConfig(op.loweringConfig);
      if (op.loweringConfig.empty() || changed.empty())
        continue;
      op.loweringConfig = changed;
      op.loweringReading.reset();
      chosen = exporting::SpecOp{static_cast<int>(d), static_cast<int>(o), {}};
      break;
    }
  if (!chosen) {
    skipped = "no tile to change";
    return "";
  }
  std::vector<exporting::SpecOp> ops = {*chosen};
  if (auto attached = tune::attachDags(worker, document, ops); !attached)
    return "IREE printed no dag: " + attached.error();
  auto spec = exporting::tuningSpec(document, ops);
  if (!spec)
    return "no spec: " + spec.error();
  const auto specFile = folder.file(stem + ".spec.mlir");
  if (!writeFileAtomically(specFile, *spec))
    return "cannot write the spec";

  // The program with the spec: the op has the changed config.
  auto proofs =
      tune::proveSpec(installation, worker, document, ops, source, specFile);
  if (!proofs)
    return "configuring with the spec failed: " + proofs.error();
  for (const tune::SpecOpProof &proof : proofs->ops)
    if (!proof.applied) {
      std::string why = proof.why;
      for (const auto &d : proof.differences)
        why += " " + d.field + " (spec " + d.before + ", IREE " + d.after + ")";
      return "IREE did not give the op the spec's config:" + why +
             "\n  matcher: " + ops.front().dag;
    }

  // Another size: the spec takes nothing.
  const std::string backend = c.target == "sm_90" ? "cuda" : "rocm";
  Configured plain = configure(installation, worker, c.target, other,
                               folder.file(stem + ".other.conf.mlir"));
  Configured withSpec = configure(installation, worker, c.target, other,
                                  folder.file(stem + ".other.spec.conf.mlir"),
                                  {tune::specFlag(backend, specFile)});
  if (!plain.error.empty() || !withSpec.error.empty()) {
    skipped = "the other size configures no kernel";
    return "";
  }
  if (configsOf(plain.document) != configsOf(withSpec.document))
    return "the spec changed a program it was not written for (one size "
           "changed)\n  matcher: " +
           ops.front().dag;
  return "";
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int count = options.cases > 0 ? options.cases
                    : options.longRun ? 200
                                      : 16;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app" / "tilescope-iree-worker",
                                 installation.compilerLibrary);
  auto folder = TemporaryDirectory::create("property-spec-matchers");
  if (!folder) {
    std::cerr << folder.error() << "\n";
    return 1;
  }
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const SpecCase c = randomCase(random, i);
    tally.generated(c.family);
    std::string skipped;
    const std::string why = check(c, installation, worker, *folder, i, skipped);
    if (!skipped.empty())
      tally.skipped(c.family, skipped);
    else if (why.empty())
      tally.agreed(c.family);
    else
      tally.disagreed(c.family, c.describe + ": " + why);
    if (options.verbose)
      std::cout << c.describe << ": "
                << (!skipped.empty() ? "skipped: " + skipped
                    : why.empty()    ? std::string("applied, and only there")
                                     : why)
                << "\n";
  }
  tally.print(std::cout, options.seed);
  for (const char *family : {"reduction", "matmul", "convolution"})
    if (tally.agreedCount(family) == 0) {
      std::cout << "no " << family << " case agreed: its matcher was not "
                << "tested\n";
      return 1;
    }
  return tally.disagreements() == 0 ? 0 : 1;
}
