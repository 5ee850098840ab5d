// The document's text as the MLIR view shows it: read-only (edits arrive
// through the config editor, so text and model never disagree), MLIR
// colouring, line numbers in a gutter, the selected op's whole statement
// highlighted, and a click in the text telling which line was clicked (the
// window selects the root op there).
#pragma once

#include <QPlainTextEdit>

namespace tilescope::widgets {

class MlirHighlighter;

class MlirView : public QPlainTextEdit {
  Q_OBJECT

public:
  explicit MlirView(QWidget *parent = nullptr);

  // Replaces the text, keeping the reader's place. Files over
  // kColourLimit bytes are not coloured (the rest still works).
  void setMlir(const QString &text);
  static constexpr int kColourLimit = 16 << 20;
  bool isColoured() const;

  // Highlights the statement starting at `line` (1-based), through its
  // region's closing brace, and scrolls it to the middle when `scroll`.
  void showStatement(int line, bool scroll = true);
  // The last line of the statement starting at `line`: where its braces
  // and parentheses close again (strings and comments skipped).
  int statementEnd(int line) const;

  int lineNumberAreaWidth() const;

signals:
  // A click in the text, at this 1-based line.
  void lineClicked(int line);

protected:
  void resizeEvent(QResizeEvent *event) override;
  void mouseReleaseEvent(QMouseEvent *event) override;
  void changeEvent(QEvent *event) override;

private:
  friend class LineNumberArea;
  void paintLineNumbers(QPaintEvent *event);
  void updateGutter(const QRect &rect, int dy);
  void recolour();

  QWidget *gutter;
  MlirHighlighter *highlighter = nullptr;
  int selectedFirst = 0, selectedLast = 0;
};

} // namespace tilescope::widgets
