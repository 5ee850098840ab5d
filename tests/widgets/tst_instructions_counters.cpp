// The Instructions tab with Nsight Compute's counters of a profiled run:
// IREE's sm_90 matmul compiled here (PTX, and the SASS ptxas and nvdisasm
// make of it), a source page written from that SASS in ncu's form with
// seeded counters (no GPU here), read as the Run panel reads one after a
// profiled run. Each SASS line shows its share of the kernel's stall
// samples, its tip their reasons, executions and shared-memory wavefronts
// counted beside those predicted, in red where more were counted; each
// region its share; the kernel row how the page was matched.
#include "NsightSourcePage.h"
#include "TestSupport.h"
#include "WindowTestSupport.h"
#include "core/isa/CompiledAssembly.h"

#include "core/service/Sass.h"
#include "widgets/views/InstructionsView.h"

#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidgetItemIterator>

#include <fstream>
#include <random>

using namespace tilescope;

namespace {

constexpr int kStalls = 8; // the Stalls column

} // namespace

class InstructionsCountersTest : public QObject {
  Q_OBJECT

private slots:
  void stallsAndWavefrontsBesideTheLines() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string text =
        test::readFile(test::examplesDir() / "cuda_sm_90" /
                       "matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto ptx = test::compiledAssembly(text, "sm_90", dir.path().toStdString());
    QVERIFY2(ptx.ok(), ptx.ok() ? "" : ptx.error().c_str());
    const service::SassFiles sass = service::sassOf({*ptx});
    QVERIFY2(sass.files.size() == 1,
             sass.notes.empty() ? "no SASS" : sass.notes.front().c_str());
    auto listing = isa::readAssemblyFile(sass.files.front());
    QVERIFY(listing.ok());
    const isa::Kernel &kernel = listing->kernels.front();
    auto ptxListing = isa::readAssemblyFile(*ptx);
    QVERIFY(ptxListing.ok());
    const isa::Kernel &ptxKernel = ptxListing->kernels.front();
    const isa::PtxStatements statements(ptxKernel);
    // Whether the banks of a SASS shared load are predicted (its PTX
    // statement's addresses resolved).
    auto predicted = [&](const isa::Instruction &i) {
      const isa::Instruction *from = statements.of(i.ptxLine);
      const isa::SharedAccess *access =
          from ? ptxKernel.sharedAccessAt(from->line) : nullptr;
      return access && access->resolved;
    };

    // Stalls where a matmul has them: waiting on its global loads and
    // barriers around the shared stores, its MMAs on their operands; one
    // shared load counted with more wavefronts than any prediction.
    std::mt19937 random(61);
    std::vector<test::Row> rows;
    bool doubled = false;
    for (const isa::Region &region : kernel.regions)
      for (const isa::Instruction &i : region.instructions) {
        test::Row row;
        row.address = 0x7f4400000000ull + i.address;
        row.text = i.text;
        row.executed = region.kind == isa::Region::Kind::Loop ? 65536 : 1024;
        const bool hot = i.kind == isa::InstructionClass::Mma ||
                         i.kind == isa::InstructionClass::Barrier ||
                         i.kind == isa::InstructionClass::SharedLoad;
        row.longScoreboard = double(random() % (hot ? 4000 : 40));
        row.barrier = i.kind == isa::InstructionClass::Barrier
                          ? double(2000 + random() % 2000)
                          : 0;
        row.samples = row.longScoreboard + row.barrier;
        // No prediction is past 128 wavefronts (4 phases, 32-way).
        if (i.kind == isa::InstructionClass::SharedLoad) {
          row.wavefrontsIdeal = row.executed;
          row.wavefronts = row.executed * (doubled || !predicted(i) ? 1 : 200);
          doubled |= predicted(i);
        }
        rows.push_back(row);
      }
    const std::filesystem::path page =
        std::filesystem::path(dir.path().toStdString()) / "module.source.csv";
    {
      std::ofstream out(page);
      out << test::sourcePage(kernel.name, rows);
    }
    auto profiled = service::readSourceCountersFile(page);
    QVERIFY2(profiled.ok(), profiled.ok() ? "" : profiled.error().c_str());

    widgets::InstructionsView view;
    view.resize(1400, 800);
    view.show(widgets::CompiledInstructions::read({*ptx, sass.files.front()},
                                                  nullptr, nullptr, *profiled));
    QTreeWidgetItem *sassKernel = nullptr, *loop = nullptr, *red = nullptr,
                    *mma = nullptr;
    for (QTreeWidgetItemIterator it(&view); *it; ++it) {
      QTreeWidgetItem *item = *it;
      if (!item->parent() && item->text(0).endsWith("(sass)"))
        sassKernel = item;
      if (item->parent() == sassKernel && sassKernel &&
          item->text(0).startsWith("loop"))
        loop = item;
      if (item->text(0).startsWith("HMMA") && !mma)
        mma = item;
      if (item->foreground(kStalls).color() == QColor(0xa6, 0x1b, 0x1b))
        red = item;
    }
    QVERIFY(sassKernel && loop && mma);
    QCOMPARE(sassKernel->text(kStalls), QString("ncu"));
    QVERIFY2(sassKernel->toolTip(kStalls).contains("instruction for "
                                                   "instruction"),
             qPrintable(sassKernel->toolTip(kStalls)));
    // The loop holds most of the samples.
    QVERIFY2(loop->text(kStalls).endsWith("%") &&
                 loop->toolTip(kStalls).contains("long_sb"),
             qPrintable(loop->toolTip(kStalls)));
    QVERIFY2(mma->toolTip(kStalls).contains("warp stall samples (long_sb") &&
                 mma->toolTip(kStalls).contains("65536 warp instructions"),
             qPrintable(mma->toolTip(kStalls)));
    // The one shared load counted past its prediction is red, with
    // both in its tip; no other line is.
    QVERIFY(red);
    QVERIFY2(red->toolTip(kStalls).contains("wavefronts a warp instruction") &&
                 red->toolTip(kStalls).contains("predicted"),
             qPrintable(red->toolTip(kStalls)));
    int reds = 0;
    for (QTreeWidgetItemIterator it(&view); *it; ++it)
      reds += (*it)->foreground(kStalls).color() == QColor(0xa6, 0x1b, 0x1b);
    QCOMPARE(reds, 1);
    // A SASS shared access has the banks of the PTX statement it came
    // from.
    QVERIFY2(!red->text(4).isEmpty(), qPrintable(red->text(0)));
    view.setCurrentItem(loop);
    view.clearSelection();
    view.scrollToItem(red, QAbstractItemView::PositionAtCenter);
    test::windowScreenshot(view, "instructions-stalls");

    // A page of another kernel is said so, not laid on this one.
    std::vector<isa::ProfiledKernel> other = *profiled;
    other.front().name = "another_kernel";
    other.push_back(other.front());
    other.back().name = "and_another";
    const widgets::CompiledInstructions without =
        widgets::CompiledInstructions::read({*ptx, sass.files.front()}, nullptr,
                                            nullptr, other);
    QCOMPARE(without.countersNote,
             QString("Nsight Compute's counters name no SASS kernel shown "
                     "here"));
  }
};

QTEST_MAIN(InstructionsCountersTest)
#include "tst_instructions_counters.moc"
