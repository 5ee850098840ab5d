#include "core/edit/ReleaseConversion.h"

#include "core/config/rules/Conversions.h"
#include "core/config/syntax/Attribute.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/edit/AttributeLocator.h"
#include "core/util/Brackets.h"

#include <array>
#include <variant>

namespace tilescope::edit {
namespace {

// The outermost config attributes: a compilation_info holds the other two,
// converted with it.
constexpr std::array<std::string_view, 4> kPrefixes = {
    "#iree_codegen.compilation_info<", "#iree_codegen.translation_info<",
    "#iree_gpu.lowering_config<", "#iree_codegen.lowering_config<"};

// The next config attribute at or after `from`: its offset, or npos.
size_t nextConfig(std::string_view text, size_t from) {
  size_t best = std::string_view::npos;
  for (std::string_view prefix : kPrefixes)
    best = std::min(best, text.find(prefix, from));
  return best;
}

} // namespace

FileConversion convertFileForRelease(std::string_view text,
                                     const std::string &release) {
  FileConversion result;
  size_t copied = 0;
  for (size_t at = nextConfig(text, 0); at != std::string_view::npos;) {
    const size_t open = text.find('<', at);
    const size_t close = closingBracket(text, open);
    if (close == std::string_view::npos) {
      result.notes.push_back("line " + std::to_string(lineOf(text, at)) +
                             ": a config that does not close");
      break;
    }
    const std::string_view written = text.substr(at, close + 1 - at);
    auto parsed = config::parseAttribute(written);
    if (const auto *error = std::get_if<config::ParseError>(&parsed)) {
      result.notes.push_back("line " + std::to_string(lineOf(text, at)) +
                             ": not read (" + error->message + ")");
    } else {
      const config::ConversionResult converted = config::convertForRelease(
          std::get<config::Attribute>(parsed), release);
      for (const std::string &note : converted.impossible)
        result.notes.push_back("line " + std::to_string(lineOf(text, at)) +
                               ": " + note);
      if (!converted.applied.empty()) {
        ConvertedConfig change;
        change.line = lineOf(text, at);
        change.before = std::string(written);
        change.after = config::printLikeIree(converted.attribute);
        change.applied = converted.applied;
        result.text.append(text.substr(copied, at - copied));
        result.text += change.after;
        copied = close + 1;
        result.changes.push_back(std::move(change));
      }
    }
    at = nextConfig(text, close + 1);
  }
  result.text.append(text.substr(copied));
  return result;
}

} // namespace tilescope::edit
