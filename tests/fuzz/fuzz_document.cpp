// libFuzzer target for what Tilescope itself does with a document's text
// around IREE's parser: the nesting scan and NUL check that run before IREE
// sees a file, the `// -----` split, diagnostics quoted from the file as
// iree-opt prints them, and reading back the parser process's JSON answer.
// No input may crash, hang or trip a sanitizer; split parts must tile the
// file. (IREE's parser itself runs in tilescope-iree-worker, where a crash
// is a message: tests/property/property_documents.cpp fuzzes that path.)
#include "core/document/Diagnostic.h"
#include "core/document/SplitInput.h"
#include "core/export/DocumentJson.h"
#include "core/iree/DocumentParser.h"
#include "core/iree/NestingScan.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace tilescope;

namespace {

// How deep a JSON value nests (a scalar: 0).
int nesting(const nlohmann::json &value) {
  int deepest = 0;
  if (value.is_structured())
    for (const auto &child : value)
      deepest = std::max(deepest, nesting(child));
  return value.is_structured() ? deepest + 1 : deepest;
}

void check(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "%s\n", what);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);

  (void)iree::refuseBeforeParsing(text, "fuzz.mlir", true);
  if (auto excess = iree::findExcessiveNesting(text, 8))
    check(excess->line >= 1 && excess->column >= 1 && excess->depth == 9,
          "nesting excess out of range");

  // The split: parts in order, inside the file, lines counted right.
  const document::SplitInput split =
      document::splitInputFile(text, "fuzz.mlir");
  size_t end = 0;
  for (const document::TextPart &part : split.parts) {
    check(part.offset >= end && part.offset + part.length <= text.size(),
          "split part outside the file or out of order");
    end = part.offset + part.length;
    check(part.firstLine ==
              1 + std::count(text.begin(),
                             text.begin() + static_cast<long>(part.offset),
                             '\n'),
          "split part's first line is wrong");
  }
  (void)document::hasSplitMarker(text);

  // Diagnostics pointing anywhere (in range or not) quote the file safely.
  document::Diagnostic diagnostic;
  diagnostic.file = "fuzz.mlir";
  diagnostic.line = size > 0 ? static_cast<int>(data[0]) % 8 : 0;
  diagnostic.column = size > 1 ? static_cast<int>(data[1]) - 8 : 0;
  diagnostic.message = "m";
  diagnostic.notes.push_back(diagnostic);
  (void)document::formatLikeIreeOpt(diagnostic, text);

  // The parser process's answer, whatever it holds, read from its text as
  // the worker's caller reads it (simdjson's tape).
  (void)exporting::documentAnswerFromJsonText(text);
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_discarded()) {
    auto dom = exporting::documentFromJson(json);
    (void)exporting::diagnosticFromJson(json);
    if (json.is_object() && json.contains("document"))
      (void)exporting::documentFromJson(json["document"]);
    // The same JSON as a document answer: the tape reader accepts what the
    // DOM reader accepts, refuses in the same words, reads the same (within
    // simdjson's 1024 levels of nesting; nlohmann has no limit).
    if (nesting(json) > 1000)
      return 0;
    auto tape = exporting::documentAnswerFromJsonText(
        nlohmann::json{{"ok", true}, {"document", json}}.dump(
            -1, ' ', false, nlohmann::json::error_handler_t::replace));
    check(tape.ok() && tape->ok, "a well-formed answer was refused");
    check(dom.ok() == tape->documentError.empty(),
          "the tape and DOM readers disagree on a document");
    if (dom.ok())
      check(exporting::toJson(tape->document) == exporting::toJson(*dom),
            "the tape and DOM readers read different documents");
    else
      check(tape->documentError == dom.error(),
            "the tape and DOM readers refuse in different words");
  }
  return 0;
}
