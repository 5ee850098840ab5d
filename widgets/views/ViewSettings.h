// The window's own preferences, kept in QSettings: the colour theme (the
// desktop's, or light or dark whatever the desktop says) and the largest
// cell a picture is fitted at. Read at start and changed by the settings
// dialog; everything that draws asks here.
#pragma once

#include <QString>

namespace tilescope::widgets {

enum class Theme { Desktop, Light, Dark };

Theme savedTheme();
void saveTheme(Theme theme);
// Puts the theme's palette on the application (the desktop's as it was
// when the application started, for Theme::Desktop).
void applyTheme(Theme theme);
QString themeName(Theme theme);

// Fitting a picture to its view never makes cells larger than this (px).
double largestFittedCell();
void saveLargestFittedCell(double pixels);

} // namespace tilescope::widgets
