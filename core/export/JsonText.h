// JSON as text for people and pipes. User text (a file's line, a config
// typed on the command line) need not be UTF-8; invalid bytes become U+FFFD
// instead of an exception that would end the process.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tilescope::exporting {

inline std::string jsonText(const nlohmann::json &value, int indent = -1) {
  return value.dump(indent, ' ', false,
                    nlohmann::json::error_handler_t::replace);
}

} // namespace tilescope::exporting
