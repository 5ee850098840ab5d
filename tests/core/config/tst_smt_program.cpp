// IREE's constraint programs read and run by Tilescope, on hand-written
// bodies in IREE's printed form (property_constraint_space checks the same
// against IREE itself on random cases).
#include "core/config/smt/SmtProgram.h"
#include "core/config/smt/SmtSpace.h"

#include <QtTest>

#include <set>

using namespace tilescope;
using namespace tilescope::config;

namespace {

// A 96-wide dim tiled by wg (dividing it, at most 64) and split into sg
// subgroups of 16-wide MMA tiles; `count` is free, as sg_m_cnt is in IREE's
// TileAndFuse constraints.
const char *kBody = R"smt(
  ^bb0(%arg0: !smt.int):
    %c96 = smt.int.constant 96
    %0 = smt.eq %arg0, %c96 : !smt.int
    iree_codegen.smt.assert %0, "dim_0 ({}) == 96", %arg0 : !smt.bool, !smt.int
    %wg = iree_codegen.smt.knob "wg" : !smt.int
    %sg = iree_codegen.smt.knob "sg" : !smt.int
    %count = smt.declare_fun "count" : !smt.int
    %c0 = smt.int.constant 0
    %c1 = smt.int.constant 1
    %c16 = smt.int.constant 16
    %c64 = smt.int.constant 64
    %1 = smt.int.mod %arg0, %wg
    %2 = smt.eq %1, %c0 : !smt.int
    iree_codegen.smt.assert %2, "dim_0 must be divisible by wg ({} % {} == 0)", %arg0, %wg : !smt.bool, !smt.int, !smt.int
    %3 = smt.int.cmp le %wg, %c64
    iree_codegen.smt.assert %3, "wg <= 64" : !smt.bool
    %4 = smt.int.cmp ge %sg, %c1
    iree_codegen.smt.assert %4, "sg >= 1" : !smt.bool
    %5 = smt.int.mul %sg, %count, %c16
    %6 = smt.eq %wg, %5 : !smt.int
    iree_codegen.smt.assert %6, "wg == sg * count * 16" : !smt.bool
    %7 = smt.int.cmp le %count, %c16
    %8 = smt.int.cmp ge %count, %c1
    %9 = smt.and %7, %8
    iree_codegen.smt.assert %9, "1 <= count <= 16" : !smt.bool
)smt";

} // namespace

class SmtProgramTest : public QObject {
  Q_OBJECT
private slots:
  void readsIreesPrint() {
    auto program = parseSmtProgram(kBody, {96});
    QVERIFY2(program.ok(), program.ok() ? "" : program.error().c_str());
    QCOMPARE(program->asserts.size(), size_t(6));
    QCOMPARE(program->variables.size(), size_t(3));
    QCOMPARE(program->variable("wg"), 0);
    QCOMPARE(program->variable("count"), -1); // free, not a knob
    QCOMPARE(program->asserts[1].line, 15);
  }

  // IREE's evaluator: an assert on an unknown value (the free `count`, an
  // unset knob) is skipped; a broken one names its values.
  void runsAsIreesVerifierDoes() {
    auto program = parseSmtProgram(kBody, {96});
    QVERIFY(program.ok());
    QVERIFY(violatedAsserts(*program, {{"wg", 32}, {"sg", 2}}).empty());
    auto broken = violatedAsserts(*program, {{"wg", 40}, {"sg", 0}});
    QCOMPARE(broken.size(), size_t(2));
    QCOMPARE(broken[0].message,
             std::string("dim_0 must be divisible by wg (96 % 40 == 0)"));
    QCOMPARE(broken[1].message, std::string("sg >= 1"));
    // A dim IREE could not fold is unknown: its asserts are skipped.
    auto dynamic = parseSmtProgram(kBody, {std::nullopt});
    QVERIFY(violatedAsserts(*dynamic, {{"wg", 40}, {"sg", 1}}).empty());
  }

  // The space: wg divides 96 and is at most 64, some count in 1..16 makes
  // wg == sg * count * 16.
  void listsTheSpace() {
    auto program = parseSmtProgram(kBody, {96});
    auto space = enumerateSmtSpace(*program);
    QVERIFY2(space.ok(), space.ok() ? "" : space.error().c_str());
    QCOMPARE(space->knobs, (std::vector<std::string>{"wg", "sg"}));
    std::set<std::vector<int64_t>> got(space->points.begin(),
                                       space->points.end());
    const std::set<std::vector<int64_t>> expected = {
        {16, 1}, {32, 1}, {32, 2}, {48, 1}, {48, 3}};
    QCOMPARE(got, expected);

    SmtSpaceOptions held;
    held.pinned["wg"] = 48;
    auto pinned = enumerateSmtSpace(*program, held);
    QCOMPARE(pinned->points.size(), size_t(2));
    held.pinned["nope"] = 1;
    QVERIFY(!enumerateSmtSpace(*program, held).ok());

    // A search past its node budget stops and says so.
    SmtSpaceOptions small;
    small.maxVisited = 3;
    auto stopped = enumerateSmtSpace(*program, small);
    QVERIFY(stopped.ok() && stopped->truncated);
    QVERIFY(stopped->points.size() < 5);
  }

  // A knob no assert bounds is refused by name, never guessed.
  void refusesAnUnboundedKnob() {
    auto program = parseSmtProgram(R"(
      %k = iree_codegen.smt.knob "k" : !smt.int
      %c1 = smt.int.constant 1
      %0 = smt.int.cmp ge %k, %c1
      iree_codegen.smt.assert %0, "k >= 1" : !smt.bool
    )",
                                   {});
    QVERIFY(program.ok());
    auto space = enumerateSmtSpace(*program);
    QVERIFY(!space.ok());
    QVERIFY2(space.error().find("leave k without a finite set") !=
                 std::string::npos,
             space.error().c_str());
  }

  // What is not IREE's print is refused with the line and the reason.
  void refusesWhatItCannotRead() {
    auto unknownOp = parseSmtProgram("%0 = smt.int.constant 1\n"
                                     "%1 = smt.distinct %0, %0 : !smt.int\n",
                                     {});
    QVERIFY(!unknownOp.ok());
    QVERIFY2(unknownOp.error().find(
                 "line 2: 'smt.distinct' is not an op IREE's "
                 "constraint evaluator handles") != std::string::npos,
             unknownOp.error().c_str());
    auto undefined = parseSmtProgram("%0 = smt.int.add %a, %b\n", {});
    QVERIFY(!undefined.ok());
    QVERIFY(undefined.error().find("%a is not defined above") !=
            std::string::npos);
    auto badAssert = parseSmtProgram(
        "%0 = smt.bool.constant true\niree_codegen.smt.assert %0\n", {});
    QVERIFY(!badAssert.ok());
  }
};

QTEST_APPLESS_MAIN(SmtProgramTest)
#include "tst_smt_program.moc"
