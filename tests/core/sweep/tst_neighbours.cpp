// One neighbourhood rule: the values the Sweep panel offers for a field
// (sweep::fieldAxes) are the rules' neighbours the CLI and Python sweep
// (sweep::neighbourAxes) wherever both speak of an entry, and every field
// of the op is offered. Held on every root op of the bundled examples
// (IREE's own configs, read by IREE), so the rule is tried on configs it
// was not written for.
#include "TestSupport.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/edit/ConfigDiff.h"
#include "core/iree/DocumentParser.h"
#include "core/sweep/Neighbours.h"
#include "core/sweep/Sweep.h"

#include <QTest>

#include <map>

using namespace tilescope;

class NeighboursTest : public QObject {
  Q_OBJECT

  std::vector<document::Document> documents;

private slots:
  void initTestCase() {
    iree::DocumentParser parser(test::projectCompiler());
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"})
      for (const auto &entry :
           std::filesystem::directory_iterator(test::examplesDir() / folder)) {
        if (entry.path().extension() != ".mlir")
          continue;
        auto parsed = parser.parseFile(entry.path());
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        documents.push_back(std::move(*parsed));
      }
    QVERIFY(documents.size() >= 20);
  }

  // The op's fields as they stand read as a person types them: a list's
  // entry and subgroup_size a bare number (an integer attribute alone
  // prints typed, "1 : i64", which matched no axis value and made the
  // tune retry IREE's default as a candidate). The point of each op's
  // neighbour axes that changes nothing is at distance 0, which the tune
  // leaves out.
  void currentValuesAreWhatAPersonTypes() {
    size_t checked = 0;
    for (const document::Document &document : documents)
      for (size_t d = 0; d < document.dispatches.size(); ++d)
        for (size_t o = 0; o < document.dispatches[d].rootOps.size(); ++o) {
          const edit::OpRef op{d, o};
          const std::string where = document.path.filename().string() + " " +
                                    std::to_string(d) + ":" + std::to_string(o);
          const std::string size =
              sweep::currentValue(document, op, "subgroup_size");
          QVERIFY2(size.find(':') == std::string::npos,
                   (where + ": subgroup_size " + size).c_str());
          const std::vector<sweep::SweepAxis> axes =
              sweep::neighbourAxes(document, op);
          std::vector<std::pair<std::string, std::string>> now;
          for (const sweep::SweepAxis &axis : axes) {
            const std::string value =
                sweep::currentValue(document, op, axis.field);
            QVERIFY2(
                !value.empty() &&
                    value.find_first_not_of("-0123456789") == std::string::npos,
                (where + ": " + axis.field + " = '" + value + "'").c_str());
            now.emplace_back(axis.field, value);
          }
          if (axes.empty())
            continue;
          bool unchanged = false;
          for (const sweep::SweepPoint &point :
               sweep::axisPoints(document, op, axes))
            if (point.settings == now) {
              QCOMPARE(point.distance, 0.0);
              unchanged = true;
            }
          QVERIFY2(unchanged,
                   (where + ": no point leaves it as it is").c_str());
          ++checked;
        }
    QVERIFY(checked >= 10);
  }

  void panelOffersTheRulesNeighbours() {
    size_t entries = 0, shared = 0, divisorsKept = 0;
    for (const document::Document &document : documents)
      for (size_t d = 0; d < document.dispatches.size(); ++d)
        for (size_t o = 0; o < document.dispatches[d].rootOps.size(); ++o) {
          const edit::OpRef op{d, o};
          const document::RootOp &root = document.dispatches[d].rootOps[o];
          const std::string where =
              document.path.filename().string() + " op " + std::to_string(o);
          std::map<std::string, std::vector<std::string>> offered;
          for (const sweep::SweepAxis &axis : sweep::fieldAxes(document, op)) {
            QVERIFY2(!axis.values.empty(), (where + " " + axis.field).c_str());
            offered[axis.field] = axis.values;
          }
          // Every field is offered: whole, or entry by entry with its value
          // among the values.
          for (const edit::FieldValue &f :
               edit::opFields(document.dispatches[d], root)) {
            if (offered.count(f.field)) {
              QCOMPARE(offered[f.field], std::vector<std::string>{f.value});
              continue;
            }
            QVERIFY2(offered.count(f.field + "[0]"),
                     (where + ": " + f.field + " not offered").c_str());
          }
          for (const auto &[field, values] : offered)
            if (field.back() == ']')
              ++entries;
          // Where the rules' neighbours speak of an entry, the panel offers
          // exactly those values.
          for (const sweep::SweepAxis &axis :
               sweep::neighbourAxes(document, op)) {
            QVERIFY2(offered.count(axis.field),
                     (where + ": " + axis.field).c_str());
            QCOMPARE(offered[axis.field], axis.values);
            ++shared;
            // A workgroup tile that divides its loop is offered divisors.
            if (axis.field.rfind("workgroup[", 0) != 0 || !root.space)
              continue;
            const size_t loop = std::stoul(axis.field.substr(10));
            const int64_t bound = root.space->bounds[loop];
            auto tiles = config::parseResolvedAttribute(
                sweep::currentValue(document, op, "workgroup"));
            const auto sizes = tiles ? tiles->asInt64Array() : std::nullopt;
            QVERIFY2(sizes && loop < sizes->size(), where.c_str());
            const int64_t tile = (*sizes)[loop];
            if (bound <= 0 || bound % tile != 0)
              continue;
            for (const std::string &value : axis.values)
              QVERIFY2(bound % std::stoll(value) == 0,
                       (where + ": " + axis.field + "=" + value +
                        " does not divide " + std::to_string(bound))
                           .c_str());
            ++divisorsKept;
          }
        }
    qInfo("%zu entries offered, %zu of them the rules' neighbours, %zu "
          "workgroup tiles kept divisors",
          entries, shared, divisorsKept);
    QVERIFY(shared > 20);
    QVERIFY(divisorsKept > 5);
  }

  // A field found alone (edit::opField, which the sweep asks per knob and
  // per candidate) is the one the op's whole list holds, on every op of
  // the examples: lowering parameters, translation_info's, attention's
  // qk/pv halves, compilation_info's; a field the op lacks is none.
  void aFieldFoundAloneIsTheListsEntry() {
    // The examples and a file whose configs are a compilation_info.
    std::vector<const document::Document *> files;
    for (const document::Document &document : documents)
      files.push_back(&document);
    iree::DocumentParser parser(test::projectCompiler());
    auto compilation = parser.parseFile(
        test::examplesDir() / "sources/matmul_f16_vector_distribute.mlir");
    QVERIFY2(compilation, compilation ? "" : compilation.error().c_str());
    QVERIFY(
        !compilation->dispatches.at(0).rootOps.at(0).compilationInfo.empty());
    files.push_back(&*compilation);
    size_t checked = 0;
    for (const document::Document *document : files)
      for (const document::Dispatch &dispatch : document->dispatches)
        for (const document::RootOp &op : dispatch.rootOps) {
          for (const edit::FieldEntry &e : edit::opFieldEntries(dispatch, op)) {
            const auto alone = edit::opField(dispatch, op, e.field);
            const std::string where =
                document->path.filename().string() + " " + e.field;
            QVERIFY2(alone, where.c_str());
            QCOMPARE(alone->field, e.field);
            QCOMPARE(alone->text, e.text);
            QCOMPARE(config::printAttribute(alone->value),
                     config::printAttribute(e.value));
            ++checked;
          }
          for (const char *absent :
               {"no_such_field", "translation_info.no_such_field",
                "qk_attrs.no_such_field", "translation_info."})
            QVERIFY(!edit::opField(dispatch, op, absent));
        }
    QVERIFY(checked > 100);
  }
};

QTEST_GUILESS_MAIN(NeighboursTest)
#include "tst_neighbours.moc"
