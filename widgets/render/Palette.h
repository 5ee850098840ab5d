// Colours for the grid views: a categorical palette for colour keys (owning
// subgroup, lane, register, bank, ...), text colour on a fill, and the light
// and dark themes the painter draws with.
#pragma once

#include <QColor>

#include <cstdint>

namespace tilescope::render {

// Maximum number of keys served by the fixed, hand-checked palette; keys
// beyond it get golden-angle hues with alternating lightness.
inline constexpr int64_t kPaletteSize = 64;

// A fill colour for `key`. The first kPaletteSize keys come from a
// Glasbey-like table (Tableau 10's colours and colours picked greedily for
// the largest CIELAB distance to all earlier ones, every pair at least ~17
// dE76 apart, lightness and chroma kept in a band that reads on white and
// on a dark background), ordered so keys 1, 2, 4, ... 32 apart differ most.
// Keys beyond it get golden-angle hue spacing with alternating lightness and
// saturation. A key keeps its colour whatever `keyCount` is (so switching views
// or legends never recolours a key); `keyCount` (0: unknown) is accepted for
// future palettes sized to the count. `dark` tones the colours down slightly
// for a dark background. Negative keys (no owner) get a neutral grey; the
// painter draws them with Theme::emptyCell instead.
QColor colorFor(int64_t key, int64_t keyCount, bool dark);

// Black or white, whichever contrasts more with `fill` (WCAG relative
// luminance).
QColor textColorOn(QColor fill);

struct Theme {
  bool dark = false;
  QColor background;
  QColor foreground; // text, marked-cell outlines
  QColor gridLine;   // thin cell separators (semi-transparent)
  QColor groupLine;  // tile-group separators
  QColor emptyCell;  // cells with colorKey -1

  static Theme light();
  static Theme darkTheme();
};

} // namespace tilescope::render
