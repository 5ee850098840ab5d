// The bar that offers a file IREE refused, converted for the IREE release
// in use, when the config model's conversions make it one IREE reads
// (core/service/ReleaseOffer): checked in the background after a failed
// load; nothing is written until the person saves the converted file
// beside the original, which is then opened.
#pragma once

#include "core/service/ReleaseOffer.h"
#include "core/util/Result.h"
#include "widgets/editor/OfferBar.h"
#include "widgets/views/LatestAnswer.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace tilescope::widgets {

class ConversionBar : public OfferBar {
  Q_OBJECT

public:
  using Check = std::function<std::optional<service::ReleaseOffer>(
      const std::filesystem::path &)>;
  // `check` unset: nothing is ever offered.
  explicit ConversionBar(Check check, QWidget *parent = nullptr);
  ~ConversionBar() override;

  // `file` was refused: asks whether it converts (checked() follows).
  void checkFile(const std::filesystem::path &file);
  // A file was opened: no offer stands, an answer still out is dropped.
  void withdraw();
  bool offersConversion() const { return conversion.has_value(); }
  bool checking() const { return answer->busy(); }
  // Writes the converted text to `path` (never over the refused file);
  // convertedSaved(path) follows.
  Result<bool> saveConvertedTo(const QString &path);

signals:
  void checked(bool offered);
  void convertedSaved(const QString &path);

private:
  void chooseAndSave();

  Check check;
  std::optional<service::ReleaseOffer> conversion;
  std::filesystem::path conversionOf;
  std::unique_ptr<LatestAnswer<std::optional<service::ReleaseOffer>>> answer;
};

} // namespace tilescope::widgets
