// A whole program at IREE's split-reduction point (inside dispatch creation,
// before dispatch regions are formed), read through the C API into the
// document model's ProgramReductions.h:
// - every op IREE's split-reduction passes walk that has a reduction loop,
//   with what the heuristic reads of it (config::ReductionFacts), the
//   `iree_linalg_ext.split_reduction` it carries and the source op it came
//   from (IREE's locations);
// - the same text with splits set or cleared on chosen ops, printed by IREE
//   with its locations, so iree-compile can go on from it;
// - the dispatches a later phase formed, each with its ops and their splits;
// - a configured text's root ops as tuning-spec matcher bodies.
#pragma once

#include "core/document/ProgramReductions.h"
#include "core/document/RootOpDag.h"
#include "core/iree/DocumentParser.h"
#include "core/util/Result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

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
  Result<std::vector<document::ProgramReduction>>
  reductions(const std::string &text, const std::string &name) const;

  // The text with each choice applied, printed by IREE with locations; an
  // error names a choice that matches no reduction.
  Result<std::string> withSplits(const std::string &text,
                                 const std::string &name,
                                 const std::vector<document::SplitChoice> &choices) const;

  // The flow.executables of a module (iree-compile --compile-to=flow), in
  // order.
  Result<std::vector<document::FormedDispatch>> dispatches(const std::string &text,
                                                 const std::string &name) const;

  // Every root op of a configured text (an op carrying lowering_config,
  // compilation_info, root_op or decomposition_config, as the document
  // reader counts them) as a tuning-spec dag matcher's body
  // (core/document/RootOpDag.h).
  Result<std::vector<document::RootOpDag>>
  rootOpDags(const std::string &text, const std::string &name) const;

private:
  ProgramReader() = default;
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
