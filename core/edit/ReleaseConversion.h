// A whole file written for another IREE release, converted for the one in
// use: every config in it (translation_info, lowering_config,
// compilation_info; inline or in an alias definition) rewritten by the
// config model's named conversions (config::convertForRelease), nothing else
// in the file touched. Pure text work: the caller has IREE read the result
// before it is offered or written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::edit {

struct ConvertedConfig {
  int line = 0;       // 1-based, in the original text
  std::string before; // the attribute as written
  std::string after;  // as the target release prints it
  std::vector<std::string> applied; // conversion names, in order
};

struct FileConversion {
  std::string text; // the converted file (the original when nothing changed)
  std::vector<ConvertedConfig> changes;
  // Configs Tilescope could not read, and what has no conversion: line and
  // what to do instead.
  std::vector<std::string> notes;
  bool changed() const { return !changes.empty(); }
};

FileConversion convertFileForRelease(std::string_view text,
                                     const std::string &release);

} // namespace tilescope::edit
