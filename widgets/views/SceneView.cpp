#include "widgets/views/SceneView.h"

#include "widgets/render/StickyAxes.h"
#include "widgets/views/ViewSettings.h"

#include "widgets/render/Palette.h"
#include "widgets/render/SceneExport.h"
#include "widgets/render/Scenes.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tilescope::widgets {

namespace {
constexpr double kMinimumCell = 0.01;
constexpr double kMaximumCell = 96;
} // namespace

SceneView::SceneView(QWidget *parent) : QAbstractScrollArea(parent) {
  setObjectName("sceneView");
  viewport()->setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
}

namespace {

// Whether two scenes have the same panels, cell for cell: a redraw after an
// edit that keeps the shape keeps the reader's zoom and place.
bool sameShape(const render::GridScene &a, const render::GridScene &b) {
  if (a.panels.size() != b.panels.size())
    return false;
  for (size_t i = 0; i < a.panels.size(); ++i)
    if (a.panels[i].rows != b.panels[i].rows ||
        a.panels[i].columns != b.panels[i].columns)
      return false;
  return true;
}

} // namespace

void SceneView::setScene(render::GridScene scene) {
  const bool keepView = !fitted && sameShape(original, scene);
  // The marked lane (subgroup, register, bank) stays marked while the
  // picture keeps its colouring and still has it.
  const bool keepMark = selected >= 0 && scene.colorBy == original.colorBy &&
                        (scene.colorCount == 0 || selected < scene.colorCount);
  // An instruction's cells stay marked while the picture is the same
  // config's (its subtitle): another op, or an edit, is not what the
  // kernel was compiled from.
  if (!scene.linksLoopPoints() || scene.subtitle != original.subtitle)
    points.reset();
  original = std::move(scene);
  const int64_t before = selected;
  selected = keepMark ? before : -1;
  remark();
  if (keepView) {
    updateScrollBars();
    viewport()->update();
  } else {
    fitToView();
  }
  if (selected != before)
    emit keySelected(selected);
}

void SceneView::linkMarks(const QList<SceneView *> &views) {
  for (SceneView *from : views)
    for (SceneView *to : views)
      if (from != to)
        connect(from, &SceneView::keySelected, to, [from, to](qint64 key) {
          const render::ColorBy colouring = from->scene().colorBy;
          if (colouring == render::ColorBy::Custom ||
              to->scene().colorBy != colouring || to->selectedKey() == key)
            return;
          // A key the other picture lacks clears its mark.
          const int64_t count = to->scene().colorCount;
          to->selectKey(count == 0 || key < count ? key : -1);
        });
}

void SceneView::selectKey(int64_t key) {
  const bool changed = key != selected;
  selected = key;
  remark();
  updateScrollBars(); // the footer gained a line
  viewport()->update();
  if (changed)
    emit keySelected(key);
}

void SceneView::mousePressEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) {
    QAbstractScrollArea::mousePressEvent(event);
    return;
  }
  const QPointF scroll(horizontalScrollBar()->value(),
                       verticalScrollBar()->value());
  const render::CellHit hit =
      painter.hitTest(current, event->position(), cell, scroll);
  if (!hit.isValid()) {
    selectKey(-1);
    return;
  }
  const render::Panel &panel = original.panels[static_cast<size_t>(hit.panel)];
  const int64_t key =
      panel.cell ? panel.cell(hit.row, hit.column).colorKey : -1;
  selectKey(key == selected ? -1 : key);
  if (panel.pointAt)
    emit pointClicked(panel.pointAt(hit.row, hit.column));
  else if (original.cellsAreLoopPoints)
    emit pointClicked(original.pointAt(hit.row, hit.column));
}

void SceneView::markPoints(std::set<std::vector<int64_t>> marked,
                           const QString &what) {
  points = marked.empty()
               ? nullptr
               : std::make_shared<const std::set<std::vector<int64_t>>>(
                     std::move(marked));
  pointsWhat = what;
  remark();
  updateScrollBars(); // the footer gained or lost a line
  viewport()->update();
}

void SceneView::remark() {
  current = selected >= 0 ? render::markColorKey(original, selected) : original;
  if (points)
    current = render::markPoints(std::move(current), points, pointsWhat);
}

void SceneView::fitToView() {
  fitted = true;
  cell = std::clamp(painter.fitCellSize(current, QSizeF(viewport()->size()),
                                        largestFittedCell()),
                    kMinimumCell, kMaximumCell);
  updateScrollBars();
  horizontalScrollBar()->setValue(0);
  verticalScrollBar()->setValue(0);
  viewport()->update();
}

void SceneView::setCellSize(double size, QPointF anchor) {
  size = std::clamp(size, kMinimumCell, kMaximumCell);
  const QPointF scroll(horizontalScrollBar()->value(),
                       verticalScrollBar()->value());
  // Keep the drawing point under `anchor` in place.
  const double ratio = size / cell;
  const QPointF pointUnder = (scroll + anchor) * ratio;
  cell = size;
  fitted = false;
  updateScrollBars();
  horizontalScrollBar()->setValue(
      static_cast<int>(std::lround(pointUnder.x() - anchor.x())));
  verticalScrollBar()->setValue(
      static_cast<int>(std::lround(pointUnder.y() - anchor.y())));
  viewport()->update();
}

void SceneView::updateScrollBars() {
  const QSizeF natural = painter.naturalSize(current, cell);
  const QSize view = viewport()->size();
  horizontalScrollBar()->setRange(
      0, std::max(0, static_cast<int>(natural.width()) - view.width()));
  verticalScrollBar()->setRange(
      0, std::max(0, static_cast<int>(natural.height()) - view.height()));
  horizontalScrollBar()->setPageStep(view.width());
  verticalScrollBar()->setPageStep(view.height());
}

bool SceneView::darkTheme() const {
  return palette().color(QPalette::Window).lightness() < 128;
}

namespace {
// Copies and files: a cell at least this large, so a picture zoomed out on
// screen still reads (the export limits shrink it where it must).
constexpr double kPictureCell = 12;
} // namespace

QImage SceneView::picture() const {
  return render::renderToImage(current,
                               darkTheme() ? render::Theme::darkTheme()
                                           : render::Theme::light(),
                               std::max(cell, kPictureCell));
}

void SceneView::copyPicture() {
  if (!current.panels.empty())
    QGuiApplication::clipboard()->setImage(picture());
}

bool SceneView::savePicture(const QString &path, QString *error) const {
  return render::writeScene(current, path,
                            darkTheme() ? render::Theme::darkTheme()
                                        : render::Theme::light(),
                            std::max(cell, kPictureCell), error);
}

void SceneView::chooseAndSave() {
  const QString path = QFileDialog::getSaveFileName(
      this, "Save picture", "picture.png",
      "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
  if (path.isEmpty())
    return;
  QString error;
  if (!savePicture(path, &error))
    QMessageBox::warning(this, "Save picture",
                         QString("%1 was not written: %2").arg(path, error));
}

void SceneView::contextMenuEvent(QContextMenuEvent *event) {
  QMenu menu(this);
  const bool drawn = !current.panels.empty();
  menu.addAction("&Copy picture", this, &SceneView::copyPicture)
      ->setEnabled(drawn);
  menu.addAction("&Save picture as… (PNG, SVG, PDF)", this,
                 &SceneView::chooseAndSave)
      ->setEnabled(drawn);
  menu.addSeparator();
  menu.addAction("&Fit to view", this, &SceneView::fitToView)
      ->setEnabled(drawn);
  if (selected >= 0)
    menu.addAction("Clear the &mark", this, [this] { selectKey(-1); });
  if (points)
    menu.addAction("Clear the &instruction's cells", this,
                   [this] { markPoints({}, {}); });
  menu.exec(event->globalPos());
}

void SceneView::paintEvent(QPaintEvent *event) {
  if (scrollQueued) {
    // A paint before the scroll's shift: the pixels outside this region
    // are where they were before the scroll, so all of it is painted anew
    // (and the shift is not made).
    scrollQueued = false;
    pendingScroll = {};
    viewport()->update();
    if (event->region().boundingRect() != viewport()->rect())
      return;
  }
  QPainter p(viewport());
  const render::Theme theme =
      darkTheme() ? render::Theme::darkTheme() : render::Theme::light();
  const QPointF scroll(horizontalScrollBar()->value(),
                       verticalScrollBar()->value());
  // Only what needs painting: after a pan, the strips that came into view,
  // one at a time (the painter computes only the cells under its clip; the
  // bounding box of an L-shaped region would be the whole view).
  for (const QRect &strip : event->region()) {
    p.setClipRect(strip);
    painter.paint(p, current, QRectF(viewport()->rect()), theme, cell, scroll);
  }
  // Axes scrolled out of view, pinned to its edges.
  p.setClipRegion(event->region());
  render::paintStickyAxes(p, painter, current, QRectF(viewport()->rect()),
                          theme, cell, scroll);
}

void SceneView::scrollContentsBy(int dx, int dy) {
  pendingScroll += QPoint(dx, dy);
  if (scrollQueued)
    return;
  scrollQueued = true;
  QMetaObject::invokeMethod(this, &SceneView::applyScroll,
                            Qt::QueuedConnection);
}

void SceneView::applyScroll() {
  if (!scrollQueued) // a paint came first and repaints everything
    return;
  scrollQueued = false;
  const int dx = pendingScroll.x(), dy = pendingScroll.y();
  pendingScroll = {};
  if (dx == 0 && dy == 0)
    return;
  // The drawing moves as a whole: shift what is on screen and repaint only
  // the strip that came into view.
  viewport()->scroll(dx, dy);
  // Axes pinned to the view's edges and axis names centred on what is in
  // view moved with the drawing: repaint where they were carried to and
  // where they belong now.
  const QRectF view(viewport()->rect());
  const QPointF now(horizontalScrollBar()->value(),
                    verticalScrollBar()->value());
  const QPointF before = now + QPointF(dx, dy);
  auto repaint = [this](const QRectF &rect) {
    viewport()->update(rect.toAlignedRect().adjusted(-1, -1, 1, 1));
  };
  for (const render::StickyBand &band :
       render::stickyBands(painter, current, view, cell, before))
    repaint(band.rect.translated(dx, dy));
  for (const render::StickyBand &band :
       render::stickyBands(painter, current, view, cell, now))
    repaint(band.rect);
  for (const QRectF &rect :
       painter.viewDependentRects(current, view, cell, before))
    repaint(rect.translated(dx, dy));
  for (const QRectF &rect :
       painter.viewDependentRects(current, view, cell, now))
    repaint(rect);
}

void SceneView::resizeEvent(QResizeEvent *event) {
  QAbstractScrollArea::resizeEvent(event);
  if (fitted)
    fitToView();
  else
    updateScrollBars();
}

void SceneView::wheelEvent(QWheelEvent *event) {
  if (!(event->modifiers() & Qt::ControlModifier)) {
    QAbstractScrollArea::wheelEvent(event);
    return;
  }
  const double steps = event->angleDelta().y() / 120.0;
  setCellSize(cell * std::pow(1.25, steps), event->position());
  event->accept();
}

void SceneView::keyPressEvent(QKeyEvent *event) {
  if (event->key() == Qt::Key_Escape) {
    selectKey(-1);
    markPoints({}, {});
    return;
  }
  if (event->matches(QKeySequence::Copy)) {
    copyPicture();
    return;
  }
  if (event->modifiers() & Qt::ControlModifier) {
    const QPointF centre(viewport()->width() / 2.0, viewport()->height() / 2.0);
    if (event->key() == Qt::Key_0) {
      fitToView();
      return;
    }
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) {
      setCellSize(cell * 1.25, centre);
      return;
    }
    if (event->key() == Qt::Key_Minus) {
      setCellSize(cell / 1.25, centre);
      return;
    }
  }
  QAbstractScrollArea::keyPressEvent(event);
}

bool SceneView::viewportEvent(QEvent *event) {
  if (event->type() == QEvent::ToolTip) {
    auto *help = static_cast<QHelpEvent *>(event);
    const QPointF scroll(horizontalScrollBar()->value(),
                         verticalScrollBar()->value());
    const render::CellHit hit =
        painter.hitTest(current, help->pos(), cell, scroll);
    if (hit.isValid()) {
      const render::Panel &panel =
          current.panels[static_cast<size_t>(hit.panel)];
      const QString detail =
          panel.cell ? panel.cell(hit.row, hit.column).detail : QString();
      QToolTip::showText(help->globalPos(),
                         detail.isEmpty()
                             ? QString("(%1, %2)").arg(hit.row).arg(hit.column)
                             : detail,
                         viewport());
    } else if (const QString text =
                   painter.textAt(current, help->pos(), cell, scroll);
               !text.isEmpty()) {
      // The heading or footer, whole: a narrow view draws it elided.
      QToolTip::showText(help->globalPos(), text, viewport());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QAbstractScrollArea::viewportEvent(event);
}

} // namespace tilescope::widgets
