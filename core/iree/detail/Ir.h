// Private to core/iree/: MLIR text parsed by the loaded IREE into a module,
// and small readers over its operations, values, types and attributes.
// Everything here hands back plain C++ values.
#pragma once

#include "core/document/Diagnostic.h"
#include "core/iree/detail/CApi.h"
#include "core/util/Result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::iree {
class CompilerLibrary;
}

namespace tilescope::iree::detail {

using namespace capi;

// One IREE session and the MLIR context it owns, reused for many parses:
// unregistered dialects are refused, as iree-opt refuses them.
class Session {
public:
  static Result<std::shared_ptr<Session>>
  create(const CompilerLibrary &library);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  const FunctionTable &api;
  iree_compiler_session_t *session = nullptr;
  MlirContext context{nullptr};

private:
  explicit Session(const FunctionTable &api) : api(api) {}
};

// Where a parsed text sits in the user's file: diagnostics are reported in
// whole-file lines and columns under the file's name.
struct SourcePosition {
  std::string fileName;   // as the user named it
  std::string bufferName; // what IREE was told (unique per part)
  int firstLine = 1;      // of the text in the file
  int firstColumn = 1;
};

// The module IREE parsed from a text, destroyed with this object.
class ParsedModule {
public:
  // Parses `text`; every diagnostic IREE reports lands in `diagnostics` as
  // data (notes included). An error means nothing was parsed; the
  // diagnostics say why.
  static Result<std::unique_ptr<ParsedModule>>
  parse(std::shared_ptr<Session> session, std::string_view text,
        const SourcePosition &position, std::vector<document::Diagnostic> &diagnostics,
        bool nulTerminated = false);
  ~ParsedModule();
  ParsedModule(const ParsedModule &) = delete;
  ParsedModule &operator=(const ParsedModule &) = delete;

  MlirOperation operation() const { return module; }
  const Session &owner() const { return *session; }

private:
  explicit ParsedModule(std::shared_ptr<Session> session)
      : session(std::move(session)) {}
  std::shared_ptr<Session> session;
  iree_compiler_invocation_t *invocation = nullptr;
  MlirOperation module{nullptr};
};

// The module IREE parses from `text`, named `name` in its diagnostics; an
// Error says "NAME: IREE cannot read it" with every diagnostic.
Result<std::unique_ptr<ParsedModule>>
parseOrExplain(const std::shared_ptr<Session> &session, std::string_view text,
               const std::string &name);

// Plain-value readers over the C API.
class Ir {
public:
  explicit Ir(const FunctionTable &api) : api(api) {}

  std::string name(MlirOperation op) const;
  MlirAttribute attribute(MlirOperation op, const std::string &name) const;
  std::string attributeText(MlirOperation op, const std::string &name) const;
  std::string print(MlirAttribute attribute) const;
  std::string print(MlirType type) const;
  // An op (a module) as IREE prints it, with or without its locations
  // (needs the optional printing-flag functions; ProgramReader requires
  // them).
  std::string printWithLocations(MlirOperation op) const;
  std::string printWithoutLocations(MlirOperation op) const;
  std::string symbolName(MlirOperation op) const;
  int line(MlirOperation op, int lineOffset = 0) const;
  // The file position a location names, as MLIR's diagnostic printer finds
  // it: through names, fused locations and the callee of call sites.
  struct FilePosition {
    std::string file;
    int line = 0;
    int column = 0;
  };
  std::optional<FilePosition> filePosition(MlirLocation location) const;
  int column(MlirOperation op) const;

  // A value's defining op, if it is an op result.
  std::optional<MlirOperation> definingOp(MlirValue value) const;
  // Shape and element type of a ranked shaped type; -1 for a dynamic size.
  struct Shaped {
    std::vector<int64_t> shape;
    std::string elementType;
  };
  std::optional<Shaped> shaped(MlirType type) const;
  // An array of integers (ArrayAttr of IntegerAttr, or DenseI64ArrayAttr).
  std::optional<std::vector<int64_t>> integers(MlirAttribute attribute) const;
  // For each result of an affine map: the dimension it is, or -1 for a
  // constant or any other expression; nullopt if not an affine map.
  struct MapDims {
    size_t numDims = 0;
    std::vector<int> results;
    bool projectedPermutation = true;
  };
  std::optional<MapDims> mapDims(MlirAttribute affineMapAttribute) const;

  // Pre-order walk; the callback returns false to skip an op's regions.
  template <typename Callback>
  void walk(MlirOperation root, Callback &&callback) const {
    struct Thunk {
      static MlirWalkResult visit(MlirOperation op, void *userData) {
        return (*static_cast<Callback *>(userData))(op) ? MlirWalkResultAdvance
                                                        : MlirWalkResultSkip;
      }
    };
    api.mlirOperationWalk(root, &Thunk::visit, &callback, MlirWalkPreOrder);
  }

  const FunctionTable &api;
};

// The functions a reader needs, or an error naming the first missing one.
Result<bool> requireFunctions(const CompilerLibrary &library,
                              std::initializer_list<const char *> names);

} // namespace tilescope::iree::detail
