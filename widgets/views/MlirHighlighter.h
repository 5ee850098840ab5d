// MLIR syntax colouring for the MLIR view: comments, strings, SSA values
// (%x), symbols (@f), attributes (#iree_gpu.lowering_config), dialect types
// (!hal.device), op names (linalg.generic), builtin types and numbers. One
// pass over each line with no regular expressions, so a large dump colours
// as fast as it scrolls in; colours follow a light or dark palette.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <optional>

namespace tilescope::widgets {

class MlirHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

public:
  enum class Kind {
    Comment,
    String,
    Value,
    Symbol,
    Attribute,
    Type,
    Op,
    Number
  };

  MlirHighlighter(QTextDocument *document, bool dark);

  // What colour the character at `column` of `line` gets (tests).
  static std::optional<Kind> kindAt(const QString &line, int column);

protected:
  void highlightBlock(const QString &text) override;

private:
  QTextCharFormat formats[8];
};

} // namespace tilescope::widgets
