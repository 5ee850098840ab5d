// The configs a try compiled, one entry per root op: what the history keeps
// of a try's document, what a sweep's resume, a comparison and a bundle read
// back (ConfigsPutBack.h puts them back on a document). Typed here; JSON
// only where the history stores them and `--json` prints them.
#pragma once

#include "core/document/Document.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilescope::tries {

// One root op's configs as compiled.
struct OpConfigs {
  size_t dispatchIndex = 0; // where it was in the try's document ("D:O")
  size_t opIndex = 0;
  std::string dispatch; // the dispatch's name: what finds it again
  std::string opName;   // "linalg.matmul"
  int line = 0;
  std::string translationInfo; // the dispatch's
  std::string loweringConfig;  // as written; empty where a compilation_info
  std::string compilationInfo; // carries the op's configs
  // The op's config: its compilation_info, else its lowering_config.
  const std::string &config() const;
  bool operator==(const OpConfigs &) const = default;
};
using TriedConfigs = std::vector<OpConfigs>;

// Each root op's configs in `document`, in document order.
TriedConfigs configsOf(const document::Document &document);

// {"D:O": {"dispatch", "op", "line", "translation_info",
// "lowering_config" | "compilation_info"}}: the history's and `--json`'s
// form.
nlohmann::json toJson(const TriedConfigs &configs);
nlohmann::json toJson(const OpConfigs &op);
// The inverse, for what the history or a bundle's manifest holds: entries
// not of that form are skipped.
TriedConfigs configsFromJson(const nlohmann::json &configs);

// The configs as a document the config diff reads: dispatches by name,
// their translation_info and root ops, each config read once.
document::Document documentFromConfigs(const TriedConfigs &configs);

// Whether the configs hold op `opIndex` with this config text (its
// compilation_info or lowering_config) and translation_info.
bool holdsConfigs(const TriedConfigs &configs, size_t opIndex,
                  const std::string &config,
                  const std::string &translationInfo);

} // namespace tilescope::tries
