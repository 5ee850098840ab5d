// A file IREE refused, offered its conversion: when the config model's
// named conversions for the release in use (edit::convertFileForRelease)
// turn it into text IREE reads, what they change and the converted text.
// The command line says how to accept it; the window offers to save the
// converted file and open it. The file itself is never touched.
#pragma once

#include "core/service/DocumentWorker.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

struct ReleaseOffer {
  std::string release;                  // converted for: "3.13"
  std::string converted;                // the whole file, converted
  size_t configs = 0;                   // configs rewritten
  std::vector<std::string> conversions; // their names, each once
  // "FILE looks written for another IREE release: 1 config(s) convert for
  // IREE 3.13 (pipeline-keyword-to-attribute) and IREE reads the result."
  std::string describe(const std::string &file) const;
};

// `text`: the file IREE refused. None when no conversion applies or IREE
// refuses the converted text too.
std::optional<ReleaseOffer> releaseOffer(DocumentWorker &worker,
                                         const std::string &text,
                                         const std::string &bufferName,
                                         const std::string &release);

} // namespace tilescope::service
