// The pictures of the hardware's own layouts: an MMA intrinsic's fragments
// (which lane holds which element of A, B and C) and a shared-memory swizzle
// (where each access lands and which banks collide).
#include "widgets/render/Scenes.h"

#include <QStringList>

#include <algorithm>
#include <map>
#include <set>

namespace tilescope::render {

GridScene mmaScene(const layout::MmaIntrinsic &intrinsic, ColorBy colorBy,
                   int64_t lane) {
  GridScene scene;
  scene.title = QString::fromStdString(intrinsic.name);
  scene.subtitle = QString("M %1, N %2, K %3, subgroup of %4")
                       .arg(intrinsic.m)
                       .arg(intrinsic.n)
                       .arg(intrinsic.k)
                       .arg(intrinsic.subgroupSize);
  if (intrinsic.isScaled)
    scene.subtitle += QString(", a scale per %1 K").arg(intrinsic.blockSize);
  scene.colorBy = colorBy;
  int64_t maxRegisters = 1;
  for (layout::MmaOperand operand : intrinsic.operands()) {
    const layout::FragmentLayout &f = intrinsic.fragment(operand);
    if (f.outer.empty())
      continue;
    const auto shape = f.shape();
    const size_t r = shape.size();
    // Which leading dims fold into the panel's rows, the rest into its
    // columns: [M, K] and [K, N] 1 | 1; a block intrinsic's [B, M, K] 2 | 1;
    // a scaled LHS [M, K/block, block] 1 | 2, its RHS [K/block, block, N]
    // 2 | 1.
    const size_t rowDims =
        r == 3 && !(intrinsic.isScaled && operand == layout::MmaOperand::Lhs)
            ? 2
            : 1;
    const bool kRows = operand == layout::MmaOperand::Rhs ||
                       operand == layout::MmaOperand::RhsScale;
    const bool kColumns = operand == layout::MmaOperand::Lhs ||
                          operand == layout::MmaOperand::LhsScale;
    const int64_t perLane =
        static_cast<int64_t>(intrinsic.laneElements(operand, 0).size());
    maxRegisters = std::max(maxRegisters, perLane);
    Panel panel;
    const QString role = operand == layout::MmaOperand::Lhs        ? "LHS"
                         : operand == layout::MmaOperand::Rhs      ? "RHS"
                         : operand == layout::MmaOperand::LhsScale ? "LHS scale"
                         : operand == layout::MmaOperand::RhsScale ? "RHS scale"
                                                                   : "ACC";
    // A scale has one entry per block of K; the scaled inputs' K is drawn
    // whole (K/block runs of `block` elements).
    const bool isScale = operand == layout::MmaOperand::LhsScale ||
                         operand == layout::MmaOperand::RhsScale;
    const QString kName = isScale ? "K/block" : "K";
    const QString rowName = kRows ? kName : "M";
    const QString columnName = kColumns ? kName : "N";
    panel.title = QString("%1 (%2 x %3): %4 per lane")
                      .arg(role, rowName, columnName)
                      .arg(perLane);
    panel.rows = 1;
    panel.columns = 1;
    for (size_t i = 0; i < r; ++i)
      (i < rowDims ? panel.rows : panel.columns) *= shape[i];
    panel.rowAxis = rowName;
    panel.columnAxis = columnName;
    panel.rowGroup = f.thread[rowDims - 1] * f.element[rowDims - 1];
    panel.columnGroup = f.thread[r - 1] * f.element[r - 1];
    panel.cell = [intrinsic, operand, shape, rowDims, colorBy,
                  lane](int64_t row, int64_t column) {
      // Unfold the row and column into the operand's coordinate.
      std::vector<int64_t> coordinate(shape.size());
      for (size_t i = rowDims; i-- > 0;) {
        coordinate[i] = row % shape[i];
        row /= shape[i];
      }
      for (size_t i = shape.size(); i-- > rowDims;) {
        coordinate[i] = column % shape[i];
        column /= shape[i];
      }
      const auto owner = intrinsic.ownerOf(operand, coordinate);
      CellInfo info;
      info.colorKey = colorBy == ColorBy::Register ? owner.reg : owner.lane;
      info.label = colorBy == ColorBy::Register ? QString("r%1").arg(owner.reg)
                                                : QString::number(owner.lane);
      info.marked = lane >= 0 && owner.lane == lane;
      info.detail = QString("%1: lane %2, register %3")
                        .arg(listText(coordinate))
                        .arg(owner.lane)
                        .arg(owner.reg);
      return info;
    };
    scene.panels.push_back(std::move(panel));
  }
  if (colorBy == ColorBy::Register)
    scene.numberLegend(maxRegisters, "register");
  else
    scene.numberLegend(intrinsic.subgroupSize, "lane");
  if (scene.panels.empty())
    scene.footer = "IREE gives this intrinsic no per-lane layout";
  else if (lane >= 0)
    scene.footer = QString("marked: lane %1").arg(lane);
  return scene;
}

GridScene swizzleScene(const layout::Swizzle &swizzle,
                       const std::vector<layout::LaneAccess> &accesses,
                       int64_t elementBytes, const layout::BankModel &banks) {
  GridScene scene;
  scene.title = QString::fromStdString(swizzle.describe());
  scene.colorBy = ColorBy::Bank;
  // "Before": the same rows, packed and unswizzled.
  const auto [before, after] =
      layout::compareBanks(swizzle, accesses, elementBytes, banks);
  scene.subtitle =
      QString("%1 lanes, %2 x %3-byte elements per access; worst bank "
              "conflict %4-way before, %5-way after")
          .arg(accesses.size())
          .arg(swizzle.accessWidth())
          .arg(elementBytes)
          .arg(before.worstConflictDegree)
          .arg(after.worstConflictDegree);
  int64_t rows = 1;
  for (const auto &a : accesses)
    rows = std::max(rows, a.row + 1);

  const int64_t accessBytes = swizzle.accessWidth() * elementBytes;
  const int64_t lanesPerPhase =
      std::clamp<int64_t>(banks.bankCount * banks.bankWidthBytes /
                              std::max<int64_t>(accessBytes, 1),
                          1, std::min(banks.lanesPerPhase, banks.subgroupSize));
  auto makePanel = [&](const layout::BankReport &report, const QString &title) {
    // (row, physical access column) -> the access there; conflicting lanes:
    // another lane of the same phase on one of its banks at another word.
    struct Slot {
      int64_t lane, bank, logicalColumn;
      bool conflict;
    };
    std::map<std::pair<int64_t, int64_t>, Slot> occupied;
    std::map<std::pair<int64_t, int64_t>, std::set<int64_t>> wordsOnBank;
    for (const auto &a : report.accesses) {
      const int64_t firstWord =
          (a.row * swizzle.rowStride() + a.physicalColumn) * elementBytes /
          banks.bankWidthBytes;
      for (int64_t w = 0; w < a.bankCount; ++w)
        wordsOnBank[{a.lane / lanesPerPhase,
                     (a.firstBank + w) % banks.bankCount}]
            .insert(firstWord + w);
    }
    for (const auto &a : report.accesses) {
      bool conflict = false;
      for (int64_t w = 0; w < a.bankCount; ++w)
        conflict |= wordsOnBank[{a.lane / lanesPerPhase,
                                 (a.firstBank + w) % banks.bankCount}]
                        .size() > 1;
      occupied[{a.row, a.physicalColumn / swizzle.accessWidth()}] = {
          a.lane, a.firstBank, a.column / swizzle.accessWidth(), conflict};
    }
    Panel panel;
    panel.title = title;
    panel.rows = rows;
    panel.columns = swizzle.accessesPerRow();
    panel.rowAxis = "row";
    panel.columnAxis = "access column";
    auto table = std::make_shared<decltype(occupied)>(std::move(occupied));
    panel.cell = [table](int64_t row, int64_t column) {
      CellInfo info;
      auto it = table->find({row, column});
      if (it == table->end())
        return info;
      const Slot &s = it->second;
      info.colorKey = s.bank;
      info.label = QString("l%1").arg(s.lane);
      info.marked = s.conflict;
      info.detail = QString("lane %1 reads logical column %2 here (row %3, "
                            "column %4), bank %5%6")
                        .arg(s.lane)
                        .arg(s.logicalColumn)
                        .arg(row)
                        .arg(column)
                        .arg(s.bank)
                        .arg(s.conflict ? ", conflicting" : "");
      return info;
    };
    return panel;
  };
  scene.panels.push_back(makePanel(before, "before the swizzle"));
  scene.panels.push_back(makePanel(after, "after the swizzle"));
  scene.numberLegend(banks.bankCount, "bank");
  scene.footer =
      QString("%1 banks of %2 bytes; %3 lanes served per phase; marked "
              "cells conflict")
          .arg(banks.bankCount)
          .arg(banks.bankWidthBytes)
          .arg(lanesPerPhase);
  return scene;
}

} // namespace tilescope::render
