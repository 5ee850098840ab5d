#include "widgets/jobs/RunPlaceBox.h"

#include <QLineEdit>
#include <QSettings>

namespace tilescope::widgets {
namespace {

constexpr const char *kPlacesKey = "run/places";
const char *const kTip =
    "Where the timed run happens: local; ssh:HOST, a GPU host your own ssh "
    "reaches (a Host of ~/.ssh/config or user@name; keys or an agent, never "
    "a password); slurm:PARTITION, a Slurm partition (a sweep goes out as one "
    "job array, one GPU per task; the workspace on a filesystem the nodes "
    "share). Compiling stays here. Settings keeps the list.";

} // namespace

RunPlaceBox::RunPlaceBox(QWidget *parent) : QComboBox(parent) {
  setObjectName("runPlace");
  setEditable(true);
  setInsertPolicy(QComboBox::NoInsert);
  setToolTip(kTip);
  reload();
  connect(this, &QComboBox::currentTextChanged, this,
          &RunPlaceBox::showVerdict);
}

Result<run::RunPlace> RunPlaceBox::place() const {
  return run::parseRunPlace(currentText().trimmed().toStdString());
}

void RunPlaceBox::reload() {
  const QString typed = currentText();
  QSignalBlocker quiet(this);
  clear();
  addItems(savedPlaces());
  setCurrentText(typed.isEmpty() ? "local" : typed);
  showVerdict();
}

QStringList RunPlaceBox::savedPlaces() {
  QStringList places{"local"};
  for (const QString &place : QSettings().value(kPlacesKey).toStringList())
    if (!places.contains(place.trimmed()) && !place.trimmed().isEmpty())
      places.push_back(place.trimmed());
  return places;
}

Result<bool> RunPlaceBox::savePlaces(const QStringList &places) {
  QStringList kept;
  for (const QString &line : places) {
    const QString place = line.trimmed();
    if (place.isEmpty() || place == "local")
      continue;
    if (auto parsed = run::parseRunPlace(place.toStdString()); !parsed)
      return Error{parsed.error()};
    if (!kept.contains(place))
      kept.push_back(place);
  }
  QSettings().setValue(kPlacesKey, kept);
  return true;
}

void RunPlaceBox::showVerdict() {
  auto parsed = place();
  if (parsed) {
    setStyleSheet({});
    setToolTip(kTip);
  } else {
    setStyleSheet("QComboBox { color: #a61b1b; }");
    setToolTip(QString::fromStdString(parsed.error()));
  }
}

} // namespace tilescope::widgets
