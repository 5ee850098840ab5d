#include "widgets/editor/ConversionBar.h"

#include "core/util/Files.h"

#include <QFileDialog>
#include <QMessageBox>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

ConversionBar::ConversionBar(Check releaseOffer, QWidget *parent)
    : OfferBar("Save converted as… and open", "Dismiss", "openConvertedButton",
               parent),
      check(std::move(releaseOffer)) {
  setObjectName("conversionBar");
  connect(this, &OfferBar::accepted, this, &ConversionBar::chooseAndSave);
  answer = std::make_unique<LatestAnswer<std::optional<service::ReleaseOffer>>>(
      [this](std::optional<service::ReleaseOffer> offered) {
        conversion = std::move(offered);
        if (conversion)
          offer(qs(conversion->describe(conversionOf.filename().string())) +
                " Nothing is written until you save the converted file.");
        emit checked(conversion.has_value());
      });
}

// The question still out is cancelled and waited for, its answer dropped,
// before the bar it would fill goes.
ConversionBar::~ConversionBar() { answer.reset(); }

void ConversionBar::checkFile(const std::filesystem::path &file) {
  conversion.reset();
  hide();
  if (!check)
    return;
  conversionOf = file;
  answer->ask(
      [check = check, file](const std::atomic<bool> *) { return check(file); });
}

void ConversionBar::withdraw() {
  hide();
  conversion.reset();
  answer->drop();
}

void ConversionBar::chooseAndSave() {
  if (!conversion)
    return;
  const std::filesystem::path suggested =
      conversionOf.parent_path() /
      (conversionOf.stem().string() + ".iree-" + conversion->release + ".mlir");
  const QString path = QFileDialog::getSaveFileName(
      this, "Save the converted file", qs(suggested.string()),
      "MLIR files (*.mlir);;All files (*)");
  if (path.isEmpty())
    return;
  if (auto saved = saveConvertedTo(path); !saved)
    QMessageBox::warning(this, "Not saved", qs(saved.error()));
}

Result<bool> ConversionBar::saveConvertedTo(const QString &path) {
  if (!conversion)
    return Error{"no conversion is offered"};
  const std::filesystem::path target = path.toStdString();
  std::error_code same;
  if (std::filesystem::equivalent(target, conversionOf, same))
    return Error{"the converted file goes beside the original, not over it "
                 "(tilescope-cli convert --in-place rewrites it)"};
  if (auto written = writeFileAtomically(target, conversion->converted);
      !written)
    return Error{written.error()};
  hide();
  emit convertedSaved(path);
  return true;
}

} // namespace tilescope::widgets
