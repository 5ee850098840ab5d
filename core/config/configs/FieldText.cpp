#include "core/config/configs/FieldText.h"

#include "core/config/configs/TranslationInfo.h"

namespace tilescope::config {

Result<std::vector<int64_t>> integerListOf(std::string_view text) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  auto values = attribute->asInt64Array();
  if (!values)
    return Error{"not a list of integers"};
  return std::move(*values);
}

Result<Basis> basisOf(std::string_view text, const std::string &field) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  return basisFromAttribute(*attribute, field);
}

} // namespace tilescope::config
