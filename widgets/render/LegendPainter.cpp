#include "widgets/render/LegendPainter.h"

#include "widgets/render/Palette.h"

#include <QPen>

#include <algorithm>

namespace tilescope::render {
namespace {

constexpr double kSwatch = 12;
constexpr double kSwatchGap = 5;
constexpr double kEntryGap = 14;
constexpr double kCompactGap = 2;
constexpr double kWordGap = 8;
// Fewer entries than this read fine as "swatch  lane 3".
constexpr size_t kCompactFrom = 17;

QString moreText(size_t remaining) {
  return QStringLiteral("… and %1 more").arg(remaining);
}

// "lane" when every entry reads "lane <its key>", else empty.
QString commonWord(const std::vector<LegendEntry> &entries) {
  if (entries.size() < kCompactFrom)
    return {};
  const QString first = entries.front().text;
  const qsizetype space = first.lastIndexOf(' ');
  if (space <= 0)
    return {};
  const QString word = first.left(space);
  for (const LegendEntry &entry : entries)
    if (entry.text != word + ' ' + QString::number(entry.colorKey))
      return {};
  return word;
}

} // namespace

LegendPainter::LegendPainter(const std::vector<LegendEntry> &legend,
                             const QFont &legendFont)
    : entries(legend), font(legendFont), metrics(legendFont),
      word(commonWord(legend)) {
  height = std::max(metrics.height(), kSwatch) + 6;
  if (compact()) {
    wordWidth = metrics.horizontalAdvance(word + 's') + kWordGap;
    int64_t widest = 0;
    for (const LegendEntry &entry : entries)
      widest = std::max(widest, entry.colorKey);
    swatchWidth = std::max(
        kSwatch, metrics.horizontalAdvance(QString::number(widest)) + 6);
  }
}

double LegendPainter::entryWidth(size_t index) const {
  if (compact())
    return swatchWidth;
  return kSwatch + kSwatchGap + metrics.horizontalAdvance(entries[index].text);
}

double LegendPainter::gap() const {
  return compact() ? kCompactGap : kEntryGap;
}

int LegendPainter::flow(double width, int maxLines,
                        std::vector<Placed> *placed) const {
  if (entries.empty())
    return 0;
  const double start = compact() ? wordWidth : 0;
  int line = 0;
  double x = start;
  for (size_t i = 0; i < entries.size(); ++i) {
    const double w = entryWidth(i);
    if (x > start && x + w > width) {
      if (++line >= maxLines)
        return maxLines;
      x = start;
    }
    if (placed)
      placed->push_back({i, line, x, w});
    x += w + gap();
  }
  return line + 1;
}

int LegendPainter::linesAt(double width, int maxLines) const {
  return flow(width, maxLines, nullptr);
}

std::vector<LegendPainter::Placed> LegendPainter::place(double width, int lines,
                                                        QString &more,
                                                        double &moreX) const {
  std::vector<Placed> placed;
  flow(width, lines, &placed);
  // Make room for "… and N more" on the last line.
  const double start = compact() ? wordWidth : 0;
  more.clear();
  moreX = 0;
  const int moreLine = lines - 1;
  if (placed.size() < entries.size()) {
    while (true) {
      more = moreText(entries.size() - placed.size());
      const double moreWidth = metrics.horizontalAdvance(more);
      moreX = start;
      if (!placed.empty() && placed.back().line == moreLine)
        moreX = placed.back().x + placed.back().width + kEntryGap;
      if (moreX + moreWidth <= width || placed.empty() ||
          placed.back().line != moreLine)
        break;
      placed.pop_back();
    }
  }
  return placed;
}

void LegendPainter::draw(QPainter &painter, QPointF topLeft, double width,
                         int lines, const Style &style) const {
  if (entries.empty() || lines <= 0)
    return;
  QString more;
  double moreX = 0;
  const std::vector<Placed> placed = place(width, lines, more, moreX);
  painter.setFont(font);
  QColor border = style.foreground;
  border.setAlphaF(0.35f);
  const double textOffset = (height - metrics.height()) / 2;
  const double swatchOffset = (height - kSwatch) / 2;
  if (compact()) {
    painter.setPen(style.secondary);
    painter.drawText(
        QPointF(topLeft.x(), topLeft.y() + textOffset + metrics.ascent()),
        word + 's');
  }
  for (const Placed &p : placed) {
    const LegendEntry &entry = entries[p.index];
    const double y = topLeft.y() + p.line * height;
    const QColor fill = style.fill(entry.colorKey);
    if (compact()) {
      // The key's number on its colour.
      const QRectF swatch(topLeft.x() + p.x, y + 2, swatchWidth, height - 4);
      painter.fillRect(swatch, fill);
      painter.setPen(textColorOn(fill));
      painter.drawText(swatch, Qt::AlignCenter,
                       QString::number(entry.colorKey));
      continue;
    }
    const QRectF swatch(topLeft.x() + p.x, y + swatchOffset, kSwatch, kSwatch);
    painter.fillRect(swatch, fill);
    painter.setPen(QPen(border, 0));
    painter.drawRect(swatch);
    painter.setPen(style.foreground);
    painter.drawText(
        QPointF(swatch.right() + kSwatchGap, y + textOffset + metrics.ascent()),
        entry.text);
  }
  if (!more.isEmpty()) {
    painter.setPen(style.secondary);
    painter.drawText(
        QPointF(topLeft.x() + moreX, topLeft.y() + (lines - 1) * height +
                                         textOffset + metrics.ascent()),
        more);
  }
}

} // namespace tilescope::render
