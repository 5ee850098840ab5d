// What the edit tests share: IREE's library, a document as IREE reads it,
// made editable with IREE's printer, and IREE's reading of an edited text
// checked against the edit model.
#pragma once

#include "TestSupport.h"

#include "core/edit/EditableDocument.h"
#include "core/iree/DocumentParser.h"

#include <QTest>

namespace tilescope::test {

class EditFixture {
public:
  // Loads IREE; from the test's initTestCase.
  void load() {
    library = projectCompiler();
    attributes = std::make_shared<iree::AttributeParser>(library);
  }

  document::Document open(const std::filesystem::path &path) const {
    iree::DocumentParser parser(library);
    auto document = parser.parseFile(path);
    if (!document)
      qFatal("%s", document.error().c_str());
    return *document;
  }

  edit::EditableDocument editable(const std::filesystem::path &path) const {
    auto parser = attributes;
    return edit::EditableDocument(
        open(path),
        [parser](const std::string &text) { return parser->print(text); });
  }

  // IREE reads the current text back as the model says.
  void verifyWithIree(const edit::EditableDocument &document) const {
    iree::DocumentParser parser(library);
    iree::ParseOptions options;
    options.splitInputFile = document.document().partCount > 1;
    auto reparsed = parser.parseText(
        document.text(), document.document().path.string(), options);
    QVERIFY2(reparsed.ok(), reparsed.ok() ? "" : reparsed.error().c_str());
    auto agrees = document.agreesWith(*reparsed);
    QVERIFY2(agrees.ok(), agrees.ok() ? "" : agrees.error().c_str());
  }

  std::shared_ptr<iree::CompilerLibrary> library;
  std::shared_ptr<iree::AttributeParser> attributes;
};

} // namespace tilescope::test
