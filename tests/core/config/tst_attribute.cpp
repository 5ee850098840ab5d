// The attribute reader and writer: every form IREE prints and people write,
// exact write-back, and errors that say what and where for hostile input.
#include "TestSupport.h"

#include "core/config/syntax/Attribute.h"

#include <regex>

using namespace tilescope;
using config::Attribute;
using config::ParseError;

namespace {

Attribute parseOk(const std::string &text) {
  auto result = config::parseAttribute(text);
  if (auto *error = std::get_if<ParseError>(&result))
    qFatal("parse failed: %s", error->toString().c_str());
  return std::get<Attribute>(result);
}

ParseError parseFails(const std::string &text) {
  auto result = config::parseAttribute(text);
  if (!std::holds_alternative<ParseError>(result))
    qFatal("parse unexpectedly succeeded: %s", text.substr(0, 80).c_str());
  return std::get<ParseError>(result);
}

// Every attribute value IREE printed in a committed example.
std::vector<std::string> examplesAttributes() {
  static const std::regex key(
      "(lowering_config|translation_info|compilation_info) = |target\\((?=<)");
  std::vector<std::string> attributes;
  for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"}) {
    for (const auto &path : test::exampleBenchmarks(folder)) {
      const std::string text = test::readFile(path);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), key);
           it != std::sregex_iterator(); ++it) {
        size_t p = static_cast<size_t>(it->position() + it->length());
        size_t q = p;
        int depth = 0;
        for (; q < text.size(); ++q) {
          if (text[q] == '<')
            ++depth;
          else if (text[q] == '>' && text[q - 1] != '-' && --depth == 0) {
            ++q;
            break;
          }
        }
        attributes.push_back(text.substr(p, q - p));
      }
    }
  }
  return attributes;
}

} // namespace

class AttributeTest : public QObject {
  Q_OBJECT

private slots:
  void readsEveryValueForm() {
    const Attribute a = parseOk(
        "{a = 1, b = -2 : index, c = true, d = \"s\\\"q\", e, f = ?, g = f16,"
        " h = vector<4xf16>, i = tensor<?x4xf32>, j = [1, [2, 3]],"
        " k = fp64|fp32, l = @sym, m = affine_map<(d0, d1) -> (d1, d0)>,"
        " n = 1.5, o = array<i64: 1, 2>, p = 0x10}");
    QVERIFY(a.is(Attribute::Kind::Dictionary));
    QCOMPARE(a.find("a")->asInt64().value(), int64_t(1));
    QCOMPARE(a.find("b")->asInt64().value(), int64_t(-2));
    QCOMPARE(a.find("b")->typeSuffix, std::string("index"));
    QVERIFY(a.find("c")->is(Attribute::Kind::Bool));
    QCOMPARE(a.find("d")->text, std::string("s\"q"));
    QVERIFY(a.find("e")->is(Attribute::Kind::Unit));
    QVERIFY(a.find("f")->is(Attribute::Kind::Dynamic));
    QVERIFY(a.find("g")->is(Attribute::Kind::Type));
    QCOMPARE(a.find("h")->text, std::string("vector<4xf16>"));
    QVERIFY(a.find("i")->is(Attribute::Kind::Type));
    QCOMPARE(a.find("j")->elements.size(), size_t(2));
    QCOMPARE(a.find("k")->text, std::string("fp64|fp32"));
    QVERIFY(a.find("l")->is(Attribute::Kind::Symbol));
    QVERIFY(a.find("m")->is(Attribute::Kind::Opaque));
    QVERIFY(a.find("n")->is(Attribute::Kind::Float));
    QVERIFY(a.find("o")->is(Attribute::Kind::Opaque));
    QCOMPARE(a.find("p")->asInt64().value(), int64_t(16));
  }

  void readsDialectForms() {
    const Attribute pretty = parseOk(
        "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16, col_major = true>");
    QVERIFY(pretty.isDialect("iree_gpu", "mma_layout"));
    QCOMPARE(pretty.positional().front()->text,
             std::string("MFMA_F32_16x16x16_F16"));
    QCOMPARE(pretty.find("col_major")->text, std::string("true"));

    const Attribute bracket =
        parseOk("#iree_gpu<mma_intrinsic MFMA_F32_32x32x8_F16>");
    QVERIFY(bracket.bracketForm);
    QVERIFY(bracket.isDialect("iree_gpu", "mma_intrinsic"));
    QCOMPARE(config::printAttribute(bracket),
             std::string("#iree_gpu<mma_intrinsic MFMA_F32_32x32x8_F16>"));

    // translation_info separates some parameters by spaces only, and its
    // type-elided form appears inside compilation_info.
    const Attribute info = parseOk(
        "#iree_codegen.compilation_info<lowering_config = "
        "#iree_gpu.lowering_config<{workgroup = [1, 0]}>, translation_info = "
        "<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = "
        "[64, 1, 1] subgroup_size = 64, {llvm_func_attrs = "
        "{\"amdgpu-waves-per-eu\" = \"2\"}}>>");
    const Attribute *elided = info.find("translation_info");
    QVERIFY(elided && elided->is(Attribute::Kind::Elided));
    QCOMPARE(elided->find("subgroup_size")->asInt64().value(), int64_t(64));
    QCOMPARE(elided->parameters[1].separatorBefore, ' ');
    QVERIFY(elided->positional().front()->is(Attribute::Kind::Dictionary));
  }

  void readsAliases() {
    auto document = config::parseAttributeDocument(
        "// comment\n#config = #iree_gpu.lowering_config<{workgroup = [4, "
        "0]}>\n"
        "#info = #iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64>\n"
        "#iree_codegen.compilation_info<lowering_config = #config, "
        "translation_info = #info>");
    QVERIFY(std::holds_alternative<config::AttributeDocument>(document));
    auto &parsed = std::get<config::AttributeDocument>(document);
    QCOMPARE(parsed.aliasOrder, (std::vector<std::string>{"config", "info"}));
    auto resolved =
        config::resolveAliases(parsed.attributes.front(), parsed.aliases);
    QVERIFY(resolved.ok());
    QVERIFY(resolved->find("lowering_config")
                ->isDialect("iree_gpu", "lowering_config"));

    auto undefined = config::resolveAliases(parseOk("[#nowhere]"), {});
    QVERIFY(!undefined.ok());
    QVERIFY(undefined.error().find("#nowhere is not defined") !=
            std::string::npos);
  }

  void writesAsMlirPrints() {
    // Dictionaries sorted, i64 shown for lone integers and elided in arrays,
    // unit keys bare, quoted keys kept quoted.
    QCOMPARE(
        config::printAttribute(parseOk(
            "{zeta = 1, alpha = [1 : i64, 2 : index], flag, \"a-b\" = \"x\"}")),
        std::string(
            "{\"a-b\" = \"x\", alpha = [1, 2 : index], flag, zeta = 1 : i64}"));
    QCOMPARE(
        config::printAttribute(parseOk("#iree_codegen.xor_shuffle<128, 16>")),
        std::string("#iree_codegen.xor_shuffle<128, 16>"));
  }

  void ireePrintedAttributesRoundTripByteForByte() {
    const auto attributes = examplesAttributes();
    QVERIFY(attributes.size() >= 30);
    for (const std::string &text : attributes) {
      const std::string printed = config::printAttribute(parseOk(text));
      QVERIFY2(printed == text, (text + "\n   printed as\n" + printed).c_str());
    }
  }

  void errorsSayWhatAndWhere() {
    const ParseError missing = parseFails("{workgroup = [64, 128, 0}");
    QCOMPARE(missing.location.line, 1);
    QCOMPARE(missing.location.column, 25);
    QVERIFY(missing.message.find("expected ']'") != std::string::npos);
    QVERIFY(missing.toString().find("^") != std::string::npos);

    const ParseError secondLine =
        parseFails("#iree_gpu.lowering_config<{\n  workgroup = [1, %]}>");
    QCOMPARE(secondLine.location.line, 2);
    QCOMPARE(secondLine.location.column, 19);
    QCOMPARE(secondLine.lineText, std::string("  workgroup = [1, %]}>"));

    QVERIFY(parseFails("\"unterminated").message.find("unterminated") !=
            std::string::npos);
    QVERIFY(
        parseFails("#iree_gpu.lowering_config<{a = 1}").message.find("'>'") !=
        std::string::npos);
    QVERIFY(parseFails("").message.find("found none") != std::string::npos);
    QVERIFY(parseFails("[1] [2]").message.find("found 2") != std::string::npos);
  }

  void hostileInputIsAnErrorNotACrash() {
    // Deep nesting stops at the depth limit.
    const std::string deep(200000, '[');
    QVERIFY(parseFails(deep).message.find("nesting deeper") !=
            std::string::npos);
    const std::string deepAngles = std::string(5000, '<');
    parseFails(deepAngles);
    // A 10 MB string is read as a value, then printed back.
    const std::string huge = "\"" + std::string(10u << 20, 'x') + "\"";
    const Attribute hugeString = parseOk(huge);
    QCOMPARE(hugeString.text.size(), size_t(10u << 20));
    QCOMPARE(config::printAttribute(hugeString), huge);
    // Integers too large for 64 bits are kept as text, not as a wrong value.
    const Attribute big =
        parseOk("[99999999999999999999999, -9223372036854775808]");
    QVERIFY(!big.elements[0].asInt64().has_value());
    QCOMPARE(big.elements[1].asInt64().value(), INT64_MIN);
    QCOMPARE(config::printAttribute(big),
             std::string("[99999999999999999999999, -9223372036854775808]"));
    // NUL bytes and truncation.
    const ParseError nul = parseFails(std::string("{a = 1,\n b = \0 2}", 17));
    QCOMPARE(nul.location.line, 2);
    QCOMPARE(nul.location.column, 6);
    const std::string full = "#iree_gpu.lowering_config<{lane_basis = [[1, "
                             "64], [0, 1]], workgroup = [1, 0]}>";
    for (size_t cut = full.find('<') + 1; cut < full.size(); ++cut)
      parseFails(full.substr(0, cut));
    // Aliases that nest each other past the depth limit, and aliases that
    // multiply (8^9 elements from 500 bytes), are errors when resolved.
    std::string chain =
        "#a0 = " + std::string(200, '[') + std::string(200, ']');
    for (int i = 1; i < 300; ++i)
      chain += "\n#a" + std::to_string(i) + " = " + std::string(100, '[') +
               "#a" + std::to_string(i - 1) + std::string(100, ']');
    chain += "\n#a299";
    auto chained = config::parseAttributeDocument(chain);
    QVERIFY(std::holds_alternative<config::AttributeDocument>(chained));
    const auto &chainedDocument = std::get<config::AttributeDocument>(chained);
    auto deepResolved = config::resolveAliases(
        chainedDocument.attributes.front(), chainedDocument.aliases);
    QVERIFY(!deepResolved);
    QVERIFY2(deepResolved.error().find("nests deeper") != std::string::npos,
             deepResolved.error().c_str());
    std::string bomb = "#b0 = [1, 1, 1, 1, 1, 1, 1, 1]";
    for (int i = 1; i < 10; ++i) {
      const std::string previous = "#b" + std::to_string(i - 1);
      bomb += "\n#b" + std::to_string(i) + " = [" + previous;
      for (int copy = 1; copy < 8; ++copy)
        bomb += ", " + previous;
      bomb += "]";
    }
    bomb += "\n#b9";
    auto bombed = config::parseAttributeDocument(bomb);
    QVERIFY(std::holds_alternative<config::AttributeDocument>(bombed));
    const auto &bombDocument = std::get<config::AttributeDocument>(bombed);
    auto bombResolved = config::resolveAliases(bombDocument.attributes.front(),
                                               bombDocument.aliases);
    QVERIFY(!bombResolved);
    QVERIFY2(bombResolved.error().find("more than") != std::string::npos,
             bombResolved.error().c_str());
    // Over the size limit.
    config::ParseLimits small;
    small.maximumBytes = 10;
    QVERIFY(std::holds_alternative<ParseError>(
        config::parseAttribute("[1, 2, 3, 4, 5]", small)));
  }
};

QTEST_GUILESS_MAIN(AttributeTest)
#include "tst_attribute.moc"
