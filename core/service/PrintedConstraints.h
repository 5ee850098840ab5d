// IREE's constraints ops as iree-opt prints them
// (`iree_codegen.smt.constraints`, inserted by
// iree-codegen-insert-smt-constraints or carried by the file): each op's
// function, root-op set, pipeline, knobs template, dims' values, body and
// assert count, read back from the text.
#pragma once

#include "core/service/IreeConstraints.h"

#include <string>
#include <vector>

namespace tilescope::service {

inline constexpr const char *kConstraintsOp = "iree_codegen.smt.constraints";

// One constraints op as IREE printed it: its function, root-op set,
// pipeline, knobs template, assert count and line.
struct PrintedConstraints {
  std::string function;
  long long set = 0;
  ConstraintSet content;
  int line = 0;
};

// Every constraints op of `text`, in order.
std::vector<PrintedConstraints> readConstraints(const std::string &text);

} // namespace tilescope::service
