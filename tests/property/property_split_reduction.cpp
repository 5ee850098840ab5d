// IREE's split-reduction heuristic, read as IREE decides it. Random programs
// (matmuls, batch and multi-K contractions, matvecs, outer reductions,
// convolutions in batch-first and channel-first layouts, arg_compares; sizes
// straddling every threshold of the rules, some dynamic, some prime) go
// through the pinned iree-opt's iree-dispatch-creation-set-split-reduction-
// sizes with the default and low-parallelism parameter sets and other
// target sizes. Each op is read back through the C API
// (iree::ProgramReader) and Tilescope's rule (config::decideSplitReduction)
// must give exactly the iree_linalg_ext.split_reduction IREE wrote, or
// none where IREE wrote none.
#include "PropertySupport.h"

#include "core/config/rules/SplitReduction.h"
#include "core/export/ProgramReductionsJson.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/ProgramReader.h"
#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/util/Files.h"

#include <iostream>
#include <map>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct Case {
  std::string family;
  std::string function; // its util.func
  std::string text;
};

std::string tensor(const std::vector<int64_t> &shape,
                   const std::string &type = "f32") {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += (size < 0 ? std::string("?") : std::to_string(size)) + "x";
  return text + type + ">";
}

// A size near one of the rules' thresholds, or anywhere in [low, high]:
// products of small primes mostly, a prime now and then.
int64_t size(Random &random, int64_t low, int64_t high) {
  static const std::vector<int64_t> primes = {2, 3, 5, 7, 11, 13};
  static const std::vector<int64_t> largePrimes = {8191, 40961, 65537, 18013,
                                                   131071};
  if (random.chance(0.05)) {
    for (int attempt = 0; attempt < 4; ++attempt)
      if (int64_t p = random.pick(largePrimes); p >= low && p <= high)
        return p;
  }
  int64_t value = 1;
  const int64_t target =
      static_cast<int64_t>(std::exp(std::log(static_cast<double>(low)) +
                                    random.range(0, 1000) / 1000.0 *
                                        (std::log(static_cast<double>(high)) -
                                         std::log(static_cast<double>(low)))));
  while (value * 2 <= target)
    value *= random.pick(primes);
  return std::clamp<int64_t>(value, low, high);
}

std::string header(const std::string &name,
                   const std::vector<std::string> &args,
                   const std::vector<std::string> &results) {
  std::string text = "util.func public @" + name + "(";
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " +
            args[i];
  text += ") -> (";
  for (size_t i = 0; i < results.size(); ++i)
    text += (i ? ", " : "") + results[i];
  return text + ") {\n";
}

// A function applying `op` (a named op with its attributes, or a
// linalg.generic's head, which then gets a multiply-add body) to two inputs
// and one init.
std::string binaryOpFunction(const std::string &name, const std::string &op,
                             const std::string &a, const std::string &b,
                             const std::string &o) {
  const bool generic = op.rfind("linalg.generic", 0) == 0;
  return header(name, {a, b, o}, {o}) + "  %r = " + op +
         " ins(%a0, %a1 : " + a + ", " + b + ") outs(%a2 : " + o + ")" +
         (generic ? " {\n  ^bb0(%x: f32, %y: f32, %z: f32):\n    %p = "
                    "arith.mulf %x, %y : f32\n    %s = arith.addf %p, %z : "
                    "f32\n    linalg.yield %s : f32\n  }"
                  : "") +
         " -> " + o + "\n  util.return %r : " + o + "\n}\n";
}

Case matmulCase(Random &random, const std::string &name) {
  const int kind = static_cast<int>(random.range(0, 9));
  int64_t m = size(random, 1, 4096), n = size(random, 1, 4096);
  if (random.chance(0.3)) // tiny outputs: the generous limits
    m = size(random, 1, 64), n = size(random, 1, 64);
  const int64_t k = size(random, 16, random.chance(0.2) ? 20000000 : 400000);
  Case c{"matmul-like", name, {}};
  if (kind <= 4) { // linalg.matmul, sometimes dynamic
    const int64_t dm = random.chance(0.08) ? -1 : m;
    const int64_t dk = random.chance(0.05) ? -1 : k;
    const std::string a = tensor({dm, dk}), b = tensor({dk, n}),
                      o = tensor({dm, n});
    c.text = binaryOpFunction(name, "linalg.matmul", a, b, o);
  } else if (kind <= 6) { // batch
    const int64_t batch = size(random, 1, 64);
    const std::string a = tensor({batch, m, k}), b = tensor({batch, k, n}),
                      o = tensor({batch, m, n});
    c.family = "matmul-like batch";
    c.text = binaryOpFunction(name, "linalg.batch_matmul", a, b, o);
  } else if (kind <= 8) { // two reduction loops
    const int64_t k1 = size(random, 1, 512), k2 = size(random, 16, 40000);
    const std::string a = tensor({m, k1, k2}), b = tensor({k1, k2, n}),
                      o = tensor({m, n});
    c.family = "matmul-like two K loops";
    c.text = binaryOpFunction(
        name,
        "linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, "
        "d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, "
        "affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = "
        "[\"parallel\", \"parallel\", \"reduction\", \"reduction\"]}",
        a, b, o);
  } else { // a matvec: one parallel loop
    const std::string a = tensor({m, k}), b = tensor({k}), o = tensor({m});
    c.family = "matvec";
    c.text = binaryOpFunction(name, "linalg.matvec", a, b, o);
  }
  return c;
}

Case outerReductionCase(Random &random, const std::string &name) {
  const size_t reductions = static_cast<size_t>(random.range(1, 3));
  const size_t parallels = static_cast<size_t>(random.range(0, 2));
  std::vector<int64_t> shape;
  for (size_t i = 0; i < reductions; ++i)
    shape.push_back(size(random, 1, reductions == 1 ? 2000000 : 4096));
  for (size_t i = 0; i < parallels; ++i)
    shape.push_back(size(random, 1, 4096));
  if (random.chance(0.05))
    shape.front() = -1;
  std::string dims, outDims, iterators;
  for (size_t i = 0; i < shape.size(); ++i) {
    dims += (i ? ", " : "") + std::string("d") + std::to_string(i);
    iterators += std::string(i ? ", " : "") +
                 (i < reductions ? "\"reduction\"" : "\"parallel\"");
    if (i >= reductions)
      outDims +=
          (outDims.empty() ? "" : ", ") + std::string("d") + std::to_string(i);
  }
  const std::vector<int64_t> outShape(
      shape.begin() + static_cast<long>(reductions), shape.end());
  const std::string in = tensor(shape), out = tensor(outShape);
  Case c{"outer-reduction", name, {}};
  c.text = header(name, {in, out}, {out}) +
           "  %r = linalg.generic {indexing_maps = [affine_map<(" + dims +
           ") -> (" + dims + ")>, affine_map<(" + dims + ") -> (" + outDims +
           ")>], iterator_types = [" + iterators + "]} ins(%a0 : " + in +
           ") outs(%a1 : " + out +
           ") {\n  ^bb0(%x: f32, %y: f32):\n    %s = arith.addf %x, %y : "
           "f32\n    linalg.yield %s : f32\n  } -> " +
           out + "\n  util.return %r : " + out + "\n}\n";
  return c;
}

Case convolutionCase(Random &random, const std::string &name) {
  const int64_t batch = size(random, 1, 32);
  const int64_t oh = size(random, 1, 128), ow = size(random, 1, 128);
  const int64_t kh = random.range(1, 3), kw = random.range(1, 3);
  const int64_t channels = size(random, 1, 8192);
  const int64_t filters = size(random, 1, 1024);
  const int64_t ih = oh + kh - 1, iw = ow + kw - 1;
  const int layout = static_cast<int>(random.range(0, 2));
  Case c{"convolution", name, {}};
  if (layout == 0) {
    const std::string in = tensor({batch, ih, iw, channels}),
                      f = tensor({kh, kw, channels, filters}),
                      o = tensor({batch, oh, ow, filters});
    c.family = "convolution nhwc";
    c.text = binaryOpFunction(name,
                              "linalg.conv_2d_nhwc_hwcf {dilations = dense<1> "
                              ": tensor<2xi64>, strides = dense<1> : "
                              "tensor<2xi64>}",
                              in, f, o);
  } else if (layout == 1) {
    const std::string in = tensor({batch, channels, ih, iw}),
                      f = tensor({filters, channels, kh, kw}),
                      o = tensor({batch, filters, oh, ow});
    c.family = "convolution nchw";
    c.text = binaryOpFunction(name,
                              "linalg.conv_2d_nchw_fchw {dilations = dense<1> "
                              ": tensor<2xi64>, strides = dense<1> : "
                              "tensor<2xi64>}",
                              in, f, o);
  } else { // output channel first: not a batch-first layout
    const std::string in = tensor({batch, ih, iw, channels}),
                      f = tensor({kh, kw, channels, filters}),
                      o = tensor({filters, batch, oh, ow});
    c.family = "convolution channel-first output";
    c.text = binaryOpFunction(
        name,
        "linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, "
        "d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, "
        "d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, "
        "d6) -> (d3, d0, d1, d2)>], iterator_types = [\"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\", \"reduction\", "
        "\"reduction\", \"reduction\"]}",
        in, f, o);
  }
  return c;
}

Case argCompareCase(Random &random, const std::string &name) {
  const bool twoDims = random.chance(0.6);
  std::vector<int64_t> shape = {size(random, 1, 1000000)};
  if (twoDims)
    shape.push_back(size(random, 1, 200000));
  const int64_t dimension = twoDims ? random.range(0, 1) : 0;
  std::vector<int64_t> outShape;
  for (size_t i = 0; i < shape.size(); ++i)
    if (static_cast<int64_t>(i) != dimension)
      outShape.push_back(shape[i]);
  const std::string in = tensor(shape), values = tensor(outShape),
                    indices = tensor(outShape, "i32");
  Case c{"arg_compare", name, {}};
  c.text = header(name, {in, values, indices}, {values, indices}) +
           "  %r:2 = iree_linalg_ext.arg_compare dimension(" +
           std::to_string(dimension) + ") ins(%a0 : " + in +
           ") outs(%a1, %a2 : " + values + ", " + indices +
           ") {\n  ^bb0(%x: f32, %y: f32):\n    %c = arith.cmpf ogt, %x, %y : "
           "f32\n    iree_linalg_ext.yield %c : i1\n  } -> " +
           values + ", " + indices + "\n  util.return %r#0, %r#1 : " + values +
           ", " + indices + "\n}\n";
  return c;
}

std::string sizesText(const std::optional<std::vector<int64_t>> &sizes) {
  return sizes ? list(*sizes) : "no split";
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int perFamily = options.cases > 0 ? options.cases
                        : options.longRun ? 1000
                                          : 100;
  Random random(options.seed);
  const tools::IreeInstallation installation = projectIree();
  auto reader = iree::ProgramReader::create(projectLibrary());
  if (!reader) {
    std::cerr << reader.error() << "\n";
    return 1;
  }
  // The window and the CLI ask IREE through the parse worker: its answers
  // must be the in-process reader's, field for field.
  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app" / "tilescope-iree-worker",
                                 installation.compilerLibrary);
  auto opt = installation.tool(tools::kIreeOpt);
  if (!opt) {
    std::cerr << opt.error() << "\n";
    return 1;
  }
  auto folder = TemporaryDirectory::create("property-split-reduction");
  if (!folder) {
    std::cerr << folder.error() << "\n";
    return 1;
  }

  // The parameter sets a run asks IREE with: the default, RDNA's, and other
  // target sizes.
  const std::vector<config::SplitOptions> parameterSets = {
      {1024, false}, {1024, true}, {256, false}, {4096, true}};
  Tally tally;
  std::map<std::string, int> byRule; // how the agreeing cases were decided
  int index = 0;
  for (const config::SplitOptions &parameters : parameterSets) {
    std::vector<Case> cases;
    for (int i = 0; i < perFamily; ++i) {
      const std::string name = "f" + std::to_string(index++);
      switch (i % 4) {
      case 0:
        cases.push_back(matmulCase(random, name));
        break;
      case 1:
        cases.push_back(outerReductionCase(random, name));
        break;
      case 2:
        cases.push_back(convolutionCase(random, name));
        break;
      default:
        cases.push_back(argCompareCase(random, name));
        break;
      }
    }
    std::string module;
    for (const Case &c : cases)
      module += c.text + "\n";
    const std::filesystem::path input = folder->file("cases.mlir");
    const std::filesystem::path output = folder->file("split.mlir");
    if (auto written = writeFileAtomically(input, module); !written) {
      std::cerr << written.error() << "\n";
      return 1;
    }
    process::ProcessSpec spec;
    spec.program = *opt;
    spec.arguments = {
        "--pass-pipeline=builtin.module(util.func(iree-dispatch-creation-set-"
        "split-reduction-sizes{split-reduction-target-size=" +
            std::to_string(parameters.targetSize) + " low-parallelism=" +
            (parameters.lowParallelism ? "true" : "false") + "}))",
        input.string(), "-o", output.string()};
    const process::ProcessResult result = process::runProcess(spec);
    if (!result.succeeded()) {
      folder->keep();
      std::cerr << "iree-opt " << result.describe() << "\n  "
                << spec.shellCommand() << "\n"
                << result.standardError.substr(0, 4000) << "\n";
      return 1;
    }
    auto text = readTextFile(output);
    if (!text) {
      std::cerr << text.error() << "\n";
      return 1;
    }
    auto reductions = reader->reductions(*text, output.string());
    if (!reductions) {
      std::cerr << reductions.error() << "\n";
      return 1;
    }
    std::map<std::string, const document::ProgramReduction *> byFunction;
    for (const document::ProgramReduction &op : *reductions)
      byFunction[op.function] = &op;
    const std::string setName =
        "target " + std::to_string(parameters.targetSize) +
        (parameters.lowParallelism ? " low-parallelism" : "");

    // The worker's reading, and the splits it writes (every split IREE set
    // cleared, every other reduction split by 2 where it can be), equal the
    // in-process reader's.
    const std::string through = "through the parse worker (" + setName + ")";
    tally.generated(through);
    std::vector<document::SplitChoice> choices;
    for (const document::ProgramReduction &op : *reductions)
      choices.push_back(
          {op.function, op.index,
           op.split ? std::nullopt
                    : std::optional<std::vector<int64_t>>(std::vector<int64_t>(
                          config::reductionBounds(op.facts.space).size(), 2))});
    auto theirs = worker.programReductions(*text, output.string());
    auto ourProgram = reader->withSplits(*text, output.string(), choices);
    auto theirProgram = worker.withSplits(*text, output.string(), choices);
    std::string differs;
    if (!theirs)
      differs = "the worker: " + theirs.error();
    else if (theirs->size() != reductions->size())
      differs = "the worker read " + std::to_string(theirs->size()) +
                " reductions, in process " + std::to_string(reductions->size());
    else
      for (size_t i = 0; i < theirs->size() && differs.empty(); ++i)
        if (exporting::toJson((*theirs)[i]) !=
            exporting::toJson((*reductions)[i]))
          differs = "reduction " + std::to_string(i) + ": worker " +
                    exporting::toJson((*theirs)[i]).dump() + "\n  in process " +
                    exporting::toJson((*reductions)[i]).dump();
    if (differs.empty() && (bool(ourProgram) != bool(theirProgram) ||
                            (ourProgram && *ourProgram != *theirProgram)))
      differs =
          "with-splits: in process " +
          (ourProgram ? std::string("a program") : ourProgram.error()) +
          ", the worker " +
          (theirProgram ? std::string("a program") : theirProgram.error()) +
          (ourProgram && theirProgram ? " that differs" : "");
    if (differs.empty())
      tally.agreed(through);
    else
      tally.disagreed(through, differs);
    for (const Case &c : cases) {
      const std::string family = c.family + " (" + setName + ")";
      tally.generated(family);
      auto found = byFunction.find(c.function);
      if (found == byFunction.end()) {
        tally.disagreed(family, c.function +
                                    ": Tilescope read no reduction IREE's "
                                    "pass walks\n" +
                                    c.text);
        continue;
      }
      const document::ProgramReduction &op = *found->second;
      const config::SplitDecision ours =
          config::decideSplitReduction(op.facts, parameters);
      const std::optional<std::vector<int64_t>> predicted =
          ours.attributeTiles();
      if (predicted == op.split) {
        tally.agreed(family);
        ++byRule[config::toString(ours.rule)];
        if (options.verbose)
          std::cout << c.function << " " << op.facts.space.toString() << " "
                    << sizesText(op.split) << " ("
                    << config::toString(ours.rule) << ")\n";
        continue;
      }
      std::string why;
      for (const std::string &reason : ours.reasons)
        why += "\n  " + reason;
      tally.disagreed(family, c.function + " " + op.facts.space.toString() +
                                  ": IREE " + sizesText(op.split) +
                                  ", Tilescope " + sizesText(predicted) + " (" +
                                  config::toString(ours.rule) + ")" + why +
                                  "\n" + c.text);
    }
  }
  tally.print(std::cout, options.seed);
  std::cout << "agreeing cases by the rule that decided:";
  for (const auto &[rule, count] : byRule)
    std::cout << " " << rule << " " << count;
  std::cout << "\n";
  return tally.disagreements() == 0 ? 0 : 1;
}
