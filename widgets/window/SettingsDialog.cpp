#include "widgets/window/SettingsDialog.h"

#include "core/tools/IreeInstallation.h"
#include "widgets/jobs/RunPlaceBox.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {

SettingsDialog::SettingsDialog(IreeCheck ireeCheck, QString setting,
                               QWidget *parent)
    : QDialog(parent), check(std::move(ireeCheck)),
      ireeSetting(std::move(setting)) {
  setObjectName("settingsDialog");
  setWindowTitle("Tilescope settings");
  auto *form = new QFormLayout;

  if (check && !ireeSetting.isEmpty()) {
    ireePath = new QLineEdit(QSettings().value(ireeSetting).toString());
    ireePath->setObjectName("settingsIreePath");
    const QString variable = QString("$") + tools::kIreeDirectoryVariable;
    ireePath->setPlaceholderText("the project's IREE (or " + variable + ")");
    ireePath->setToolTip(
        "libIREECompiler.so, or a folder holding it and the IREE tools "
        "(an install, a build, an unpacked iree-base-compiler wheel); "
        "empty: the command line's --iree, " +
        variable + " or the project's pinned IREE");
    auto *browse = new QPushButton("Browse…");
    connect(browse, &QPushButton::clicked, this, [this] {
      const QString folder = QFileDialog::getExistingDirectory(
          this, "IREE install or build folder", ireePath->text());
      if (!folder.isEmpty()) {
        ireePath->setText(folder);
        checkIree();
      }
    });
    auto *checkButton = new QPushButton("Check");
    connect(checkButton, &QPushButton::clicked, this,
            &SettingsDialog::checkIree);
    auto *row = new QHBoxLayout;
    row->addWidget(ireePath, 1);
    row->addWidget(browse);
    row->addWidget(checkButton);
    form->addRow("IREE", row);
    ireeStatus = new QLabel;
    ireeStatus->setObjectName("settingsIreeStatus");
    ireeStatus->setWordWrap(true);
    ireeStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow("", ireeStatus);
  }

  themeBox = new QComboBox;
  themeBox->setObjectName("settingsTheme");
  for (Theme theme : {Theme::Desktop, Theme::Light, Theme::Dark})
    themeBox->addItem(themeName(theme), static_cast<int>(theme));
  themeBox->setCurrentIndex(themeBox->findData(static_cast<int>(savedTheme())));
  form->addRow("Theme", themeBox);

  cellBox = new QSpinBox;
  cellBox->setObjectName("settingsLargestCell");
  cellBox->setRange(4, 128);
  cellBox->setSuffix(" px");
  cellBox->setValue(static_cast<int>(largestFittedCell()));
  cellBox->setToolTip("Fitting a picture to its view (Ctrl+0) never makes "
                      "its cells larger than this; Ctrl+wheel still zooms "
                      "further");
  form->addRow("Largest fitted cell", cellBox);

  placesEdit = new QPlainTextEdit(RunPlaceBox::savedPlaces().mid(1).join('\n'));
  placesEdit->setObjectName("settingsRunPlaces");
  placesEdit->setPlaceholderText("ssh:gpu-box\nslurm:gpu");
  placesEdit->setToolTip(
      "Where the Run and Sweep panels can time, besides here: one place a "
      "line, ssh:HOST (a Host of your ~/.ssh/config or user@name, reached "
      "with your own keys or agent) or slurm:PARTITION (from this machine's "
      "Slurm client commands; the workspace on a filesystem the nodes "
      "share)");
  placesEdit->setFixedHeight(placesEdit->fontMetrics().lineSpacing() * 5);
  form->addRow("Run on", placesEdit);
  placesStatus = new QLabel;
  placesStatus->setObjectName("settingsRunPlacesStatus");
  placesStatus->setWordWrap(true);
  form->addRow("", placesStatus);
  // A complaint about the places goes when they are edited.
  connect(placesEdit, &QPlainTextEdit::textChanged, placesStatus,
          &QLabel::clear);

  auto *buttons =
      new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  resize(640, sizeHint().height());
  if (ireePath)
    checkIree();
}

bool SettingsDialog::checkIree() {
  if (!ireePath)
    return true;
  const QString path = ireePath->text().trimmed();
  auto found = check(path);
  if (!found) {
    ireeStatus->setText("Not usable: " + QString::fromStdString(found.error()));
    ireeStatus->setStyleSheet("color: #a61b1b;");
    fitStatus();
    return false;
  }
  ireeStatus->setText(QString::fromStdString(*found));
  ireeStatus->setStyleSheet({});
  fitStatus();
  return true;
}

void SettingsDialog::fitStatus() {
  // A long answer wraps: the dialog grows to show all of it.
  layout()->activate();
  resize(width(), std::max(height(), sizeHint().height()));
}

void SettingsDialog::accept() {
  // An IREE that cannot be used is not kept: the dialog stays open, saying
  // why, with what was typed.
  if (ireePath) {
    if (!checkIree())
      return;
    const QString path = ireePath->text().trimmed();
    if (path.isEmpty())
      QSettings().remove(ireeSetting);
    else
      QSettings().setValue(ireeSetting, path);
  }
  // Places that are not ones keep the dialog open too, saying which.
  if (auto saved =
          RunPlaceBox::savePlaces(placesEdit->toPlainText().split('\n'));
      !saved) {
    placesStatus->setText("Not a place: " +
                          QString::fromStdString(saved.error()));
    placesStatus->setStyleSheet("color: #a61b1b;");
    fitStatus();
    return;
  }
  const Theme theme = static_cast<Theme>(themeBox->currentData().toInt());
  saveTheme(theme);
  applyTheme(theme);
  saveLargestFittedCell(cellBox->value());
  QDialog::accept();
}

} // namespace tilescope::widgets
