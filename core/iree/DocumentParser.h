// An IREE MLIR file parsed by the real compiler into the document model
// (core/document/Document.h): its dispatches, their root ops and the
// configuration attributes IREE attached to them.
//
// Reads dispatch benchmark files, executable source and configuration dumps,
// whole programs and lit-style test files split with `// -----`. Everything
// here is plain C++: the MLIR handles stay inside core/iree/.
#pragma once

#include "core/document/Document.h"
#include "core/document/MlirFile.h"
#include "core/document/SplitInput.h"
#include "core/document/Diagnostic.h"
#include "core/util/Result.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

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

  Result<document::Document> parseFile(const std::filesystem::path &path,
                             const ParseOptions &options = {});
  // The text by value: a caller done with it moves it in, and the document
  // keeps it without a copy.
  Result<document::Document> parseText(std::string text, const std::string &bufferName,
                             const ParseOptions &options = {});
  // The diagnostics of the last failed parse.
  const std::vector<document::Diagnostic> &lastDiagnostics() const { return diagnostics; }
  // Frees the modules a parse with keepModules kept.
  void releaseModules();

private:
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
  std::vector<document::Diagnostic> diagnostics;
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
