// Property test (a fuzzer with the real IREE): seeded mutations of real
// files (truncations, deleted and repeated ranges, flipped bytes, inserted
// MLIR tokens, split markers and deep nests) parsed through
// tilescope-iree-worker. Whatever the text, the answer is a document or a
// message that names the buffer; the parser process's protocol never breaks;
// where IREE parses a mutant, the worker's document equals the in-process
// parser's; and Tilescope agrees with the pinned `iree-opt` on the same file
// (with --split-input-file where it has a marker): it opens what iree-opt
// parses, refuses what iree-opt refuses (unregistered dialects included) and
// prints the very diagnostics iree-opt prints, notes, whole-file lines and
// carets included. IREE crashing on a mutant is IREE's bug, not a failure: it
// is counted, and `--save-crashers DIR` keeps each such file (and any whose
// diagnostics differ from iree-opt's, with both texts) for
// tests/fuzz/document-corpus/ (whose crashers every run replays).
#include "PropertySupport.h"

#include "core/document/SplitInput.h"
#include "core/export/JsonText.h"
#include "core/iree/CompilerLibrary.h"
#include "core/document/Diagnostic.h"
#include "core/iree/DocumentParser.h"
#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/util/Files.h"

#include <filesystem>

using namespace tilescope;
using namespace tilescope::property;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTokens = {
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "\"",
    "%0",
    "%arg0",
    "^bb0:",
    "// -----\n",
    "\n// -----\n",
    "// ----",
    "#map",
    "#map = affine_map<(d0) -> (d0)>\n",
    "affine_map<(d0, d1) -> (d1, d0)>",
    "#iree_codegen.xor_shuffle<128, 0>",
    "#iree_codegen.rotate_rows<64, 0>",
    "#iree_gpu.lowering_config<{workgroup = [1]}>",
    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
    "tensor<?x4xf32>",
    "i0",
    "f8E4M3FNUZ",
    "dense<\"0x\">",
    "dense_resource<x>",
    "{-#\n",
    "#-}",
    "@",
    "::",
    "loc(\"x\":1:2)",
    "func.func @g() {\n",
    "return\n",
    "\"test.op\"() ({\n",
    "}) : () -> ()\n",
    ": ",
    "-> ",
    "0x7FFFFFFFFFFFFFFF",
    "-9223372036854775808",
    "1e400",
    "\\",
    "\t",
    "\r\n"};

std::string mutate(Random &random, std::string text, std::string &how) {
  const int64_t size = static_cast<int64_t>(text.size());
  auto at = [&] { return static_cast<size_t>(random.range(0, size)); };
  switch (random.range(0, 7)) {
  case 0: {
    const size_t cut = at();
    how = "truncated at byte " + std::to_string(cut);
    text.resize(cut);
    break;
  }
  case 1: {
    const size_t from = at();
    const size_t length = static_cast<size_t>(random.range(1, 200));
    how = "deleted " + std::to_string(length) + " bytes at " +
          std::to_string(from);
    text.erase(from, length);
    break;
  }
  case 2: {
    const size_t from = at();
    const std::string range =
        text.substr(from, static_cast<size_t>(random.range(1, 400)));
    const size_t to = at();
    how = "repeated " + std::to_string(range.size()) + " bytes at " +
          std::to_string(to);
    text.insert(to, range);
    break;
  }
  case 3: {
    const int flips = static_cast<int>(random.range(1, 8));
    how = "flipped " + std::to_string(flips) + " bytes";
    for (int i = 0; i < flips && !text.empty(); ++i)
      text[static_cast<size_t>(random.range(0, size - 1))] =
          static_cast<char>(random.range(1, 255));
    break;
  }
  case 4:
  case 5: {
    const int count = static_cast<int>(random.range(1, 4));
    how = "inserted";
    for (int i = 0; i < count; ++i) {
      const std::string &token = random.pick(kTokens);
      const size_t where = std::min(at(), text.size());
      how += " '" + token.substr(0, 20) + "' at " + std::to_string(where);
      text.insert(where, token);
    }
    break;
  }
  case 6: {
    const int depth = static_cast<int>(random.range(200, 3000));
    const char *open[] = {"[", "{", "(", "<"};
    const char *close[] = {"]", "}", ")", ">"};
    const int kind = static_cast<int>(random.range(0, 3));
    std::string nest;
    for (int i = 0; i < depth; ++i)
      nest += open[kind];
    for (int i = 0; i < depth; ++i)
      nest += close[kind];
    const size_t where = at();
    how = "inserted " + std::to_string(depth) + " nested " + open[kind] +
          " at " + std::to_string(where);
    text.insert(where, nest);
    break;
  }
  default: {
    // Swap two lines.
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        lines.push_back(text.substr(start, i - start));
        start = i + 1;
      }
    const auto a = static_cast<size_t>(
        random.range(0, static_cast<int64_t>(lines.size()) - 1));
    const auto b = static_cast<size_t>(
        random.range(0, static_cast<int64_t>(lines.size()) - 1));
    std::swap(lines[a], lines[b]);
    how = "swapped lines " + std::to_string(a + 1) + " and " +
          std::to_string(b + 1);
    text.clear();
    for (size_t i = 0; i < lines.size(); ++i)
      text += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    break;
  }
  }
  return text;
}

// What the two parsers found, in one comparable string.
std::string summary(const document::Document &document) {
  std::string out = std::to_string(document.partCount) + " parts\n";
  for (const document::Dispatch &d : document.dispatches) {
    out +=
        d.name + "@" + std::to_string(d.line) + " " + d.translationInfo + "\n";
    for (const document::RootOp &op : d.rootOps)
      out += "  " + op.name + "@" + std::to_string(op.line) + " " +
             op.loweringConfig + " " + op.compilationInfo + " " +
             op.indexingMaps + "\n";
  }
  return out;
}

// What iree-opt says about the same file.
process::ProcessResult runIreeOpt(const fs::path &ireeOpt, const fs::path &file,
                                  bool split) {
  process::ProcessSpec spec;
  spec.program = ireeOpt;
  if (split)
    spec.arguments.push_back("--split-input-file");
  spec.arguments.push_back(file.string());
  spec.arguments.push_back("-o");
  spec.arguments.push_back("/dev/null");
  spec.timeout = std::chrono::seconds(60);
  return process::runProcess(spec);
}

std::string asJsonCarriesIt(const std::string &text) {
  return nlohmann::json::parse(exporting::jsonText(nlohmann::json(text)))
      .get<std::string>();
}

std::string firstDifference(const std::string &a, const std::string &b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i])
    ++i;
  const size_t from = i > 200 ? i - 200 : 0;
  return "  Tilescope: ..." + a.substr(from, 400) + "\n  iree-opt:  ..." +
         b.substr(from, 400);
}

} // namespace

int main(int argc, char **argv) {
  std::string saveCrashers;
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--save-crashers" && i + 1 < argc)
      saveCrashers = argv[++i];
    else
      rest.push_back(argv[i]);
  }
  const Options options =
      parseOptions(static_cast<int>(rest.size()), rest.data());
  const int cases = options.cases > 0 ? options.cases
                    : options.longRun ? 3000
                                      : 120;
  const tools::IreeInstallation installation = projectIree();
  service::DocumentWorker worker(fs::path(TILESCOPE_BINARY_DIR) / "app" /
                                     "tilescope-iree-worker",
                                 installation.compilerLibrary);
  worker.timeout = std::chrono::seconds(60);
  iree::DocumentParser inProcess(projectLibrary());
  auto ireeOpt = installation.tool("iree-opt");
  if (!ireeOpt) {
    std::cerr << ireeOpt.error() << "\n";
    return 1;
  }
  auto scratch = TemporaryDirectory::create("tilescope-property-documents");
  if (!scratch) {
    std::cerr << scratch.error() << "\n";
    return 1;
  }

  std::vector<fs::path> seeds;
  for (const char *folder : {"examples/rocm_gfx942", "examples/cuda_sm_90",
                             "examples/llvm_cpu", "tests/fuzz/document-corpus"})
    for (const auto &entry :
         fs::directory_iterator(fs::path(TILESCOPE_SOURCE_DIR) / folder))
      if (entry.path().extension() == ".mlir")
        seeds.push_back(entry.path());
  std::sort(seeds.begin(), seeds.end());

  Tally tally;
  Random random(options.seed);
  int crashers = 0;
  // The worker against iree-opt on the same file. Text Tilescope refuses
  // before IREE sees it (nesting past its limit, a NUL byte, a swizzle that
  // crashes IREE) is only checked for a clean message.
  auto compareWithIreeOpt = [&](const std::string &family, const fs::path &file,
                                const std::string &text,
                                const Result<document::Document> &document,
                                const std::string &how) -> bool {
    if (iree::refuseBeforeParsing(text, file.string(),
                                  iree::splitsInput(text, {}))) {
      tally.skipped(family, "refused by Tilescope before IREE (no iree-opt)");
      return true;
    }
    const process::ProcessResult opt =
        runIreeOpt(*ireeOpt, file, iree::splitsInput(text, {}));
    const bool optCrashed =
        opt.outcome != process::ProcessResult::Outcome::Exited;
    const bool workerCrashed =
        !document &&
        (document.error().find("IREE's parser crashed") != std::string::npos ||
         document.error().find("did not finish") != std::string::npos);
    if (optCrashed || workerCrashed) {
      if (optCrashed != workerCrashed) {
        tally.disagreed(
            family,
            file.filename().string() + " (" + how + "): iree-opt " +
                opt.describe() + ", Tilescope's worker " +
                (document ? "parsed it" : document.error().substr(0, 300)));
        return false;
      }
      ++crashers;
      tally.skipped(family, "crash or hang IREE (reported cleanly)");
      if (!saveCrashers.empty())
        (void)writeFileAtomically(fs::path(saveCrashers) / file.filename(),
                                  text);
      return false;
    }
    if (document.ok() != (opt.exitCode == 0)) {
      tally.disagreed(
          family,
          file.filename().string() + " (" + how + "): iree-opt " +
              opt.describe() + ", Tilescope " +
              (document ? "opened it"
                        : "refused it: " + document.error().substr(0, 300)));
      return false;
    }
    if (!document) {
      std::string printed;
      for (const document::Diagnostic &diagnostic : worker.lastDiagnostics())
        printed += document::formatLikeIreeOpt(diagnostic, text);
      // The worker's answer travels as JSON, where invalid UTF-8 in a
      // message becomes U+FFFD (docs/parse-safety.md): both texts are
      // compared after the same replacement.
      printed = asJsonCarriesIt(printed);
      const std::string expected = asJsonCarriesIt(opt.standardError);
      if (printed != expected) {
        if (!saveCrashers.empty()) {
          const fs::path kept = fs::path(saveCrashers) / file.filename();
          (void)writeFileAtomically(kept, text);
          (void)writeFileAtomically(kept.string() + ".tilescope", printed);
          (void)writeFileAtomically(kept.string() + ".iree-opt",
                                    opt.standardError);
        }
        tally.disagreed(family, file.filename().string() + " (" + how +
                                    "): the diagnostics differ from "
                                    "iree-opt's\n" +
                                    firstDifference(printed, expected));
        return false;
      }
    }
    return true;
  };

  auto check = [&](const std::string &family, const std::string &text,
                   const std::string &name, const std::string &how) {
    tally.generated(family);
    const fs::path file = scratch->file(name + ".mlir");
    if (auto written = writeFileAtomically(file, text); !written) {
      std::cerr << written.error() << "\n";
      std::exit(1);
    }
    auto document = worker.parseFile(file);
    if (!document) {
      const std::string &error = document.error();
      if (error.rfind(file.string(), 0) != 0) {
        tally.disagreed(family, name + " (" + how +
                                    "): the message does not name the "
                                    "file first:\n  " +
                                    error.substr(0, 400));
        return;
      }
      if (error.find("Tilescope's parser process answered") !=
              std::string::npos ||
          error.find("without an answer") != std::string::npos) {
        tally.disagreed(family, name + " (" + how +
                                    "): the parser process's answer "
                                    "broke:\n  " +
                                    error.substr(0, 400));
        return;
      }
    }
    if (!compareWithIreeOpt(family, file, text, document, how))
      return;
    if (document) {
      // IREE parsed it in the worker, so it parses here too: same answer.
      auto expected = inProcess.parseText(text, file.string());
      if (!expected || summary(*expected) != summary(*document)) {
        tally.disagreed(family, name + " (" + how +
                                    "): the worker's document differs from "
                                    "the in-process parser's");
        return;
      }
    }
    tally.agreed(family);
    std::error_code ignored;
    fs::remove(file, ignored);
  };

  for (int i = 0; i < cases; ++i) {
    const fs::path &seed = random.pick(seeds);
    auto text = readTextFile(seed);
    if (!text) {
      std::cerr << text.error() << "\n";
      return 1;
    }
    std::string how;
    std::string mutant = mutate(random, *text, how);
    if (random.chance(0.3)) {
      std::string more;
      mutant = mutate(random, mutant, more);
      how += "; " + more;
    }
    const std::string family = how.substr(0, how.find(' '));
    check(family, mutant,
          "mutant-" + std::to_string(i) + "-" + seed.stem().string(),
          seed.filename().string() + ": " + how);
  }
  tally.print(std::cout, options.seed);
  std::cout << crashers
            << " mutants crashed or hung IREE's parser; every one was "
               "reported as a message\n";
  return tally.disagreements() == 0 ? 0 : 1;
}
