#include "widgets/views/MlirView.h"

#include "widgets/views/MlirHighlighter.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

namespace tilescope::widgets {

class LineNumberArea : public QWidget {
public:
  explicit LineNumberArea(MlirView *view) : QWidget(view), view(view) {}
  QSize sizeHint() const override { return {view->lineNumberAreaWidth(), 0}; }

protected:
  void paintEvent(QPaintEvent *event) override {
    view->paintLineNumbers(event);
  }

private:
  MlirView *view;
};

namespace {

bool darkPalette(const QPalette &palette) {
  return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace

MlirView::MlirView(QWidget *parent)
    : QPlainTextEdit(parent), gutter(new LineNumberArea(this)) {
  setReadOnly(true);
  setUndoRedoEnabled(false); // the text changes only through the model
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  // A click selects the op there; the text itself stays selectable.
  setTextInteractionFlags(Qt::TextSelectableByMouse |
                          Qt::TextSelectableByKeyboard);
  connect(this, &QPlainTextEdit::blockCountChanged, this,
          [this] { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, &MlirView::updateGutter);
  setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void MlirView::setMlir(const QString &text) {
  const int scroll = verticalScrollBar()->value();
  const int horizontal = horizontalScrollBar()->value();
  const QString old = toPlainText();
  const bool colour = text.size() <= kColourLimit;
  if (!old.isEmpty() && colour == isColoured()) {
    // An edit changes a few characters: replace only the span that differs,
    // so the layout and the colours of the rest of a large file stay.
    qsizetype first = 0;
    const qsizetype common = std::min(old.size(), text.size());
    while (first < common && old[first] == text[first])
      ++first;
    qsizetype tail = 0;
    while (tail < common - first &&
           old[old.size() - 1 - tail] == text[text.size() - 1 - tail])
      ++tail;
    QTextCursor span(document());
    span.setPosition(static_cast<int>(first));
    span.setPosition(static_cast<int>(old.size() - tail),
                     QTextCursor::KeepAnchor);
    span.insertText(text.mid(first, text.size() - tail - first));
  } else {
    // Colouring runs over the whole text at once: not for huge dumps.
    delete highlighter;
    highlighter = nullptr;
    setPlainText(text);
    if (colour)
      recolour();
  }
  verticalScrollBar()->setValue(scroll);
  horizontalScrollBar()->setValue(horizontal);
}

bool MlirView::isColoured() const { return highlighter != nullptr; }

void MlirView::recolour() {
  delete highlighter;
  highlighter = new MlirHighlighter(document(), darkPalette(palette()));
  // The selected statement's shading is the palette's too.
  if (selectedFirst > 0)
    showStatement(selectedFirst, false);
}

int MlirView::statementEnd(int line) const {
  int depth = 0;
  bool opened = false;
  for (QTextBlock block = document()->findBlockByNumber(line - 1);
       block.isValid(); block = block.next()) {
    const QString text = block.text();
    bool inString = false;
    for (int i = 0; i < text.size(); ++i) {
      const QChar c = text[i];
      if (inString) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          inString = false;
        continue;
      }
      if (c == '"')
        inString = true;
      else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/')
        break;
      else if (c == '{' || c == '(' || c == '[') {
        ++depth;
        opened = true;
      } else if (c == '}' || c == ')' || c == ']')
        --depth;
    }
    // A statement ends on the line where what it opened is closed (a
    // line that closes more than it opens ends the enclosing block).
    if (depth <= 0 && (opened || block.blockNumber() + 1 == line))
      return block.blockNumber() + 1;
  }
  return document()->blockCount();
}

void MlirView::showStatement(int line, bool scroll) {
  if (line <= 0)
    return;
  QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid())
    return;
  selectedFirst = line;
  selectedLast = std::max(line, statementEnd(line));
  QTextCursor cursor(block);
  if (scroll) {
    setTextCursor(cursor);
    centerCursor();
  }
  QTextCursor range(block);
  range.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor,
                     selectedLast - selectedFirst);
  range.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
  QTextEdit::ExtraSelection statement;
  statement.format.setBackground(
      palette().highlight().color().lighter(darkPalette(palette()) ? 60 : 175));
  statement.format.setProperty(QTextFormat::FullWidthSelection, true);
  statement.cursor = range;
  QTextEdit::ExtraSelection first;
  first.format.setBackground(
      palette().highlight().color().lighter(darkPalette(palette()) ? 80 : 150));
  first.format.setProperty(QTextFormat::FullWidthSelection, true);
  first.cursor = cursor;
  setExtraSelections({statement, first});
  gutter->update();
}

int MlirView::lineNumberAreaWidth() const {
  int digits = 1;
  for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
    ++digits;
  return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void MlirView::resizeEvent(QResizeEvent *event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect area = contentsRect();
  gutter->setGeometry(
      QRect(area.left(), area.top(), lineNumberAreaWidth(), area.height()));
}

void MlirView::mouseReleaseEvent(QMouseEvent *event) {
  QPlainTextEdit::mouseReleaseEvent(event);
  // A click, not the end of a drag that selected text.
  if (event->button() == Qt::LeftButton && !textCursor().hasSelection())
    emit lineClicked(
        cursorForPosition(event->position().toPoint()).blockNumber() + 1);
}

void MlirView::changeEvent(QEvent *event) {
  QPlainTextEdit::changeEvent(event);
  // The desktop switched between light and dark.
  if (event->type() == QEvent::PaletteChange && highlighter)
    recolour();
}

void MlirView::updateGutter(const QRect &rect, int dy) {
  if (dy)
    gutter->scroll(0, dy);
  else
    gutter->update(0, rect.y(), gutter->width(), rect.height());
}

void MlirView::paintLineNumbers(QPaintEvent *event) {
  QPainter painter(gutter);
  const QPalette colours = palette();
  painter.fillRect(event->rect(), colours.color(QPalette::AlternateBase));
  QTextBlock block = firstVisibleBlock();
  int number = block.blockNumber() + 1;
  int top =
      qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  const int width = gutter->width() - 5;
  const int height = fontMetrics().height();
  while (block.isValid() && top <= event->rect().bottom()) {
    if (block.isVisible() && bottom >= event->rect().top()) {
      const bool selected = number >= selectedFirst && number <= selectedLast;
      painter.setPen(selected ? colours.color(QPalette::Text)
                              : colours.color(QPalette::PlaceholderText));
      QFont font = painter.font();
      font.setBold(selected && number == selectedFirst);
      painter.setFont(font);
      painter.drawText(0, top, width, height, Qt::AlignRight,
                       QString::number(number));
    }
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
    ++number;
  }
}

} // namespace tilescope::widgets
