// A whole program at IREE's split-reduction point (inside dispatch creation,
// before dispatch regions are formed), read through the C API:
// - every op IREE's split-reduction passes walk that has a reduction loop,
//   with what the heuristic reads of it (config::ReductionFacts), the
//   `iree_linalg_ext.split_reduction` it carries and the source op it came
//   from (IREE's locations);
// - the same text with splits set or cleared on chosen ops, printed by IREE
//   with its locations, so iree-compile can go on from it;
// - the dispatches a later phase formed, each with its ops and their splits.
#pragma once

#include "core/config/SplitReduction.h"
#include "core/iree/Document.h"
#include "core/util/Result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

// One reduction of the program: the `index`-th op with a reduction loop in
// `function`, in IR order (how an edit names it).
struct ProgramReduction {
  std::string function;
  int index = 0;
  std::string name; // "linalg.matmul"
  std::optional<SourceLocation> source;
  std::vector<std::string> operandTypes;
  config::ReductionFacts facts;
  // The iree_linalg_ext.split_reduction tiles it carries, if any.
  std::optional<std::vector<int64_t>> split;
};

// A split to write: nullopt removes the attribute (the op is not split).
struct SplitChoice {
  std::string function;
  int index = 0;
  std::optional<std::vector<int64_t>> sizes;
};

// A compute op inside a formed dispatch.
struct DispatchedOp {
  std::string name;
  std::optional<SourceLocation> source;
  std::optional<std::vector<int64_t>> split;
  // Its iteration bounds (empty when IREE's interfaces give none).
  std::vector<int64_t> bounds;
};

struct FormedDispatch {
  std::string executable; // flow.executable symbol
  std::string name;       // its export (the dispatch's name)
  std::vector<DispatchedOp> ops;
};

namespace detail {
class Session;
}

class ProgramReader {
public:
  static Result<ProgramReader> create(std::shared_ptr<CompilerLibrary> library);
  ~ProgramReader();
  ProgramReader(ProgramReader &&) noexcept;
  ProgramReader &operator=(ProgramReader &&) noexcept;

  // `name` labels the text in errors. An error holds IREE's diagnostics.
  Result<std::vector<ProgramReduction>> reductions(const std::string &text,
                                                   const std::string &name) const;

  // The text with each choice applied, printed by IREE with locations; an
  // error names a choice that matches no reduction.
  Result<std::string> withSplits(const std::string &text,
                                 const std::string &name,
                                 const std::vector<SplitChoice> &choices) const;

  // The flow.executables of a module (iree-compile --compile-to=flow), in
  // order.
  Result<std::vector<FormedDispatch>> dispatches(const std::string &text,
                                                 const std::string &name) const;

private:
  ProgramReader() = default;
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
