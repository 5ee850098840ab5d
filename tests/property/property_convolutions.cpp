// Convolutions as the pinned IREE configures them, against Tilescope's
// reading: seeded random 2-D convolutions (NHWC x HWCF, NCHW x FCHW, NHWC x
// FHWC, strides, dilations, filters and channels), configured by iree-compile
// for gfx942 and sm_90 and read back through the parse worker, as the window
// and the CLI read them. For each:
//
//  - IREE's own config is no error under Tilescope's rules;
//  - where IREE builds an implicit GEMM (use_igemm_convolution), the loops
//    the config tiles are IREE's IGEMM loops (the config's lists have their
//    rank), K is the product of the filter window and input channels, and
//    each output dimension keeps its bound;
//  - the im2col map over the whole IGEMM space reads exactly the input
//    tensor IREE's dispatch states (each dimension from 0 to its size; a
//    unit batch IREE folds away is not there);
//  - explain names the IGEMM loops and workgroup 0's input window.
//
//   property_convolutions [--seed N] [--cases N] [--long]
#include "PropertySupport.h"

#include "core/edit/RootOpContext.h"
#include "core/process/Process.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/DocumentWorker.h"
#include "core/util/Files.h"

#include <cctype>
#include <filesystem>
#include <fstream>

using namespace tilescope;
using namespace tilescope::property;

namespace {

struct ConvCase {
  std::string layout; // "nhwc_hwcf", "nchw_fchw", "nhwc_fhwc"
  int64_t n, h, w, c, f, kh, kw, sh, sw, dh, dw;
  std::string target; // "gfx942", "sm_90"

  int64_t outH() const { return (h - 1 - (kh - 1) * dh) / sh + 1; }
  int64_t outW() const { return (w - 1 - (kw - 1) * dw) / sw + 1; }

  std::string describe() const {
    return layout + " n=" + std::to_string(n) + " " + std::to_string(h) + "x" +
           std::to_string(w) + "x" + std::to_string(c) + " filter " +
           std::to_string(kh) + "x" + std::to_string(kw) +
           " f=" + std::to_string(f) + " strides " + std::to_string(sh) + "," +
           std::to_string(sw) + " dilations " + std::to_string(dh) + "," +
           std::to_string(dw) + " on " + target;
  }

  std::vector<int64_t> inputShape() const {
    return layout == "nchw_fchw" ? std::vector<int64_t>{n, c, h, w}
                                 : std::vector<int64_t>{n, h, w, c};
  }

  std::string source() const {
    auto shape = [](const std::vector<int64_t> &dims, const char *type) {
      std::string text = "tensor<";
      for (int64_t d : dims)
        text += std::to_string(d) + "x";
      return text + type + ">";
    };
    const int64_t oh = outH(), ow = outW();
    const std::string input = shape(inputShape(), "f16");
    const std::string filter =
        layout == "nchw_fchw"   ? shape({f, c, kh, kw}, "f16")
        : layout == "nhwc_fhwc" ? shape({f, kh, kw, c}, "f16")
                                : shape({kh, kw, c, f}, "f16");
    const std::string output = layout == "nchw_fchw"
                                   ? shape({n, f, oh, ow}, "f32")
                                   : shape({n, oh, ow, f}, "f32");
    const std::string attrs =
        "{dilations = dense<[" + std::to_string(dh) + ", " +
        std::to_string(dw) + "]> : tensor<2xi64>, strides = dense<[" +
        std::to_string(sh) + ", " + std::to_string(sw) + "]> : tensor<2xi64>}";
    return "func.func @conv(%in: " + input + ", %filter: " + filter + ") -> " +
           output +
           " {\n"
           "  %zero = arith.constant 0.0 : f32\n"
           "  %empty = tensor.empty() : " +
           output +
           "\n"
           "  %acc = linalg.fill ins(%zero : f32) outs(%empty : " +
           output + ") -> " + output +
           "\n"
           "  %r = linalg.conv_2d_" +
           layout + " " + attrs + " ins(%in, %filter : " + input + ", " +
           filter + ") outs(%acc : " + output + ") -> " + output +
           "\n"
           "  return %r : " +
           output + "\n}\n";
  }
};

ConvCase randomCase(Random &random) {
  ConvCase c;
  c.layout = random.pick(
      std::vector<std::string>{"nhwc_hwcf", "nchw_fchw", "nhwc_fhwc"});
  c.n = random.pick(std::vector<int64_t>{1, 2, 4, 16});
  c.c = random.pick(std::vector<int64_t>{16, 32, 64, 128, 256, 320});
  c.f = random.pick(std::vector<int64_t>{16, 32, 64, 128, 256, 640});
  c.kh = random.pick(std::vector<int64_t>{1, 3, 3, 5});
  c.kw = random.chance(0.8) ? c.kh : random.pick(std::vector<int64_t>{1, 3});
  c.sh = random.chance(0.7) ? 1 : 2;
  c.sw = random.chance(0.8) ? c.sh : 1;
  c.dh = random.chance(0.8) ? 1 : 2;
  c.dw = c.dh;
  // The input is made to fit the output exactly, so the whole input is read.
  const int64_t oh = random.pick(std::vector<int64_t>{8, 16, 32, 64});
  const int64_t ow = random.chance(0.7) ? oh : random.range(7, 48);
  c.h = (oh - 1) * c.sh + (c.kh - 1) * c.dh + 1;
  c.w = (ow - 1) * c.sw + (c.kw - 1) * c.dw + 1;
  c.target = random.chance(0.5) ? "gfx942" : "sm_90";
  return c;
}

// The static shape of "tensor<4x10x10x128xf16>".
std::vector<int64_t> shapeOf(const std::string &type) {
  std::vector<int64_t> shape;
  size_t at = type.find('<');
  if (at == std::string::npos)
    return shape;
  ++at;
  while (at < type.size() &&
         std::isdigit(static_cast<unsigned char>(type[at]))) {
    size_t end = at;
    while (end < type.size() &&
           std::isdigit(static_cast<unsigned char>(type[end])))
      ++end;
    if (end >= type.size() || type[end] != 'x')
      break;
    shape.push_back(std::stoll(type.substr(at, end - at)));
    at = end + 1;
  }
  return shape;
}

std::string ranges(const std::vector<std::pair<int64_t, int64_t>> &box) {
  std::string text = "[";
  for (size_t i = 0; i < box.size(); ++i)
    text += (i ? ", " : "") + std::to_string(box[i].first) + ":" +
            std::to_string(box[i].second);
  return text + "]";
}

// What disagrees between IREE's configured convolution and Tilescope's
// reading of it; empty when all agrees. `family` says which way IREE built
// it.
std::string compare(const ConvCase &c, const document::Document &document,
                    std::string &family) {
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    for (size_t o = 0; o < dispatch.rootOps.size(); ++o) {
      const document::RootOp &op = dispatch.rootOps[o];
      if (op.kind != config::OpKind::Convolution)
        continue;
      const edit::RootOpContext context =
          edit::contextOf(document, edit::OpRef{d, o});
      const edit::RuleVerdict verdict = edit::ruleVerdict(context);
      family = op.onImplicitGemm ? "igemm " + c.target
                                 : "direct or other " + c.target;
      if (verdict.hasErrors())
        return "IREE's own config is an error to Tilescope: " +
               verdict.whyNot() + "\n  config: " + op.loweringConfig;
      if (!op.implicitGemm)
        return op.onImplicitGemm ? "no IGEMM details read" : "";
      const config::ImplicitGemm &igemm = *op.implicitGemm;
      if (!op.onImplicitGemm)
        return "";
      if (!context.loweringConfig)
        return "no config read: " + context.loweringConfigError;
      const auto workgroup =
          context.loweringConfig->tileSizes(config::TilingLevel::Workgroup);
      if (workgroup && workgroup->size() != igemm.gemm.rank())
        return "workgroup has " + std::to_string(workgroup->size()) +
               " entries, the IGEMM space " + std::to_string(igemm.gemm.rank());
      // K is the filter window times the input channels.
      const int64_t k = c.kh * c.kw * c.c;
      if (igemm.contraction.k.size() != 1 ||
          igemm.gemm.bounds[static_cast<size_t>(igemm.contraction.k[0])] != k)
        return "the IGEMM K is not " + std::to_string(k) + " (space " +
               igemm.gemm.toString() + ")";
      // Every loop IREE keeps has the convolution loop's bound.
      for (const auto &[conv, gemm] : igemm.convolutionToGemm)
        if (igemm.convolutionLoopsOf(gemm).size() == 1 &&
            igemm.convolution.bounds[static_cast<size_t>(conv)] !=
                igemm.gemm.bounds[static_cast<size_t>(gemm)])
          return "IGEMM loop d" + std::to_string(gemm) + " is not conv loop d" +
                 std::to_string(conv) + "'s bound";
      // The im2col map over the whole IGEMM space reads the whole input.
      std::vector<std::pair<int64_t, int64_t>> whole;
      for (int64_t bound : igemm.gemm.bounds)
        whole.emplace_back(0, bound);
      const auto read = igemm.inputBox(igemm.convolutionBox(whole));
      // The input as IREE's dispatch states it (a unit batch folded away).
      std::vector<std::pair<int64_t, int64_t>> input;
      for (int64_t size :
           shapeOf(op.operandTypes.empty() ? std::string()
                                           : op.operandTypes.front()))
        input.emplace_back(0, size);
      if (read != input)
        return "the im2col map reads " + ranges(read) + ", the input is " +
               ranges(input);
      // One IGEMM K step reads a window no larger than the input.
      std::vector<std::pair<int64_t, int64_t>> step = whole;
      step[static_cast<size_t>(igemm.contraction.k[0])] = {0, 16};
      const auto stepRead = igemm.inputBox(igemm.convolutionBox(step));
      for (size_t i = 0; i < stepRead.size(); ++i)
        if (stepRead[i].first < 0 || stepRead[i].second > input[i].second ||
            stepRead[i].second <= stepRead[i].first)
          return "a K step of 16 reads " + ranges(stepRead) + " of input " +
                 ranges(input);
      return "";
    }
  }
  family = "no convolution root op " + c.target;
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
  auto folder = TemporaryDirectory::create("property-convolutions");
  if (!folder) {
    std::cerr << folder.error() << "\n";
    return 1;
  }
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const ConvCase c = randomCase(random);
    const auto source = folder->file("conv" + std::to_string(i) + ".mlir");
    if (auto written = writeFileAtomically(source, c.source()); !written) {
      std::cerr << written.error() << "\n";
      return 1;
    }
    service::ConfigureRequest request;
    request.source = source;
    request.output = folder->file("conv" + std::to_string(i) + ".conf.mlir");
    auto target = service::compileTarget(c.target);
    if (!target) {
      std::cerr << target.error() << "\n";
      return 1;
    }
    request.target = *target;
    auto configured = service::configureProgram(installation, worker, request);
    if (!configured) {
      tally.generated("configure " + c.target);
      tally.disagreed("configure " + c.target,
                      c.describe() +
                          ": IREE did not configure it: " + configured.error());
      continue;
    }
    std::string family;
    const std::string why = compare(c, configured->document, family);
    tally.generated(family);
    if (why.empty())
      tally.agreed(family);
    else
      tally.disagreed(family, c.describe() + ": " + why);
    if (options.verbose)
      std::cout << c.describe() << ": " << (why.empty() ? "agrees" : why)
                << "\n";
  }
  tally.print(std::cout, options.seed);
  // The cases must have exercised the IGEMM path on both targets.
  for (const char *family : {"igemm gfx942", "igemm sm_90"})
    if (tally.agreedCount(family) == 0) {
      std::cout << "no case of \"" << family << "\" agreed: the IGEMM path "
                << "was not tested\n";
      return 1;
    }
  return tally.disagreements() == 0 ? 0 : 1;
}
