// Where a timed run happens, as the window asks it (the command line's
// --on): "local", "ssh:HOST" (a GPU host over the user's own ssh) or
// "slurm:PARTITION" (a cluster's partition, a sweep as one job array). An
// editable list of the places Settings keeps; the text is checked as it is
// typed, and a place that is not one keeps the panel from running.
#pragma once

#include "core/run/RemoteRun.h"
#include "core/util/Result.h"

#include <QComboBox>
#include <QStringList>

namespace tilescope::widgets {

class RunPlaceBox : public QComboBox {
  Q_OBJECT

public:
  explicit RunPlaceBox(QWidget *parent = nullptr);

  // The typed place, or why it is not one.
  Result<run::RunPlace> place() const;
  // Fills the list again from Settings, keeping the typed text.
  void reload();

  // The places Settings keeps (always "local" first), and keeping them:
  // an Error names the first line that is not a place.
  static QStringList savedPlaces();
  static Result<bool> savePlaces(const QStringList &places);

private:
  void showVerdict();
};

} // namespace tilescope::widgets
