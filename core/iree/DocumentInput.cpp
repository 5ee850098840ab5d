// What happens to a file before IREE's parser sees it: reading it with
// clear errors, and refusing what IREE cannot take safely. No IREE here.
#include "core/document/SplitInput.h"
#include "core/iree/DocumentParser.h"
#include "core/iree/NestingScan.h"
#include "core/util/Files.h"

#include "core/config/syntax/IreeSyntax.h"

#include <algorithm>
#include <regex>

namespace fs = std::filesystem;

namespace tilescope::iree {
namespace {

// A swizzle IREE's parser crashes on (SIGFPE in its verifier), outside
// comments: "line:column: error: why". Found with plain string search (a
// regex over a 50 MB file would cost seconds), then read closely.
std::optional<std::string> swizzleCrasher(const std::string &text) {
  static const std::regex pattern(
      R"(^#iree_codegen\.(xor_shuffle|rotate_rows)\s*<([-0-9,\s]*)>)");
  static constexpr std::string_view kPrefix = "#iree_codegen.";
  for (size_t at = text.find(kPrefix); at != std::string::npos;
       at = text.find(kPrefix, at + 1)) {
    const size_t lineStart = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;
    if (text.substr(lineStart, at - lineStart).find("//") != std::string::npos)
      continue;
    const std::string window = text.substr(at, 200);
    std::smatch match;
    if (!std::regex_search(window, match, pattern))
      continue;
    std::vector<int64_t> values;
    const std::string list = match[2].str();
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      try {
        values.push_back(std::stoll(list.substr(start, comma - start)));
      } catch (const std::exception &) {
        values.clear(); // not plain integers: IREE's parser refuses it
        break;
      }
      start = comma + 1;
    }
    if (auto why = config::swizzleCrashesIree(match[1].str(), values)) {
      const auto line =
          std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') +
          1;
      return std::to_string(line) + ":" + std::to_string(at - lineStart + 1) +
             ": error: " + match[0].str() + " has " + *why +
             "; Tilescope does not hand it to IREE's parser";
    }
  }
  return std::nullopt;
}

// A split marker that cuts a token: a string literal open at the marker, or
// a '/' right before it. MLIR's lexer then reads past the end of the part
// (iree-opt --split-input-file reports later parts' text twice, or crashes
// with SIGSEGV reading past its buffer).
std::optional<std::string> markerCutsAToken(const std::string &text) {
  auto position = [&](size_t offset) {
    const size_t lineStart = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;
    return std::to_string(std::count(text.begin(),
                                     text.begin() + static_cast<long>(offset),
                                     '\n') +
                          1) +
           ":" + std::to_string(offset - lineStart + 1);
  };
  const document::SplitInput split = document::splitInputFile(text, "");
  for (size_t p = 0; p + 1 < split.parts.size(); ++p) {
    const document::TextPart &part = split.parts[p];
    const size_t end = part.offset + part.length;
    const document::TokenCut cut = document::tokenCutAt(text, part.offset, end);
    const std::string consequence =
        "; IREE's parser reads past the end of the part there (iree-opt "
        "--split-input-file reports later parts' text or crashes). ";
    if (cut.openString != std::string::npos)
      return position(end) +
             ": error: this split marker cuts the string literal that starts "
             "at " +
             position(cut.openString) + consequence +
             "Close the string before the marker, or open the file without "
             "splitting";
    if (cut.trailingSlash != std::string::npos)
      return position(cut.trailingSlash) +
             ": error: this '/' and the split marker after it read as one "
             "comment" +
             consequence + "Put the marker on a line of its own";
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> refuseBeforeParsing(const std::string &text,
                                               const std::string &bufferName,
                                               bool split) {
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    const auto line = std::count(text.begin(), text.begin() + nul, '\n') + 1;
    return bufferName + ":" + std::to_string(line) +
           ": error: contains a NUL byte; not an MLIR text file";
  }
  if (auto excess = findExcessiveNesting(text))
    return bufferName + ":" + std::to_string(excess->line) + ":" +
           std::to_string(excess->column) + ": error: nests " +
           std::to_string(excess->depth) +
           " levels deep (brackets, braces, parentheses, angle brackets and "
           "regions); Tilescope hands IREE's parser at most " +
           std::to_string(kMaximumNesting) +
           " levels, as deeper nesting overflows its stack";
  if (auto crasher = swizzleCrasher(text))
    return bufferName + ":" + *crasher;
  if (split)
    if (auto cut = markerCutsAToken(text))
      return bufferName + ":" + *cut;
  return std::nullopt;
}

bool splitsInput(const std::string &text, const ParseOptions &options) {
  return options.splitInputFile.value_or(
      document::hasSplitMarkerOutsideStrings(text));
}

} // namespace tilescope::iree
