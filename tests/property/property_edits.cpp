// Property test: random edit sessions on real IREE files, every step judged
// by the real IREE.
//
// Each case opens an example (benchmark dumps with inline configs, a lit-
// style split file with shared and single-use aliases, a source with a
// compilation_info) and runs a random sequence of field edits (well-formed
// and not), removals, undos and redos. After every step:
//   - an accepted edit: IREE reads the edited text back as the model says
//     (every dispatch, root op, line and config text), only the spliced
//     characters changed, and Tilescope's own print of the new attribute is
//     byte for byte IREE's;
//   - a refused edit: the text and the edit list are unchanged, and when
//     IREE refused, the file with Tilescope's attribute spliced in anyway is
//     refused by IREE too (the refusal is IREE's, not an artefact of how the
//     attribute was asked about);
// and at the end, undo of everything gives the original bytes, redo of
// everything the edited ones.
//
//   property_edits [--seed N] [--cases N] [--long] [--verbose]
#include "PropertySupport.h"

#include "core/edit/EditableDocument.h"
#include "core/edit/RootOpContext.h"
#include "core/iree/DocumentParser.h"

#include <filesystem>

using namespace tilescope;
using namespace tilescope::property;

namespace {

std::vector<std::filesystem::path> corpus() {
  const std::filesystem::path source = TILESCOPE_SOURCE_DIR;
  std::vector<std::filesystem::path> files = {
      source / "tests/core/edit/data/aliases.mlir",
      source / "examples/sources/matmul_f16_vector_distribute.mlir"};
  for (const char *folder : {"rocm_gfx942", "cuda_sm_90"})
    for (const auto &entry :
         std::filesystem::directory_iterator(source / "examples" / folder))
      if (entry.path().string().ends_with(".benchmark.mlir"))
        files.push_back(entry.path());
  std::sort(files.begin() + 2, files.end());
  return files;
}

const std::vector<std::string> kMmaKinds = {
    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
    "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>",
    "#iree_gpu.mma_layout<WMMAR3_F32_16x16x16_F16>",
    "#iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>",
    "#iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16>",
    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16, col_major = true>",
    "#iree_gpu.mma_layout<MFMA_NOT_AN_INTRINSIC>",         // IREE refuses
    "#iree_gpu.mma_layout<>",                              // IREE refuses
    "#iree_gpu.virtual_mma_layout<MFMA_F32_16x16x16_F16>", // IREE refuses
};

std::string ints(Random &random, size_t rank, int64_t low, int64_t high) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < rank; ++i)
    values.push_back(random.chance(0.3) ? 0 : random.range(low, high));
  return list(values);
}

// A field and a value for it: mostly well formed for the op's rank, some
// of the wrong shape, some text IREE refuses.
std::pair<std::string, std::optional<std::string>> randomChange(Random &random,
                                                                size_t rank) {
  const int pick = static_cast<int>(random.range(0, 15));
  const size_t r = random.chance(0.85) ? rank : rank + 1;
  switch (pick) {
  case 0:
  case 1:
    return {"workgroup", ints(random, r, 1, 256)};
  case 2:
    return {"reduction", ints(random, r, 1, 64)};
  case 3:
    return {"thread", ints(random, r, 1, 8)};
  case 4:
    return {"subgroup", ints(random, r, 1, 4)};
  case 5:
    return {"partial_reduction", ints(random, r, 1, 512)};
  case 6: {
    std::vector<int64_t> counts = random.split(random.powerOfTwo(1, 64), r);
    return {random.chance(0.5) ? "lane_basis" : "subgroup_basis",
            "[" + list(counts) + ", " + list(random.permutation(r)) + "]"};
  }
  case 7:
    return {"mma_kind", random.pick(kMmaKinds)};
  case 8:
    return {"promote_operands",
            random.chance(0.5) ? "[0, 1]" : list({random.range(0, 2)})};
  case 9:
    return {"workgroup_size",
            list({random.powerOfTwo(32, 1024), random.range(1, 2), 1})};
  case 10:
    return {"subgroup_size", std::to_string(random.chance(0.5) ? 64 : 32)};
  case 11:
    return {"pipeline", random.pick(std::vector<std::string>{
                            "TileAndFuse", "VectorDistribute",
                            "#iree_gpu.pipeline<WarpReduction>",
                            "#iree_gpu.pipeline<NoSuchPipeline>"})};
  case 12:
    return {"prefetch_num_stages", std::to_string(random.range(0, 3))};
  case 13:
    return {"tilescope_note", "\"edited by a property test\""};
  case 14:
    // Unset a field (refused when the op has none).
    return {random.pick(std::vector<std::string>{"thread", "reduction",
                                                 "promote_operands",
                                                 "prefetch_num_stages"}),
            std::nullopt};
  default:
    // Text no reader takes.
    return {random.pick(std::vector<std::string>{"workgroup", "mma_kind",
                                                 "workgroup_size"}),
            random.pick(std::vector<std::string>{"[1, 2", "#iree_gpu.", "]",
                                                 "{a = }"})};
  }
}

struct Runner {
  std::shared_ptr<iree::CompilerLibrary> library;
  std::shared_ptr<iree::AttributeParser> attributes;
  Tally tally;
  bool verbose = false;

  Result<document::Document> parse(const std::string &text, const std::string &name,
                               bool split) {
    iree::DocumentParser parser(library);
    iree::ParseOptions options;
    options.splitInputFile = split;
    return parser.parseText(text, name, options);
  }

  void runCase(Random &random, const std::filesystem::path &file, int index) {
    const std::string label =
        "case " + std::to_string(index) + " " + file.filename().string();
    auto opened = iree::DocumentParser(library).parseFile(file);
    if (!opened) {
      tally.disagreed("open", label + ": " + opened.error());
      return;
    }
    const bool split = opened->partCount > 1;
    auto parser = attributes;
    edit::EditableDocument document(
        *opened, [parser](const std::string &t) { return parser->print(t); });
    const std::string original = document.text();
    std::string log;

    const int steps = static_cast<int>(random.range(1, 6));
    for (int step = 0; step < steps; ++step) {
      // An op with a config to edit.
      edit::OpRef ref;
      ref.dispatch = static_cast<size_t>(random.range(
          0, static_cast<int64_t>(document.document().dispatches.size()) - 1));
      const auto &ops = document.document().dispatches[ref.dispatch].rootOps;
      ref.op = static_cast<size_t>(
          random.range(0, static_cast<int64_t>(ops.size()) - 1));
      const size_t rank =
          ops[ref.op].space ? ops[ref.op].space->rank() : size_t(2);

      if (random.chance(0.15)) {
        const bool undo = random.chance(0.5);
        log += undo ? "  undo\n" : "  redo\n";
        if (undo)
          document.undo();
        else
          document.redo();
        check(document, split, label, log, "undo/redo");
        continue;
      }
      const auto [field, value] = randomChange(random, rank);
      log += "  op " + std::to_string(ref.dispatch) + ":" +
             std::to_string(ref.op) + " " + field + " = " +
             value.value_or("(unset)") + "\n";
      const std::string before = document.text();
      const size_t editsBefore = document.edits().size();
      // The same edit with Tilescope's print only, no IREE asked.
      auto ours = edit::EditableDocument(document.document())
                      .prepare(ref, field, value);
      tally.generated("edits");
      auto applied = document.set(ref, field, value);
      if (!applied) {
        if (document.text() != before ||
            document.edits().size() != editsBefore) {
          tally.disagreed("edits", label +
                                       ": a refused edit changed the "
                                       "document\n" +
                                       log);
          return;
        }
        if (applied.error().find("IREE refuses") != std::string::npos)
          confirmRefusal(document, ours, split, label, log);
        else
          tally.skipped("edits", "refused before IREE");
        continue;
      }
      // Only the splice changed.
      const size_t at = applied->splice.offset;
      if (document.text().compare(0, at, before, 0, at) != 0 ||
          document.text().substr(at + applied->splice.inserted.size()) !=
              before.substr(at + applied->splice.removed.size())) {
        tally.disagreed("edits", label +
                                     ": text outside the attribute "
                                     "changed\n" +
                                     log);
        return;
      }
      // Tilescope's print is IREE's.
      tally.generated("printing");
      if (!ours || ours->newAttribute != applied->newAttribute) {
        tally.disagreed("printing",
                        label + ": Tilescope prints\n  " +
                            (ours ? ours->newAttribute : ours.error()) +
                            "\nIREE prints\n  " + applied->newAttribute + "\n" +
                            log);
      } else {
        tally.agreed("printing");
      }
      if (check(document, split, label, log, "edits"))
        tally.agreed("edits");
    }

    // Undo everything, redo everything.
    tally.generated("undo all");
    const std::string edited = document.text();
    const size_t count = document.edits().size();
    while (document.undo()) {
    }
    if (document.text() != original) {
      tally.disagreed("undo all", label +
                                      ": undo of all edits is not the "
                                      "original text\n" +
                                      log);
      return;
    }
    // Redo replays the undone edits oldest first: `count` of them is where
    // the session ended.
    for (size_t i = 0; i < count; ++i)
      document.redo();
    if (document.text() != edited) {
      tally.disagreed("undo all", label +
                                      ": redo of all edits is not the "
                                      "edited text\n" +
                                      log);
      return;
    }
    if (!check(document, split, label, log, "undo all"))
      return;
    tally.agreed("undo all");
    if (verbose)
      std::cout << label << "\n" << log;
  }

  // IREE reads the text back as the model says.
  bool check(const edit::EditableDocument &document, bool split,
             const std::string &label, const std::string &log,
             const std::string &family) {
    auto reparsed =
        parse(document.text(), document.document().path.string(), split);
    if (!reparsed) {
      tally.disagreed(family, label +
                                  ": IREE does not parse the edited "
                                  "text:\n" +
                                  reparsed.error() + "\n" + log);
      return false;
    }
    auto agrees = document.agreesWith(*reparsed);
    if (!agrees) {
      tally.disagreed(family, label + ": " + agrees.error() + "\n" + log);
      return false;
    }
    return true;
  }

  // IREE refused the attribute alone: the whole file with Tilescope's
  // print of it spliced in is refused by IREE too.
  void confirmRefusal(const edit::EditableDocument &document,
                      const Result<edit::Edit> &prepared, bool split,
                      const std::string &label, const std::string &log) {
    if (!prepared) {
      tally.disagreed("refusals", label + ": " + prepared.error() + "\n" + log);
      return;
    }
    std::string text = document.text();
    text.replace(prepared->splice.offset, prepared->splice.removed.size(),
                 prepared->splice.inserted);
    tally.generated("refusals");
    auto parsed = parse(text, "spliced", split);
    if (parsed)
      tally.disagreed("refusals",
                      label +
                          ": IREE refused the attribute alone but takes "
                          "the file with it\n" +
                          log);
    else
      tally.agreed("refusals");
  }
};

} // namespace

int main(int argc, char **argv) {
  const Options options = parseOptions(argc, argv);
  const int cases = options.cases > 0 ? options.cases
                    : options.longRun ? 2000
                                      : 150;
  Random random(options.seed);
  const auto library = projectLibrary();
  Runner runner;
  runner.library = library;
  runner.attributes = std::make_shared<iree::AttributeParser>(library);
  runner.verbose = options.verbose;
  const std::vector<std::filesystem::path> files = corpus();
  for (int i = 0; i < cases; ++i)
    runner.runCase(random, random.pick(files), i);
  runner.tally.print(std::cout, options.seed);
  return runner.tally.disagreements() == 0 ? 0 : 1;
}
