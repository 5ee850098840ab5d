// The banks of shared-memory accesses read from PTX (core/isa/SharedBanks),
// held to a brute-force count: seeded random access patterns (a row and a
// column from the thread index, an XOR swizzle, a row stride and padding,
// a kernel argument as the base or a shared symbol, 2- to 16-byte accesses
// and ldmatrix rows, workgroups of one to four dimensions' worth of lanes)
// are written as the integer PTX, or the AMDGPU assembly (a wave of 64, its
// work-item ids packed in v0, read2 pairs), a compiler writes for them; the
// reader's
// lanes and conflict degrees must be those the pattern gives when each
// lane's address is computed directly and every phase's banks counted word
// by word. And what the reader cannot know is said, with its line.
#include "core/isa/AmdgpuText.h"
#include "core/isa/SharedBanks.h"

#include <QTest>

#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace tilescope;

namespace {

struct Pattern {
  int64_t x = 128, y = 1;  // the workgroup's shape (.reqntid x, y, 1)
  int64_t rowShift = 2;    // row = (tid.x >> rowShift) & rowMask
  int64_t rowMask = 7;     //
  int64_t columnMask = 3;  // column = tid.x & columnMask
  int64_t swizzleMask = 0; // column ^= row & swizzleMask
  int64_t strideBytes = 0; // a row's bytes (padding included)
  int64_t accessBytes = 4; // 2, 4, 8, 16; 16 with ldmatrix: its rows
  int ldmatrix = 0;        // 0, or .x1 / .x2 / .x4
  bool store = false;
  bool argumentBase = false; // base: a kernel argument (else a symbol)
  int64_t offset = 0;        // the access's immediate offset
  int64_t yStrideBytes = 0;  // tid.y adds tid.y x this
};

// Each lane's byte address, computed directly from the pattern (the base
// a symbol at 0, or an argument taken as 0).
int64_t addressOf(const Pattern &p, int64_t lane) {
  const int64_t tx = lane % p.x, ty = (lane / p.x) % p.y;
  const int64_t row = (tx >> p.rowShift) & p.rowMask;
  const int64_t column = (tx & p.columnMask) ^ (row & p.swizzleMask);
  return row * p.strideBytes + column * p.accessBytes + ty * p.yStrideBytes +
         p.offset;
}

// The brute force: lanes in phases of as many as 128 bytes of banks serve
// (8 of 16 bytes, 16 of 8, all 32 of 4 or less; ldmatrix: its 8 rows a
// matrix), each phase taking as many passes as the most distinct 4-byte
// words one of the 32 banks holds.
std::vector<int64_t> bruteForce(const Pattern &p, int64_t lanes) {
  const int64_t perPhase =
      std::min<int64_t>(32, std::max<int64_t>(1, 128 / p.accessBytes));
  std::map<int64_t, std::map<int64_t, std::set<int64_t>>> words;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    const int64_t first = addressOf(p, lane);
    for (int64_t byte = first; byte < first + p.accessBytes; ++byte)
      words[lane / perPhase][(byte / 4) % 32].insert(byte / 4);
  }
  std::vector<int64_t> degrees;
  for (const auto &[phase, banks] : words) {
    size_t worst = 0;
    for (const auto &[bank, held] : banks)
      worst = std::max(worst, held.size());
    degrees.push_back(static_cast<int64_t>(worst));
  }
  return degrees;
}

const char *typeOf(int64_t bytes) {
  switch (bytes) {
  case 2:
    return "b16";
  case 4:
    return "b32";
  case 8:
    return "v2.b32";
  default:
    return "v4.b32";
  }
}

// The pattern as a kernel: the integer arithmetic a compiler writes for
// it (and a few statements that are no address's part).
std::string ptxOf(const Pattern &p) {
  std::ostringstream s;
  s << ".version 8.0\n.target sm_90\n.address_size 64\n"
    << ".extern .shared .align 16 .b8 __dynamic_shared_memory__[];\n"
    << ".visible .entry k(\n\t.param .u64 k_param_0\n)\n"
    << ".reqntid " << p.x << ", " << p.y << ", 1\n{\n"
    << "\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .f32 %f<4>;\n"
    << "\tld.param.u64 %rd1, [k_param_0];\n"
    << "\tmov.u32 %r1, %tid.x;\n"
    << "\tmov.u32 %r2, %tid.y;\n"
    << "\tmov.u32 %r3, %ctaid.x;\n"
    << "\tshr.u32 %r4, %r1, " << p.rowShift << ";\n"
    << "\tand.b32 %r5, %r4, " << p.rowMask << ";\n"
    << "\tand.b32 %r6, %r1, " << p.columnMask << ";\n"
    << "\tand.b32 %r7, %r5, " << p.swizzleMask << ";\n"
    << "\txor.b32 %r8, %r6, %r7;\n"
    << "\tmul.lo.s32 %r9, %r8, " << p.accessBytes << ";\n"
    << "\tmad.lo.s32 %r10, %r5, " << p.strideBytes << ", %r9;\n"
    << "\tmad.lo.s32 %r11, %r2, " << p.yStrideBytes << ", %r10;\n"
    << "\tcvt.u64.u32 %rd2, %r11;\n"
    << "\tcvt.rn.f32.u32 %f1, %r3;\n";
  if (p.argumentBase)
    s << "\tadd.s64 %rd3, %rd1, %rd2;\n";
  else
    s << "\tmov.u64 %rd4, __dynamic_shared_memory__;\n"
      << "\tadd.s64 %rd3, %rd4, %rd2;\n";
  s << "$L__BB0_1:\n\tbar.sync 0;\n";
  const std::string address = "[%rd3+" + std::to_string(p.offset) + "]";
  if (p.ldmatrix)
    s << "\tldmatrix.sync.aligned.m8n8.x" << p.ldmatrix
      << ".shared.b16 {%r20, %r21, %r22, %r23}, " << address << ";\n";
  else if (p.store)
    s << "\tst.shared." << typeOf(p.accessBytes) << " " << address
      << ", {%r12, %r13};\n";
  else
    s << "\tld.shared." << typeOf(p.accessBytes) << " {%r20, %r21}, " << address
      << ";\n";
  s << "\tadd.s32 %r3, %r3, 1;\n\tbra.uni $L__BB0_1;\n}\n";
  return s.str();
}

// The pattern as AMDGPU assembly: v0 the work-item ids (x | y << 10 where
// the workgroup has a y), the address in a VGPR, a kernel argument in an
// SGPR pair loaded from the kernarg segment; `read2` makes the access a
// ds_read2_b32 at `offset` and `offset` + 64 elements' bytes.
std::string amdgpuOf(const Pattern &p, bool read2) {
  std::ostringstream s;
  const bool packed = p.y > 1;
  s << "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
    << "\t.text\n\t.type k,@function\nk:\n"
    << "\ts_load_dwordx2 s[2:3], s[0:1], 0x0\n"
    << "\ts_waitcnt lgkmcnt(0)\n"
    << "\tv_and_b32_e32 v1, 0x3ff, v0\n"
    << "\tv_bfe_u32 v2, v0, 10, 10\n"
    << "\tv_lshrrev_b32_e32 v3, " << p.rowShift << ", v1\n"
    << "\tv_and_b32_e32 v4, " << p.rowMask << ", v3\n"
    << "\tv_and_b32_e32 v5, " << p.columnMask << ", v1\n"
    << "\tv_and_b32_e32 v6, " << p.swizzleMask << ", v4\n"
    << "\tv_xor_b32_e32 v7, v5, v6\n"
    << "\tv_mul_u32_u24_e32 v8, " << p.accessBytes << ", v7\n"
    << "\ts_movk_i32 s4, 0x" << std::hex << p.strideBytes << std::dec << "\n"
    << "\tv_mad_u32_u24 v9, v4, s4, v8\n"
    << "\tv_mov_b32_e32 v10, " << p.yStrideBytes << "\n"
    << "\tv_mad_u32_u24 v11, v2, v10, v9\n"
    << "\tv_cvt_f32_u32_e32 v12, v1\n";
  if (p.argumentBase)
    s << "\tv_add_u32_e32 v11, s2, v11\n";
  s << ".LBB0_1:\n\ts_barrier\n";
  if (read2) {
    s << "\tds_read2_b32 v[20:21], v11 offset0:" << p.offset / 4
      << " offset1:" << p.offset / 4 + 64 << "\n";
  } else {
    const char *type = p.accessBytes == 2   ? "b16"
                       : p.accessBytes == 4 ? "b32"
                       : p.accessBytes == 8 ? "b64"
                                            : "b128";
    if (p.store)
      s << "\tds_write_" << type << " v11, v[20:23] offset:" << p.offset
        << "\n";
    else
      s << "\tds_read_" << type << " v[20:23], v11 offset:" << p.offset << "\n";
  }
  s << "\ts_cbranch_scc1 .LBB0_1\n\ts_endpgm\n.Lfunc_end0:\n"
    << "\t.amdhsa_kernel k\n\t\t.amdhsa_system_vgpr_workitem_id "
    << (packed ? 1 : 0) << "\n\t.end_amdhsa_kernel\n"
    << "\t.amdgpu_metadata\n---\namdhsa.kernels:\n"
    << "  - .name: k\n    .reqd_workgroup_size:\n      - " << p.x
    << "\n      - " << p.y << "\n      - 1\n    .wavefront_size: 64\n"
    << "\t.end_amdgpu_metadata\n";
  return s.str();
}

Pattern randomPattern(std::mt19937 &random) {
  auto pick = [&](std::initializer_list<int64_t> values) {
    return *(values.begin() + random() % values.size());
  };
  Pattern p;
  const int64_t shape = pick({0, 1, 2});
  p.x = shape == 0 ? pick({32, 64, 128, 256}) : pick({8, 16});
  p.y = shape == 0 ? 1 : pick({2, 4, 8});
  p.ldmatrix = static_cast<int>(pick({0, 0, 0, 1, 2, 4}));
  p.accessBytes = p.ldmatrix ? 16 : pick({2, 4, 8, 16});
  p.store = !p.ldmatrix && random() % 2;
  p.rowShift = pick({0, 1, 2, 3, 4});
  p.rowMask = pick({1, 3, 7, 15, 31});
  p.columnMask = pick({0, 1, 3, 7});
  p.swizzleMask = pick({0, 0, 1, 3, 7});
  // A row holds its columns; padded rows, or rows of a power of two.
  const int64_t columns = p.columnMask + 1;
  p.strideBytes = columns * p.accessBytes * pick({1, 2, 4, 8}) +
                  pick({0, 0, 4, 8, 16}) * (p.accessBytes >= 4 ? 1 : 0);
  p.yStrideBytes = pick({0, 256, 264, 512});
  p.offset = pick({0, 16, 64, 2112}) / p.accessBytes * p.accessBytes;
  p.argumentBase = random() % 4 == 0;
  return p;
}

std::string describe(const Pattern &p) {
  std::ostringstream s;
  s << "wg " << p.x << "x" << p.y << " row (tid>>" << p.rowShift << ")&"
    << p.rowMask << " col tid&" << p.columnMask << " ^ row&" << p.swizzleMask
    << " stride " << p.strideBytes << " y-stride " << p.yStrideBytes
    << " bytes " << p.accessBytes << (p.ldmatrix ? " ldmatrix.x" : "")
    << (p.ldmatrix ? std::to_string(p.ldmatrix) : "")
    << (p.store ? " store" : "") << (p.argumentBase ? " argument base" : "")
    << " +" << p.offset;
  return s.str();
}

} // namespace

class SharedBanksTest : public QObject {
  Q_OBJECT

private slots:
  void degreesAgreeWithABruteForceCount() {
    std::mt19937 random(20261205);
    const layout::BankModel model = layout::BankModel::forArch("sm_90");
    std::set<int64_t> worst; // the cases reach free and conflicting phases
    for (int i = 0; i < 400; ++i) {
      const Pattern p = randomPattern(random);
      const std::string where =
          "case " + std::to_string(i) + ": " + describe(p);
      const auto kernels = isa::sharedBanksOfPtx(ptxOf(p), model);
      QVERIFY2(kernels.size() == 1, where.c_str());
      const isa::KernelBanks &kernel = kernels.front();
      QCOMPARE(kernel.workgroupX, p.x);
      QCOMPARE(kernel.workgroupY, p.y);
      QVERIFY2(kernel.accesses.size() == 1, where.c_str());
      const isa::SharedAccess &access = kernel.accesses.front();
      QVERIFY2(access.resolved, (where + ": " + access.why).c_str());
      QCOMPARE(access.uniformBaseAssumed, p.argumentBase);
      QCOMPARE(access.store, p.store);
      QCOMPARE(access.accessBytes, p.accessBytes);
      const int64_t lanes =
          std::min<int64_t>(p.ldmatrix ? 8 * p.ldmatrix : 32, p.x * p.y);
      QVERIFY2(access.addresses.size() == size_t(lanes), where.c_str());
      for (const layout::LaneAddress &lane : access.addresses)
        QVERIFY2(lane.address == addressOf(p, lane.lane),
                 (where + ": lane " + std::to_string(lane.lane) + " at " +
                  std::to_string(lane.address) + ", not " +
                  std::to_string(addressOf(p, lane.lane)))
                     .c_str());
      QVERIFY2(
          access.degrees.perPhase == bruteForce(p, lanes),
          (where + ": worst " + std::to_string(access.degrees.worst)).c_str());
      worst.insert(access.degrees.worst);
    }
    QVERIFY(worst.count(1) && worst.count(2) && *worst.rbegin() >= 8);
  }

  // The same patterns as AMDGPU assembly, a wave of 64 lanes (two phases
  // of 4-byte accesses), and ds_read2_b32 as its two accesses.
  void ldsDegreesAgreeWithABruteForceCount() {
    std::mt19937 random(20261206);
    const layout::BankModel model = layout::BankModel::forArch("gfx942");
    std::set<int64_t> worst;
    for (int i = 0; i < 400; ++i) {
      Pattern p = randomPattern(random);
      p.ldmatrix = 0;
      const bool read2 = random() % 4 == 0;
      if (read2) {
        p.accessBytes = 4;
        p.store = false;
      }
      p.strideBytes = std::min<int64_t>(p.strideBytes, 0x7fff);
      const std::string where = "case " + std::to_string(i) + ": " +
                                describe(p) + (read2 ? " read2" : "");
      const auto kernels = isa::sharedBanksOfAmdgpu(amdgpuOf(p, read2), model);
      QVERIFY2(kernels.size() == 1, where.c_str());
      const isa::KernelBanks &kernel = kernels.front();
      QCOMPARE(kernel.subgroupSize, int64_t(64));
      QVERIFY2(kernel.accesses.size() == 1, where.c_str());
      const isa::SharedAccess &access = kernel.accesses.front();
      QVERIFY2(access.resolved, (where + ": " + access.why).c_str());
      QCOMPARE(access.uniformBaseAssumed, p.argumentBase);
      QCOMPARE(access.store, p.store);
      const int64_t lanes = std::min<int64_t>(64, p.x * p.y);
      std::vector<int64_t> expected = bruteForce(p, lanes);
      if (read2) {
        Pattern second = p;
        second.offset += 64 * 4;
        const std::vector<int64_t> more = bruteForce(second, lanes);
        expected.insert(expected.end(), more.begin(), more.end());
      }
      QVERIFY2(access.addresses.size() == size_t(lanes * (read2 ? 2 : 1)),
               where.c_str());
      for (size_t k = 0; k < access.addresses.size(); ++k) {
        const layout::LaneAddress &lane = access.addresses[k];
        const int64_t extra = k >= size_t(lanes) ? 64 * 4 : 0;
        QVERIFY2(lane.address == addressOf(p, lane.lane) + extra,
                 (where + ": lane " + std::to_string(lane.lane) + " at " +
                  std::to_string(lane.address))
                     .c_str());
      }
      QVERIFY2(
          access.degrees.perPhase == expected,
          (where + ": worst " + std::to_string(access.degrees.worst)).c_str());
      worst.insert(access.degrees.worst);
    }
    QVERIFY(worst.count(1) && worst.count(2) && *worst.rbegin() >= 8);
  }

  // What rests on a loaded value, or on arithmetic of an argument mixed
  // with each lane's index, is said unresolved, naming its line.
  void whatCannotBeKnownIsSaid() {
    const std::string ptx =
        ".extern .shared .align 16 .b8 smem[];\n"
        ".visible .entry k(\n.param .u64 p\n)\n.reqntid 64, 1, 1\n{\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tld.global.u32 %r2, [%rd1];\n"
        "\tadd.s32 %r3, %r1, %r2;\n"
        "\tcvt.u64.u32 %rd2, %r3;\n"
        "\tld.shared.b32 %r4, [%rd2];\n"
        "\tcvt.u32.u64 %r5, %rd1;\n"
        "\tmul.lo.s32 %r6, %r5, %r1;\n"
        "\tcvt.u64.u32 %rd3, %r6;\n"
        "\tst.shared.b32 [%rd3], %r4;\n"
        "}\n";
    const auto kernels =
        isa::sharedBanksOfPtx(ptx, layout::BankModel::forArch("sm_90"));
    QCOMPARE(kernels.size(), size_t(1));
    const auto &accesses = kernels.front().accesses;
    QCOMPARE(accesses.size(), size_t(2));
    QVERIFY(!accesses[0].resolved);
    QVERIFY2(accesses[0].why.find("line 9") != std::string::npos &&
                 accesses[0].why.find("loaded") != std::string::npos,
             accesses[0].why.c_str());
    QVERIFY(!accesses[1].resolved);
    QVERIFY2(accesses[1].why.find("line 14") != std::string::npos,
             accesses[1].why.c_str());
    QCOMPARE(kernels.front().resolvedCount(), size_t(0));
  }

  // A shape or wave size no GPU runs is not taken from a kernel's text: the
  // readers run at most 1024 lanes (a '.wavefront_size: 50000000' without a
  // workgroup shape had `isa` run 50 million, 23 GB before the kernel killed
  // it), and a register number past any register file names none.
  void shapesNoGpuRunsAreNotTaken() {
    Pattern p;
    p.x = 128;
    std::string amd = amdgpuOf(p, false);
    for (const auto &[from, to] :
         {std::pair<std::string, std::string>{".wavefront_size: 64",
                                              ".wavefront_size: 50000000"},
          {"      - 128\n      - 1\n      - 1\n",
           "      - 100000\n      - 100000\n      - 1\n"}}) {
      QVERIFY2(amd.find(from) != std::string::npos, from.c_str());
      amd.replace(amd.find(from), from.size(), to);
    }
    const auto amdKernels =
        isa::sharedBanksOfAmdgpu(amd, layout::BankModel::forArch("gfx942"));
    QCOMPARE(amdKernels.size(), size_t(1));
    QCOMPARE(amdKernels.front().subgroupSize, int64_t(64));
    QCOMPARE(amdKernels.front().workgroupX, int64_t(0)); // not stated
    QCOMPARE(amdKernels.front().accesses.size(), size_t(1));
    QVERIFY(amdKernels.front().accesses.front().addresses.size() <= 64);

    std::string ptx = ptxOf(p);
    const std::string shape = ".reqntid 128, 1, 1";
    QVERIFY(ptx.find(shape) != std::string::npos);
    ptx.replace(ptx.find(shape), shape.size(), ".reqntid 1024, 1, 1444");
    const auto ptxKernels =
        isa::sharedBanksOfPtx(ptx, layout::BankModel::forArch("sm_90"));
    QCOMPARE(ptxKernels.size(), size_t(1));
    QCOMPARE(ptxKernels.front().workgroupX, int64_t(0));

    QVERIFY(isa::amdgpuRegistersOf("v1023") ==
            std::vector<std::string>{"v1023"});
    QVERIFY(isa::amdgpuRegistersOf("v1024").empty());
    QVERIFY(isa::amdgpuRegistersOf("v[2000000:2000003]").empty());
    QCOMPARE(isa::amdgpuRegistersOf("a[0:3]").size(), size_t(4));
  }
};

QTEST_APPLESS_MAIN(SharedBanksTest)
#include "tst_shared_banks.moc"
