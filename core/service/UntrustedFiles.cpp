#include "core/service/UntrustedFiles.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace tilescope::service {

Result<bool> insideFolder(const fs::path &path, const fs::path &folder) {
  std::error_code error;
  const fs::path root = fs::canonical(folder, error);
  if (error)
    return Error{"cannot resolve " + folder.string() + ": " + error.message()};
  const fs::path below =
      fs::absolute(path, error)
          .lexically_normal()
          .lexically_relative(fs::absolute(folder, error).lexically_normal());
  if (below.empty() || *below.begin() == "..")
    return Error{path.string() + " is not inside " + folder.string() +
                 ": not read"};
  // Resolve each step below the root by itself: a link anywhere on the way
  // (the file, or a folder such as results/) is refused, wherever it
  // points.
  fs::path walked = root;
  for (const fs::path &part : below) {
    walked /= part;
    if (fs::is_symlink(fs::symlink_status(walked, error)))
      return Error{walked.string() +
                   " is a symbolic link: a bundle's files are read only "
                   "where no link leads out of it; not read"};
  }
  return true;
}

Result<std::string> readUntrustedFile(const fs::path &path,
                                      std::uintmax_t maxBytes,
                                      const fs::path &within) {
  std::error_code error;
  if (!within.empty())
    if (auto inside = insideFolder(path, within); !inside)
      return Error{inside.error()};
  const fs::file_status status = fs::status(path, error); // follows links
  if (error)
    return Error{"cannot read " + path.string() + ": " + error.message()};
  if (!fs::is_regular_file(status))
    return Error{path.string() + " is not a regular file (" +
                 (fs::is_directory(status) ? "a folder"
                  : fs::is_fifo(status)    ? "a FIFO"
                  : fs::is_character_file(status) || fs::is_block_file(status)
                      ? "a device"
                      : "not a file") +
                 "): not read"};
  const std::uintmax_t size = fs::file_size(path, error);
  if (error)
    return Error{"cannot read " + path.string() + ": " + error.message()};
  if (size > maxBytes)
    return Error{path.string() + " holds " + std::to_string(size) +
                 " bytes, over the " + std::to_string(maxBytes) +
                 " read from a bundle: not read"};
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{"cannot open " + path.string()};
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

Result<nlohmann::json> parseUntrustedJson(const std::string &text,
                                          const fs::path &file) {
  size_t depth = 0;
  bool inString = false, escaped = false;
  for (const char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kUntrustedJsonDepth)
        return Error{file.string() + " nests arrays and objects more than " +
                     std::to_string(kUntrustedJsonDepth) +
                     " deep; Tilescope reads JSON no deeper (a run bundle's "
                     "is at most a few levels)"};
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error &error) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5:
    // syntax error ...": what follows the bracketed name.
    std::string what = error.what();
    if (const size_t close = what.find("] "); close != std::string::npos)
      what.erase(0, close + 2);
    return Error{file.string() + " is not JSON: " + what};
  }
}

std::string stringField(const nlohmann::json &object, std::string_view key,
                        const std::string &fallback) {
  if (!object.is_object())
    return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>()
                                               : fallback;
}

std::vector<std::string> stringsField(const nlohmann::json &object,
                                      std::string_view key) {
  std::vector<std::string> out;
  if (!object.is_object())
    return out;
  if (const auto it = object.find(key); it != object.end() && it->is_array())
    for (const nlohmann::json &item : *it)
      if (item.is_string())
        out.push_back(item.get<std::string>());
  return out;
}

const nlohmann::json *objectField(const nlohmann::json &object,
                                  std::string_view key) {
  if (!object.is_object())
    return nullptr;
  const auto it = object.find(key);
  return it != object.end() && it->is_object() ? &*it : nullptr;
}

bool flagField(const nlohmann::json &object, std::string_view key) {
  if (!object.is_object())
    return false;
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::optional<double> numberField(const nlohmann::json &object,
                                  std::string_view key) {
  if (!object.is_object())
    return std::nullopt;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number())
    return std::nullopt;
  const double value = it->get<double>();
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<long long> integerField(const nlohmann::json &object,
                                      std::string_view key, long long minimum,
                                      long long maximum) {
  const auto value = numberField(object, key);
  if (!value || std::trunc(*value) != *value ||
      *value < static_cast<double>(minimum) ||
      *value > static_cast<double>(maximum))
    return std::nullopt;
  return static_cast<long long>(*value);
}

} // namespace tilescope::service
