// Reads what IREE decided for a dispatch (core/document/LoweredIr.h: the
// anchors, foralls and lane distributions) from the IR its lowering
// pipeline printed (core/service/IreeLowering): parsed back by the loaded IREE
// and walked through the C API, not matched as text.
#pragma once

#include "core/document/LoweredIr.h"
#include "core/document/Diagnostic.h"
#include "core/util/Result.h"

#include <memory>
#include <string>

namespace tilescope::iree {

class CompilerLibrary;

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
  Result<document::LoweredFunction> read(const std::string &dumpText) const;

private:
  LoweredIrReader() = default;
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
