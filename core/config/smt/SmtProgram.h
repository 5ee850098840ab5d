// The body of one `iree_codegen.smt.constraints` op, as a program Tilescope
// runs: IREE's pipeline constraints for a root op (smt.int.* arithmetic,
// comparisons, knobs, lookups, asserts with messages) read from IREE's
// printed form, so a config can be judged without a compiler run, and the
// knob assignments that satisfy every assert can be listed (SmtSpace.h).
//
// The evaluation is IREE's own (VerifyPipelineConstraints.cpp's
// ConstraintEvaluator): problem dims are the constants the op's dims()
// operands fold to; knobs take the config's values; a value built from an
// unknown one (an unassigned knob, an smt.declare_fun, a division by zero,
// a lookup key the table lacks) is unknown, and an assert whose condition
// is unknown is skipped, never reported. Integer arithmetic is int64 with
// C++'s truncating division, as IREE's evaluator does it. An op IREE's
// evaluator does not handle is refused when the body is read, naming it.
//
// Pure: the input is IREE's print; the C API is not touched here.
#pragma once

#include "core/util/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

struct SmtNode {
  enum class Kind {
    Dim,      // a block argument: problem dim `index`
    Constant, // smt.int.constant / smt.bool.constant
    Knob,     // iree_codegen.smt.knob "name": variable `variable`
    Free,     // smt.declare_fun "name": variable `variable`
    Add, Mul, Sub, Div, Mod,
    Eq, Cmp, And, Or, Not, Ite,
    Lookup,   // iree_codegen.smt.lookup %index [keys] -> [values]
  };
  enum class Predicate { Lt, Le, Gt, Ge };
  Kind kind = Kind::Constant;
  bool isBool = false;
  std::vector<int> operands; // node indices
  int64_t constant = 0;      // Constant (a bool's as 0/1)
  int index = 0;             // Dim: which dim; Knob / Free: which variable
  Predicate predicate = Predicate::Lt;
  std::vector<int64_t> keys, values; // Lookup
  std::string name;                  // the SSA name, for messages
};

struct SmtAssert {
  int condition = 0;         // a bool node
  std::string message;       // IREE's, with "{}" where arguments go
  std::vector<int> arguments; // int nodes printed into the message
  int line = 0;               // in the body text, from 1
};

struct SmtVariable {
  std::string name; // the knob's or declare_fun's name
  bool free = false; // smt.declare_fun: existential, not a config value
};

struct SmtProgram {
  std::vector<SmtNode> nodes;
  std::vector<SmtAssert> asserts;
  std::vector<SmtVariable> variables; // knobs first seen first
  std::vector<std::optional<int64_t>> dims;

  // The variable a knob name is; -1 when the body has no such knob.
  int variable(const std::string &name) const;
};

// `body` is the region as IREE prints it, from `^bb0(...)` (or the first
// op) to the region's closing brace, exclusive; `dims` the values of the
// op's dims() operands, unknown where one is not a constant. Fails on an op
// IREE's evaluator would refuse, or text that is not IREE's print, naming
// the line.
Result<SmtProgram> parseSmtProgram(const std::string &body,
                                   const std::vector<std::optional<int64_t>> &dims);

// Values of every node for an assignment (by variable; unknown where
// unassigned). Bools are 0/1.
std::vector<std::optional<int64_t>>
evaluateSmt(const SmtProgram &program,
            const std::vector<std::optional<int64_t>> &assignment);

struct SmtViolation {
  size_t assertIndex = 0;
  std::string message; // IREE's, "{}" filled in with the values ("?" unknown)
};

// The asserts an assignment breaks, in the body's order, each message
// filled in as IREE's verifier fills it.
std::vector<SmtViolation>
violatedAsserts(const SmtProgram &program,
                const std::vector<std::optional<int64_t>> &assignment);

// The same, for knob values by name (a config read through its template):
// names the program lacks are ignored, knobs not given are unknown.
std::vector<SmtViolation>
violatedAsserts(const SmtProgram &program,
                const std::map<std::string, int64_t> &knobs);

} // namespace tilescope::config
