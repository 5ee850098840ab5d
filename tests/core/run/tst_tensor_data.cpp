// A checked run's tensor data, without running anything: tensor types and
// the signatures IREE declares (or the source gives, for ONNX imports),
// random inputs fixed by their seed and read back, and comparisons against
// a reference (tolerances, infinities, NaN, the first mismatches named).
#include "TestSupport.h"

#include "core/run/TensorData.h"

#include <cmath>

using namespace tilescope;
using namespace tilescope::run;

class TensorDataTest : public QObject {
  Q_OBJECT

private slots:
  // Equal infinities agree (a mask's -inf, log(0), a max-reduction's
  // initial value); opposite ones, an infinity against a number and NaN
  // against a number do not; NaN agrees with NaN.
  void equalInfinitiesAgree() {
    auto type = parseTensorType("4xf32");
    const double inf = INFINITY;
    auto same = compareTensors(*type, {-inf, inf, NAN, 1}, {-inf, inf, NAN, 1},
                               defaultTolerance("f32"));
    QVERIFY(same.passed());
    QCOMPARE(same.maxAbsoluteError, 0.0);
    auto differ = compareTensors(*type, {inf, -inf, NAN, 1}, {-inf, 5, 1, NAN},
                                 defaultTolerance("f32"));
    QCOMPARE(differ.mismatches, size_t(4));
    QVERIFY(std::isinf(differ.maxAbsoluteError));
  }

  void tensorTypesAndSignatures() {
    auto type = parseTensorType("tensor<4x8xf16>");
    QVERIFY(type.ok());
    QCOMPARE(type->toString(), std::string("4x8xf16"));
    QCOMPARE(type->elementCount(), size_t(32));
    QCOMPARE(type->elementBytes(), size_t(2));
    QVERIFY(!parseTensorType("tensor<?x8xf32>").ok());
    QVERIFY(!parseTensorType("4xcomplex<f32>").ok());
    // A size past 64 bits or a shape past 2^31 elements is refused, not
    // thrown out of the run or written as gigabytes of random input.
    QVERIFY(!parseTensorType("tensor<99999999999999999999xf32>").ok());
    QVERIFY(!parseTensorType("tensor<1000000x1000000xf32>").ok());
    QVERIFY(parseTensorType("tensor<0x1000000xf32>").ok());
    auto scalar = parseTensorType("i32");
    QVERIFY(scalar.ok());
    QCOMPARE(scalar->elementCount(), size_t(1));

    auto signatures = parseAbiDeclarations(
        "  [  0] f(!vm.ref<?>) -> (!vm.ref<?>)\n"
        "        iree.abi.declaration: sync func @f(%input0: "
        "tensor<128x128xf32>, %input1: tensor<4xi8>) -> (%output0: "
        "tensor<128xf32>, %output1: tensor<2x2xbf16>)\n"
        "  [  1] __init() -> ()\n");
    QVERIFY(signatures.ok());
    QCOMPARE(signatures->size(), size_t(1));
    QCOMPARE(signatures->front().name, std::string("f"));
    QCOMPARE(signatures->front().inputs.size(), size_t(2));
    QCOMPARE(signatures->front().results[1].toString(),
             std::string("2x2xbf16"));
  }

  // IREE writes no ABI declaration for torch-input functions (ONNX
  // imports): the checked run reads the signature from the source.
  void signaturesAreReadFromTheSourceWhereIreeDeclaresNone() {
    const auto functions = parseSourceFunctions(
        "module {\n"
        "  func.func @main_graph(%arg0: !torch.vtensor<[1,3,224,224],f16>, "
        "%arg1: !torch.vtensor<[1,128],si64> {onnx.name = \"ids\"}) -> "
        "!torch.vtensor<[1,1000],f16> attributes {torch.onnx_meta.ir_version "
        "= 10 : si64} {\n"
        "    %0 = torch.operator \"onnx.Constant\"() : () -> "
        "!torch.vtensor<[2],si64>\n"
        "  }\n"
        "  func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.func @two(%a: tensor<4x8xf32>) -> (tensor<4xf32>, "
        "tensor<8xi32>) {\n  }\n"
        "  func.func @dynamic(%a: !torch.vtensor<[?,3],f32>) -> "
        "!torch.vtensor<[3],f32> {\n  }\n"
        "}\n");
    QCOMPARE(functions.size(), size_t(3)); // the private helper is not one
    const FunctionSignature &onnx = functions[0].signature;
    QCOMPARE(onnx.name, std::string("main_graph"));
    QVERIFY(functions[0].unfed.empty());
    QCOMPARE(onnx.inputs.size(), size_t(2));
    QCOMPARE(onnx.inputs[0].toString(), std::string("1x3x224x224xf16"));
    QCOMPARE(onnx.inputs[1].toString(), std::string("1x128xi64"));
    QCOMPARE(onnx.results.size(), size_t(1));
    QCOMPARE(onnx.results[0].toString(), std::string("1x1000xf16"));
    QCOMPARE(functions[1].signature.name, std::string("two"));
    QCOMPARE(functions[1].signature.results.size(), size_t(2));
    QCOMPARE(functions[1].signature.results[1].toString(),
             std::string("8xi32"));
    QCOMPARE(functions[2].signature.name, std::string("dynamic"));
    QVERIFY2(functions[2].unfed.find("dynamic") != std::string::npos,
             functions[2].unfed.c_str());
  }

  void randomInputsAreFixedAndRoundTrip() {
    for (const char *element : {"f32", "f16", "bf16", "f64", "i8", "i32"}) {
      auto type = parseTensorType(std::string("16x16x") + element);
      QVERIFY(type.ok());
      const std::string a = randomTensorBytes(*type, 7);
      QCOMPARE(a, randomTensorBytes(*type, 7));
      QVERIFY(a != randomTensorBytes(*type, 8));
      QCOMPARE(a.size(), type->elementCount() * type->elementBytes());
      auto values = tensorValues(*type, a);
      QVERIFY(values.ok());
      for (double v : *values)
        QVERIFY2(v >= -8 && v < 8, element);
      // The values read back compare equal to themselves.
      QVERIFY(compareTensors(*type, *values, *values,
                             defaultTolerance(type->element))
                  .passed());
    }
    // A known f16: 1.0 is 0x3c00, -2.0 is 0xc000.
    auto half = parseTensorType("2xf16");
    auto values = tensorValues(*half, std::string("\x00\x3c\x00\xc0", 4));
    QVERIFY(values.ok());
    QCOMPARE((*values)[0], 1.0);
    QCOMPARE((*values)[1], -2.0);
    QVERIFY(!tensorValues(*half, "abc").ok());
  }

  void comparisonsNameTheFirstMismatches() {
    auto type = parseTensorType("2x3xf32");
    const std::vector<double> reference = {1, 2, 3, 4, 5, 6};
    std::vector<double> values = reference;
    values[4] = 5.5;
    values[5] = 6.0000001;
    const TensorComparison c =
        compareTensors(*type, values, reference, defaultTolerance("f32"));
    QVERIFY(!c.passed());
    QCOMPARE(c.mismatches, size_t(1));
    QCOMPARE(c.firstMismatches.front().index, (std::vector<int64_t>{1, 1}));
    QCOMPARE(c.firstMismatches.front().reference, 5.0);
    QCOMPARE(c.maxAbsoluteError, 0.5);
    // Integers are exact.
    auto integer = parseTensorType("2xi32");
    QVERIFY(!compareTensors(*integer, {1, 2}, {1, 3}, defaultTolerance("i32"))
                 .passed());
    // NaN only matches NaN.
    QVERIFY(!compareTensors(*integer, {NAN, 2}, {1, 2}, {1, 1}).passed());
    QVERIFY(compareTensors(*integer, {NAN, 2}, {NAN, 2}, {0, 0}).passed());
  }
};

QTEST_GUILESS_MAIN(TensorDataTest)
#include "tst_tensor_data.moc"
