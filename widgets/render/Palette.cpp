#include "widgets/render/Palette.h"

#include <QtGlobal>

#include <array>
#include <cmath>

namespace tilescope::render {

namespace {

// The colours of Tableau 10 (without its grey) and greedy max-min CIELAB
// picks from the sRGB cube restricted to L* in [45, 82] and chroma in
// [28, 68]: no greys (they would read as empty cells), nothing too dark for
// black outlines or too pale for a white page. Ordered so that keys a
// layout puts side by side differ most: keys 1, 2, 4, 8, 16 and 32 apart
// (lanes in a row, rows of lanes, registers, subgroups) are at least 27
// CIEDE2000 apart (at least 24 toned for the dark page), where the picking
// order left some neighbours 7 apart (an annealed permutation of the set).
constexpr std::array<QRgb, kPaletteSize> kPalette = {
    0x00C8F8, 0xB07AA1, 0xA0C878, 0x307858, 0xF078B0, 0xC8C890, 0xF07040,
    0xC880D0, 0x808850, 0x80D8F0, 0xD050B0, 0xA8A008, 0xA85820, 0x9088C0,
    0x587820, 0x00E0B0, 0x9850A8, 0x008048, 0xE0A090, 0x60B0F0, 0x70A078,
    0x9C755F, 0x8880F8, 0x689000, 0xD07860, 0xB870E0, 0x90D8A8, 0xFF9DA7,
    0x4E79A7, 0x59A14F, 0xEDC948, 0x0098F8, 0xF8B0F0, 0xB88800, 0x58A8C8,
    0xC82880, 0xF28E2B, 0x008090, 0x60E080, 0xD88848, 0x6068B8, 0x00B070,
    0x787000, 0x0068D8, 0x76B7B2, 0xE8B058, 0xC04028, 0xF888F0, 0x188010,
    0xE15759, 0xB0D858, 0x10B098, 0xE06880, 0xB8A0F8, 0xF8B080, 0xA85060,
    0x10B8C8, 0xB08848, 0xF85080, 0xB8C0F8, 0xB0B050, 0xB05088, 0x00E0E0,
    0x70B840};

constexpr double kGoldenAngleDegrees = 137.50776405003785;

double linearize(double channel) {
  return channel <= 0.04045 ? channel / 12.92
                            : std::pow((channel + 0.055) / 1.055, 2.4);
}

double relativeLuminance(const QColor &color) {
  return 0.2126 * linearize(color.redF()) + 0.7152 * linearize(color.greenF()) +
         0.0722 * linearize(color.blueF());
}

QColor forDarkBackground(const QColor &color) {
  // Slightly darker and less saturated: the same hues, without glaring on a
  // dark page. Order and distinctness are preserved (a monotone map).
  float hue = 0, saturation = 0, lightness = 0, alpha = 1;
  color.getHslF(&hue, &saturation, &lightness, &alpha);
  return QColor::fromHslF(hue, saturation * 0.9f, 0.06f + lightness * 0.84f,
                          alpha);
}

} // namespace

QColor colorFor(int64_t key, int64_t keyCount, bool dark) {
  Q_UNUSED(keyCount);
  QColor color;
  if (key < 0) {
    color = dark ? QColor(0x55, 0x58, 0x5e) : QColor(0xc8, 0xcb, 0xd0);
    return color;
  }
  if (key < kPaletteSize) {
    color = QColor::fromRgb(kPalette[static_cast<size_t>(key)]);
  } else {
    const int64_t k = key - kPaletteSize;
    const double hue = std::fmod(
        20.0 + static_cast<double>(k % 100000) * kGoldenAngleDegrees, 360.0);
    static constexpr std::array<float, 3> kLightness = {0.58f, 0.42f, 0.72f};
    static constexpr std::array<float, 2> kSaturation = {0.70f, 0.52f};
    color = QColor::fromHslF(static_cast<float>(hue / 360.0),
                             kSaturation[static_cast<size_t>((k / 3) % 2)],
                             kLightness[static_cast<size_t>(k % 3)]);
  }
  return dark ? forDarkBackground(color).toRgb() : color;
}

QColor textColorOn(QColor fill) {
  const double luminance = relativeLuminance(fill.toRgb());
  // Contrast ratios against black (L=0) and white (L=1).
  const double againstBlack = (luminance + 0.05) / 0.05;
  const double againstWhite = 1.05 / (luminance + 0.05);
  return againstBlack >= againstWhite ? QColor(Qt::black) : QColor(Qt::white);
}

Theme Theme::light() {
  Theme theme;
  theme.dark = false;
  theme.background = QColor(0xff, 0xff, 0xff);
  theme.foreground = QColor(0x1f, 0x23, 0x28);
  theme.gridLine = QColor(0, 0, 0, 56);
  theme.groupLine = QColor(0x30, 0x36, 0x3d);
  theme.emptyCell = QColor(0xec, 0xee, 0xf1);
  return theme;
}

Theme Theme::darkTheme() {
  Theme theme;
  theme.dark = true;
  theme.background = QColor(0x1e, 0x1f, 0x22);
  theme.foreground = QColor(0xe6, 0xe8, 0xeb);
  theme.gridLine = QColor(255, 255, 255, 48);
  theme.groupLine = QColor(0xc9, 0xd1, 0xd9);
  theme.emptyCell = QColor(0x2f, 0x31, 0x36);
  return theme;
}

} // namespace tilescope::render
