// Nsight Compute's per-instruction counters laid over the SASS of IREE's
// own kernels. No GPU here, so the source pages are written from the SASS
// the pinned iree-compile, ptxas and nvdisasm make for sm_90 (a matmul, a
// batch matmul, an IGEMM convolution, attention), in the form ncu prints
// them (`--page source --print-source sass --csv`: a "Kernel Name" row, the
// header, a quoted row per instruction at its program counter, numbers
// with thousands separators), with seeded counters: every counter must
// land on the instruction at its offset, a driver's differently compiled
// kernel (instructions dropped and added) must still link every
// instruction the two share, by mnemonic, and the banks counted must meet
// the banks predicted from the PTX the SASS was compiled from.
#include "CompiledAssembly.h"
#include "NsightSourcePage.h"
#include "TestSupport.h"

#include "core/isa/Assembly.h"
#include "core/isa/AssemblyJson.h"
#include "core/isa/SourceCounters.h"
#include "core/service/Sass.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <random>

using namespace tilescope;

namespace {

using test::Row;
using test::sourcePage;

std::vector<const isa::Instruction *> inOrder(const isa::Kernel &kernel) {
  std::vector<const isa::Instruction *> out;
  for (const isa::Region &region : kernel.regions)
    for (const isa::Instruction &i : region.instructions)
      out.push_back(&i);
  std::sort(out.begin(), out.end(),
            [](auto *a, auto *b) { return a->line < b->line; });
  return out;
}

// The compiled SASS and PTX of one example, made once.
struct Compiled {
  std::string name;
  isa::Listing sass, ptx;
};

} // namespace

class SourceCountersTest : public QObject {
  Q_OBJECT

  std::vector<Compiled> compiled;
  QTemporaryDir dir;

private slots:
  void initTestCase() {
    QVERIFY(dir.isValid());
    for (const char *example : {"matmul_f16_1024", "batch_matmul_f16",
                                "conv_3x3_f16", "attention_f16"}) {
      const std::filesystem::path folder =
          std::filesystem::path(dir.path().toStdString()) / example;
      std::filesystem::create_directories(folder);
      const std::string text =
          test::readFile(test::examplesDir() / "cuda_sm_90" /
                         (std::string(example) + "_dispatch_0.benchmark.mlir"));
      auto ptxFile = test::compiledAssembly(text, "sm_90", folder);
      QVERIFY2(ptxFile.ok(), ptxFile.ok() ? "" : ptxFile.error().c_str());
      const service::SassFiles made = service::sassOf({*ptxFile});
      QVERIFY2(made.files.size() == 1,
               made.notes.empty() ? example : made.notes.front().c_str());
      auto sass = isa::readAssemblyFile(made.files.front());
      auto ptx = isa::readAssemblyFile(*ptxFile);
      QVERIFY(sass.ok() && ptx.ok());
      compiled.push_back({example, std::move(*sass), std::move(*ptx)});
    }
  }

  // Every instruction of IREE's SASS gets the counters of the row at its
  // offset, however the rows are ordered and wherever the kernel was
  // loaded; each region's share adds up to the kernel's samples.
  void countersLandAtTheirOffsets() {
    std::mt19937 random(61);
    for (const Compiled &c : compiled)
      for (int round = 0; round < 5; ++round) {
        const isa::Kernel &sass = c.sass.kernels.front();
        const uint64_t base = 0x7f0000000000ull + (random() % 4096) * 0x100;
        std::vector<Row> rows;
        std::map<size_t, Row> byLine;
        for (const isa::Instruction *i : inOrder(sass)) {
          Row r;
          r.address = base + i->address;
          r.text = i->text;
          r.executed = double(random() % 100000);
          r.longScoreboard = double(random() % 5000);
          r.barrier = double(random() % 5000);
          r.samples = r.longScoreboard + r.barrier + double(random() % 100);
          rows.push_back(r);
          byLine[i->line] = r;
        }
        std::shuffle(rows.begin(), rows.end(), random);
        auto kernels =
            isa::readNsightSourceCounters(sourcePage(sass.name, rows));
        QVERIFY2(kernels.ok(), kernels.ok() ? "" : kernels.error().c_str());
        QCOMPARE(kernels->size(), size_t(1));
        QCOMPARE(kernels->front().name, sass.name);
        const isa::CounterOverlay overlay =
            isa::overlayCounters(sass, kernels->front());
        const std::string where = c.name + " round " + std::to_string(round);
        QVERIFY2(overlay.sameCode, (where + ": " + overlay.note).c_str());
        QCOMPARE(overlay.matched, byLine.size());
        double total = 0;
        for (const auto &[line, row] : byLine) {
          const isa::CountedInstruction &counted = overlay.atLine.at(line);
          QCOMPARE(counted.address, row.address);
          QCOMPARE(*counted.executed, row.executed);
          QCOMPARE(*counted.stallSamples, row.samples);
          QCOMPARE(*counted.notIssuedSamples, double(int64_t(row.samples / 2)));
          // Reasons with samples, the most first; the "Not Issued" column
          // is not a reason.
          for (const auto &[reason, samples] : counted.stalls) {
            QVERIFY(reason == "long_sb" || reason == "barrier");
            QCOMPARE(samples,
                     reason == "long_sb" ? row.longScoreboard : row.barrier);
          }
          total += row.samples;
        }
        QCOMPARE(overlay.stallSamples, total);
        double shares = 0;
        for (const isa::Region &region : sass.regions)
          for (const isa::Instruction &i : region.instructions)
            shares += overlay.atLine.at(i.line).stallSamples.value_or(0);
        QCOMPARE(shares, total);
        QVERIFY(!isa::describeCounters(overlay).empty());
        const auto json = isa::toJson(overlay, {}, sass, true);
        QCOMPARE(json["instructions"].size(), byLine.size());
        QCOMPARE(json["matched"].get<size_t>(), byLine.size());
      }
  }

  // A kernel the GPU's driver compiled otherwise: instructions dropped,
  // others put in, the rest moved. Every pair linked has one mnemonic, in
  // program order, and at least every instruction the two still share is
  // linked.
  void otherCodeIsAlignedByMnemonic() {
    std::mt19937 random(6161);
    for (const Compiled &c : compiled)
      for (int round = 0; round < 5; ++round) {
        const isa::Kernel &sass = c.sass.kernels.front();
        const auto here = inOrder(sass);
        std::vector<Row> rows;
        size_t kept = 0;
        uint64_t address = 0x7f1200000000ull;
        for (const isa::Instruction *i : here) {
          if (random() % 10 == 0) // dropped
            continue;
          if (random() % 10 == 0) { // one the driver added
            rows.push_back({address, "NOP", 1, 0, 0, 0, 0, 0});
            address += 16;
          }
          rows.push_back({address, i->text, double(i->line), 0, 0, 0, 0, 0});
          address += 16;
          ++kept;
        }
        auto kernels =
            isa::readNsightSourceCounters(sourcePage(sass.name, rows));
        QVERIFY(kernels.ok());
        const isa::CounterOverlay overlay =
            isa::overlayCounters(sass, kernels->front());
        const std::string where = c.name + " round " + std::to_string(round);
        QVERIFY2(!overlay.sameCode, where.c_str());
        QVERIFY2(overlay.matched >= kept,
                 (where + ": " + overlay.note).c_str());
        QVERIFY2(overlay.note.find(std::to_string(overlay.matched) +
                                   " linked") != std::string::npos,
                 overlay.note.c_str());
        std::map<size_t, const isa::Instruction *> byLine;
        for (const isa::Instruction *i : here)
          byLine[i->line] = i;
        uint64_t last = 0;
        for (const auto &[line, counted] : overlay.atLine) {
          QCOMPARE(counted.mnemonic, byLine.at(line)->mnemonic);
          QVERIFY2(counted.address > last, where.c_str());
          last = counted.address;
        }
      }
  }

  // Counted wavefronts set to what the PTX's bank model predicts meet it
  // at every shared-memory instruction: the SASS reaches the prediction
  // of the PTX statement it was compiled from.
  void banksMeetThePrediction() {
    size_t checked = 0;
    for (const Compiled &c : compiled) {
      const isa::Kernel &sass = c.sass.kernels.front();
      const isa::Kernel &ptx = c.ptx.kernels.front();
      const isa::PtxStatements statements(ptx);
      std::vector<Row> rows;
      size_t shared = 0;
      for (const isa::Instruction *i : inOrder(sass)) {
        Row r{i->address, i->text, 128, 0, 0, 0, 0, 0};
        const isa::Instruction *from = statements.of(i->ptxLine);
        if (const isa::SharedAccess *access =
                from && from->kind == i->kind ? ptx.sharedAccessAt(from->line)
                                              : nullptr;
            access && access->resolved) {
          for (int64_t degree : access->degrees.perPhase)
            r.wavefronts += 128.0 * double(degree);
          r.wavefrontsIdeal = 128.0 * double(access->degrees.perPhase.size());
          ++shared;
        }
        rows.push_back(r);
      }
      auto kernels = isa::readNsightSourceCounters(sourcePage(sass.name, rows));
      QVERIFY(kernels.ok());
      const std::vector<isa::KernelCounters> laid =
          isa::overlayListing(c.sass, &c.ptx, *kernels);
      QCOMPARE(laid.size(), size_t(1));
      QCOMPARE(laid.front().banks.size(), shared);
      for (const isa::BankCheck &check : laid.front().banks) {
        QCOMPARE(check.measuredWavefronts, check.predictedWavefronts);
        QVERIFY(check.idealWavefronts <= check.measuredWavefronts);
      }
      checked += shared;
    }
    // IREE's sm_90 kernels stage their operands in shared memory.
    QVERIFY2(checked > 0, "no shared-memory access checked");
  }

  void choosesTheKernel() {
    std::vector<isa::ProfiledKernel> kernels(2);
    kernels[0].name = "a_dispatch_0";
    kernels[1].name = "void b_dispatch_1(int, float*)";
    QCOMPARE(isa::profiledKernelFor(kernels, "a_dispatch_0"), &kernels[0]);
    QCOMPARE(isa::profiledKernelFor(kernels, "b_dispatch_1"), &kernels[1]);
    QVERIFY(!isa::profiledKernelFor(kernels, "c"));
    QVERIFY(!isa::profiledKernelFor(kernels, "dispatch_1"));
    kernels.pop_back();
    QCOMPARE(isa::profiledKernelFor(kernels, "c"), &kernels[0]);
    QVERIFY(!isa::profiledKernelFor(kernels, "c", /*onlyOne=*/false));
    // Laid over a listing of two kernels, the page's one kernel of another
    // name stands for neither; over one, it does and the note says so.
    kernels[0].instructions.push_back({});
    kernels[0].instructions.back().mnemonic = "EXIT";
    isa::Listing two;
    two.dialect = "sass";
    two.kernels.resize(2);
    two.kernels[0].name = "c";
    two.kernels[1].name = "d";
    QVERIFY(isa::overlayListing(two, nullptr, kernels).empty());
    two.kernels.pop_back();
    const auto one = isa::overlayListing(two, nullptr, kernels);
    QCOMPARE(one.size(), size_t(1));
    QVERIFY2(one.front().overlay.note.find("the page's only kernel") !=
                 std::string::npos,
             one.front().overlay.note.c_str());
  }

  // The spellings of older releases and what a hostile page may hold.
  void readsOtherSpellings() {
    auto page = isa::readNsightSourceCounters(
        "\"Kernel Name\",\"k\"\n"
        "\"Address\",\"Source\",\"Warp Stall Sampling (All Cycles)\","
        "\"stall_barrier\",\"stall_selected\"\n"
        "\"0X20\",\"@P0\tBAR.SYNC 0x0\",\"12\",\"9\",\"3\"\n"
        "\"0x30\",\"EXIT\",\"nan\",\"inf\",\"1\"\n");
    QVERIFY2(page.ok(), page.ok() ? "" : page.error().c_str());
    const auto &rows = page->front().instructions;
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].mnemonic, std::string("BAR.SYNC"));
    QCOMPARE(*rows[0].stallSamples, 12.0);
    // "selected" is counted, not a reason.
    QCOMPARE(rows[0].stalls.size(), size_t(1));
    QCOMPARE(rows[0].stalls[0].first, std::string("barrier"));
    // No total: the reasons' sum; no number is not a number.
    QCOMPARE(*rows[1].stallSamples, 1.0);
    QVERIFY(rows[1].stalls.empty());
    // A header of many reasons and short rows reads in bounded time.
    std::string wide = "\"Address\",\"Source\"";
    for (int i = 0; i < 200000; ++i)
      wide += ",\"stall_r" + std::to_string(i) + "\"";
    wide += "\n";
    for (int i = 0; i < 200000; ++i)
      wide += "0x" + std::to_string(i + 1) + ",NOP\n";
    auto widePage = isa::readNsightSourceCounters(wide);
    QVERIFY(widePage.ok());
    QCOMPARE(widePage->front().instructions.size(), size_t(200000));
  }

  // What is not a source page is said so, with where.
  void refusesWhatIsNotOne() {
    auto none = isa::readNsightSourceCounters("");
    QVERIFY(!none.ok() &&
            none.error().find("not Nsight Compute's source page") !=
                std::string::npos);
    auto raw = isa::readNsightSourceCounters(
        "\"ID\",\"Kernel "
        "Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"5\"\n");
    QVERIFY(!raw.ok());
    auto empty = isa::readNsightSourceCounters("\"Address\",\"Source\"\n");
    QVERIFY(!empty.ok() &&
            empty.error().find("--print-source sass") != std::string::npos);
    auto bad = isa::readNsightSourceCounters(
        "\"Address\",\"Source\"\n\"0x10\",\"NOP\"\n\"0xZZ\",\"NOP\"\n");
    QVERIFY(!bad.ok() && bad.error().find("row 3") != std::string::npos);
    auto huge = isa::readNsightSourceCounters(
        "\"Address\",\"Source\"\n\"0x1234567890abcdef0\",\"NOP\"\n");
    QVERIFY(!huge.ok());
    // A negative or broken count is no count.
    auto odd = isa::readNsightSourceCounters(
        "\"Address\",\"Source\",\"Instructions Executed\"\n"
        "\"0x10\",\"@!P0 BRA `(.L_x_1) ;\",\"-4\"\n\"0x20\",\"EXIT\",\"x\"\n");
    QVERIFY(odd.ok());
    QCOMPARE(odd->front().instructions.size(), size_t(2));
    QCOMPARE(odd->front().instructions[0].mnemonic, std::string("BRA"));
    QVERIFY(!odd->front().instructions[0].executed);
    QVERIFY(!odd->front().instructions[1].executed);
  }
};

QTEST_GUILESS_MAIN(SourceCountersTest)
#include "tst_source_counters.moc"
