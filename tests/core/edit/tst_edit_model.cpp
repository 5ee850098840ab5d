// The edit model against the real IREE: root ops read from IREE's IR, field
// edits written back through IREE into exactly the attribute's characters,
// undo and redo back to the byte, refusals that change nothing, and a diff
// GNU patch applies. Where each kind of field lives: tst_edit_fields.
#include "EditFixture.h"

#include "core/edit/ConfigDiff.h"
#include "core/edit/EditJournal.h"
#include "core/edit/EditableDocument.h"
#include "core/edit/FieldEdit.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/edit/RootOpContext.h"
#include "core/iree/DocumentParser.h"
#include "core/util/UnifiedDiff.h"

#include <QProcess>
#include <QTemporaryDir>

using namespace tilescope;

namespace {

std::filesystem::path aliasesFile() {
  return test::sourceDir() / "tests/core/edit/data/aliases.mlir";
}

std::vector<std::filesystem::path> allExamples() {
  std::vector<std::filesystem::path> files;
  for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"})
    for (const auto &path : test::exampleBenchmarks(folder))
      files.push_back(path);
  return files;
}

// Applies `diff` to `before` with GNU patch; the patched text.
std::string patched(const std::string &before, const std::string &diff) {
  QTemporaryDir dir;
  const std::filesystem::path file = dir.filePath("file.mlir").toStdString();
  test::writeFile(file, before);
  QProcess patch;
  patch.start("patch",
              {"--quiet", "--force", QString::fromStdString(file.string())});
  patch.waitForStarted();
  patch.write(QByteArray::fromStdString(diff));
  patch.closeWriteChannel();
  patch.waitForFinished();
  if (patch.exitCode() != 0)
    return "patch failed: " + patch.readAllStandardError().toStdString() +
           patch.readAllStandardOutput().toStdString();
  return test::readFile(file);
}

} // namespace

class EditModelTest : public QObject {
  Q_OBJECT

  test::EditFixture fixture;

private slots:
  void initTestCase() { fixture.load(); }

  // Kind, loops and operands come from IREE's IR (indexing maps through the
  // C API, IREE's contraction inference), and agree with the text reader.
  void rootOpsOfEveryExample_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("op");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("space");
    QTest::addColumn<QString>("types");
    const std::vector<
        std::tuple<const char *, int, const char *, const char *, const char *>>
        rows = {
            {"rocm_gfx942/matmul_f16_1024", 0, "contraction",
             "1024x1024x1024:ppr", "f16 f16 f32"},
            {"rocm_gfx942/matmul_f16_vector_distribute", 0, "contraction",
             "256x256x64:ppr", "f16 f16 f32"},
            {"rocm_gfx942/matmul_f32_small", 0, "contraction",
             "128x128x128:ppr", "f32 f32 f32"},
            {"rocm_gfx942/reduce_middle", 0, "reduction", "8x64x512:ppr",
             "f32 f32"},
            {"rocm_gfx942/reduction_4x6656x16384", 0, "reduction",
             "26624x16384:pr", "f16 f32"},
            {"rocm_gfx942/softmax_f32", 0, "reduction", "32x4096:pr",
             "f32 f32"},
            {"rocm_gfx942/softmax_f32", 1, "reduction", "32x4096:pr",
             "f32 f32 f32"},
            {"rocm_gfx942/softmax_f32", 2, "elementwise", "32x4096:pp",
             "f32 f32 f32 f32"},
            {"cuda_sm_90/matmul_f16_1024", 0, "contraction",
             "1024x1024x1024:ppr", "f16 f16 f32"},
            {"cuda_sm_90/matmul_f32_small", 0, "contraction", "128x128x128:ppr",
             "f32 f32 f32"},
            {"cuda_sm_90/reduction_4x6656x16384", 0, "reduction",
             "26624x16384:pr", "f16 f32"},
            {"cuda_sm_90/softmax_f32", 2, "elementwise", "32x4096:pp",
             "f32 f32 f32 f32"},
            {"llvm_cpu/matmul_f32_small", 0, "elementwise", "128x128:pp",
             "f32 f32"}, // linalg.fill, configured on the CPU
            {"llvm_cpu/matmul_f32_small", 1, "contraction", "128x128x128:ppr",
             "f32 f32 f32"},
            {"llvm_cpu/softmax_f32", 1, "reduction", "32x4096:pr", "f32 f32"},
        };
    for (const auto &[file, op, kind, space, types] : rows)
      QTest::newRow((std::string(file) + ":" + std::to_string(op)).c_str())
          << QString(file) << op << QString(kind) << QString(space)
          << QString(types);
  }

  void rootOpsOfEveryExample() {
    QFETCH(QString, file);
    QFETCH(int, op);
    QFETCH(QString, kind);
    QFETCH(QString, space);
    QFETCH(QString, types);
    const document::Document document =
        fixture.open(test::examplesDir() /
                     (file.toStdString() + "_dispatch_0.benchmark.mlir"));
    QCOMPARE(document.dispatches.size(), size_t(1));
    const document::Dispatch &dispatch = document.dispatches.front();
    QVERIFY(static_cast<size_t>(op) < dispatch.rootOps.size());
    const document::RootOp &root = dispatch.rootOps[static_cast<size_t>(op)];
    QCOMPARE(QString(config::toString(root.kind)), kind);
    QVERIFY(root.space.has_value());
    QCOMPARE(QString::fromStdString(root.space->toString()), space);
    QStringList elementTypes;
    for (const config::OperandAccess &operand : root.space->operands)
      elementTypes << QString::fromStdString(operand.elementType);
    QCOMPARE(elementTypes.join(' '), types);
    QVERIFY(root.space->operands.back().isOutput);
    if (kind == "contraction") {
      QVERIFY(root.contraction.has_value());
      // IREE's inference and Tilescope's own agree.
      auto ours = config::inferContraction(*root.space);
      QVERIFY(ours.has_value());
      QCOMPARE(ours->m, root.contraction->m);
      QCOMPARE(ours->n, root.contraction->n);
      QCOMPARE(ours->k, root.contraction->k);
      QCOMPARE(ours->batch, root.contraction->batch);
    }
    // The text reader (indexing_maps as printed) gives the same loops where
    // it can read them: a named op prints no iterator_types, which only
    // IREE's IR has (through its LinalgOp interface).
    auto fromText = config::IterationSpace::fromLinalgOp(
        root.indexingMaps, root.iteratorTypes, root.operandTypes, root.name);
    if (!root.iteratorTypes.empty()) {
      QVERIFY2(fromText.ok(), fromText.ok() ? "" : fromText.error().c_str());
      QCOMPARE(QString::fromStdString(fromText->toString()), space);
    } else {
      QVERIFY(!fromText.ok());
    }
    // Fills are the other compute ops of GPU dispatches.
    if (file.startsWith("rocm") || file.startsWith("cuda"))
      QVERIFY(std::any_of(dispatch.fusedOps.begin(), dispatch.fusedOps.end(),
                          [](const document::FusedOp &f) {
                            return f.name == "linalg.fill" && f.line > 0;
                          }));
  }

  // On every GPU example: a lowering-config field and a translation_info
  // field, each written back through IREE into only the attribute's
  // characters; IREE reads the saved file as edited; undo all gives the
  // original bytes and redo the edited ones.
  void editsWriteBackAndUndo_data() {
    QTest::addColumn<QString>("path");
    for (const auto &path : allExamples())
      if (path.string().find("llvm_cpu") == std::string::npos)
        QTest::newRow(path.filename().c_str())
            << QString::fromStdString(path.string());
  }

  void editsWriteBackAndUndo() {
    QFETCH(QString, path);
    edit::EditableDocument document = fixture.editable(path.toStdString());
    const std::string original = document.text();
    // The first root op with workgroup tiles (softmax's reductions have
    // none; its last op does).
    edit::OpRef ref{0, 0};
    std::optional<std::vector<int64_t>> workgroup;
    for (; ref.op < document.document().dispatches[0].rootOps.size();
         ++ref.op) {
      auto context = edit::contextOf(document.document(), ref);
      QVERIFY(context.loweringConfig.has_value());
      workgroup =
          context.loweringConfig->tileSizes(config::TilingLevel::Workgroup);
      if (workgroup)
        break;
    }
    QVERIFY(workgroup.has_value());
    std::vector<int64_t> doubled = *workgroup;
    for (int64_t &size : doubled)
      size *= 2;
    std::string value = "[";
    for (size_t i = 0; i < doubled.size(); ++i)
      value += (i ? ", " : "") + std::to_string(doubled[i]);
    value += "]";

    auto first = document.set(ref, "workgroup", value);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().c_str());
    QVERIFY(first->readByIree);
    QCOMPARE(QString::fromStdString(first->newValue),
             QString::fromStdString(value));
    // Only the attribute's characters changed.
    const std::string &text = document.text();
    const size_t at = first->splice.offset;
    QCOMPARE(text.substr(0, at), original.substr(0, at));
    QCOMPARE(text.substr(at + first->splice.inserted.size()),
             original.substr(at + first->splice.removed.size()));
    fixture.verifyWithIree(document);

    auto second = document.set(ref, "workgroup_size", "[128, 2, 1]");
    QVERIFY2(second.ok(), second.ok() ? "" : second.error().c_str());
    QVERIFY(document.document().dispatches[0].translationInfo.find(
                "workgroup_size = [128, 2, 1]") != std::string::npos);
    fixture.verifyWithIree(document);

    // Saved, the file parses to the model.
    QTemporaryDir dir;
    const std::filesystem::path saved =
        dir.filePath("saved.mlir").toStdString();
    // A save killed between writing and renaming leaves a partial copy
    // named for its process; the next save of the file removes it once that
    // process is gone, and leaves a living writer's alone.
    QProcess gone;
    gone.start("/bin/sleep", {"0.1"});
    QVERIFY(gone.waitForStarted(10000));
    const long long gonePid = gone.processId();
    QVERIFY(gone.waitForFinished(10000));
    const auto partial = [&](long long pid) {
      return std::filesystem::path(dir.path().toStdString()) /
             (".saved.mlir.tilescope-" + std::to_string(pid) + "-Ab12Cd");
    };
    test::writeFile(partial(gonePid), "half a file");
    test::writeFile(partial(QCoreApplication::applicationPid()), "writing");
    QVERIFY(document.save(saved).ok());
    QVERIFY(!std::filesystem::exists(partial(gonePid)));
    QVERIFY(
        std::filesystem::exists(partial(QCoreApplication::applicationPid())));
    QCOMPARE(test::readFile(saved), document.text());
    const document::Document reopened = fixture.open(saved);
    QVERIFY(document.agreesWith(reopened).ok());
    QCOMPARE(reopened.dispatches[0].rootOps[ref.op].loweringConfig,
             document.document().dispatches[0].rootOps[ref.op].loweringConfig);

    // The diff takes the original to the edited text.
    QCOMPARE(patched(original, document.diff()), document.text());

    const std::string edited = document.text();
    QVERIFY(document.undo());
    QVERIFY(document.undo());
    QVERIFY(!document.canUndo());
    QCOMPARE(document.text(), original);
    QVERIFY(!document.modified());
    QVERIFY(document.diff().empty());
    const document::Document fresh = fixture.open(path.toStdString());
    QVERIFY(document.agreesWith(fresh).ok());
    QVERIFY(document.redo());
    QVERIFY(document.redo());
    QCOMPARE(document.text(), edited);
    fixture.verifyWithIree(document);
  }

  // What IREE refuses is refused with IREE's words, against the field, and
  // nothing changes; so is what Tilescope cannot read as a value.
  void refusedEditChangesNothing() {
    edit::EditableDocument document = fixture.editable(
        test::examplesDir() /
        "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    const std::string original = document.text();
    const std::string config =
        document.document().dispatches[0].rootOps[0].loweringConfig;
    auto refused = document.set({0, 0}, "mma_kind",
                                "#iree_gpu.mma_layout<MFMA_NOT_AN_INTRINSIC>");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().rfind("mma_kind: IREE refuses", 0) == 0,
             refused.error().c_str());
    QVERIFY2(refused.error().find("MMAIntrinsic") != std::string::npos,
             refused.error().c_str());
    auto unreadable = document.set({0, 0}, "workgroup", "[64, 64");
    QVERIFY(!unreadable.ok());
    QVERIFY2(unreadable.error().rfind("workgroup: ", 0) == 0,
             unreadable.error().c_str());
    auto badSize = document.set({0, 0}, "subgroup_size", "[64]");
    QVERIFY(!badSize.ok());
    QVERIFY2(badSize.error().find("translation_info.subgroup_size takes an "
                                  "integer") != std::string::npos,
             badSize.error().c_str());
    auto noOp = document.set({0, 7}, "workgroup", "[1, 1, 0]");
    QVERIFY(!noOp.ok());
    QVERIFY2(noOp.error().find("has no root op 7") != std::string::npos,
             noOp.error().c_str());
    auto same = document.set({0, 0}, "reduction", "[0, 0, 8]");
    QVERIFY(!same.ok());
    QVERIFY2(same.error().find("already") != std::string::npos,
             same.error().c_str());
    QCOMPARE(document.text(), original);
    QVERIFY(!document.canUndo());
    QCOMPARE(document.document().dispatches[0].rootOps[0].loweringConfig,
             config);
  }

  // Aliases as lit tests write them: a shared alias is left to the other
  // ops (the edited op gets its own inline attribute); an alias used once
  // is edited where it is defined; parts after an edit stay addressable.
  void aliasesSharedAndSole() {
    edit::EditableDocument document = fixture.editable(aliasesFile());
    const std::string original = document.text();
    QCOMPARE(document.document().partCount, 2);
    QCOMPARE(document.document().dispatches.size(), size_t(3));

    // #config is shared by @shared_a and @shared_b.
    auto shared = document.set({0, 0}, "workgroup", "[128, 64, 0]");
    QVERIFY2(shared.ok(), shared.ok() ? "" : shared.error().c_str());
    QVERIFY(document.text().find(
                "#config = #iree_gpu.lowering_config<{reduction = [0, 0, 4], "
                "thread = [1, 1, 0], workgroup = [64, 64, 0]}>") !=
            std::string::npos);
    QVERIFY(document.text().find(
                "linalg.matmul {lowering_config = "
                "#iree_gpu.lowering_config<{reduction = [0, 0, 4], thread = "
                "[1, 1, 0], workgroup = [128, 64, 0]}>}") != std::string::npos);
    QVERIFY(document.document().dispatches[1].rootOps[0].loweringConfig.find(
                "workgroup = [64, 64, 0]") != std::string::npos);
    fixture.verifyWithIree(document);

    // #config_once is @shared_b's second op's alone.
    auto sole = document.set({1, 1}, "thread", "[2, 2, 0]");
    QVERIFY2(sole.ok(), sole.ok() ? "" : sole.error().c_str());
    QVERIFY(document.text().find(
                "#config_once = #iree_gpu.lowering_config<{reduction = [0, 0, "
                "8], thread = [2, 2, 0], workgroup = [32, 32, 0]}>") !=
            std::string::npos);
    QVERIFY(document.text().find("lowering_config = #config_once}") !=
            std::string::npos);
    fixture.verifyWithIree(document);

    // #translation is shared by both functions of part 1.
    auto translation = document.set({1, 0}, "prefetch_num_stages", "2");
    QVERIFY2(translation.ok(),
             translation.ok() ? "" : translation.error().c_str());
    QVERIFY(document.document().dispatches[0].translationInfo.find(
                "prefetch") == std::string::npos);
    fixture.verifyWithIree(document);

    // Part 2, whose offsets moved with the edits above.
    auto later = document.set({2, 0}, "partial_reduction", "[0, 512]");
    QVERIFY2(later.ok(), later.ok() ? "" : later.error().c_str());
    auto pipeline = document.set({2, 0}, "pipeline", "TileAndFuse");
    QVERIFY2(pipeline.ok(), pipeline.ok() ? "" : pipeline.error().c_str());
    fixture.verifyWithIree(document);

    // Field by field, the configs differ only where edited.
    iree::DocumentParser parser(fixture.library);
    iree::ParseOptions split;
    split.splitInputFile = true;
    auto before = parser.parseText(original, "before", split);
    QVERIFY(before.ok());
    const edit::DocumentDifference difference =
        edit::documentDifferences(*before, document.document());
    QStringList fields;
    for (const edit::OpDifference &op : difference.ops)
      for (const edit::FieldDifference &f : op.fields)
        fields << QString::fromStdString("@" + op.dispatch + " " + f.field +
                                         ": " + f.before + " -> " + f.after);
    QCOMPARE(
        fields,
        QStringList({"@shared_a workgroup: [64, 64, 0] -> [128, 64, 0]",
                     "@shared_b translation_info.gpu_pipeline_options:  -> "
                     "#iree_gpu.pipeline_options<prefetch_num_stages = 2>",
                     "@shared_b thread: [1, 4, 0] -> [2, 2, 0]",
                     "@reduce translation_info.pipeline: "
                     "#iree_gpu.pipeline<VectorDistribute> -> "
                     "#iree_gpu.pipeline<TileAndFuse>",
                     "@reduce partial_reduction: [0, 256] -> [0, 512]"}));

    QCOMPARE(patched(original, document.diff()), document.text());
    while (document.undo()) {
    }
    QCOMPARE(document.text(), original);
  }

  // A prepared edit previews the op's dispatch as it would be, and changes
  // nothing until applied.
  void previewBeforeApply() {
    edit::EditableDocument document =
        fixture.editable(test::exampleBenchmarks("rocm_gfx942").front());
    const std::string before = document.text();
    auto edit = document.prepare({0, 0}, "workgroup_size", "[512, 1, 1]");
    QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().c_str());
    const document::Dispatch preview = document.preview(*edit);
    QCOMPARE(document.text(), before);
    QVERIFY(preview.translationInfo.find("workgroup_size = [512, 1, 1]") !=
            std::string::npos);
    QCOMPARE(preview.rootOps.size(),
             document.document().dispatches[0].rootOps.size());
    QVERIFY(document.apply(*edit).ok());
    QCOMPARE(document.document().dispatches[0].translationInfo,
             preview.translationInfo);
  }

  // Each config text is parsed once (document::ConfigReading, attention's
  // decomposition_config included): the first
  // time anything asks, and never again, however many copies of the
  // document ask; an edit parses the one text it changed.
  void configsAreReadOncePerEdit() {
    edit::EditableDocument document =
        fixture.editable(test::exampleBenchmarks("rocm_gfx942").front());
    const auto consult = [](const document::Document &d) {
      for (size_t i = 0; i < d.dispatches.size(); ++i)
        for (size_t k = 0; k < d.dispatches[i].rootOps.size(); ++k) {
          const document::Dispatch &dispatch = d.dispatches[i];
          (void)edit::contextOf(d, {i, k});
          (void)edit::opLayoutInputs(dispatch, dispatch.rootOps[k]);
          (void)edit::opFields(dispatch, dispatch.rootOps[k]);
          (void)edit::decompositionOf(dispatch.rootOps[k]);
        }
    };
    const size_t before = document::configReadCount();
    const document::Document copy = document.document();
    consult(copy);
    const size_t read = document::configReadCount();
    QVERIFY(read > before);
    // An attention op's decomposition_config is read once too.
    bool attention = false;
    for (const document::Dispatch &dispatch : copy.dispatches)
      for (const document::RootOp &op : dispatch.rootOps)
        if (!op.decompositionConfig.empty()) {
          attention = true;
          QVERIFY(edit::decompositionOf(op).ok());
        }
    QVERIFY(attention);
    QCOMPARE(document::configReadCount(), read);
    consult(document.document());
    consult(copy);
    QCOMPARE(document::configReadCount(), read);
    auto edit = document.prepare({0, 0}, "workgroup_size", "[512, 1, 1]");
    QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().c_str());
    QVERIFY(document.apply(*edit).ok());
    consult(document.document());
    consult(document.document());
    QCOMPARE(document::configReadCount(), read + 1);
    const document::Dispatch &edited = document.document().dispatches[0];
    const auto reading = document::translationReadingOf(edited);
    QCOMPARE(reading->text(), edited.translationInfo);
    QCOMPARE(reading->model()->workgroupSize->front(), int64_t{512});
    // The copy taken before the edit still has its own reading.
    consult(copy);
    QCOMPARE(document::configReadCount(), read + 1);
    QVERIFY(document.undo());
    consult(document.document());
    QCOMPARE(document::configReadCount(), read + 2);
    QCOMPARE(document::translationReadingOf(document.document().dispatches[0])
                 ->text(),
             copy.dispatches[0].translationInfo);
    {
      // A new text is parsed the first time it is asked for, once.
      document::Document other = copy;
      for (document::Dispatch &dispatch : other.dispatches)
        for (document::RootOp &op : dispatch.rootOps)
          if (!op.decompositionConfig.empty())
            op.decompositionConfig += " ";
      document::readConfigs(other);
      const size_t at = document::configReadCount();
      for (int twice = 0; twice < 2; ++twice)
        for (const document::Dispatch &dispatch : other.dispatches)
          for (const document::RootOp &op : dispatch.rootOps)
            if (!op.decompositionConfig.empty())
              QVERIFY(edit::decompositionOf(op).ok());
      QCOMPARE(document::configReadCount(), at + 1);
    }
  }

  // The journal a crash leaves behind: written and read back, it replays
  // the undo list (a removal, a translation_info field, an undone edit
  // left out) into the same text; on a file that changed it refuses.
  void journalReplaysTheEdits() {
    const auto path = test::examplesDir() /
                      "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    edit::EditableDocument document = fixture.editable(path);
    QVERIFY(document.set({0, 0}, "reduction", "[0, 0, 16]").ok());
    QVERIFY(document.set({0, 0}, "workgroup_size", "[512, 1, 1]").ok());
    QVERIFY(document.set({0, 0}, "promote_operands", std::nullopt).ok());
    QVERIFY(document.set({0, 0}, "subgroup", "[4, 2, 0]").ok());
    QVERIFY(document.undo());
    const edit::EditJournal journal = edit::EditJournal::of(document, path);
    QCOMPARE(journal.entries.size(), size_t(3));
    QVERIFY(!journal.entries[2].value); // removed

    auto read = edit::EditJournal::fromJson(journal.toJson());
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
    QVERIFY(read->entries == journal.entries);
    QCOMPARE(read->path, path.string());
    QVERIFY(read->appliesTo(document.originalText()));

    edit::EditableDocument fresh = fixture.editable(path);
    auto replayed =
        edit::replay(*read, fresh.originalText(),
                     [&fresh](const edit::JournalEntry &entry) -> Result<bool> {
                       auto made =
                           fresh.set(entry.op, entry.field, entry.value);
                       if (!made)
                         return Error{made.error()};
                       return true;
                     });
    QVERIFY2(replayed.ok(), replayed.ok() ? "" : replayed.error().c_str());
    QCOMPARE(*replayed, size_t(3));
    QCOMPARE(fresh.text(), document.text());
    QCOMPARE(fresh.edits().size(), size_t(3));

    const std::string changed = document.originalText() + "\n";
    QVERIFY(!read->appliesTo(changed));
    auto refused = edit::replay(*read, changed, [](const edit::JournalEntry &) {
      return Result<bool>(true);
    });
    QVERIFY(!refused.ok());
    QVERIFY(refused.error().find("changed since") != std::string::npos);
    QVERIFY(!edit::EditJournal::fromJson("{\"edits\": []}").ok());
    QVERIFY(!edit::EditJournal::fromJson("not json").ok());
    // A format of the wrong type is another file, not a thrown type_error
    // (the window reads the journal when the document opens).
    QVERIFY(!edit::EditJournal::fromJson("{\"tilescope_edit_journal\": \"1\"}")
                 .ok());
    QCOMPARE(edit::textHash("a"), std::string("af63dc4c8601ec8c"));
  }

  // The diff is what `diff -u` prints, and patch applies it, at the edges
  // too: no newline at the end, changes at the first and last line.
  void unifiedDiffAgreesWithGnuDiff_data() {
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::newRow("middle") << "a\nb\nc\nd\ne\nf\ng\nh\n"
                            << "a\nb\nc\nD\ne\nf\ng\nh\n";
    QTest::newRow("first") << "a\nb\nc\n"
                           << "A\nb\nc\n";
    QTest::newRow("last, no newline") << "a\nb\nc"
                                      << "a\nb\nC";
    QTest::newRow("newline added") << "a\nb"
                                   << "a\nb\n";
    QTest::newRow("two hunks") << "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
                               << "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n";
    QTest::newRow("joined hunks") << "1\n2\n3\n4\n5\n6\n7\n8\n"
                                  << "1\nX\n3\n4\n5\n6\nY\n8\n";
    QTest::newRow("from empty") << ""
                                << "a\n";
    QTest::newRow("to empty") << "a\nb\n"
                              << "";
    QTest::newRow("insert") << "a\nb\n"
                            << "a\nnew\nb\n";
  }

  void unifiedDiffAgreesWithGnuDiff() {
    QFETCH(QString, before);
    QFETCH(QString, after);
    const std::string a = before.toStdString(), b = after.toStdString();
    const std::string ours = unifiedDiff(a, b, "a", "b");
    QTemporaryDir dir;
    test::writeFile(dir.filePath("a").toStdString(), a);
    test::writeFile(dir.filePath("b").toStdString(), b);
    QProcess gnu;
    gnu.setWorkingDirectory(dir.path());
    gnu.start("diff", {"-u", "--label", "a", "--label", "b", "a", "b"});
    gnu.waitForFinished();
    QCOMPARE(QString::fromStdString(ours),
             QString::fromUtf8(gnu.readAllStandardOutput()));
    QCOMPARE(patched(a, ours), b);
  }
};

QTEST_GUILESS_MAIN(EditModelTest)
#include "tst_edit_model.moc"
