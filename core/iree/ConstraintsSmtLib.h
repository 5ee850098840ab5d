// IREE's own SMT-LIB text for the pipeline constraints in a module: every
// `iree_codegen.smt.constraints` op, translated by the loaded IREE
// (ireeCodegenConvertConstraintsOpToSMTLIB, the route IREE's tuner takes to
// an SMT solver). Tilescope lists a constraint space itself (config::
// SmtSpace); this is the independent translation a solver reads, used to
// check that listing and to time the solver's way of listing it.
#pragma once

#include "core/util/Result.h"

#include <memory>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

struct ConstraintsSmtLib {
  std::string function; // the func.func holding the op
  std::string pipeline; // the op's pipeline attribute, printed
  std::string smtlib;   // declare-fun per knob, dim and free value; asserts
};

// `text`: a module as iree-codegen-insert-smt-constraints printed it. Fails
// when IREE cannot read it or the library lacks the function.
Result<std::vector<ConstraintsSmtLib>>
constraintsAsSmtLib(std::shared_ptr<CompilerLibrary> library,
                    const std::string &text, const std::string &name);

} // namespace tilescope::iree
