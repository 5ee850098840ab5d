// A sweep's candidates as points: time (or, where nothing could be timed,
// another measure) against the values of one varied field. The best point is
// marked, clicking a point picks its candidate. Painted with QPainter: a
// handful to a few thousand points need no chart library.
#pragma once

#include <QWidget>

#include <vector>

namespace tilescope::widgets {

class SweepPlot : public QWidget {
  Q_OBJECT

public:
  struct Point {
    QString x; // the varied field's value ("64", "MFMA_F32_16x16x16_F16")
    double y = 0;
    int id = 0; // the caller's key, given back by pointClicked
  };
  explicit SweepPlot(QWidget *parent = nullptr);

  // Points in any order: x values sort as numbers when all are numbers,
  // else stay in first-seen order; points sharing an x sit side by side.
  // `best` (an id, -1: none) is drawn in green.
  void setPoints(const QString &xLabel, const QString &yLabel,
                 std::vector<Point> points, int best);
  void setSelected(int id);
  int pointCount() const { return static_cast<int>(points.size()); }
  // The x values in axis order, as labelled under the axis.
  const QStringList &columns() const { return xValues; }
  const QString &xAxisLabel() const { return xLabel; }
  QSize sizeHint() const override { return {420, 220}; }

signals:
  void pointClicked(int id);

protected:
  void paintEvent(QPaintEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;

private:
  struct Placed {
    QPointF at;
    int id;
  };
  std::vector<Placed> place() const;
  QRectF plotArea() const;

  QString xLabel, yLabel;
  std::vector<Point> points;
  QStringList xValues; // in axis order
  double yMaximum = 1;
  int best = -1, selected = -1;
};

} // namespace tilescope::widgets
