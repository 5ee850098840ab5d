// Reads what IREE decided for a dispatch (core/document/LoweredIr.h: the
// anchors, foralls and lane distributions) from the IR its lowering
// pipeline printed (core/service/IreeLowering): parsed back by the loaded IREE
// and walked through the C API, not matched as text.
#pragma once

#include "core/document/LoweredIr.h"
#include "core/iree/Diagnostic.h"
#include "core/util/Result.h"

#include <memory>
#include <string>

namespace tilescope::iree {

class CompilerLibrary;

// The data, by the names core/iree has always used.
using document::AnchoredOp;
using document::AnchorLayout;
using document::ForallLoop;
using document::LaneDistribution;
using document::LaneSlice;
using document::LoweredFunction;

namespace detail {
class Session;
}

// Reads functions as IREE printed them after a pass, with one IREE session
// kept for all of them.
class LoweredIrReader {
public:
  static Result<LoweredIrReader>
  create(std::shared_ptr<CompilerLibrary> library);
  ~LoweredIrReader();
  LoweredIrReader(LoweredIrReader &&) noexcept;
  LoweredIrReader &operator=(LoweredIrReader &&) noexcept;

  // An error says why the text could not be read.
  Result<LoweredFunction> read(const std::string &dumpText) const;

private:
  LoweredIrReader() = default;
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
