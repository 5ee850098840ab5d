#include "core/service/PrintedConstraints.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/edit/AttributeLocator.h"
#include "core/util/Brackets.h"
#include "core/util/Numbers.h"

#include <cstdlib>
#include <optional>

namespace tilescope::service {
namespace {

constexpr const char *kAssertOp = "iree_codegen.smt.assert";

// The values of a constraints op's dims() operands (from `from`, after the
// parenthesis): each `%name` is looked up as the `arith.constant` that
// defines it above the op (`op`); unknown when it is anything else.
std::vector<std::optional<int64_t>> dimValues(const std::string &text,
                                              size_t op, size_t from) {
  std::vector<std::optional<int64_t>> dims;
  const size_t end = text.find(')', from);
  if (end == std::string::npos)
    return dims;
  const std::string list = text.substr(from, end - from);
  for (size_t at = list.find('%'); at != std::string::npos;
       at = list.find('%', at + 1)) {
    const size_t nameEnd = list.find_first_of(", ", at);
    const std::string name = list.substr(at, nameEnd - at);
    std::optional<int64_t> value;
    size_t defined = text.rfind(name + " = arith.constant ", op);
    // the definition starts its line (after the indentation)
    while (defined != std::string::npos && defined > 0 &&
           text[defined - 1] != ' ' && text[defined - 1] != '\n')
      defined = text.rfind(name + " = arith.constant ", defined - 1);
    if (defined != std::string::npos) {
      const size_t number = defined + name.size() + 18;
      const size_t numberEnd = text.find_first_of(" :\n", number);
      value = parseInt64(text.substr(number, numberEnd - number));
    }
    dims.push_back(value);
  }
  return dims;
}

} // namespace

std::vector<PrintedConstraints> readConstraints(const std::string &text) {
  std::vector<PrintedConstraints> found;
  const edit::TextRange whole{0, text.size()};
  for (size_t at = text.find(kConstraintsOp); at != std::string::npos;
       at = text.find(kConstraintsOp, at + 1)) {
    PrintedConstraints c;
    c.line = edit::lineOf(text, at);
    const size_t setAt = text.find("set = ", at);
    if (setAt == std::string::npos)
      continue;
    c.set = std::atoll(text.c_str() + setAt + 6);
    if (auto site = edit::locateAttribute(text, at, "pipeline", whole))
      if (auto pipeline = config::parseResolvedAttribute(
              text.substr(site->value.offset, site->value.length)))
        c.content.pipeline = config::pipelineNameOf(*pipeline);
    size_t regionFrom = at;
    if (auto knobs = edit::locateAttribute(text, at, "knobs", whole)) {
      c.content.knobs = text.substr(knobs->value.offset, knobs->value.length);
      c.content.knobsTemplate = config::parseResolvedAttribute(c.content.knobs);
      regionFrom = knobs->value.end();
    }
    const size_t dimsAt = text.find("dims(", regionFrom);
    const size_t open = text.find('{', dimsAt);
    const size_t close = closingBracket(text, open, "{}");
    if (dimsAt == std::string::npos || open == std::string::npos ||
        close == std::string::npos)
      continue;
    c.content.dims = dimValues(text, at, dimsAt + 5);
    c.content.body = text.substr(open + 1, close - open - 1);
    for (size_t a = text.find(kAssertOp, open);
         a != std::string::npos && a < close; a = text.find(kAssertOp, a + 1))
      ++c.content.assertions;
    const size_t function = text.rfind("func.func @", at);
    if (function != std::string::npos) {
      const size_t name = function + std::string("func.func @").size();
      const size_t end = text.find_first_of("( ", name);
      c.function = text.substr(name, end - name);
    }
    found.push_back(std::move(c));
  }
  return found;
}

} // namespace tilescope::service
