// The registers live at each instruction of AMDGPU assembly (core/isa/
// Liveness), held to a brute force: seeded random kernels of the
// instructions LLVM writes for GPU code (VALU and SALU arithmetic, carries,
// LDS and global loads and stores of register ranges, MFMAs on AGPRs), as
// straight code or a prologue, a loop and an epilogue, are walked along
// every path that runs the loop one to three times; a register is live at
// a point of a path where the path reads it later before writing it, and
// an instruction's count is the union over the paths and their points,
// which the reader's data-flow pass must give exactly. And IREE's own
// gfx942 matmul: its peak within what its metadata says it allocated.
#include "TestSupport.h"

#include "core/isa/Assembly.h"
#include "core/isa/Liveness.h"
#include "core/process/Process.h"
#include "core/service/CompileJob.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <set>
#include <sstream>

using namespace tilescope;

namespace {

struct Written {
  std::string text;
  std::set<std::string> writes, reads;
};

// A random instruction over v1..v15, a0..a7, s2..s7.
Written randomInstruction(std::mt19937 &random) {
  auto v = [&] { return "v" + std::to_string(1 + random() % 15); };
  auto s = [&] { return "s" + std::to_string(2 + random() % 6); };
  auto pair = [&](char file, int count, int &first) {
    first = file == 'a' ? static_cast<int>(random() % 2) * 4
                        : 1 + static_cast<int>(random() % 7) * 2;
    return std::string(1, file) + "[" + std::to_string(first) + ":" +
           std::to_string(first + count - 1) + "]";
  };
  auto range = [](char file, int first, int count) {
    std::set<std::string> names;
    for (int r = first; r < first + count; ++r)
      names.insert(std::string(1, file) + std::to_string(r));
    return names;
  };
  Written w;
  const std::string d = v(), a = v(), b = v();
  switch (random() % 10) {
  case 0:
    w = {"v_add_u32_e32 " + d + ", " + a + ", " + b, {d}, {a, b}};
    break;
  case 1:
    w = {"v_mov_b32_e32 " + d + ", 0x10", {d}, {}};
    break;
  case 2: {
    const std::string c = s();
    w = {"v_mad_u32_u24 " + d + ", " + a + ", " + c + ", " + b, {d}, {a, c, b}};
    break;
  }
  case 3:
    w = {"v_lshl_or_b32 " + d + ", " + a + ", 2, " + b, {d}, {a, b}};
    break;
  case 4:
    w = {"ds_write_b32 " + a + ", " + b + " offset:16", {}, {a, b}};
    break;
  case 5: {
    int first = 0;
    const std::string to = pair('v', 2, first);
    w = {"ds_read_b64 " + to + ", " + a, range('v', first, 2), {a}};
    break;
  }
  case 6: {
    int first = 0, from = 0;
    const std::string to = pair('v', 2, first);
    const std::string address = pair('v', 2, from);
    w = {"global_load_dwordx2 " + to + ", " + address + ", off",
         range('v', first, 2), range('v', from, 2)};
    break;
  }
  case 7:
    w = {"v_add_co_u32_e32 " + d + ", vcc, " + a + ", " + b, {d}, {a, b}};
    break;
  case 8: {
    const std::string x = s(), y = s(), z = s();
    w = {"s_add_u32 " + x + ", " + y + ", " + z, {x}, {y, z}};
    break;
  }
  default: {
    int acc = 0, lhs = 0, rhs = 0;
    const std::string c = pair('a', 4, acc);
    const std::string l = pair('v', 2, lhs), r = pair('v', 2, rhs);
    std::set<std::string> reads = range('v', lhs, 2);
    for (const std::string &n : range('v', rhs, 2))
      reads.insert(n);
    for (const std::string &n : range('a', acc, 4))
      reads.insert(n);
    w = {"v_mfma_f32_16x16x16_f16 " + c + ", " + l + ", " + r + ", " + c,
         range('a', acc, 4), reads};
    break;
  }
  }
  return w;
}

struct Program {
  std::vector<Written> prologue, body, epilogue; // body empty: straight
  std::string text;
  std::vector<size_t> lines; // of prologue, body, epilogue in order
};

Program randomProgram(std::mt19937 &random) {
  Program p;
  const bool loop = random() % 2;
  for (int i = 0, n = 3 + random() % 8; i < n; ++i)
    p.prologue.push_back(randomInstruction(random));
  if (loop)
    for (int i = 0, n = 2 + random() % 8; i < n; ++i)
      p.body.push_back(randomInstruction(random));
  for (int i = 0, n = 1 + random() % 6; i < n; ++i)
    p.epilogue.push_back(randomInstruction(random));
  std::ostringstream s;
  size_t line = 1;
  auto put = [&](const std::string &text) {
    s << text << "\n";
    ++line;
  };
  put("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"");
  put("\t.type k,@function");
  put("k:");
  for (const Written &w : p.prologue) {
    p.lines.push_back(line);
    put("\t" + w.text);
  }
  if (loop) {
    put(".LBB0_1:");
    for (const Written &w : p.body) {
      p.lines.push_back(line);
      put("\t" + w.text);
    }
    put("\ts_cbranch_scc1 .LBB0_1");
  }
  for (const Written &w : p.epilogue) {
    p.lines.push_back(line);
    put("\t" + w.text);
  }
  put("\ts_endpgm");
  put(".Lfunc_end0:");
  p.text = s.str();
  return p;
}

// The brute force: every path (the loop run one to three times), each
// point's live set, unioned per instruction; then each instruction's
// count, as the reader counts it.
std::map<size_t, isa::LiveCount> bruteForce(const Program &p) {
  const size_t nP = p.prologue.size(), nB = p.body.size();
  std::vector<std::vector<size_t>> paths; // indices into p.lines
  auto straight = [&](size_t times) {
    std::vector<size_t> path;
    for (size_t i = 0; i < nP; ++i)
      path.push_back(i);
    for (size_t t = 0; t < times; ++t)
      for (size_t i = 0; i < nB; ++i)
        path.push_back(nP + i);
    for (size_t i = 0; i < p.epilogue.size(); ++i)
      path.push_back(nP + nB + i);
    return path;
  };
  if (nB == 0)
    paths.push_back(straight(0));
  else
    for (size_t times = 1; times <= 3; ++times)
      paths.push_back(straight(times));
  auto at = [&](size_t index) -> const Written & {
    return index < nP        ? p.prologue[index]
           : index < nP + nB ? p.body[index - nP]
                             : p.epilogue[index - nP - nB];
  };
  const size_t n = p.lines.size();
  std::vector<std::set<std::string>> in(n), out(n);
  for (const std::vector<size_t> &path : paths)
    for (size_t position = 0; position < path.size(); ++position) {
      // Live into this point: read later on the path before written.
      auto liveFrom = [&](size_t from) {
        std::set<std::string> live, written;
        for (size_t q = from; q < path.size(); ++q) {
          const Written &w = at(path[q]);
          for (const std::string &r : w.reads)
            if (!written.count(r))
              live.insert(r);
          for (const std::string &r : w.writes)
            written.insert(r);
        }
        return live;
      };
      for (const std::string &r : liveFrom(position))
        in[path[position]].insert(r);
      for (const std::string &r : liveFrom(position + 1))
        out[path[position]].insert(r);
    }
  std::map<size_t, isa::LiveCount> counts;
  auto count = [](const std::set<std::string> &set) {
    isa::LiveCount c;
    for (const std::string &r : set) {
      c.vgprs += r[0] == 'v';
      c.agprs += r[0] == 'a';
      c.sgprs += r[0] == 's';
    }
    return c;
  };
  for (size_t i = 0; i < n; ++i) {
    std::set<std::string> needed = out[i];
    for (const std::string &r : at(i).writes)
      needed.insert(r);
    const isa::LiveCount before = count(in[i]), after = count(needed);
    counts[p.lines[i]] =
        before.vectorRegisters() >= after.vectorRegisters() ? before : after;
  }
  return counts;
}

std::string describe(const isa::LiveCount &c) {
  return std::to_string(c.vgprs) + "v " + std::to_string(c.agprs) + "a " +
         std::to_string(c.sgprs) + "s";
}

} // namespace

class LivenessTest : public QObject {
  Q_OBJECT

private slots:
  void liveRegistersAgreeWithEveryPath() {
    std::mt19937 random(20261205);
    size_t loops = 0;
    for (int i = 0; i < 300; ++i) {
      const Program program = randomProgram(random);
      loops += !program.body.empty();
      const auto kernels = isa::livenessOfAmdgpu(program.text);
      QVERIFY2(kernels.size() == 1, program.text.c_str());
      const auto expected = bruteForce(program);
      for (const auto &[line, want] : expected) {
        auto got = kernels.front().atLine.find(line);
        QVERIFY2(got != kernels.front().atLine.end(),
                 ("no count at line " + std::to_string(line)).c_str());
        const bool same = got->second.vgprs == want.vgprs &&
                          got->second.agprs == want.agprs &&
                          got->second.sgprs == want.sgprs;
        QVERIFY2(same, ("case " + std::to_string(i) + " line " +
                        std::to_string(line) + ": " + describe(got->second) +
                        ", brute force " + describe(want) + "\n" + program.text)
                           .c_str());
      }
    }
    QVERIFY(loops > 100);
  }

  // A chain of branches, each to the one before it (a hostile file's):
  // what is live at its start reaches its end through every link, in a
  // pass as long as the chain (the sweep over all instructions took one
  // pass a link, the chain's square in all).
  void aChainOfBranchesIsFollowedToItsEnd() {
    const int n = 100000;
    std::string text = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                       "\t.type k,@function\nk:\n.L0:\n"
                       "\tv_mov_b32_e32 v0, v1\n";
    for (int i = 1; i <= n; ++i)
      text += ".L" + std::to_string(i) + ":\n\ts_branch .L" +
              std::to_string(i - 1) + "\n";
    text += "\ts_endpgm\n.Lfunc_end0:\n";
    const auto kernels = isa::livenessOfAmdgpu(text);
    QCOMPARE(kernels.size(), size_t(1));
    const auto &atLine = kernels.front().atLine;
    QCOMPARE(atLine.size(), size_t(n + 2));
    // The last branch's line: v1, live from the first instruction.
    const size_t last = 5 + 2 * static_cast<size_t>(n);
    QVERIFY(atLine.count(last));
    QCOMPARE(atLine.at(last).vgprs, 1);
  }

  // IREE's gfx942 matmul: every instruction counted, the peak within what
  // the metadata says the kernel allocated and at least 90% of it (the
  // register allocator packs what is live: 131 of 132 here).
  void ireesKernelPeaksWithinItsAllocation() {
    QTemporaryDir dir;
    const std::filesystem::path folder = dir.path().toStdString();
    service::CompileRequest request{
        test::sourceDir() /
            "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
        folder / "module.vmfb",
        *service::compileTarget("gfx942"),
        /*inputCarriesTarget=*/true,
        {"--iree-hal-dump-executable-intermediates-to=" +
         (folder / "intermediates").string()}};
    auto spec = service::compileCommand(test::projectIree(), request);
    QVERIFY(spec.ok());
    const process::ProcessResult compiled = process::runProcess(*spec);
    QVERIFY2(compiled.succeeded(), compiled.standardError.c_str());
    const auto files = service::compileArtifactsIn(folder).assembly();
    QCOMPARE(files.size(), size_t(1));
    auto listing = isa::readAssemblyFile(files.front());
    QVERIFY(listing.ok());
    const isa::Kernel &kernel = listing->kernels.front();
    QVERIFY(kernel.liveness.has_value());
    const isa::KernelLiveness &live = *kernel.liveness;
    size_t instructions = 0;
    for (const isa::Region &region : kernel.regions)
      instructions += region.instructions.size();
    QCOMPARE(live.atLine.size(), instructions);
    QVERIFY(live.allocatedVgprs > 0);
    QVERIFY2(live.peak.vgprs <= live.allocatedVgprs &&
                 10 * live.peak.vgprs >= 9 * live.allocatedVgprs,
             isa::describe(live).c_str());
    QVERIFY2(live.allocatedAgprs >= 0 && live.peak.agprs <= live.allocatedAgprs,
             isa::describe(live).c_str());
  }
};

QTEST_APPLESS_MAIN(LivenessTest)
#include "tst_liveness.moc"
