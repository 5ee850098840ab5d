// A configured root op as the body of IREE's tuning-spec matcher
// `transform.iree.match.cast_compatible_dag_from_root`: the op alone, its
// operands made block arguments and the attributes IREE's configuration
// added (lowering_config, compilation_info, root_op, decomposition_config)
// taken off, printed by IREE. IREE's matcher compares op name, attributes,
// operand types and regions, so this matches the op wherever its kind
// occurs before configuration: reductions, convolutions, attention, any op
// the contraction matcher cannot describe. core/iree's ProgramReader
// prints them; core/export's tuningSpec writes them into a spec.
#pragma once

#include <string>

namespace tilescope::document {

struct RootOpDag {
  std::string function; // the dispatch's function symbol
  int index = 0;        // its root ops in IR order, as Dispatch::rootOps
  std::string name;     // "linalg.generic"
  int line = 0;         // of the op in the text read
  // "^bb0(%arg0: tensor<...>, ...):\n  %0 = linalg.generic ...\n"
  std::string body;
};

} // namespace tilescope::document
