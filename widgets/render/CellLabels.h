// Cell labels for PainterCells.cpp's rectangles: one line, or the label's
// words on separate lines, shrunk to fit the cell.
#pragma once

#include "widgets/render/PainterFrame.h"

#include <QGlyphRun>
#include <QRawFont>

#include <map>

namespace tilescope::render::painter {

// Cell labels: one line, or the label's words on separate lines, shrunk to
// fit the cell; nothing below kMinLabelPixelSize. On raster devices the
// labels are laid out from a per-frame glyph cache (no text shaping per
// label) and drawn as one glyph run per size and colour; vector devices get
// real text.
class LabelPainter {
public:
  LabelPainter(Frame &frame, double alpha)
      : f(frame), alpha(alpha),
        basePixelSize(std::clamp(frame.cellSize * 0.36, 7.0, 14.0)) {}
  LabelPainter(const LabelPainter &) = delete;
  LabelPainter &operator=(const LabelPainter &) = delete;
  ~LabelPainter() { flush(); }

  void draw(const QRectF &cell, const QString &label, QRgb textColor) {
    const double available = cell.width() - 4;
    if (available <= 0)
      return;
    SizedFont &base = fontFor(static_cast<int>(basePixelSize));
    // One line.
    const double singleWidth = base.width(label);
    if (singleWidth < 0) {
      drawFallback(cell, label, textColor);
      return;
    }
    const double singleScale =
        std::min({1.0, available / std::max(singleWidth, 1e-9),
                  available / base.lineHeight});
    // Words on lines.
    words.clear();
    double wordsScale = 0;
    if (singleScale < 1 && label.contains(QLatin1Char(' '))) {
      for (QStringView word :
           QStringView(label).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        words.push_back(word);
      double widest = 0;
      for (QStringView word : words)
        widest = std::max(widest, base.width(word));
      const double total = base.lineHeight * static_cast<double>(words.size());
      wordsScale = std::min(
          {1.0, available / std::max(widest, 1e-9), available / total});
    }
    const bool useWords = wordsScale > singleScale;
    const double pixelSize =
        std::floor(basePixelSize * (useWords ? wordsScale : singleScale));
    if (pixelSize < kMinLabelPixelSize)
      return;
    if (!useWords) {
      words.clear();
      words.push_back(QStringView(label));
    }
    SizedFont &font = fontFor(static_cast<int>(pixelSize));
    if (font.width(label) < 0) {
      drawFallback(cell, label, textColor);
      return;
    }
    QColor color = QColor::fromRgb(textColor);
    color.setAlphaF(static_cast<float>(alpha));
    const QPointF center = cell.center();
    double baseline = center.y() -
                      font.lineHeight * static_cast<double>(words.size()) / 2 +
                      font.ascent;
    for (QStringView line : words) {
      const double width = font.width(line);
      const QPointF origin(center.x() - width / 2, baseline);
      if (f.vector) {
        f.painter.setFont(font.font);
        f.painter.setPen(color);
        f.painter.drawText(origin, line.toString());
      } else {
        Batch &batch = batches[{font.pixelSize, color.rgba()}];
        double x = origin.x();
        for (QChar ch : line) {
          const Glyph *glyph = font.glyph(ch);
          if (!glyph)
            continue;
          batch.glyphs.push_back(glyph->index);
          batch.positions.emplace_back(x, origin.y());
          x += glyph->advance;
        }
      }
      baseline += font.lineHeight;
    }
  }

private:
  struct Glyph {
    quint32 index = 0;
    double advance = 0;
    bool present = false;
  };
  struct SizedFont {
    int pixelSize = 0;
    QFont font;
    QRawFont raw;
    double ascent = 0;
    double lineHeight = 0;
    std::unordered_map<char16_t, Glyph> glyphs;

    const Glyph *glyph(QChar ch) {
      auto [it, inserted] = glyphs.try_emplace(ch.unicode());
      if (inserted && !ch.isSurrogate()) {
        const QList<quint32> indexes = raw.glyphIndexesForString(QString(ch));
        if (indexes.size() == 1 && indexes[0] != 0) {
          const QList<QPointF> advances = raw.advancesForGlyphIndexes(indexes);
          it->second.index = indexes[0];
          it->second.advance = advances.value(0).x();
          it->second.present = true;
        }
      }
      return it->second.present ? &it->second : nullptr;
    }
    // -1 when a character has no glyph in this font (fallback fonts,
    // surrogates): such labels are drawn as ordinary text.
    double width(QStringView text) {
      double sum = 0;
      for (QChar ch : text) {
        const Glyph *g = glyph(ch);
        if (!g)
          return -1;
        sum += g->advance;
      }
      return sum;
    }
  };
  struct Batch {
    std::vector<quint32> glyphs;
    std::vector<QPointF> positions;
  };

  SizedFont &fontFor(int pixelSize) {
    auto it = fonts.find(pixelSize);
    if (it != fonts.end())
      return it->second;
    SizedFont &font = fonts[pixelSize];
    font.pixelSize = pixelSize;
    font.font = f.fixed.fonts.text;
    font.font.setPixelSize(pixelSize);
    font.raw = QRawFont::fromFont(font.font);
    const QFontMetricsF metrics(font.font);
    font.ascent = metrics.ascent();
    font.lineHeight = metrics.height();
    return font;
  }

  // Labels with characters the glyph cache cannot place: QPainter's text
  // path with font fallback, fitted by scaling the font down.
  void drawFallback(const QRectF &cell, const QString &label, QRgb textColor) {
    QFont font = f.fixed.fonts.text;
    font.setPixelSize(static_cast<int>(basePixelSize));
    const QFontMetricsF metrics(font);
    const double available = cell.width() - 4;
    const double scale = std::min(
        {1.0, available / std::max(metrics.horizontalAdvance(label), 1e-9),
         available / metrics.height()});
    const double pixelSize = std::floor(basePixelSize * scale);
    if (pixelSize < kMinLabelPixelSize)
      return;
    font.setPixelSize(static_cast<int>(pixelSize));
    QColor color = QColor::fromRgb(textColor);
    color.setAlphaF(static_cast<float>(alpha));
    f.painter.setFont(font);
    f.painter.setPen(color);
    f.painter.drawText(cell, Qt::AlignCenter, label);
  }

  void flush() {
    for (auto &[key, batch] : batches) {
      if (batch.glyphs.empty())
        continue;
      QGlyphRun run;
      run.setRawFont(fonts[key.first].raw);
      run.setGlyphIndexes(
          QList<quint32>(batch.glyphs.begin(), batch.glyphs.end()));
      run.setPositions(
          QList<QPointF>(batch.positions.begin(), batch.positions.end()));
      f.painter.setPen(QColor::fromRgba(key.second));
      f.painter.drawGlyphRun(QPointF(0, 0), run);
    }
    batches.clear();
  }

  Frame &f;
  double alpha;
  double basePixelSize;
  std::map<int, SizedFont> fonts;
  std::map<std::pair<int, QRgb>, Batch> batches;
  std::vector<QStringView> words;
};

} // namespace tilescope::render::painter
