#include "widgets/jobs/SweepPlot.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <map>

namespace tilescope::widgets {

SweepPlot::SweepPlot(QWidget *parent) : QWidget(parent) {
  setMinimumHeight(160);
  setToolTip("Click a point to pick its candidate");
}

void SweepPlot::setPoints(const QString &x, const QString &y,
                          std::vector<Point> list, int bestId) {
  xLabel = x;
  yLabel = y;
  points = std::move(list);
  best = bestId;
  xValues.clear();
  bool numbers = true;
  for (const Point &p : points) {
    if (!xValues.contains(p.x))
      xValues << p.x;
    bool ok = false;
    p.x.toDouble(&ok);
    numbers = numbers && ok;
  }
  if (numbers)
    std::sort(xValues.begin(), xValues.end(),
              [](const QString &a, const QString &b) {
                return a.toDouble() < b.toDouble();
              });
  yMaximum = 0;
  for (const Point &p : points)
    yMaximum = std::max(yMaximum, p.y);
  yMaximum = yMaximum > 0 ? yMaximum * 1.1 : 1;
  update();
}

void SweepPlot::setSelected(int id) {
  selected = id;
  update();
}

QRectF SweepPlot::plotArea() const {
  // Room above for the y label, below for the x values and label.
  return QRectF(58, 24, std::max(10, width() - 74),
                std::max(10, height() - 64));
}

std::vector<SweepPlot::Placed> SweepPlot::place() const {
  std::vector<Placed> placed;
  const QRectF area = plotArea();
  const double step = area.width() / std::max<qsizetype>(1, xValues.size());
  std::map<QString, int> count, seen;
  for (const Point &p : points)
    ++count[p.x];
  for (const Point &p : points) {
    const int column = static_cast<int>(xValues.indexOf(p.x));
    const int n = count[p.x], k = seen[p.x]++;
    // Points of one x spread over at most half a column.
    const double spread = std::min(step * 0.5, 8.0 * (n - 1));
    const double offset = n > 1 ? spread * (k / double(n - 1) - 0.5) : 0;
    placed.push_back({QPointF(area.left() + step * (column + 0.5) + offset,
                              area.bottom() - area.height() * p.y / yMaximum),
                      p.id});
  }
  return placed;
}

void SweepPlot::paintEvent(QPaintEvent *) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().base());
  const QRectF area = plotArea();
  const QColor ink = palette().color(QPalette::Text);
  if (points.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     "Candidates appear here as they finish");
    return;
  }
  painter.setPen(QPen(ink, 1));
  painter.drawLine(area.bottomLeft(), area.bottomRight());
  painter.drawLine(area.bottomLeft(), area.topLeft());
  const QFontMetrics metrics(font());
  // Y ticks: 0, half and the top.
  for (double fraction : {0.0, 0.5, 1.0}) {
    const double y = area.bottom() - area.height() * fraction;
    const double value = yMaximum * fraction;
    painter.setPen(QPen(ink.lighter(300), 1, Qt::DotLine));
    if (fraction > 0)
      painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    painter.setPen(ink);
    painter.drawText(QRectF(0, y - 8, area.left() - 4, 16),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(value, 'g', 3));
  }
  // X values under their columns (as many as fit).
  const double step = area.width() / std::max<qsizetype>(1, xValues.size());
  const int every =
      std::max(1, static_cast<int>(std::ceil(
                      (metrics.horizontalAdvance("00000") + 6) / step)));
  for (int i = 0; i < xValues.size(); i += every) {
    const QString text = metrics.elidedText(xValues[i], Qt::ElideMiddle,
                                            static_cast<int>(step * every));
    painter.drawText(
        QRectF(area.left() + step * i, area.bottom() + 2, step * every, 16),
        Qt::AlignHCenter | Qt::AlignTop, text);
  }
  painter.drawText(QRectF(area.left(), area.bottom() + 20, area.width(), 16),
                   Qt::AlignHCenter, xLabel);
  // The y label reads across, over its axis: never clipped by a short plot.
  painter.drawText(QRectF(4, 2, width() - 8, 18),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   metrics.elidedText(yLabel, Qt::ElideRight, width() - 8));

  for (const Placed &p : place()) {
    const bool isBest = p.id == best;
    painter.setPen(QPen(isBest ? QColor("#1b7a2e") : QColor("#2f5f9f"), 1.5));
    painter.setBrush(isBest ? QColor("#3fb35a") : QColor("#6f9fdf"));
    painter.drawEllipse(p.at, isBest ? 6 : 4.5, isBest ? 6 : 4.5);
    if (p.id == selected) {
      painter.setBrush(Qt::NoBrush);
      painter.setPen(QPen(ink, 2));
      painter.drawEllipse(p.at, 9, 9);
    }
  }
}

void SweepPlot::mousePressEvent(QMouseEvent *event) {
  int nearest = -1;
  double distance = 12;
  for (const Placed &p : place()) {
    const double d = std::hypot(p.at.x() - event->position().x(),
                                p.at.y() - event->position().y());
    if (d < distance) {
      distance = d;
      nearest = p.id;
    }
  }
  if (nearest >= 0) {
    setSelected(nearest);
    emit pointClicked(nearest);
  }
}

} // namespace tilescope::widgets
