// Scenes built from core/layout answers: what the views and
// `tilescope-cli render` draw. Each cell is computed on demand from the
// layout math, so scenes of millions of elements cost nothing to build.
#pragma once

#include "core/layout/AttentionLayouts.h"
#include "core/layout/Basis.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/Swizzle.h"
#include "widgets/render/GridScene.h"

#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace tilescope::render {

// "subgroup", "lane", "register", "bank", "thread" (Custom: "lane").
const char *colorByName(ColorBy colorBy);
// The owner a picture of a layout can be coloured by, by name: "lane",
// "subgroup" or "register" (what --color-by and the scripts take); nullopt
// for any other name.
std::optional<ColorBy> ownerColoringNamed(std::string_view name);

// A 2-D slice of a nested layout: `rowDim` x `columnDim`, other dimensions
// fixed at `fixedIndex` (one entry per dimension; rowDim/columnDim ignored).
GridScene nestedLayoutScene(std::shared_ptr<const layout::NestedLayout> layout,
                            ColorBy colorBy, size_t rowDim, size_t columnDim,
                            std::vector<int64_t> fixedIndex,
                            const QString &subtitle = {});

// A basis over its own digits: which iteration coordinates each thread takes.
GridScene basisScene(std::shared_ptr<const layout::BasisMap> basis,
                     const QString &subtitle = {});

// A config on an iteration space: the iteration points of one workgroup tile
// at partial-reduction step `step`, coloured by the thread (or subgroup)
// covering each, over iteration dimensions rowDim x columnDim; the other
// dimensions held where `slice` says (0 where it does not).
GridScene configScene(std::shared_ptr<const layout::DerivedLayout> derived,
                      ColorBy colorBy, size_t rowDim, size_t columnDim,
                      int64_t step, const QString &subtitle = {},
                      const std::vector<int64_t> &slice = {});

// A contraction with mma_kind: the LHS, RHS and ACC layouts IREE derives
// (getContractionLayout), each over its operand's two innermost dimensions
// (outer ones at index 0).
// `names` title the three panels and their footer lines.
Result<GridScene>
contractionScene(const layout::ContractionLayouts &layouts, ColorBy colorBy,
                 const QString &subtitle = {},
                 const std::array<QString, 3> &names = {"LHS", "RHS", "ACC"});

// Attention as IREE's VectorDistribute decomposes it: Q, K and S of Q.K^T,
// then P, V and O of P.V, each operand's layout over its two innermost
// dimensions (the contractions' own panels, renamed by operand).
Result<GridScene> attentionScene(const layout::AttentionLayouts &attention,
                                 ColorBy colorBy, const QString &subtitle = {});

// The workgroup grid over two parallel dimensions.
GridScene
workgroupGridScene(std::shared_ptr<const layout::DerivedLayout> derived,
                   size_t rowDim, size_t columnDim);

// An MMA intrinsic's LHS, RHS and ACC fragments, coloured by lane (or
// register); `lane` >= 0 marks that lane's elements.
GridScene mmaScene(const layout::MmaIntrinsic &intrinsic, ColorBy colorBy,
                   int64_t lane = -1);

// A swizzle before and after: rows x access columns, coloured by bank, the
// accesses of conflicting lanes marked.
GridScene swizzleScene(const layout::Swizzle &swizzle,
                       const std::vector<layout::LaneAccess> &accesses,
                       int64_t elementBytes, const layout::BankModel &banks);

// The scene with every cell of colour key `key` marked (hatched, outlined)
// and the key's legend entry named in the footer: one lane's, subgroup's or
// thread's elements. key < 0: the scene as it is.
GridScene markColorKey(GridScene scene, int64_t key);
// `scene` (its cells loop points, or panels of operand elements) with the
// cells at `points` marked, and the footer saying what they are (`what`).
GridScene
markPoints(GridScene scene,
           std::shared_ptr<const std::set<std::vector<int64_t>>> points,
           const QString &what);

} // namespace tilescope::render
