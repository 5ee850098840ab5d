// A config attribute's text as Tilescope reads it, once per text: the
// attribute as written (IREE's syntax, aliases resolved) and the typed model
// made from it (config::LoweringConfig, TranslationInfo, CompilationInfo,
// attention's DecompositionConfig),
// or why not. The document model holds one reading per config text, made
// when the text is set (document::readConfigs: by the parser and by every
// edit) and shared by every copy of the document; the text is parsed the
// first time anything asks (from any thread), and never again, so the
// rules, the layouts, the editor, the sweep and the Python package all
// answer from the same parse, and a process that never asks (the parse
// worker) never parses.
#pragma once

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/util/Result.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tilescope::document {

namespace detail {
// Counts a parse (configReadCount).
void countRead();
} // namespace detail

template <class Model> class ConfigReading {
public:
  explicit ConfigReading(std::string text) : source(std::move(text)) {}

  const std::string &text() const { return source; }
  // The attribute as written; an Error: the text does not parse (or is
  // empty).
  const Result<config::Attribute> &written() const {
    read();
    return *attribute;
  }
  // The typed model; an Error: not this kind of attribute, or written()'s.
  const Result<Model> &model() const {
    read();
    return *typed;
  }

private:
  void read() const {
    std::call_once(once, [this] {
      detail::countRead();
      attribute.emplace(source.empty()
                            ? Result<config::Attribute>(Error{"no attribute"})
                            : config::parseResolvedAttribute(source));
      typed.emplace(*attribute ? Model::fromAttribute(**attribute)
                               : Result<Model>(Error{attribute->error()}));
    });
  }

  std::string source;
  mutable std::once_flag once;
  mutable std::optional<Result<config::Attribute>> attribute;
  mutable std::optional<Result<Model>> typed;
};
using LoweringReading = ConfigReading<config::LoweringConfig>;
using TranslationReading = ConfigReading<config::TranslationInfo>;
using CompilationReading = ConfigReading<config::CompilationInfo>;
using DecompositionReading = ConfigReading<config::DecompositionConfig>;

// How many config texts have been parsed in this process: what a test holds
// to "once per text".
size_t configReadCount();

} // namespace tilescope::document
