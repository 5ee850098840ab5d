#include "core/layout/PromotedBanks.h"

#include "core/config/configs/OtherConfigs.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/TileBounds.h"

#include <algorithm>

namespace tilescope::layout {
namespace {

// A 2-D fragment with its two dimensions swapped (an operand stored
// transposed to the intrinsic's view of it).
FragmentLayout transposed(FragmentLayout fragment) {
  for (auto *v : {&fragment.outer, &fragment.thread, &fragment.tstrides,
                  &fragment.element})
    if (v->size() == 2)
      std::swap((*v)[0], (*v)[1]);
  return fragment;
}

} // namespace

Result<PromotedReads> promotedOperandReads(
    const config::LoweringConfig &config, const config::IterationSpace &space,
    const std::string &pipeline, const config::TranslationInfo *translation,
    const config::GpuTarget *target) {
  const auto mma = config.mmaKind();
  if (!mma)
    return Error{"the bank view draws the shared-memory reads of an MMA's "
                 "promoted operands: this op has no mma_kind"};
  const MmaIntrinsic *intrinsic = findMmaIntrinsic(mma->intrinsic);
  const auto contraction = config::inferContraction(space);
  if (!intrinsic || !contraction || contraction->k.empty() ||
      space.operands.size() < 3)
    return Error{"the bank view needs a contraction with a known intrinsic "
                 "(LHS, RHS and ACC operands)"};
  PromotedReads result;
  result.intrinsic = intrinsic->name;
  result.banks =
      target ? BankModel::forTarget(*target) : BankModel::forArch("gfx942");
  const std::vector<int64_t> promoted =
      config.promoteOperands().value_or(std::vector<int64_t>{});
  const std::vector<config::PromotionType> types =
      config::promotionTypes(config);
  // IREE pads unless the pipeline options say no_reduce_..._conflicts.
  const auto options =
      translation ? translation->pipelineOptions() : std::nullopt;
  const bool padded =
      !(options && options->noReduceSharedMemoryBankConflicts.value_or(false));
  // What an operand's shared-memory tile holds of each loop: one workgroup
  // iteration, its reduction tile counted in intrinsic K's under
  // TileAndFuse (which packs to intrinsics first).
  std::vector<int64_t> kUnits;
  if (pipeline == "TileAndFuse") {
    kUnits.assign(space.rank(), 1);
    for (int k : contraction->k)
      if (k >= 0 && static_cast<size_t>(k) < kUnits.size())
        kUnits[static_cast<size_t>(k)] = intrinsic->k;
  }
  const std::vector<int64_t> extent =
      workgroupIterationBounds(config, space, kUnits);

  for (int64_t operand : {int64_t{0}, int64_t{1}}) {
    PromotedOperandReads reads;
    reads.name = operand == 0 ? "LHS" : "RHS";
    const auto at = std::find(promoted.begin(), promoted.end(), operand);
    const config::OperandAccess &access =
        space.operands[static_cast<size_t>(operand)];
    if (at == promoted.end()) {
      reads.skipped = reads.name + " is not promoted (not in promote_operands)";
      result.operands.push_back(std::move(reads));
      continue;
    }
    if (access.dims.size() < 2 || access.dims.back() < 0) {
      reads.skipped = reads.name + ": no 2-D tile to draw";
      result.operands.push_back(std::move(reads));
      continue;
    }
    const int inner = access.dims.back();
    const auto &columnRole = operand == 0 ? contraction->k : contraction->n;
    FragmentLayout fragment =
        intrinsic->fragment(operand == 0 ? MmaOperand::Lhs : MmaOperand::Rhs);
    if (fragment.element.size() != 2)
      return Error{intrinsic->name + "'s fragments are not 2-D: the bank "
                                     "view draws 2-D tiles only"};
    if (std::find(columnRole.begin(), columnRole.end(), inner) ==
        columnRole.end())
      fragment = transposed(std::move(fragment));
    reads.rowWidth = extent[static_cast<size_t>(inner)];
    reads.elementBytes = config::elementBytes(access.elementType);
    if (reads.rowWidth <= 0 || reads.elementBytes <= 0) {
      reads.skipped = reads.name + ": its tile's row width is unknown";
      result.operands.push_back(std::move(reads));
      continue;
    }
    const size_t slot = static_cast<size_t>(at - promoted.begin());
    const config::PromotionType *type =
        slot < types.size() ? &types[slot] : nullptr;
    Result<Swizzle> swizzle = Error{""};
    if (type && type->xorShuffle) {
      swizzle = Swizzle::xorShuffle(*type->xorShuffle);
      reads.rows = PromotedOperandReads::Rows::Swizzled;
    } else if (type && type->rotateRows) {
      swizzle = Swizzle::rotateRows(*type->rotateRows);
      reads.rows = PromotedOperandReads::Rows::Swizzled;
    } else {
      // 64 bits a row.
      reads.padElements =
          padded ? std::max<int64_t>(8 / reads.elementBytes, 1) : 0;
      reads.rows = padded ? PromotedOperandReads::Rows::Padded
                          : PromotedOperandReads::Rows::Packed;
      swizzle = Swizzle::identity(reads.rowWidth, fragment.element.back(),
                                  reads.rowWidth + reads.padElements);
    }
    if (!swizzle) {
      reads.skipped = reads.name + ": " + swizzle.error();
      result.operands.push_back(std::move(reads));
      continue;
    }
    reads.swizzle = std::move(*swizzle);
    reads.accesses = fragmentAccesses(fragment, intrinsic->subgroupSize);
    result.operands.push_back(std::move(reads));
  }
  return result;
}

} // namespace tilescope::layout
