// The document model: an IREE MLIR file as Tilescope holds it, its
// dispatches, their root ops, the configuration attributes IREE attached to
// them (as IREE prints them) and what IREE says each op computes. Plain
// data: core/iree/ produces it (DocumentParser), edit, export, jobs and
// the window consume it without reaching IREE.
#pragma once

#include "core/config/configs/ImplicitGemm.h"
#include "core/config/configs/IterationSpace.h"
#include "core/document/ConfigReading.h"
#include "core/document/Diagnostic.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::document {

// Where an op came from in the program IREE compiled (its location, when
// the file was printed with debug info): file, line and column.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// An operation IREE configured: it carries lowering_config, compilation_info
// or root_op. All attribute values are the text IREE prints for them.
struct RootOp {
  std::string name; // e.g. "linalg.matmul", "linalg.generic"
  int line = 0;
  int column = 0;
  std::optional<long long> rootOpSet; // from #iree_codegen.root_op<set = N>
  std::string loweringConfig;         // "#iree_gpu.lowering_config<{...}>"
  std::string compilationInfo;        // "#iree_codegen.compilation_info<...>"
  std::string decompositionConfig;    // attention's qk/pv configs
  std::vector<std::string> operandTypes;
  std::vector<std::string> resultTypes;
  std::string indexingMaps;  // linalg.generic and friends
  std::string iteratorTypes; // linalg.generic and friends

  // Read from IREE's IR through the C API (the op's indexing maps, iterator
  // types and operand types): what it computes and over which loops.
  config::OpKind kind = config::OpKind::Other;
  // Unset when IREE gives the op no indexing maps (pack, scan, ...).
  std::optional<config::IterationSpace> space;
  // As IREE's linalg::inferContractionDims finds them (contractions only).
  std::optional<config::ContractionDims> contraction;
  // A convolution IREE can build as an implicit GEMM: its IGEMM loops as
  // IREE states them. `space` and `contraction` are then the loops the
  // lowering config indexes: the IGEMM's where the translation_info asks
  // for use_igemm_convolution (onImplicitGemm), the convolution's own
  // otherwise. readConfigs chooses, when the file is read and on every edit.
  std::optional<config::ImplicitGemm> implicitGemm;
  bool onImplicitGemm = false;
  // The source op it came from, when its location names another file.
  std::optional<SourceLocation> source;
  // loweringConfig, compilationInfo and decompositionConfig as read
  // (ConfigReading.h), made by readConfigs when the text is set and shared
  // by every copy of the document: one parse per text, when first asked.
  // Take them through loweringReadingOf, compilationReadingOf and
  // decompositionReadingOf, which also read a text set without readConfigs.
  std::shared_ptr<const LoweringReading> loweringReading;
  std::shared_ptr<const CompilationReading> compilationReading;
  std::shared_ptr<const DecompositionReading> decompositionReading;
};

// Another compute op of the same dispatch (fills, fused elementwise
// consumers and producers): what the root op shares its kernel with.
struct FusedOp {
  std::string name;
  int line = 0;
};

// One function that becomes a GPU (or CPU) kernel.
struct Dispatch {
  std::string name;       // export / function symbol name
  std::string executable; // hal.executable (or flow/stream executable) name
  std::string variant;    // hal.executable.variant name, if any
  std::string target;     // #hal.executable.target<...> text, if any
  std::string translationInfo;
  int line = 0; // where the function starts
  int column = 0;
  int part = 0; // index of the `// -----` part it came from
  std::vector<RootOp> rootOps;
  std::vector<FusedOp> fusedOps; // compute ops that are not root ops
  // translationInfo as read, as RootOp's readings are.
  std::shared_ptr<const TranslationReading> translationReading;
};

struct Document {
  std::filesystem::path path;
  std::string text; // the file as read
  int partCount = 1;
  std::vector<Dispatch> dispatches;
  std::vector<Diagnostic> diagnostics; // warnings and remarks of a good parse
};

// Gives each config text not read yet, or changed since, its reading (the
// root ops' lowering_config and compilation_info, the dispatches'
// translation_info; parsed when first asked): the parser calls it, and
// every edit once it has set its texts.
void readConfigs(Document &document);
void readConfigs(Dispatch &dispatch);
// Sets a convolution's `space` and `contraction` to the loops its config
// indexes now (RootOp::implicitGemm); readConfigs calls it for every op.
void chooseConfigLoops(const Dispatch &dispatch, RootOp &op);

// A config text's reading: the one readConfigs made, or one made now where
// the text was set without it.
std::shared_ptr<const LoweringReading> loweringReadingOf(const RootOp &op);
std::shared_ptr<const CompilationReading>
compilationReadingOf(const RootOp &op);
std::shared_ptr<const DecompositionReading>
decompositionReadingOf(const RootOp &op);
std::shared_ptr<const TranslationReading>
translationReadingOf(const Dispatch &dispatch);

// A dispatch's symbols, (executable, function): what pairs the dispatches of
// two prints of one program, whose parser lists them in their locations'
// order (a located print's is the source's, not the print's).
using DispatchSymbol = std::pair<std::string, std::string>;
DispatchSymbol symbolOf(const Dispatch &dispatch);
std::map<DispatchSymbol, const Dispatch *>
dispatchesBySymbol(const Document &document);

} // namespace tilescope::document
