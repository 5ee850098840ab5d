// The options `explain` and `render` share, read into core types.
#pragma once

#include "app/cli/Commands.h"
#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/ImplicitGemm.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/AttentionLayouts.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/Swizzle.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::cli {

// Prints "tilescope-cli: <what>: <message>" and returns kExitFailure.
int fail(const std::string &what, const std::string &message);

inline constexpr const char *kTypesHelp =
    "Operand element types, inputs then output, e.g. f16,f16,f32. Without "
    "--maps: 3 types for a (batch) matmul, LHS (B..., M, K), RHS (B..., N, "
    "K), ACC (B..., M, N), or 2 for a reduction (input, output).";
inline constexpr const char *kMapsHelp =
    "The root op's indexing maps, one per operand, output last, e.g. "
    "'(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d2, d1), (d0, d1, d2) -> "
    "(d0, d1)' (affine_map<...> as IREE prints them also taken).";

// The operands of --iteration-space from --types and, when given, --maps
// (empty texts: no operands).
Result<std::vector<config::OperandAccess>>
operandsFor(const config::IterationSpace &space, const std::string &typesText,
            const std::string &mapsText);

struct LayoutInputs {
  enum class Kind { Basis, Layout, Mma, Config, Swizzle } kind = Kind::Layout;
  std::string text; // the --basis/--layout/--config/--swizzle text
  std::string mma;
  bool colMajor = false;
  std::optional<layout::MmaOperand> operand;
  std::optional<std::vector<int64_t>> element;
  std::optional<int64_t> thread, subgroup, lane;
  std::optional<std::vector<int64_t>> shape;
  int64_t subgroups = 0, subgroupSize = 0;
  std::string iterationSpaceText, typesText, mapsText, targetText,
      translationText;
  // The target --target (or the file) names, as IREE or the built-in table
  // describes it; `targetNote` says why the table was used.
  std::optional<config::GpuTarget> resolvedTarget;
  std::string targetNote;
  std::string ireeRelease = "3.13";
  // FILE --op: the root op's workgroup tile the op is fused into (empty for
  // a root op, or without FILE).
  std::vector<int64_t> fusedWorkgroupTile;
  // FILE --op on a convolution IREE builds as an implicit GEMM: its loops'
  // making and the im2col map (the iteration space is the IGEMM's).
  std::optional<config::ImplicitGemm> implicitGemm;
  // A FILE's attention op: its two contractions' layouts (explained as
  // such, not from the outer config alone).
  std::optional<layout::AttentionLayouts> attention;
  // swizzle: "column", "row" or "mma:INTRINSIC:lhs|rhs|acc"
  std::string accessPattern = "column";
  int64_t elementBytes = 2;
  int64_t lanes = 64;
  int64_t step = 0; // partial-reduction iteration to draw

  Result<config::Basis> basis() const;
  Result<layout::NestedLayout> nestedLayout() const;
  Result<config::LoweringConfig> loweringConfig() const;
  Result<config::IterationSpace> iterationSpace() const; // with --types
  // --translation-info read; none where it was not given.
  Result<std::optional<config::TranslationInfo>> translationInfo() const;
  std::optional<config::GpuTarget> target() const;
  Result<layout::Swizzle> swizzle() const;
  std::vector<layout::LaneAccess>
  accesses(const layout::Swizzle &swizzle) const;
  layout::BankModel bankModel() const;
};

struct LayoutOptions {
  QCommandLineOption basis{
      "basis", "A lane_basis/subgroup_basis [[counts], [mapping]].", "TEXT"};
  QCommandLineOption layout{"layout", "An #iree_vector_ext.nested_layout<...>.",
                            "TEXT"};
  QCommandLineOption mma{"mma", "An MMA intrinsic, e.g. MFMA_F32_32x32x8_F16.",
                         "NAME"};
  QCommandLineOption colMajor{"col-major", "The MMA's col_major variant."};
  QCommandLineOption operand{
      "operand", "lhs, rhs or acc (lhs_scale, rhs_scale of a scaled MMA).",
      "OPERAND"};
  QCommandLineOption config{"config", "A #iree_gpu.lowering_config<...>.",
                            "TEXT"};
  QCommandLineOption swizzle{
      "swizzle", "An #iree_codegen.xor_shuffle<...> or rotate_rows<...>.",
      "TEXT"};
  QCommandLineOption element{"element", "An element index, e.g. 3,17.",
                             "INDEX"};
  QCommandLineOption thread{"thread", "A thread (basis id).", "ID"};
  QCommandLineOption subgroup{"subgroup", "A subgroup id.", "ID"};
  QCommandLineOption lane{"lane", "A lane id.", "ID"};
  QCommandLineOption shape{
      "shape", "The vector shape, e.g. 64x64 (checked against the layout).",
      "SHAPE"};
  QCommandLineOption subgroups{"subgroups", "Subgroups in the workgroup.", "N"};
  QCommandLineOption subgroupSize{"subgroup-size", "Lanes per subgroup.", "N"};
  QCommandLineOption iterationSpace{"iteration-space", "e.g. 4x6656x16384:ppr.",
                                    "SPACE"};
  QCommandLineOption types{"types", kTypesHelp, "TYPES"};
  QCommandLineOption maps{"maps", kMapsHelp, "MAPS"};
  QCommandLineOption target{
      "target", "gfx942, sm_90, ... or an #iree_gpu.target<...>.", "TARGET"};
  QCommandLineOption release{"iree-release", "IREE release (default 3.13).",
                             "X.Y", "3.13"};
  QCommandLineOption access{"access",
                            "Swizzle access pattern: column (an MMA operand "
                            "read down a column) or row.",
                            "PATTERN", "column"};
  QCommandLineOption elementBytes{"element-bytes",
                                  "Bytes per element (default 2).", "N", "2"};
  QCommandLineOption lanes{"lanes", "Lanes accessing (default 64).", "N", "64"};
  QCommandLineOption step{
      "step", "Partial-reduction iteration to draw (default 0).", "N", "0"};
  QCommandLineOption translationInfo{
      "translation-info",
      "The #iree_codegen.translation_info<...>: its pipeline decides what a "
      "--config means (TileAndFuse: thread tiles; VectorDistribute: nested "
      "layouts), its workgroup and subgroup size how it spreads.",
      "TEXT"};

  void addTo(QCommandLineParser &parser) const;
  Result<LayoutInputs> read(const QCommandLineParser &parser) const;
  // The same without FILE's root op read in (its texts stay empty): the
  // marks, step and swizzle options beside a FILE drawn by
  // render::opPicture.
  Result<LayoutInputs> marks(const QCommandLineParser &parser) const;

private:
  Result<LayoutInputs> read(const QCommandLineParser &parser,
                            bool readFile) const;
  // read's steps, in order; each fills its part of `in` or says what is
  // wrong with the options.
  std::optional<Error> readKind(const QCommandLineParser &parser,
                                LayoutInputs &in) const;
  std::optional<Error> readNumbers(const QCommandLineParser &parser,
                                   LayoutInputs &in) const;
  std::optional<Error> readTexts(const QCommandLineParser &parser,
                                 LayoutInputs &in, bool readFile) const;
};

} // namespace tilescope::cli
