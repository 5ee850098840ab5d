// One dispatch of a whole program, on its own. IREE's own
// iree-hal-dump-executable-benchmarks pass (the one behind iree-compile's
// --iree-hal-dump-executable-benchmarks-to, which made the dispatch
// benchmarks under examples/) is run by the pinned iree-opt on the program
// as it stands, edits included; it writes each executable as a standalone
// module that dispatches it with the program's own sizes. The one asked for
// is read back by the parse worker: it compiles, its resources are read and
// its kernel is timed without compiling the rest of the program.
#pragma once

#include "core/document/Document.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

namespace tilescope::service {

struct DispatchAlone {
  document::Document document; // the dispatch's benchmark module, parsed
  std::string command;     // the iree-opt run that wrote it
};

// Whether a try of one root op of `document` takes its dispatch out alone:
// the file holds more than one dispatch, or it is a whole program (its host
// code at the stream level, as `configure` writes it), whose one dispatch
// is timed on its own, not through the program's entry point.
bool triesDispatchAlone(const document::Document &document);

// Writes dispatch `dispatch` of `document` alone to `output` and reads it
// back. An Error says why not: the dispatch is not in a hal.executable
// variant (a source program: configure it first), IREE refuses the
// program, or IREE wrote no module for it (IREE takes only dispatches with
// static sizes, on a single device), in IREE's words where it gave some.
Result<DispatchAlone>
dispatchAlone(const tools::IreeInstallation &iree, DocumentWorker &worker,
              const document::Document &document, size_t dispatch,
              const std::filesystem::path &output,
              std::chrono::milliseconds timeout = std::chrono::minutes(2),
              const std::atomic<bool> *cancel = nullptr);

} // namespace tilescope::service
