// The legend under a scene's panels: which colour is which owner.
//
// A short legend lists "swatch  lane 3" entries. A long one whose entries are
// all "<word> <number>" (64 lanes, 32 banks, 256 threads) is drawn compact:
// the word once, then a numbered swatch per key (the number on its colour in
// a contrasting ink), so every colour of a wave64 can be read without a
// "… and 35 more". What still does not fit in the lines given ends in
// "… and N more".
#pragma once

#include "widgets/render/GridScene.h"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

#include <functional>
#include <vector>

namespace tilescope::render {

class LegendPainter {
public:
  LegendPainter(const std::vector<LegendEntry> &entries, const QFont &font);

  bool empty() const { return entries.empty(); }
  bool compact() const { return !word.isEmpty(); }
  double lineHeight() const { return height; }
  // Lines needed at `width`, at most `maxLines`.
  int linesAt(double width, int maxLines) const;

  struct Style {
    std::function<QColor(int64_t key)> fill;
    QColor foreground;
    QColor secondary; // the "… and N more" and the compact legend's word
  };
  // Draws in `lines` lines of `width` from `topLeft`.
  void draw(QPainter &painter, QPointF topLeft, double width, int lines,
            const Style &style) const;

private:
  struct Placed {
    size_t index;
    int line;
    double x;
    double width;
  };
  double entryWidth(size_t index) const;
  // Lays the entries out line by line at `width` (after the word, compact)
  // into `placed` (if given), up to `maxLines` lines; the lines needed,
  // `maxLines` at most.
  int flow(double width, int maxLines, std::vector<Placed> *placed) const;
  double gap() const;
  // Entries placed in `lines` lines of `width` (after the word, compact),
  // room kept for "… and N more" when not all fit; `more` gets that text.
  std::vector<Placed> place(double width, int lines, QString &more,
                            double &moreX) const;

  const std::vector<LegendEntry> &entries;
  QFont font;
  QFontMetricsF metrics;
  QString word; // compact: "lane", "bank", ...; empty: plain entries
  double wordWidth = 0;
  double swatchWidth = 0; // compact: one numbered swatch
  double height = 0;
};

} // namespace tilescope::render
