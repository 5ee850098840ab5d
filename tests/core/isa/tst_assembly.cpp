// The instructions IREE's CUDA and ROCm backends write, read by core/isa:
// the example matmuls (sm_90's mma.sync, gfx942's MFMA) compiled by the
// pinned iree-compile with seeded variants of their config (the reduction
// step, the subgroups' tiles), each read back and held to what the config
// says one reduction step issues: its loop holds subgroup[M] x subgroup[N]
// x reduction[K] MMAs, and each lane loads (workgroup M + N) x K-step x 2
// bytes over the workgroup's threads from global memory, 128 bits at a
// time (times the steps LLVM unrolled into one pass of the loop). And the
// classes and widths of mnemonics both backends write.
#include "CompiledAssembly.h"
#include "TestSupport.h"

#include "core/isa/Assembly.h"
#include "core/isa/OperandFlow.h"
#include "core/isa/PtxText.h"
#include "core/isa/SharedBanks.h"
#include "core/process/Process.h"
#include "core/service/Sass.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <regex>
#include <set>

using namespace tilescope;

namespace {

struct Variant {
  std::string target; // "sm_90", "gfx942"
  std::filesystem::path example;
  int64_t wgM, wgN, mmaK, threads;
  int64_t sgM, sgN, reduction;
};

// The example's text with subgroup and reduction set as the variant says.
std::string variantText(const Variant &v) {
  std::string text = test::readFile(v.example);
  text = std::regex_replace(text, std::regex(R"(reduction = \[0, 0, \d+\])"),
                            "reduction = [0, 0, " +
                                std::to_string(v.reduction) + "]");
  text = std::regex_replace(text, std::regex(R"(subgroup = \[\d+, \d+, 0\])"),
                            "subgroup = [" + std::to_string(v.sgM) + ", " +
                                std::to_string(v.sgN) + ", 0]");
  return text;
}

// Compiles `v` with the pinned iree-compile, its assembly dumped; the
// assembly file.
Result<std::filesystem::path> assemblyOf(const Variant &v,
                                         const QTemporaryDir &dir) {
  return test::compiledAssembly(variantText(v), v.target,
                                dir.path().toStdString());
}

} // namespace

// The banks of every shared-memory access of IREE's PTX and LDS access of
// its AMDGPU assembly: each address is found (nothing of IREE's address
// arithmetic is beyond the reader), and the lanes of one store write bytes
// apart, as any kernel's do.
void everySharedAccessIsResolved(const isa::Kernel &kernel,
                                 const std::string &where) {
  QVERIFY2(!kernel.sharedAccesses.empty(), where.c_str());
  for (const isa::SharedAccess &access : kernel.sharedAccesses) {
    const std::string at =
        where + ": line " + std::to_string(access.line) + " " + access.mnemonic;
    QVERIFY2(access.resolved, (at + ": " + access.why).c_str());
    QVERIFY2(access.degrees.worst >= 1, at.c_str());
    if (!access.store)
      continue;
    std::set<int64_t> bytes;
    for (const layout::LaneAddress &lane : access.addresses)
      for (int64_t b = 0; b < access.accessBytes; ++b)
        QVERIFY2(
            bytes.insert(lane.address + b).second,
            (at + ": two lanes store byte " + std::to_string(lane.address + b))
                .c_str());
  }
}

// The SASS ptxas makes of `ptx` without its line table: the same
// instructions, in the same order, as `withLines`.
void sameInstructionsWithoutLineTable(const std::filesystem::path &ptx,
                                      const isa::Kernel &withLines,
                                      const std::string &where) {
  auto nvdisasm = service::locateNvdisasm();
  QVERIFY2(nvdisasm.ok(), where.c_str());
  QTemporaryDir dir;
  const std::filesystem::path cubin = dir.path().toStdString() + "/plain.cubin";
  process::ProcessSpec assemble;
  assemble.program = nvdisasm->parent_path() / "ptxas";
  assemble.arguments = {"-arch=sm_90", ptx.string(), "-o", cubin.string()};
  const process::ProcessResult assembled = process::runProcess(assemble);
  QVERIFY2(assembled.succeeded(), assembled.standardError.c_str());
  process::ProcessSpec disassemble;
  disassemble.program = *nvdisasm;
  disassemble.arguments = {"-c", "-lrm", "count", cubin.string()};
  const process::ProcessResult plain = process::runProcess(disassemble);
  QVERIFY2(plain.succeeded(), plain.standardError.c_str());
  auto listing = isa::readSass(plain.standardOutput);
  QVERIFY2(listing.ok() && listing->kernels.size() == 1, where.c_str());
  auto texts = [](const isa::Kernel &kernel) {
    std::vector<std::string> all;
    for (const isa::Region &region : kernel.regions)
      for (const isa::Instruction &i : region.instructions)
        all.push_back(i.text);
    return all;
  };
  QVERIFY2(texts(listing->kernels.front()) == texts(withLines),
           (where + ": the line table changed the SASS").c_str());
}

// The SASS of the PTX (ptxas and nvdisasm from the set-up): its K loop
// issues one HMMA per mma.sync and the same 128-bit global loads, and
// nvdisasm counts the registers live at every instruction, their peak
// within the 255 a thread can have.
void sassAgreesWithPtx(const std::filesystem::path &ptx,
                       const isa::Region &ptxStep, const std::string &where) {
  const service::SassFiles sass = service::sassOf({ptx});
  QVERIFY2(sass.files.size() == 1 && sass.notes.empty(),
           (where + ": " +
            (sass.notes.empty() ? std::string("no SASS") : sass.notes.front()))
               .c_str());
  auto listing = isa::readAssemblyFile(sass.files.front());
  QVERIFY2(listing.ok(),
           (where + ": " + (listing.ok() ? "" : listing.error())).c_str());
  QCOMPARE(listing->dialect, std::string("sass"));
  QCOMPARE(listing->kernels.size(), size_t(1));
  const isa::Kernel &kernel = listing->kernels.front();
  std::vector<const isa::Region *> loops;
  for (const isa::Region &region : kernel.regions)
    if (region.kind == isa::Region::Kind::Loop)
      loops.push_back(&region);
  QVERIFY2(loops.size() == 1, where.c_str());
  for (isa::InstructionClass kind :
       {isa::InstructionClass::Mma, isa::InstructionClass::GlobalLoad})
    QVERIFY2(loops.front()->count(kind) == ptxStep.count(kind),
             (where + ": SASS " + isa::describe(*loops.front()) + "\nPTX " +
              isa::describe(ptxStep))
                 .c_str());
  // ptxas's line table (-lineinfo): every instruction of the loop names
  // the PTX line it came from, and the instructions are the ones ptxas
  // makes without it.
  for (const isa::Instruction &i : loops.front()->instructions)
    QVERIFY2(i.ptxLine > 0, (where + ": " + i.text + ": no PTX line").c_str());
  sameInstructionsWithoutLineTable(ptx, kernel, where);
  QVERIFY(kernel.liveness);
  const isa::KernelLiveness &live = *kernel.liveness;
  QCOMPARE(live.registerFile, std::string("GPRs"));
  QVERIFY2(live.peak.vgprs > 32 && live.peak.vgprs <= 255,
           (where + ": " + isa::describe(live)).c_str());
  QCOMPARE(live.atLine.size(), [&] {
    size_t n = 0;
    for (const isa::Region &region : kernel.regions)
      n += region.instructions.size();
    return n;
  }());
}

class AssemblyTest : public QObject {
  Q_OBJECT

private slots:
  void oneReductionStepIssuesWhatTheConfigSays_data() {
    QTest::addColumn<int>("index");
    std::mt19937 random(20261205);
    const std::vector<std::pair<int64_t, int64_t>> subgroups{{2, 4}, {4, 2}};
    const std::vector<int64_t> reductions{2, 4, 8};
    for (int i = 0; i < 6; ++i) {
      QTest::newRow(std::to_string(i).c_str()) << i;
    }
    variants.clear();
    for (int i = 0; i < 6; ++i) {
      const auto [sgM, sgN] = subgroups[random() % subgroups.size()];
      const int64_t reduction = reductions[random() % reductions.size()];
      if (i % 2 == 0)
        variants.push_back(
            {"sm_90",
             test::sourceDir() / "examples/cuda_sm_90/"
                                 "matmul_f16_1024_dispatch_0.benchmark.mlir",
             64, 64, 16, 128, sgM, sgN, reduction});
      else
        variants.push_back(
            {"gfx942",
             test::sourceDir() / "examples/rocm_gfx942/"
                                 "matmul_f16_1024_dispatch_0.benchmark.mlir",
             64, 128, 16, 256, sgM, sgN, reduction});
    }
  }

  void oneReductionStepIssuesWhatTheConfigSays() {
    QFETCH(int, index);
    const Variant &v = variants[static_cast<size_t>(index)];
    const std::string where = v.target + " subgroup [" + std::to_string(v.sgM) +
                              ", " + std::to_string(v.sgN) + "] reduction " +
                              std::to_string(v.reduction);
    QTemporaryDir dir;
    auto file = assemblyOf(v, dir);
    QVERIFY2(file.ok(),
             (where + ": " + (file.ok() ? "" : file.error())).c_str());
    auto listing = isa::readAssemblyFile(*file);
    QVERIFY2(listing.ok(),
             (where + ": " + (listing.ok() ? "" : listing.error())).c_str());
    QCOMPARE(listing->dialect,
             std::string(v.target == "sm_90" ? "ptx" : "amdgpu"));
    QCOMPARE(listing->kernels.size(), size_t(1));
    const isa::Kernel &kernel = listing->kernels.front();
    everySharedAccessIsResolved(kernel, where);
    if (QTest::currentTestFailed())
      return;
    std::vector<const isa::Region *> loops;
    for (const isa::Region &region : kernel.regions)
      if (region.kind == isa::Region::Kind::Loop)
        loops.push_back(&region);
    QVERIFY2(loops.size() == 1, where.c_str());
    const isa::Region &step = *loops.front();
    // One pass of the loop's body is one reduction step, or several where
    // LLVM unrolled the loop (a short K tile on gfx942): the MMAs and the
    // loads are the same whole number of steps.
    const int64_t mmas = int64_t(step.count(isa::InstructionClass::Mma));
    const int64_t perStep = v.sgM * v.sgN * v.reduction;
    QVERIFY2(mmas > 0 && mmas % perStep == 0,
             (where + ": " + std::to_string(mmas) + " MMAs a pass").c_str());
    const int64_t steps = mmas / perStep;
    QVERIFY2(steps == 1 || steps == 2 || steps == 4, where.c_str());
    // Global loads of one step, per lane: the LHS and RHS tiles of K step
    // reduction x MMA K in f16, over the workgroup's threads.
    int64_t bits = 0;
    for (const isa::Instruction &i : step.instructions)
      if (i.kind == isa::InstructionClass::GlobalLoad) {
        QVERIFY2(i.widthBits == 128, (where + ": " + i.text).c_str());
        bits += i.widthBits;
      }
    QCOMPARE(bits, steps * (v.wgM + v.wgN) * v.reduction * v.mmaK * 2 * 8 /
                       v.threads);
    // Promoted operands: what is loaded is stored to shared memory, and
    // the step waits for its subgroups at barriers.
    int64_t stored = 0;
    for (const isa::Instruction &i : step.instructions)
      if (i.kind == isa::InstructionClass::SharedStore)
        stored += i.widthBits;
    QCOMPARE(stored, bits);
    QVERIFY(step.count(isa::InstructionClass::Barrier) >= 1);
    QVERIFY(step.count(isa::InstructionClass::SharedLoad) +
                step.count(isa::InstructionClass::MatrixLoad) >
            0);
    if (v.target == "sm_90")
      sassAgreesWithPtx(*file, step, where);
  }

  // nvdisasm prints the life ranges or the PTX lines, never both: the
  // lines are put before the same instructions of the life ranges' text,
  // by section and address, and read back per instruction.
  void sassPtxLinesAreMergedByAddress() {
    const std::string lifeRanges =
        "//--------------------- .text.k --------------------------\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;   "
        "// |   1   |        |        |         |\n"
        "        /*0010*/                   S2R R11, SR_TID.X ;      "
        "// |   2   |        |        |         |\n"
        "        /*0020*/                   HMMA.16816.F32 R4, R8, R10, R4 "
        ";   // |   12  |        |        |         |\n"
        "        /*0030*/                   EXIT ;   "
        "// |       |        |        |         |\n";
    const std::string lines =
        "//--------------------- .text.k --------------------------\n"
        "\t//## File \".nv_debug_ptx_txt\", line 18\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
        "\t//## File \".nv_debug_ptx_txt\", line 26\n"
        "        /*0010*/                   S2R R11, SR_TID.X ;\n"
        "\t//## File \".nv_debug_ptx_txt\", line 345\n"
        "        /*0020*/                   HMMA.16816.F32 R4, R8, R10, R4 ;\n"
        "        /*0030*/                   EXIT ;\n";
    const std::string merged = isa::sassWithPtxLines(lifeRanges, lines);
    QVERIFY(isa::sassHasPtxLines(merged));
    QVERIFY(!isa::sassHasPtxLines(lifeRanges));
    auto listing = isa::readSass(merged);
    QVERIFY(listing.ok());
    std::vector<size_t> ptxLines;
    std::vector<int> live;
    for (const isa::Region &region : listing->kernels.front().regions)
      for (const isa::Instruction &i : region.instructions) {
        ptxLines.push_back(i.ptxLine);
        live.push_back(
            listing->kernels.front().liveness->atLine.at(i.line).vgprs);
      }
    QCOMPARE(ptxLines, (std::vector<size_t>{18, 26, 345, 345}));
    QCOMPARE(live, (std::vector<int>{1, 2, 12, 0}));
    // Without markers, no line.
    auto plain = isa::readSass(lifeRanges);
    QVERIFY(plain.ok());
    QCOMPARE(
        plain->kernels.front().regions.front().instructions.front().ptxLine,
        size_t(0));
  }

  // A PTX statement spans its lines: ptxas names a multi-line mma.sync by
  // the line of its ';'.
  void ptxStatementsSpanTheirLines() {
    const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry k()\n{\n"
                            "\tmov.u32 %r1, %tid.x;\n"
                            "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16."
                            "f32\n\t\t{%f1, %f2, %f3, %f4},\n"
                            "\t\t{%r1, %r2, %r3, %r4},\n"
                            "\t\t{%r5, %r6},\n"
                            "\t\t{%f1, %f2, %f3, %f4};\n"
                            "\tret;\n}\n";
    auto listing = isa::readPtx(ptx);
    QVERIFY(listing.ok());
    const isa::PtxStatements statements(listing->kernels.front());
    auto firstLine = [&](size_t line) {
      const isa::Instruction *statement = statements.of(line);
      return statement ? statement->line : 0;
    };
    QCOMPARE(firstLine(6), size_t(6));
    QCOMPARE(firstLine(11), size_t(7)); // the mma.sync's ';'
    QCOMPARE(firstLine(9), size_t(7));
    QCOMPARE(firstLine(7), size_t(7));
    QCOMPARE(firstLine(5), size_t(0)); // the brace
    QCOMPARE(firstLine(0), size_t(0));
    QVERIFY(statements.of(11)->kind == isa::InstructionClass::Mma);
  }

  void mnemonicsAreClassedWithTheirWidths() {
    using K = isa::InstructionClass;
    QVERIFY(isa::classOfPtx("ld.global.nc.v4.b32") == K::GlobalLoad);
    QCOMPARE(isa::widthOfPtx("ld.global.nc.v4.b32"), 128);
    QCOMPARE(isa::widthOfPtx("st.shared.v2.b32"), 64);
    QCOMPARE(isa::widthOfPtx("ld.shared.b32"), 32);
    QCOMPARE(isa::widthOfPtx("st.global.v2.f16x2"), 64);
    QVERIFY(isa::classOfPtx("ldmatrix.sync.aligned.m8n8.x4.shared.b16") ==
            K::MatrixLoad);
    QCOMPARE(isa::widthOfPtx("ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 128);
    QVERIFY(isa::classOfPtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16."
                            "f32") == K::Mma);
    QVERIFY(isa::classOfPtx("cp.async.cg.shared.global") == K::AsyncCopy);
    QVERIFY(isa::classOfPtx("cp.async.wait_group") == K::Wait);
    QVERIFY(isa::classOfPtx("wgmma.wait_group.sync.aligned") == K::Wait);
    QVERIFY(isa::classOfPtx("wgmma.mma_async.sync.aligned.m64n128k16.f32."
                            "f16.f16") == K::Mma);
    QVERIFY(isa::classOfPtx("brev.b32") == K::Arithmetic);
    QVERIFY(isa::classOfPtx("bar.sync") == K::Barrier);
    QVERIFY(isa::classOfPtx("shfl.sync.bfly.b32") == K::Shuffle);
    QVERIFY(isa::classOfPtx("fma.rn.f32") == K::Arithmetic);
    QVERIFY(isa::classOfAmdgpu("buffer_load_dwordx4") == K::GlobalLoad);
    QCOMPARE(isa::widthOfAmdgpu("buffer_load_dwordx4"), 128);
    QCOMPARE(isa::widthOfAmdgpu("global_load_dwordx2"), 64);
    QCOMPARE(isa::widthOfAmdgpu("ds_read2_b64"), 128);
    QCOMPARE(isa::widthOfAmdgpu("ds_read_b128"), 128);
    QCOMPARE(isa::widthOfAmdgpu("ds_write_b16"), 16);
    QCOMPARE(isa::widthOfAmdgpu("buffer_store_dword"), 32);
    QVERIFY(isa::classOfAmdgpu("buffer_load_dword_lds") == K::AsyncCopy);
    QVERIFY(isa::classOfAmdgpu("v_mfma_f32_16x16x16_f16") == K::Mma);
    QVERIFY(isa::classOfAmdgpu("s_waitcnt") == K::Wait);
    QVERIFY(isa::classOfAmdgpu("ds_bpermute_b32") == K::Shuffle);
    QVERIFY(isa::classOfAmdgpu("s_cbranch_scc1") == K::Branch);
    QVERIFY(isa::classOfAmdgpu("v_add_u32_e32") == K::Arithmetic);
  }

  // cp.async moves 4, 8 or 16 bytes a thread from a binding into shared
  // memory and is followed; another size is no cp.async (a hostile one gave
  // every thread a buffer of it), and cp.async.bulk, one thread's copy of a
  // whole tile, is not taken for every thread's.
  void asyncCopiesAreFollowedAtTheirSizes() {
    auto movesOf = [](const std::string &copy) {
      const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".extern .shared .align 16 .b8 smem[];\n"
                              ".visible .entry k(\n.param .u64 k_param_0\n)\n"
                              ".reqntid 32, 1, 1\n{\n"
                              "\tld.param.u64 %rd1, [k_param_0];\n"
                              "\tcvta.to.global.u64 %rd2, %rd1;\n"
                              "\tmov.u32 %r1, %tid.x;\n"
                              "\tmul.wide.u32 %rd3, %r1, 16;\n"
                              "\tadd.s64 %rd4, %rd2, %rd3;\n"
                              "\tmov.u64 %rd5, smem;\n"
                              "\tadd.s64 %rd6, %rd5, %rd3;\n\t" +
                              copy + "\n\tret;\n}\n";
      const auto kernels = isa::operandsOfPtx(isa::ptxTextOf(ptx));
      return kernels.size() == 1 ? kernels.front().moves
                                 : std::vector<isa::OperandMove>{};
    };
    const auto followed =
        movesOf("cp.async.cg.shared.global [%rd6], [%rd4], 16;");
    QCOMPARE(followed.size(), size_t(1));
    QCOMPARE(followed.front().bytes, int64_t(32 * 16));
    QCOMPARE(followed.front().followed(), int64_t(32 * 16));
    QVERIFY(movesOf("cp.async.cg.shared.global [%rd6], [%rd4], 2000000000;")
                .empty());
    QVERIFY(movesOf("cp.async.bulk.shared::cluster.global.mbarrier::complete_"
                    "tx::bytes [%rd6], [%rd4], 4096, [%rd5];")
                .empty());
    // ldmatrix gives a lane one to four registers: a list of more is none.
    // (After the copy, which puts the binding's bytes where it reads.)
    const std::string copy =
        "cp.async.cg.shared.global [%rd6], [%rd4], 16;\n\t";
    std::string many = "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {";
    for (int r = 0; r < 10000; ++r)
      many += (r ? ", %r" : "%r") + std::to_string(100 + r);
    QCOMPARE(movesOf(copy + many + "}, [%rd6];").size(), size_t(1));
    const auto four =
        movesOf(copy + "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, "
                       "%r11, %r12, %r13}, [%rd6];");
    QCOMPARE(four.size(), size_t(2));
    QVERIFY(four[1].kind == isa::OperandMoveKind::SharedLoad);
  }

  // One reading of PTX's type names for every reader (the instructions'
  // widths, the operands' moves, the lanes' integer arithmetic): the two it
  // replaced read bf16 as 0 bits and 2 bytes.
  void ptxTypesHaveOneWidth() {
    const std::pair<const char *, int> types[] = {
        {"b8", 8},      {"u16", 16},    {"s32", 32},        {"f64", 64},
        {"b128", 128},  {"bf16", 16},   {"tf32", 32},       {"f16x2", 32},
        {"bf16x2", 32}, {"e4m3x2", 16}, {"e5m2", 8},        {"v4", 0},
        {"pred", 0},    {"b24", 0},     {"b2000000000", 0}, {"f032", 0},
        {"x2", 0},      {"", 0}};
    for (const auto &[type, bits] : types)
      QVERIFY2(isa::ptxTypeBits(type) == bits, type);
    QCOMPARE(isa::widthOfPtx("ld.shared.v4.bf16x2"), 128);
    // A statement as the PTX reader hands it on: its ';' taken off.
    auto statement = [](const char *text) {
      return *isa::ptxStatementOf(text, 1);
    };
    const auto copy = statement("cp.async.cg.shared.global [%r1], [%rd1], 16");
    QCOMPARE(isa::copiedBytesOf(copy).value_or(-1), int64_t(16));
    QCOMPARE(isa::asyncCopyBytesOf(copy).value_or(-1), int64_t(16));
    const auto bulk = statement(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
        "[%r1], [%rd1], 8192, [%r2]");
    QCOMPARE(isa::copiedBytesOf(bulk).value_or(-1), int64_t(8192));
    QVERIFY(!isa::asyncCopyBytesOf(bulk)); // no one thread's copy
    QVERIFY(!isa::copiedBytesOf(statement(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
        "complete_tx::bytes [%r1], [%rd1, {%r3, %r4}], [%r2]")));
    QVERIFY(!isa::copiedBytesOf(
        statement("cp.async.bulk.shared::cluster.global [%r1], [%rd1], "
                  "99999999999, [%r2]")));
  }

  // A hostile kernel's numbers are no widths: a type of two billion bits
  // is none (it sized every thread's buffer), a count past seven digits is
  // no copy.
  void absurdWidthsAreNone() {
    QCOMPARE(isa::widthOfPtx("ld.global.b2000000000"), 0);
    QCOMPARE(isa::widthOfPtx("ld.shared.v8.b99999999999"), 0);
    QCOMPARE(isa::widthOfPtx("ld.global.v4.b128"), 512);
    QCOMPARE(isa::widthOfAmdgpu("global_load_b99999999999"), 0);
    QCOMPARE(isa::widthOfAmdgpu("ds_read2_b2000000000"), 0);
    QCOMPARE(isa::widthOfAmdgpu("global_load_b96"), 96);
    auto listing = isa::readPtx(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".extern .shared .align 16 .b8 smem[];\n.visible .entry k()\n"
        ".reqntid 32, 1, 1\n{\n"
        "\tmov.u64 %rd1, smem;\n"
        "\tld.global.b2000000000 %r1, [%rd1];\n"
        "\tmov.b800000000 %r2, %r1;\n"
        "\tcp.async.ca.shared.global [smem], [%rd1], 268435455;\n"
        "\tld.shared.u32 %r3, [%rd1+9223372036854775807];\n"
        "\tmov.b64 %rd5, -9223372036854775808;\n"
        "\tdiv.s64 %rd2, %rd5, -1;\n"
        "\trem.s64 %rd6, %rd5, -1;\n"
        "\tmul.lo.u64 %rd3, 0x7fffffffffffffff, 0x7fffffffffffffff;\n"
        "\tadd.s64 %rd4, %rd3, 0x7fffffffffffffff;\n"
        "\tld.shared.u32 %r4, [%rd4];\n\tret;\n}\n");
    QVERIFY2(listing.ok(), listing.ok() ? "" : listing.error().c_str());
    const isa::Kernel &kernel = listing->kernels.front();
    // The copy of 268435455 bytes is no access; an offset past 32 bits is
    // not read, and an address past any shared memory is said.
    QCOMPARE(kernel.sharedAccesses.size(), size_t(2));
    QVERIFY(!kernel.sharedAccesses[0].resolved);
    QVERIFY(!kernel.sharedAccesses[1].resolved);
    QVERIFY2(kernel.sharedAccesses[1].why.find("past any shared memory") !=
                 std::string::npos,
             kernel.sharedAccesses[1].why.c_str());
  }

  // Thousands of backward branches (a hostile file: no compiler writes
  // them) read in time proportional to the file: each statement walked a
  // bounded number of times, each loop's label found once.
  void chainsOfBranchesReadInTheirLength() {
    const int n = 20000;
    std::string toFirst = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k()\n.reqntid 32, 1, 1\n{\n"
                          "$L__0:\n";
    std::string toSelf = toFirst;
    for (int i = 0; i < n; ++i) {
      toFirst += "\tbra.uni $L__0;\n";
      toSelf += "$L__" + std::to_string(i + 1) + ":\n\tbra.uni $L__" +
                std::to_string(i + 1) + ";\n";
    }
    toFirst += "\tret;\n}\n";
    toSelf += "\tret;\n}\n";
    auto first = isa::readPtx(toFirst);
    QVERIFY(first.ok());
    QCOMPARE(first->kernels.front().regions.size(), size_t(2)); // loop, ret
    auto self = isa::readPtx(toSelf);
    QVERIFY(self.ok());
    QCOMPARE(self->kernels.front().regions.size(), size_t(n + 1));
    QCOMPARE(self->kernels.front().regions[n - 1].label,
             "$L__" + std::to_string(n));
  }

  // A loop is the statements from a label to a branch back to it; code
  // before, between and after is cut apart, and a loop inside a loop stays
  // inside.
  void loopsCutTheKernel() {
    const std::string ptx =
        ".visible .entry k(\n.param .u64 a\n)\n{\n"
        "\tmov.u32 %r1, 0;\n"
        "$L_outer:\n"
        "\tld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd1];\n"
        "$L_inner:\n"
        "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
        "\t\t{%f1, %f2, %f3, %f4},\n\t\t{%r2, %r3, %r4, %r5},\n"
        "\t\t{%r6, %r7}, {%f1, %f2, %f3, %f4};\n"
        "\t@%p1 bra $L_inner;\n"
        "\t@%p2 bra $L_outer;\n"
        "\tst.global.f32 [%rd2], %f1;\n"
        "$L_second:\n"
        "\tbar.sync 0;\n"
        "\t@%p3 bra.uni $L_second;\n"
        "\tret;\n}\n";
    auto listing = isa::readPtx(ptx);
    QVERIFY2(listing.ok(), listing.ok() ? "" : listing.error().c_str());
    const isa::Kernel &kernel = listing->kernels.at(0);
    QCOMPARE(QString::fromStdString(kernel.name), QString("k"));
    QCOMPARE(kernel.regions.size(), size_t(5));
    QVERIFY(kernel.regions[0].kind == isa::Region::Kind::Prologue);
    QVERIFY(kernel.regions[1].kind == isa::Region::Kind::Loop);
    QCOMPARE(QString::fromStdString(kernel.regions[1].label),
             QString("$L_outer"));
    QCOMPARE(kernel.regions[1].count(isa::InstructionClass::Mma), size_t(1));
    QCOMPARE(kernel.regions[1].count(isa::InstructionClass::GlobalLoad),
             size_t(1));
    QVERIFY(kernel.regions[2].kind == isa::Region::Kind::Between);
    QVERIFY(kernel.regions[3].kind == isa::Region::Kind::Loop);
    QVERIFY(kernel.regions[4].kind == isa::Region::Kind::Epilogue);
    QVERIFY(!isa::readPtx("no kernel here").ok());
    QVERIFY(!isa::readAmdgpu("").ok());
  }

private:
  std::vector<Variant> variants;
};

QTEST_GUILESS_MAIN(AssemblyTest)
#include "tst_assembly.moc"
