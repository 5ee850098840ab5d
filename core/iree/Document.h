// An IREE MLIR file parsed by the real compiler: its dispatches, their root
// ops and the configuration attributes IREE attached to them.
//
// Reads dispatch benchmark files, executable source and configuration dumps,
// whole programs and lit-style test files split with `// -----`. Everything
// here is plain C++: the MLIR handles stay inside core/iree/.
#pragma once

#include "core/config/IterationSpace.h"
#include "core/iree/Diagnostic.h"
#include "core/iree/SplitInput.h"
#include "core/util/Result.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

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
  // The source op it came from, when its location names another file.
  std::optional<SourceLocation> source;
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
};

struct Document {
  std::filesystem::path path;
  std::string text; // the file as read
  int partCount = 1;
  std::vector<Dispatch> dispatches;
  std::vector<Diagnostic> diagnostics; // warnings and remarks of a good parse
};

struct ParseOptions {
  // Split on `// -----` as iree-opt --split-input-file does. Unset: split
  // when the file holds a marker outside string literals.
  std::optional<bool> splitInputFile;
  // Told before IREE parses each part (0-based, and the file line it starts
  // on): a parse that dies in IREE can then be pinned to its part.
  std::function<void(int part, int firstLine)> beforePart;
  // Hand IREE text Tilescope would refuse first (a NUL byte, nesting past
  // kMaximumNesting, a swizzle that crashes IREE): to reproduce what IREE
  // itself does with it. Meant for the parse worker, never in process.
  bool unguarded = false;
  // Keep IREE's IR of the parse until the next parse or releaseModules():
  // freeing a program's module takes milliseconds that a caller with an
  // answer to send (the parse worker) spends after sending it.
  bool keepModules = false;
};

// Reads a file for parsing: a clear error for a missing path, a directory,
// a file past the size Tilescope reads, or one that cannot be opened.
Result<std::string> readMlirFile(const std::filesystem::path &path);

// What Tilescope refuses before IREE sees the text (a NUL byte, nesting
// deeper than IREE's parser can take, a swizzle IREE crashes on and, when
// the text is split, a split marker inside a string literal), as
// "name:line:column: error: ...".
std::optional<std::string> refuseBeforeParsing(const std::string &text,
                                               const std::string &bufferName,
                                               bool split);

// Whether a parse with these options splits the text on `// -----`.
bool splitsInput(const std::string &text, const ParseOptions &options);

// Parses a file with the loaded compiler. A file that does not parse gives an
// error whose text holds every diagnostic as "file:line:column: error: ...";
// lastDiagnostics() holds them as data.
namespace detail {
class Session;
class ParsedModule;
} // namespace detail

class DocumentParser {
public:
  explicit DocumentParser(std::shared_ptr<CompilerLibrary> library);
  ~DocumentParser();

  Result<Document> parseFile(const std::filesystem::path &path,
                             const ParseOptions &options = {});
  // The text by value: a caller done with it moves it in, and the document
  // keeps it without a copy.
  Result<Document> parseText(std::string text, const std::string &bufferName,
                             const ParseOptions &options = {});
  // The diagnostics of the last failed parse.
  const std::vector<Diagnostic> &lastDiagnostics() const { return diagnostics; }
  // Frees the modules a parse with keepModules kept.
  void releaseModules();

private:
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
  std::vector<Diagnostic> diagnostics;
  std::vector<std::unique_ptr<detail::ParsedModule>> keptModules;
};

// Parses one attribute (after optional `#alias = ...` lines) with the real
// IREE and prints it back as IREE does: the reference Tilescope's own
// attribute writer is tested against.
Result<std::string>
printAttributeWithIree(const std::shared_ptr<CompilerLibrary> &library,
                       const std::string &attributeText,
                       const std::string &aliasDefinitions = "");

// The same, for many attributes in a row on one IREE session (an editor
// asking on every change). A refusal is IREE's diagnostics, one per line,
// as "<attribute>:1:COLUMN: error: ..." against the attribute's own text;
// what crashes IREE (see refuseBeforeParsing) is refused before it.
class AttributeParser {
public:
  explicit AttributeParser(std::shared_ptr<CompilerLibrary> library);
  ~AttributeParser();
  Result<std::string> print(const std::string &attributeText,
                            const std::string &aliasDefinitions = "");

private:
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
