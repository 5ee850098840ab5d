#include "core/service/ReleaseOffer.h"

#include "core/edit/ReleaseConversion.h"

#include <algorithm>

namespace tilescope::service {

std::string ReleaseOffer::describe(const std::string &file) const {
  std::string names;
  for (const std::string &name : conversions)
    names += (names.empty() ? "" : ", ") + name;
  return file +
         " looks written for another IREE release: " + std::to_string(configs) +
         " config(s) convert for IREE " + release + " (" + names +
         ") and IREE reads the result.";
}

std::optional<ReleaseOffer> releaseOffer(DocumentWorker &worker,
                                         const std::string &text,
                                         const std::string &bufferName,
                                         const std::string &release) {
  edit::FileConversion conversion = edit::convertFileForRelease(text, release);
  if (!conversion.changed() || !worker.parseText(conversion.text, bufferName))
    return std::nullopt;
  ReleaseOffer offer;
  offer.release = release;
  offer.configs = conversion.changes.size();
  for (const edit::ConvertedConfig &change : conversion.changes)
    for (const std::string &name : change.applied)
      if (std::find(offer.conversions.begin(), offer.conversions.end(), name) ==
          offer.conversions.end())
        offer.conversions.push_back(name);
  offer.converted = std::move(conversion.text);
  return offer;
}

} // namespace tilescope::service
