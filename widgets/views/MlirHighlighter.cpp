#include "widgets/views/MlirHighlighter.h"

#include <QSet>

#include <functional>

namespace tilescope::widgets {
namespace {

using Kind = MlirHighlighter::Kind;

bool identifierChar(QChar c) {
  return c.isLetterOrNumber() || c == '_' || c == '.' || c == '$';
}

bool builtinType(const QString &word) {
  static const QSet<QString> names = {
      "index",      "tensor",   "memref", "vector",   "bf16",
      "tf32",       "complex",  "none",   "f4E2M1FN", "f8E4M3FNUZ",
      "f8E5M2FNUZ", "f8E4M3FN", "f8E5M2"};
  if (names.contains(word))
    return true;
  // f16, f32, i8, i32, si8, ui32, ...
  int at = word.startsWith("si") || word.startsWith("ui") ? 2 : 1;
  if (word.size() <= at || (word[at - 1] != 'f' && word[at - 1] != 'i'))
    return false;
  for (int i = at; i < word.size(); ++i)
    if (!word[i].isDigit())
      return false;
  return true;
}

// Calls `mark(start, length, kind)` for every coloured run of `line`.
void scan(const QString &line,
          const std::function<void(int, int, Kind)> &mark) {
  const int n = line.size();
  int i = 0;
  while (i < n) {
    const QChar c = line[i];
    if (c == '/' && i + 1 < n && line[i + 1] == '/') {
      mark(i, n - i, Kind::Comment);
      return;
    }
    if (c == '"') {
      int j = i + 1;
      while (j < n && line[j] != '"')
        j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      mark(i, j - i, Kind::String);
      i = j;
      continue;
    }
    if (c == '%' || c == '@' || c == '#' || c == '!' || c == '^') {
      int j = i + 1;
      while (j < n && (identifierChar(line[j]) || line[j] == ':'))
        ++j;
      // %arg0:2 keeps its result count; a lone sigil is punctuation.
      if (j > i + 1) {
        mark(i, j - i,
             c == '%' || c == '^' ? Kind::Value
             : c == '@'           ? Kind::Symbol
             : c == '#'           ? Kind::Attribute
                                  : Kind::Type);
        i = j;
        continue;
      }
    }
    if (c.isDigit() || (c == '-' && i + 1 < n && line[i + 1].isDigit() &&
                        (i == 0 || !identifierChar(line[i - 1])))) {
      int j = i + 1;
      while (j < n && (line[j].isLetterOrNumber() || line[j] == '.'))
        ++j;
      if (i == 0 || !identifierChar(line[i - 1]))
        mark(i, j - i, Kind::Number);
      i = j;
      continue;
    }
    if (c.isLetter() || c == '_') {
      int j = i + 1;
      while (j < n && identifierChar(line[j]))
        ++j;
      const QString word = line.mid(i, j - i);
      if (builtinType(word))
        mark(i, j - i, Kind::Type);
      else if (word.contains('.') && !word.endsWith('.') &&
               !word.front().isDigit())
        mark(i, j - i, Kind::Op); // linalg.generic, iree_codegen.load_...
      i = j;
      continue;
    }
    ++i;
  }
}

} // namespace

MlirHighlighter::MlirHighlighter(QTextDocument *document, bool dark)
    : QSyntaxHighlighter(document) {
  // Light and dark sets, each readable on its base colour.
  const QColor colours[2][8] = {
      {QColor(0x6a, 0x73, 0x7d), QColor(0xa3, 0x15, 0x15),
       QColor(0x00, 0x5c, 0xc5), QColor(0x6f, 0x42, 0xc1),
       QColor(0x8a, 0x4b, 0x08), QColor(0x11, 0x7a, 0x65),
       QColor(0x1a, 0x1a, 0x80), QColor(0x09, 0x86, 0x58)},
      {QColor(0x8b, 0x94, 0x9e), QColor(0xf2, 0x8b, 0x82),
       QColor(0x79, 0xc0, 0xff), QColor(0xd2, 0xa8, 0xff),
       QColor(0xe3, 0xb3, 0x41), QColor(0x56, 0xd3, 0x64),
       QColor(0xa5, 0xd6, 0xff), QColor(0x7e, 0xe7, 0x87)}};
  for (int k = 0; k < 8; ++k)
    formats[k].setForeground(colours[dark ? 1 : 0][k]);
  formats[static_cast<int>(Kind::Comment)].setFontItalic(true);
  formats[static_cast<int>(Kind::Op)].setFontWeight(QFont::DemiBold);
}

void MlirHighlighter::highlightBlock(const QString &text) {
  scan(text, [this](int start, int length, Kind kind) {
    setFormat(start, length, formats[static_cast<int>(kind)]);
  });
}

std::optional<MlirHighlighter::Kind>
MlirHighlighter::kindAt(const QString &line, int column) {
  std::optional<Kind> found;
  scan(line, [&](int start, int length, Kind kind) {
    if (column >= start && column < start + length)
      found = kind;
  });
  return found;
}

} // namespace tilescope::widgets
