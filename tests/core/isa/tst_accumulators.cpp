// From a cell of the accumulator picture to the instructions that compute
// and store it, held to IREE itself: matmuls, batch matmuls and an IGEMM
// convolution compiled by the pinned iree-compile for sm_90 (mma.sync) and
// gfx942 (MFMA), with IREE's own configs and seeded candidates (subgroup
// tiles, reduction steps). For every element of the first workgroup's
// output tile, the kernel's own stores (their addresses run for every
// thread, their data followed back to an MMA's result register) must name
// the thread, the accumulator register and one intrinsic tile per MMA that
// the layout view draws from the config and IREE's fragment tables
// (ForallDistribution::accumulatorOwnerOf): each element stored once, by
// that thread, from that register of that MMA. And the other way in: every
// byte of every MMA's A and B operands, followed back through the shared
// loads and stores to a global load, must come from the LHS and the RHS
// binding, each element at the place of one intrinsic tile that IREE's
// fragment table gives its lane and register. For sm_90 the SASS of the
// same kernel is linked to the same cells through its PTX lines.
#include "CompiledAssembly.h"
#include "TestSupport.h"

#include "core/document/ConfigReading.h"
#include "core/document/Document.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/iree/DocumentParser.h"
#include "core/isa/Assembly.h"
#include "core/isa/OperandFlow.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/service/Sass.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <random>
#include <regex>
#include <set>
#include <tuple>

using namespace tilescope;

namespace {

struct Case {
  std::string target; // "sm_90", "gfx942"
  std::string example;
  // Replacements of the config's lists; empty: IREE's own.
  std::string subgroup, reduction;
  std::string name() const {
    return target + " " + example +
           (subgroup.empty()
                ? " (IREE's config)"
                : " subgroup " + subgroup + " reduction " + reduction);
  }
};

std::string folderOf(const std::string &target) {
  return target == "sm_90" ? "cuda_sm_90" : "rocm_gfx942";
}

std::string caseText(const Case &c) {
  std::string text = test::readFile(test::examplesDir() / folderOf(c.target) /
                                    (c.example + "_dispatch_0.benchmark.mlir"));
  if (!c.subgroup.empty())
    text = std::regex_replace(text, std::regex(R"(subgroup = \[[0-9, ]+\])"),
                              "subgroup = " + c.subgroup);
  if (!c.reduction.empty())
    text = std::regex_replace(text, std::regex(R"(reduction = \[[0-9, ]+\])"),
                              "reduction = " + c.reduction);
  return text;
}

// "tensor<32x1024x1024xf32>" -> {32, 1024, 1024}.
std::vector<int64_t> shapeOf(const std::string &type) {
  std::vector<int64_t> shape;
  static const std::regex kDim(R"((\d+)x)");
  const std::string inside = type.substr(type.find('<') + 1);
  for (auto it = std::sregex_iterator(inside.begin(), inside.end(), kDim);
       it != std::sregex_iterator(); ++it)
    shape.push_back(std::stoll((*it)[1].str()));
  return shape;
}

// The MMAs' A and B operands followed back to the bindings (OperandFlow),
// held to the intrinsic's fragments: every byte followed, A from the LHS
// (binding 0), B from the RHS (binding 1); for an operand laid out as its
// loops, the elements each lane holds for one subgroup's MMA are the ones
// the fragment table gives the lane, in one intrinsic tile whose corner is
// the same for every lane: for an MFMA in the fragment's register order,
// for mma.sync as a set (IREE's register order of its fragment is not the
// PTX operand's).
void checkOperands(const isa::KernelOperands &kernel,
                   const layout::MmaIntrinsic &intrinsic,
                   const config::IterationSpace &space,
                   const std::string &where) {
  const auto dims = config::inferContraction(space);
  QVERIFY2(dims && !dims->m.empty() && !dims->n.empty() && !dims->k.empty(),
           where.c_str());
  std::vector<const config::OperandAccess *> inputs;
  for (const config::OperandAccess &operand : space.operands)
    if (!operand.isOutput)
      inputs.push_back(&operand);
  QVERIFY2(inputs.size() >= 2, where.c_str());
  std::string why;
  const isa::CellLink link = isa::linkOperandCells(kernel, space, &why);
  // (operand, subgroup, MMA line) -> lane -> element -> its point (per loop).
  using Held = std::map<int64_t, std::vector<int64_t>>;
  std::map<std::tuple<int, int64_t, size_t>, std::map<int64_t, Held>> held;
  size_t mmas = 0;
  for (const isa::OperandMove &move : kernel.moves) {
    const bool a = move.kind == isa::OperandMoveKind::MmaA;
    if (!a && move.kind != isa::OperandMoveKind::MmaB)
      continue;
    ++mmas;
    const std::string here = where + ": line " + std::to_string(move.line) +
                             " " + isa::nameOf(move.kind);
    QVERIFY2(move.followed() == move.bytes && move.why.empty(),
             (here + ": " + std::to_string(move.followed()) + " of " +
              std::to_string(move.bytes) + " bytes followed: " + move.why)
                 .c_str());
    QVERIFY2(move.elementBytes > 0, here.c_str());
    const size_t input = a ? 0 : 1;
    const config::OperandAccess &access = *inputs[input];
    bool laidOut = access.shape.size() == access.dims.size();
    for (size_t d = 0; laidOut && d < access.dims.size(); ++d)
      laidOut =
          access.dims[d] >= 0 &&
          space.bounds[static_cast<size_t>(access.dims[d])] == access.shape[d];
    QVERIFY2(link.cellsOfLine.count(move.line) || !laidOut, here.c_str());
    for (const isa::MovedBytes &run : move.moved) {
      QVERIFY2(run.binding == static_cast<int>(input),
               (here + ": thread " + std::to_string(run.thread) +
                " reads binding " + std::to_string(run.binding))
                   .c_str());
      for (int64_t p = 0; laidOut && p < run.bytes; p += move.elementBytes) {
        const auto at =
            isa::coordinatesOf(run.offset + p, move.elementBytes, access.shape);
        QVERIFY2(!at.empty(), here.c_str());
        std::vector<int64_t> loops(space.rank(), -1);
        for (size_t d = 0; d < at.size(); ++d)
          loops[static_cast<size_t>(access.dims[d])] = at[d];
        held[{static_cast<int>(input), run.thread / intrinsic.subgroupSize,
              move.line}][run.thread % intrinsic.subgroupSize]
            [(run.position + p) / move.elementBytes] = loops;
      }
    }
  }
  QVERIFY2(mmas > 0, where.c_str());
  // A matmul's inputs are laid out as their loops (an IGEMM's are read
  // as the convolution's: checkIgemmOperands).
  QVERIFY2(why.empty(), (where + ": " + why).c_str());
  QVERIFY2(!held.empty(), where.c_str());
  for (const auto &[key, lanes] : held) {
    const bool a = std::get<0>(key) == 0;
    // The intrinsic's fragment: LHS [M, K], RHS [K, N].
    const auto row = static_cast<size_t>(a ? dims->m.back() : dims->k.back());
    const auto column =
        static_cast<size_t>(a ? dims->k.back() : dims->n.back());
    std::vector<int64_t> corner = lanes.begin()->second.begin()->second;
    for (const auto &[lane, points] : lanes)
      for (const auto &[element, point] : points) {
        corner[row] = std::min(corner[row], point[row]);
        corner[column] = std::min(corner[column], point[column]);
      }
    const std::string here =
        where + ": line " + std::to_string(std::get<2>(key)) + " MMA " +
        (a ? "A" : "B") + " subgroup " + std::to_string(std::get<1>(key));
    QCOMPARE(static_cast<int64_t>(lanes.size()), intrinsic.subgroupSize);
    const bool inOrder = intrinsic.name.starts_with("MFMA");
    for (const auto &[lane, points] : lanes) {
      const auto fragment = intrinsic.laneElements(
          a ? layout::MmaOperand::Lhs : layout::MmaOperand::Rhs, lane);
      std::set<std::vector<int64_t>> drawn, holds;
      for (size_t e = 0; e < fragment.size(); ++e) {
        std::vector<int64_t> point = corner;
        point[row] += fragment[e][0];
        point[column] += fragment[e][1];
        drawn.insert(point);
        auto at = points.find(static_cast<int64_t>(e));
        QVERIFY2(!inOrder || (at != points.end() && at->second == point),
                 (here + " lane " + std::to_string(lane) + " register " +
                  "element " + std::to_string(e) +
                  ": not the fragment's element")
                     .c_str());
      }
      for (const auto &[element, point] : points)
        holds.insert(point);
      QVERIFY2(holds == drawn, (here + " lane " + std::to_string(lane) +
                                ": holds other elements than its fragment's")
                                   .c_str());
    }
  }
}

// An IGEMM convolution's MMA operands, followed back: every byte of A from
// the input image (binding 0) and of B from the filter (binding 1), each
// element a cell at every IGEMM point that reads it (an image pixel under
// each filter tap that lands on it), and for one subgroup's MMA one
// intrinsic tile whose points, placed as IREE's fragment table places each
// lane's elements, are among the points of the elements the lane holds
// (for an MFMA in register order, for mma.sync as a set).
void checkIgemmOperands(const isa::KernelOperands &kernel,
                        const layout::MmaIntrinsic &intrinsic,
                        const config::IterationSpace &space,
                        const config::ImplicitGemm &igemm,
                        const std::string &where) {
  const auto dims = config::inferContraction(space);
  QVERIFY2(dims && !dims->m.empty() && !dims->n.empty() && !dims->k.empty(),
           where.c_str());
  std::string why;
  const isa::CellLink link = isa::linkOperandCells(kernel, space, &why, &igemm);
  QVERIFY2(why.empty(), (where + ": " + why).c_str());
  using Points = std::set<std::vector<int64_t>>;
  // (operand, subgroup, MMA line) -> lane -> element -> its IGEMM points.
  std::map<std::tuple<int, int64_t, size_t>,
           std::map<int64_t, std::map<int64_t, Points>>>
      held;
  for (const isa::OperandMove &move : kernel.moves) {
    const bool a = move.kind == isa::OperandMoveKind::MmaA;
    if (!a && move.kind != isa::OperandMoveKind::MmaB)
      continue;
    const std::string here = where + ": line " + std::to_string(move.line) +
                             " " + isa::nameOf(move.kind);
    QVERIFY2(move.followed() == move.bytes && move.elementBytes > 0,
             (here + ": " + move.why).c_str());
    QVERIFY2(link.cellsOfLine.count(move.line), here.c_str());
    const int input = a ? 0 : 1;
    const config::OperandAccess &operand =
        igemm.convolution.operands[static_cast<size_t>(input)];
    for (const isa::MovedBytes &run : move.moved) {
      QVERIFY2(
          run.binding == input,
          (here + ": reads binding " + std::to_string(run.binding)).c_str());
      for (int64_t p = 0; p < run.bytes; p += move.elementBytes) {
        const auto element = isa::coordinatesOf(
            run.offset + p, move.elementBytes, operand.shape);
        const auto points =
            igemm.gemmPointsOf(static_cast<size_t>(input), element);
        QVERIFY2(!points.empty(),
                 (here + ": an element no point reads").c_str());
        held[{input, run.thread / intrinsic.subgroupSize, move.line}]
            [run.thread % intrinsic.subgroupSize]
            [(run.position + p) / move.elementBytes] =
                Points(points.begin(), points.end());
      }
    }
  }
  QVERIFY2(!held.empty(), where.c_str());
  const bool inOrder = intrinsic.name.starts_with("MFMA");
  for (const auto &[key, lanes] : held) {
    const bool a = std::get<0>(key) == 0;
    const auto row = static_cast<size_t>(a ? dims->m.back() : dims->k.back());
    const auto column =
        static_cast<size_t>(a ? dims->k.back() : dims->n.back());
    const std::string here =
        where + ": line " + std::to_string(std::get<2>(key)) + " MMA " +
        (a ? "A" : "B") + " subgroup " + std::to_string(std::get<1>(key));
    QCOMPARE(static_cast<int64_t>(lanes.size()), intrinsic.subgroupSize);
    const auto operand = a ? layout::MmaOperand::Lhs : layout::MmaOperand::Rhs;
    // The tile's corner: a point of the first lane's first element less
    // one of its fragment's offsets.
    std::set<std::vector<int64_t>> corners;
    const auto &[lane0, elements0] = *lanes.begin();
    for (const std::vector<int64_t> &point : elements0.begin()->second)
      for (const auto &offset : intrinsic.laneElements(operand, lane0)) {
        std::vector<int64_t> corner = point;
        corner[row] -= offset[0];
        corner[column] -= offset[1];
        corners.insert(corner);
      }
    auto placedAt = [&](const std::vector<int64_t> &corner) {
      for (const auto &[lane, elements] : lanes) {
        const auto fragment = intrinsic.laneElements(operand, lane);
        std::vector<std::vector<int64_t>> drawn;
        for (const auto &offset : fragment) {
          std::vector<int64_t> point = corner;
          point[row] += offset[0];
          point[column] += offset[1];
          drawn.push_back(point);
        }
        for (size_t e = 0; e < drawn.size(); ++e) {
          auto at = elements.find(static_cast<int64_t>(e));
          if (inOrder && (at == elements.end() || !at->second.count(drawn[e])))
            return false;
          bool anywhere = false;
          for (const auto &[element, points] : elements)
            anywhere = anywhere || points.count(drawn[e]);
          if (!anywhere)
            return false;
        }
        for (const auto &[element, points] : elements) {
          bool drawnOne = false;
          for (const std::vector<int64_t> &point : drawn)
            drawnOne = drawnOne || points.count(point);
          if (!drawnOne)
            return false;
        }
      }
      return true;
    };
    QVERIFY2(std::any_of(corners.begin(), corners.end(), placedAt),
             (here + ": no intrinsic tile places its lanes' elements as the "
                     "fragment table does")
                 .c_str());
  }
}

// The SASS of the kernel (ptxas and nvdisasm from the set-up) linked to
// the same cells through its PTX (ptxas's line table): each PTX line that
// moves or computes cells has SASS of its class with exactly its cells,
// one HMMA per mma.sync, every HMMA from an mma.sync, and the SASS links
// every cell the PTX links.
void checkSassCells(const std::filesystem::path &ptxFile,
                    const isa::Kernel &ptx, const isa::CellLink &ptxLink,
                    const std::string &where) {
  const service::SassFiles made = service::sassOf({ptxFile});
  QVERIFY2(made.files.size() == 1 && made.notes.empty(),
           (where + ": " +
            (made.notes.empty() ? std::string("no SASS") : made.notes.front()))
               .c_str());
  auto listing = isa::readAssemblyFile(made.files.front());
  QVERIFY2(listing.ok() && listing->kernels.size() == 1, where.c_str());
  const isa::Kernel &sass = listing->kernels.front();
  QCOMPARE(sass.name, ptx.name);
  const isa::PtxStatements statements(ptx);
  const isa::CellLink link = isa::sassCells(sass, statements, ptxLink);
  // PTX line -> the cells of the SASS compiled from it, and how many
  // HMMAs.
  std::map<size_t, std::set<std::vector<int64_t>>> cellsFrom;
  std::map<size_t, int> hmmas;
  for (const isa::Region &region : sass.regions)
    for (const isa::Instruction &i : region.instructions) {
      const std::string here =
          where + ": SASS line " + std::to_string(i.line) + " " + i.text;
      QVERIFY2(i.ptxLine > 0, (here + ": no PTX line").c_str());
      const isa::Instruction *statement = statements.of(i.ptxLine);
      const size_t from = statement ? statement->line : 0;
      if (i.kind == isa::InstructionClass::Mma) {
        QVERIFY2(statement && statement->mnemonic.starts_with("mma.sync"),
                 (here + ": from PTX line " + std::to_string(i.ptxLine) +
                  ", not an mma.sync")
                     .c_str());
        ++hmmas[from];
      }
      if (auto cells = link.cellsOfLine.find(i.line);
          cells != link.cellsOfLine.end())
        cellsFrom[from].insert(cells->second.begin(), cells->second.end());
    }
  for (const isa::Region &region : ptx.regions)
    for (const isa::Instruction &i : region.instructions) {
      const std::string here =
          where + ": PTX line " + std::to_string(i.line) + " " + i.mnemonic;
      if (i.kind == isa::InstructionClass::Mma)
        QVERIFY2(
            hmmas[i.line] == 1,
            (here + ": " + std::to_string(hmmas[i.line]) + " HMMAs").c_str());
      auto cells = ptxLink.cellsOfLine.find(i.line);
      if (cells == ptxLink.cellsOfLine.end())
        continue;
      const std::set<std::vector<int64_t>> want(cells->second.begin(),
                                                cells->second.end());
      QVERIFY2(cellsFrom[i.line] == want,
               (here + ": its SASS has " +
                std::to_string(cellsFrom[i.line].size()) + " of its " +
                std::to_string(want.size()) + " cells")
                   .c_str());
    }
  QCOMPARE(link.linesOfCell.size(), ptxLink.linesOfCell.size());
}

} // namespace

class AccumulatorsTest : public QObject {
  Q_OBJECT

private slots:
  void everyAccumulatorCellReachesItsMmaAndRegister_data() {
    QTest::addColumn<int>("index");
    cases.clear();
    std::mt19937 random(20261205);
    const std::vector<std::pair<int, int>> subgroups{{2, 4}, {4, 2}};
    const std::vector<int> reductions{2, 4, 8};
    auto list = [](std::vector<int> values) {
      std::string text;
      for (int v : values)
        text += (text.empty() ? "[" : ", ") + std::to_string(v);
      return text + "]";
    };
    for (const std::string target : {"sm_90", "gfx942"}) {
      for (const char *example :
           {"matmul_f16_1024", "batch_matmul_f16", "conv_3x3_f16"})
        cases.push_back({target, example, "", ""});
      for (int i = 0; i < 5; ++i) {
        const auto [m, n] = subgroups[random() % subgroups.size()];
        const int r = reductions[random() % reductions.size()];
        if (i < 3)
          cases.push_back(
              {target, "matmul_f16_1024", list({m, n, 0}), list({0, 0, r})});
        else
          cases.push_back({target, "batch_matmul_f16", list({0, m, n, 0}),
                           list({0, 0, 0, r})});
      }
    }
    for (size_t i = 0; i < cases.size(); ++i)
      QTest::newRow(cases[i].name().c_str()) << static_cast<int>(i);
  }

  void everyAccumulatorCellReachesItsMmaAndRegister() {
    QFETCH(int, index);
    const Case &c = cases[static_cast<size_t>(index)];
    const std::string where = c.name();
    QTemporaryDir dir;
    const std::string text = caseText(c);
    auto file =
        test::compiledAssembly(text, c.target, dir.path().toStdString());
    QVERIFY2(file.ok(),
             (where + ": " + (file.ok() ? "" : file.error())).c_str());
    auto listing = isa::readAssemblyFile(*file);
    QVERIFY2(listing.ok(), where.c_str());
    QCOMPARE(listing->kernels.size(), size_t(1));
    const isa::KernelAccumulators &kernel =
        listing->kernels.front().accumulators;

    // What the layout view draws: the config's subgroup distribution and
    // the intrinsic's fragment.
    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseText(text, "input.mlir");
    QVERIFY2(document.ok(), where.c_str());
    const document::Dispatch &dispatch = document->dispatches.front();
    const document::RootOp *op = nullptr;
    for (const document::RootOp &candidate : dispatch.rootOps)
      if (!candidate.loweringConfig.empty())
        op = &candidate;
    QVERIFY2(op && !op->resultTypes.empty(), where.c_str());
    auto inputs = edit::opLayoutInputs(dispatch, *op);
    QVERIFY2(inputs.ok(), where.c_str());
    auto layouts = edit::opLayoutsOf(*inputs);
    QVERIFY2(layouts.ok() && layouts->subgroups, where.c_str());
    const layout::ForallDistribution &subgroups = *layouts->subgroups;
    const layout::MmaIntrinsic *intrinsic =
        layout::findMmaIntrinsic(subgroups.intrinsic);
    QVERIFY2(intrinsic, where.c_str());
    QCOMPARE(kernel.subgroupSize, intrinsic->subgroupSize);
    QCOMPARE(kernel.threads, subgroups.workers * intrinsic->subgroupSize);

    // Which loop each output dimension is, and the tile's extent per loop.
    const config::IterationSpace &space = inputs->space;
    const config::OperandAccess *output = nullptr;
    for (const config::OperandAccess &operand : space.operands)
      if (operand.isOutput && !output) // the first result's
        output = &operand;
    QVERIFY2(output, where.c_str());
    const std::vector<int64_t> shape = shapeOf(op->resultTypes.front());
    QCOMPARE(shape.size(), output->dims.size());
    int64_t tileElements = 1;
    for (int d : output->dims) {
      const size_t loop = static_cast<size_t>(d);
      tileElements *= subgroups.bounds[loop] * subgroups.unit[loop];
    }

    QVERIFY2(!kernel.stores.empty(), where.c_str());
    for (const isa::AccumulatorStore &store : kernel.stores)
      QVERIFY2(store.resolved && store.why.empty(),
               (where + ": line " + std::to_string(store.line) + " " +
                store.mnemonic + ": " + store.why)
                   .c_str());
    std::set<std::vector<int64_t>> seen;
    // (subgroup, MMA line) -> the intrinsic tile its elements are in.
    std::map<std::pair<int64_t, size_t>, std::vector<int64_t>> tiles;
    for (const isa::AccumulatorCell &cell : isa::cellsOf(kernel, shape)) {
      std::vector<int64_t> at(space.rank(), 0);
      for (size_t d = 0; d < output->dims.size(); ++d)
        at[static_cast<size_t>(output->dims[d])] = cell.coordinates[d];
      std::string atText;
      for (int64_t v : cell.coordinates)
        atText += (atText.empty() ? "" : ", ") + std::to_string(v);
      const std::string here = where + ": element (" + atText + ") line " +
                               std::to_string(cell.store);
      for (int d : output->dims) {
        const size_t loop = static_cast<size_t>(d);
        QVERIFY2(at[loop] < subgroups.bounds[loop] * subgroups.unit[loop],
                 (here + ": outside the workgroup tile").c_str());
      }
      QVERIFY2(seen.insert(cell.coordinates).second,
               (here + ": stored twice").c_str());
      QVERIFY2(!cell.element.derived, (here + ": not the MMA's value").c_str());
      const auto owner = subgroups.accumulatorOwnerOf(at);
      QVERIFY2(owner, here.c_str());
      QVERIFY2(cell.element.thread == owner->thread,
               (here + ": stored by thread " +
                std::to_string(cell.element.thread) + ", drawn in thread " +
                std::to_string(owner->thread))
                   .c_str());
      QVERIFY2(cell.element.element == owner->reg,
               (here + ": from register " +
                std::to_string(cell.element.element) + ", drawn in " +
                std::to_string(owner->reg))
                   .c_str());
      QVERIFY2(kernel.mmaAt(cell.element.mma), here.c_str());
      std::vector<int64_t> tile;
      for (size_t loop = 0; loop < at.size(); ++loop)
        tile.push_back(at[loop] / std::max<int64_t>(subgroups.unit[loop], 1));
      auto [known, added] =
          tiles.try_emplace({owner->subgroup, cell.element.mma}, tile);
      QVERIFY2(added || known->second == tile,
               (here + ": its MMA also writes another intrinsic tile").c_str());
    }
    QCOMPARE(static_cast<int64_t>(seen.size()), tileElements);
    // The window's link, both ways: every cell to its store and MMAs, each
    // store to the cells it writes.
    const isa::CellLink link = isa::linkCells(kernel, space);
    QCOMPARE(link.linesOfCell.size(), seen.size());
    for (const isa::AccumulatorStore &store : kernel.stores)
      QCOMPARE(link.cellsOfLine.at(store.line).size(), store.elements.size());
    for (const auto &[cell, lines] : link.linesOfCell)
      QVERIFY2(lines.size() >= 3, where.c_str()); // a store, 2+ MMAs
    // Each MMA's chain runs the whole reduction: the one that stores, and
    // those it accumulates from, a pass of the loop earlier included.
    for (const auto &[key, tile] : tiles)
      QVERIFY2(isa::chainOf(kernel, key.second).size() >= 2, where.c_str());

    if (op->onImplicitGemm && op->implicitGemm)
      checkIgemmOperands(listing->kernels.front().operands, *intrinsic, space,
                         *op->implicitGemm, where);
    else
      checkOperands(listing->kernels.front().operands, *intrinsic, space,
                    where);
    if (c.target == "sm_90") {
      isa::CellLink both = link;
      both.merge(isa::linkOperandCells(
          listing->kernels.front().operands, space, nullptr,
          op->onImplicitGemm && op->implicitGemm ? &*op->implicitGemm
                                                 : nullptr));
      checkSassCells(*file, listing->kernels.front(), both, where);
    }
  }

  // Attention's result is P.V's accumulator scaled by the row sums: every
  // element of the first workgroup's output tile is stored once, derived
  // from an MMA whose chain runs the reduction over the keys. (Its picture
  // is the VectorDistribute one of its two contractions; the register
  // check above is the subgroup picture's.) Its MMAs' operands come from Q,
  // K and V, or, for P, from the softmax, said so.
  void attentionStoresEachResultOnceFromPv_data() {
    QTest::addColumn<QString>("target");
    QTest::newRow("sm_90") << QString("sm_90");
    QTest::newRow("gfx942") << QString("gfx942");
  }

  void attentionStoresEachResultOnceFromPv() {
    QFETCH(QString, target);
    const Case c{target.toStdString(), "attention_f16", "", ""};
    QTemporaryDir dir;
    const std::string text = caseText(c);
    auto file =
        test::compiledAssembly(text, c.target, dir.path().toStdString());
    QVERIFY2(file.ok(), file.ok() ? "" : file.error().c_str());
    auto listing = isa::readAssemblyFile(*file);
    QVERIFY(listing.ok() && listing->kernels.size() == 1);
    const isa::KernelAccumulators &kernel =
        listing->kernels.front().accumulators;
    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseText(text, "input.mlir");
    QVERIFY(document.ok());
    const document::RootOp *op = nullptr;
    for (const document::RootOp &candidate :
         document->dispatches.front().rootOps)
      if (candidate.kind == config::OpKind::Attention)
        op = &candidate;
    QVERIFY(op && op->space && !op->resultTypes.empty());
    auto config = document::loweringReadingOf(*op)->model();
    QVERIFY(config.ok());
    const auto workgroup = config->tileSizes(config::TilingLevel::Workgroup);
    QVERIFY(workgroup);
    const config::OperandAccess *output = nullptr;
    for (const config::OperandAccess &operand : op->space->operands)
      if (operand.isOutput && !output) // the first result's
        output = &operand;
    QVERIFY(output);
    int64_t tileElements = 1;
    for (int d : output->dims) {
      const size_t loop = static_cast<size_t>(d);
      tileElements *=
          (*workgroup)[loop] > 0 ? (*workgroup)[loop] : op->space->bounds[loop];
    }
    for (const isa::AccumulatorStore &store : kernel.stores)
      QVERIFY2(store.resolved && store.why.empty(), store.why.c_str());
    std::set<std::vector<int64_t>> seen;
    for (const isa::AccumulatorCell &cell :
         isa::cellsOf(kernel, shapeOf(op->resultTypes.front()))) {
      QVERIFY(seen.insert(cell.coordinates).second);
      QVERIFY(cell.element.derived);
      QVERIFY(isa::chainOf(kernel, cell.element.mma).size() >= 2);
    }
    QCOMPARE(static_cast<int64_t>(seen.size()), tileElements);

    // The picture's link: the P.V accumulator layout IREE gives O (the
    // window's O panel) holds each stored element in the thread that
    // stores it, and every element of O's tile links its store and the
    // MMAs of its reduction over K2; Q, K and V elements link the lines
    // that bring them in.
    auto inputs = edit::opLayoutInputs(document->dispatches.front(), *op);
    QVERIFY(inputs.ok());
    auto layouts = edit::opLayoutsOf(*inputs);
    QVERIFY2(layouts.ok() && layouts->attention,
             layouts.ok() ? "no attention layouts" : layouts.error().c_str());
    const layout::AttentionContraction &pv = layouts->attention->pv;
    auto oLayout = layout::NestedLayout::create(pv.layouts.acc);
    QVERIFY2(oLayout.ok(), oLayout.ok() ? "" : oLayout.error().c_str());
    const config::OperandAccess &oOperand = pv.space.operands[2];
    QCOMPARE(oOperand.dims.size(), output->dims.size());
    for (const isa::AccumulatorCell &cell :
         isa::cellsOf(kernel, shapeOf(op->resultTypes.front()))) {
      const auto owners = oLayout->ownersOf(cell.coordinates);
      QVERIFY(!owners.empty());
      const int64_t thread =
          owners.front().subgroup * kernel.subgroupSize + owners.front().lane;
      QVERIFY2(cell.element.thread == thread,
               ("O element stored by thread " +
                std::to_string(cell.element.thread) +
                ", P.V's layout puts it "
                "in thread " +
                std::to_string(thread))
                   .c_str());
    }
    isa::CellLink link = isa::linkCells(kernel, *op->space);
    link.merge(
        isa::linkOperandCells(listing->kernels.front().operands, *op->space));
    size_t oCells = 0;
    for (const auto &[cell, lines] : link.linesOfCell) {
      bool isO = true;
      for (size_t loop = 0; loop < cell.size(); ++loop)
        isO = isO &&
              (cell[loop] >= 0) ==
                  (std::find(output->dims.begin(), output->dims.end(),
                             static_cast<int>(loop)) != output->dims.end());
      if (!isO)
        continue;
      ++oCells;
      QVERIFY2(lines.size() >= 3, std::to_string(lines.size()).c_str());
    }
    QCOMPARE(static_cast<int64_t>(oCells), tileElements);
    QVERIFY(link.linesOfCell.size() > oCells); // Q, K and V elements too

    // Its operands, followed back: Q (binding 0, scaled in registers where
    // the kernel does so: derived), K (binding 1) and V (binding 2), each
    // MMA operand from one of them; P, the softmax's, is no binding's, and
    // the MMA it feeds says which line made it. (Which of A and B each is
    // depends on the target: gfx942's MFMAs take P as B.)
    std::set<int> bindings;
    bool unfollowed = false;
    for (const isa::OperandMove &move :
         listing->kernels.front().operands.moves) {
      if (move.kind != isa::OperandMoveKind::MmaA &&
          move.kind != isa::OperandMoveKind::MmaB)
        continue;
      if (move.followed() == 0) {
        QVERIFY2(!move.why.empty(), std::to_string(move.line).c_str());
        unfollowed = true;
        continue;
      }
      QVERIFY2(move.followed() == move.bytes,
               (std::to_string(move.line) + ": " + move.why).c_str());
      std::set<int> of;
      for (const isa::MovedBytes &run : move.moved)
        of.insert(run.binding);
      QCOMPARE(of.size(), size_t(1));
      bindings.insert(*of.begin());
    }
    QCOMPARE(bindings, (std::set<int>{0, 1, 2}));
    QVERIFY(unfollowed);
  }

private:
  std::vector<Case> cases;
};

QTEST_GUILESS_MAIN(AccumulatorsTest)
#include "tst_accumulators.moc"
