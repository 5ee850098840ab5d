// Private to core/iree/: what a configured op computes, read through the C
// API from IREE's own IR (indexing maps, iterator types, operand types and
// IREE's op interfaces), never from printed text.
#pragma once

#include "core/iree/DocumentParser.h"
#include "core/iree/detail/Ir.h"

namespace tilescope::iree::detail {

// The loop dimensions in a DenseI32ArrayAttr (how the Linalg C API hands
// back contraction and convolution dims); empty for a null attribute.
std::vector<int> dimsOf(const FunctionTable &api, MlirAttribute attribute);

// The loop nest of a linalg (or linalg_ext) op from its indexing maps,
// iterator types and operand types; nullopt when it states no maps.
std::optional<config::IterationSpace> iterationSpaceOf(const Ir &ir,
                                                       MlirOperation op);

// Fills root.kind, root.space and root.contraction.
void describeRootOp(const Ir &ir, MlirOperation op, document::RootOp &root);

// Whether an op of this name computes (linalg and linalg_ext ops, packs),
// as opposed to terminators, index ops and data movement.
bool isComputeOp(const std::string &opName);

} // namespace tilescope::iree::detail
