// Edit > Settings: which IREE Tilescope uses (a compiler library or an
// install folder, checked before it is kept), the colour theme and the
// largest cell a picture is fitted at, and the places a timed run can go
// (GPU hosts over ssh, Slurm partitions; RunPlaceBox). The IREE is checked
// through the app's service (widgets never load IREE); the rest is
// ViewSettings.
#pragma once

#include "core/util/Result.h"
#include "widgets/views/ViewSettings.h"

#include <QDialog>

#include <functional>
#include <string>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QPlainTextEdit;

namespace tilescope::widgets {

class SettingsDialog : public QDialog {
  Q_OBJECT

public:
  // What the IREE at a path is, in words, or why it is not one (an Error).
  using IreeCheck = std::function<Result<std::string>(const QString &path)>;

  // `ireeSetting`: the QSettings key the app reads the IREE path from;
  // empty with no `check`: the IREE row is hidden.
  SettingsDialog(IreeCheck check, QString ireeSetting,
                 QWidget *parent = nullptr);

  // Checks the typed IREE path now (the dialog also does on OK).
  bool checkIree();

  void accept() override;

private:
  void fitStatus();
  IreeCheck check;
  QString ireeSetting;
  QLineEdit *ireePath = nullptr;
  QLabel *ireeStatus = nullptr;
  QComboBox *themeBox = nullptr;
  QSpinBox *cellBox = nullptr;
  QPlainTextEdit *placesEdit = nullptr;
  QLabel *placesStatus = nullptr;
};

} // namespace tilescope::widgets
