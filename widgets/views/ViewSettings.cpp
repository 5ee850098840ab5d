#include "widgets/views/ViewSettings.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>

#include <algorithm>
#include <optional>

namespace tilescope::widgets {
namespace {

constexpr const char *kThemeKey = "view/theme";
constexpr const char *kCellKey = "view/largestFittedCell";
constexpr double kDefaultCell = 32;

// The palette the desktop gave the application, before any theme.
QPalette desktopPalette() {
  static const QPalette palette = QApplication::palette();
  return palette;
}

QPalette darkPalette() {
  QPalette p;
  const QColor window(45, 45, 48), base(30, 30, 32), text(220, 220, 220);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, window);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Highlight, QColor(42, 130, 218));
  p.setColor(QPalette::HighlightedText, Qt::black);
  p.setColor(QPalette::Link, QColor(110, 170, 240));
  p.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
  for (QPalette::ColorRole role :
       {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(127, 127, 127));
  return p;
}

std::optional<double> &cachedCell() {
  static std::optional<double> cell;
  return cell;
}

} // namespace

Theme savedTheme() {
  const QString name = QSettings().value(kThemeKey).toString();
  if (name == "light")
    return Theme::Light;
  if (name == "dark")
    return Theme::Dark;
  return Theme::Desktop;
}

void saveTheme(Theme theme) {
  QSettings().setValue(kThemeKey, theme == Theme::Light  ? "light"
                                  : theme == Theme::Dark ? "dark"
                                                         : "desktop");
}

QString themeName(Theme theme) {
  switch (theme) {
  case Theme::Light:
    return "Light";
  case Theme::Dark:
    return "Dark";
  case Theme::Desktop:
    break;
  }
  return "Follow the desktop";
}

void applyTheme(Theme theme) {
  const QPalette desktop = desktopPalette(); // remembered before any change
  QPalette chosen = desktop;
  if (theme == Theme::Dark)
    chosen = darkPalette();
  else if (theme == Theme::Light &&
           desktop.color(QPalette::Window).lightness() < 128)
    chosen = QApplication::style()->standardPalette();
  QApplication::setPalette(chosen);
}

double largestFittedCell() {
  std::optional<double> &cell = cachedCell();
  if (!cell)
    cell = std::clamp(QSettings().value(kCellKey, kDefaultCell).toDouble(), 4.0,
                      128.0);
  return *cell;
}

void saveLargestFittedCell(double pixels) {
  cachedCell() = std::clamp(pixels, 4.0, 128.0);
  QSettings().setValue(kCellKey, *cachedCell());
}

} // namespace tilescope::widgets
