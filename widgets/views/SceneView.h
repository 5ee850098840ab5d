// A scrollable, zoomable view of a GridScene: Ctrl+wheel (or Ctrl+= / Ctrl+-)
// zooms around the cursor, Ctrl+0 fits the scene, hovering a cell shows
// what it holds, clicking a cell marks every cell of the same owner (lane,
// subgroup, register or bank; click again or Escape to clear; a redrawn
// picture with the same colouring keeps the mark, and with the same shape
// keeps the zoom). Right-click (or Ctrl+C) copies the picture or saves it
// as PNG, SVG or PDF, marks included. Painting goes
// through render::ScenePainter, whose level of
// detail keeps every frame cheap whatever the element count.
#pragma once

#include "widgets/render/GridScene.h"
#include "widgets/render/ScenePainter.h"

#include <QAbstractScrollArea>

#include <memory>
#include <set>
#include <vector>

namespace tilescope::widgets {

class SceneView : public QAbstractScrollArea {
  Q_OBJECT

public:
  explicit SceneView(QWidget *parent = nullptr);

  void setScene(render::GridScene scene);
  const render::GridScene &scene() const { return current; }
  double cellSize() const { return cell; }
  void setCellSize(double size, QPointF anchor = {});
  void fitToView();
  // Marks every cell whose colour key is `key` (-1: none).
  void selectKey(int64_t key);
  int64_t selectedKey() const { return selected; }
  // The whole picture as shown (marks and theme included), at the view's
  // cell size within the export limits.
  QImage picture() const;
  // Copies picture() to the clipboard.
  void copyPicture();
  // Writes the picture to `path` (.png, .svg or .pdf); false with `error`
  // set when it cannot.
  bool savePicture(const QString &path, QString *error = nullptr) const;
  // Asks where, then savePicture (a failure is said in a message box).
  void chooseAndSave();
  // Marks follow each other across `views`: a lane (subgroup, register,
  // thread, bank) marked in one is marked in every other coloured the same
  // way, so ours and IREE's, or the edit and IREE's default, show what one
  // lane holds at once. Custom colourings (a workgroup grid, split-k
  // chunks) mean different things in different pictures and are not linked.
  static void linkMarks(const QList<SceneView *> &views);
  // Marks the cells at `points` of a picture whose cells are loop points
  // (the kernel's instructions' cells), the footer saying `what`; empty:
  // none. A picture redrawn from the same config keeps them.
  void markPoints(std::set<std::vector<int64_t>> points, const QString &what);

signals:
  // The marked colour key changed (a click, Escape, or a new picture
  // without it); -1: none.
  void keySelected(qint64 key);
  // A cell of a picture of loop points was clicked: its point (-1 for the
  // loops an operand element's panel leaves open).
  void pointClicked(const std::vector<int64_t> &point);

protected:
  void paintEvent(QPaintEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void scrollContentsBy(int dx, int dy) override;
  void wheelEvent(QWheelEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;
  bool viewportEvent(QEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  void contextMenuEvent(QContextMenuEvent *event) override;

private:
  void updateScrollBars();
  // Shifts the pixels on screen by the scrolls since the last call, once
  // for a horizontal and a vertical scroll together (each shift moves the
  // whole viewport's pixels), and repaints what came into view.
  void applyScroll();
  bool darkTheme() const;
  // `current`: `original` with the marked key's and points' cells marked.
  void remark();

  render::GridScene original; // as given; `current` adds the selection marks
  render::GridScene current;
  int64_t selected = -1;
  std::shared_ptr<const std::set<std::vector<int64_t>>> points;
  QString pointsWhat;
  render::ScenePainter painter;
  double cell = 24;
  bool fitted = true;
  QPoint pendingScroll; // scrolled but not yet shifted on screen
  bool scrollQueued = false;
};

} // namespace tilescope::widgets
