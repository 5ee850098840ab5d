#include "core/service/PrintedConstraints.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/edit/AttributeLocator.h"
#include "core/util/Brackets.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>

namespace tilescope::service {
namespace {

constexpr const char *kAssertOp = "iree_codegen.smt.assert";
constexpr std::string_view kFunction = "func.func @";
constexpr std::string_view kDefines = " = arith.constant ";

// The `arith.constant`s of the text, taken once from its start as the
// reader moves down it: each `%name = arith.constant V` that starts its line
// (after the indentation), the latest above a point.
class Constants {
public:
  explicit Constants(std::string_view text)
      : text_(text), next_(text.find(kDefines)) {}

  // `%name`'s value as last defined above `at`; none where no constant
  // defines it (or its value is no integer).
  std::optional<int64_t> before(const std::string &name, size_t at) {
    for (; next_ != std::string_view::npos && next_ < at;
         next_ = text_.find(kDefines, next_ + 1)) {
      const size_t start = text_.find_last_of(" \n", next_ - 1) + 1;
      if (start >= next_)
        continue; // no name: `  = arith.constant`
      const size_t number = next_ + kDefines.size();
      const size_t numberEnd = text_.find_first_of(" :\n", number);
      values_[std::string(text_.substr(start, next_ - start))] =
          parseInt64(text_.substr(number, numberEnd - number));
    }
    const auto found = values_.find(name);
    return found == values_.end() ? std::nullopt : found->second;
  }

private:
  std::string_view text_;
  size_t next_;
  std::map<std::string, std::optional<int64_t>> values_;
};

// The values of a constraints op's dims() operands (`list`, what follows
// the parenthesis): each `%name` is the `arith.constant` that defines it
// above the op (at `op` in the text); unknown when it is anything else.
std::vector<std::optional<int64_t>> dimValues(std::string_view list, size_t op,
                                              Constants &constants) {
  std::vector<std::optional<int64_t>> dims;
  const size_t close = list.find(')');
  if (close == std::string_view::npos)
    return dims;
  list = list.substr(0, close);
  for (size_t at = list.find('%'); at != std::string_view::npos;
       at = list.find('%', at + 1)) {
    const size_t nameEnd = list.find_first_of(", ", at);
    dims.push_back(
        constants.before(std::string(list.substr(at, nameEnd - at)), op));
  }
  return dims;
}

} // namespace

// Each op is read in its own text, up to where the next one starts, and
// the line, the function and the constants are carried down the file:
// each was sought from the start (or back to it, or on to the end) for
// every op, and a file of bare ops read in quadratic time.
std::vector<PrintedConstraints> readConstraints(const std::string &text) {
  std::vector<PrintedConstraints> found;
  Constants constants(text);
  size_t counted = 0; // lines counted up to here
  int line = 1;
  size_t nextFunction = text.find(kFunction);
  std::string function;
  for (size_t from = text.find(kConstraintsOp); from != std::string::npos;) {
    const size_t next = text.find(kConstraintsOp, from + 1);
    const std::string_view op = std::string_view(text).substr(
        from, (next == std::string::npos ? text.size() : next) - from);
    line += static_cast<int>(
        std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                   text.begin() + static_cast<std::ptrdiff_t>(from), '\n'));
    counted = from;
    for (; nextFunction != std::string::npos && nextFunction < from;
         nextFunction = text.find(kFunction, nextFunction + 1)) {
      const size_t name = nextFunction + kFunction.size();
      function = text.substr(name, text.find_first_of("( ", name) - name);
    }
    const size_t at = from;
    from = next;

    PrintedConstraints c;
    c.line = line;
    c.function = function;
    const size_t setAt = op.find("set = ");
    if (setAt == std::string_view::npos)
      continue;
    c.set = std::strtoll(text.c_str() + at + setAt + 6, nullptr, 10);
    const edit::TextRange whole{0, op.size()};
    if (auto site = edit::locateAttribute(op, 0, "pipeline", whole))
      if (auto pipeline = config::parseResolvedAttribute(
              op.substr(site->value.offset, site->value.length)))
        c.content.pipeline = config::pipelineNameOf(*pipeline);
    size_t regionFrom = 0;
    if (auto knobs = edit::locateAttribute(op, 0, "knobs", whole)) {
      c.content.knobs = op.substr(knobs->value.offset, knobs->value.length);
      c.content.knobsTemplate = config::parseResolvedAttribute(c.content.knobs);
      regionFrom = knobs->value.end();
    }
    const size_t dimsAt = op.find("dims(", regionFrom);
    const size_t open = op.find('{', dimsAt);
    const size_t close = closingBracket(op, open, "{}");
    if (dimsAt == std::string_view::npos || open == std::string_view::npos ||
        close == std::string_view::npos)
      continue;
    c.content.dims = dimValues(op.substr(dimsAt + 5), at, constants);
    c.content.body = op.substr(open + 1, close - open - 1);
    for (size_t a = op.find(kAssertOp, open);
         a != std::string_view::npos && a < close;
         a = op.find(kAssertOp, a + 1))
      ++c.content.assertions;
    found.push_back(std::move(c));
  }
  return found;
}

} // namespace tilescope::service
