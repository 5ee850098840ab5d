#include "core/devices/ProbeModule.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <sstream>

namespace tilescope::devices {
namespace {

struct ScalarType {
  bool isFloat = false;
  int bits = 0;
};

std::optional<ScalarType> scalarType(const std::string &name) {
  if (name == "f16" || name == "bf16")
    return ScalarType{true, 16};
  if (name == "f32")
    return ScalarType{true, 32};
  if (name == "f64")
    return ScalarType{true, 64};
  if (name.rfind("f8", 0) == 0 || name.rfind("f6", 0) == 0 ||
      name.rfind("f4", 0) == 0)
    return ScalarType{true, name[1] - '0'};
  if (name.size() > 1 && name[0] == 'i') {
    if (auto bits = parseInt64(name.substr(1)); bits && *bits > 0)
      return ScalarType{false, static_cast<int>(*bits)};
  }
  return std::nullopt;
}

std::string tensorType(const std::vector<int64_t> &shape,
                       const std::string &element) {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + element + ">";
}

std::string dimList(size_t rank) {
  std::string text;
  for (size_t d = 0; d < rank; ++d)
    text += (d ? ", d" : "d") + std::to_string(d);
  return text;
}

// Writes the SSA lines that convert `value` of type `from` to `to`.
Result<std::string> convert(std::ostringstream &body, const std::string &value,
                            const std::string &from, const std::string &to,
                            int &counter) {
  if (from == to)
    return value;
  auto a = scalarType(from), c = scalarType(to);
  if (!a || !c || a->isFloat != c->isFloat)
    return Error{"no conversion from " + from + " to " + to +
                 " in a probe body (both floats or both integers)"};
  auto emit = [&](const std::string &op, const std::string &in,
                  const std::string &inType, const std::string &outType) {
    const std::string name = "%v" + std::to_string(counter++);
    body << "    " << name << " = arith." << op << " " << in << " : " << inType
         << " to " << outType << "\n";
    return name;
  };
  if (a->isFloat) {
    if (a->bits == c->bits) // f16 <-> bf16: through f32
      return emit("truncf", emit("extf", value, from, "f32"), "f32", to);
    return emit(a->bits < c->bits ? "extf" : "truncf", value, from, to);
  }
  return emit(a->bits < c->bits ? "extsi" : "trunci", value, from, to);
}

} // namespace

namespace {

// Each operand's tensor shape, after checking that the op can be a probe:
// a plain function name, static positive bounds, inputs and an output,
// maps naming loops of the space once each, element types with arithmetic.
Result<std::vector<std::vector<int64_t>>> probeShapes(const ProbeOp &op) {
  const config::IterationSpace &space = op.space;
  const size_t rank = space.rank();
  if (op.function.empty() ||
      !std::all_of(op.function.begin(), op.function.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      }))
    return Error{"probe function name '" + op.function +
                 "' must be letters, digits and _"};
  if (rank == 0 || space.kinds.size() != rank)
    return Error{op.function + ": the iteration space needs bounds and kinds"};
  for (int64_t bound : space.bounds)
    if (bound <= 0)
      return Error{op.function + ": a probe needs static positive bounds (" +
                   space.toString() + ")"};
  if (space.operands.size() < 2 || !space.operands.back().isOutput)
    return Error{op.function +
                 ": a probe needs at least one input and one output operand"};
  std::vector<std::vector<int64_t>> shapes;
  for (const config::OperandAccess &operand : space.operands) {
    std::vector<int64_t> shape;
    std::vector<int> seen;
    for (int loop : operand.dims) {
      if (loop >= static_cast<int>(rank))
        return Error{op.function + ": an operand names loop d" +
                     std::to_string(loop) + " of a " + std::to_string(rank) +
                     "-D space"};
      if (loop >= 0 && std::count(seen.begin(), seen.end(), loop))
        return Error{op.function + ": an operand map names d" +
                     std::to_string(loop) + " twice"};
      seen.push_back(loop);
      shape.push_back(loop < 0 ? 1 : space.bounds[static_cast<size_t>(loop)]);
    }
    if (!scalarType(operand.elementType))
      return Error{op.function + ": element type '" + operand.elementType +
                   "' has no arithmetic in a probe body"};
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

// "0, 0", "64, 32", "1, 1" of a full-tensor load or store.
struct FullSlice {
  std::string offsets, sizes, strides;
};
FullSlice fullSlice(const std::vector<int64_t> &shape) {
  FullSlice slice;
  for (size_t d = 0; d < shape.size(); ++d) {
    slice.offsets += std::string(d ? ", " : "") + "0";
    slice.sizes += std::string(d ? ", " : "") + std::to_string(shape[d]);
    slice.strides += std::string(d ? ", " : "") + "1";
  }
  return slice;
}

// The function's opening: as a hal.executable (a target's own form) or a
// bare func.func with a ROCm target.
void writeOpening(std::ostringstream &text, const ProbeOp &op,
                  const std::string &layout, bool executable) {
  if (executable) {
    text << "hal.executable private @" << op.function << "_executable {\n"
         << "hal.executable.variant public @variant target("
         << op.executableTarget << ") {\n"
         << "hal.executable.export public @" << op.function
         << " ordinal(0) layout(" << layout
         << ") count(%device: !hal.device) -> (index, index, index) {\n"
         << "  %x, %y, %z = "
            "iree_tensor_ext.dispatch.workgroup_count_from_slice()\n"
         << "  hal.return %x, %y, %z : index, index, index\n}\n"
         << "builtin.module {\n"
         << "func.func @" << op.function
         << "() attributes {translation_info = " << op.translationInfo
         << "} {\n";
  } else {
    text << "func.func @" << op.function
         << "() attributes {hal.executable.target = "
            "#hal.executable.target<\"rocm\", \"rocm-hsaco-fb\">, "
            "translation_info = "
         << op.translationInfo << "} {\n";
  }
}

// The generic's region: its statements and the value it yields.
struct ProbeRegion {
  std::string statements;
  std::string result;
};

Result<ProbeRegion> probeRegion(const ProbeOp &op, ProbeBody body,
                                size_t inputs, bool hasReduction) {
  const config::IterationSpace &space = op.space;
  const std::string &outType = space.operands.back().elementType;
  const bool isFloat = scalarType(outType)->isFloat;
  std::ostringstream region;
  int counter = 0;
  std::vector<std::string> converted;
  // A scaled contraction's inputs are scaled up to f32 in pairs, value and
  // scale (arith.scaling_extf), the form IREE's scaled-contraction matcher
  // takes.
  if (body == ProbeBody::ScaledMultiplyAdd) {
    if (inputs != 4 || outType != "f32")
      return Error{op.function + ": a scaled probe needs four inputs and an "
                                 "f32 output"};
    for (size_t i = 0; i < 2; ++i) {
      const std::string name = "%v" + std::to_string(counter++);
      region << "    " << name << " = arith.scaling_extf %in" << i << ", %in"
             << i + 2 << " : " << space.operands[i].elementType << ", "
             << space.operands[i + 2].elementType << " to f32\n";
      converted.push_back(name);
    }
  }
  for (size_t i = 0; i < inputs && body != ProbeBody::ScaledMultiplyAdd; ++i) {
    auto value = convert(region, "%in" + std::to_string(i),
                         space.operands[i].elementType, outType, counter);
    if (!value)
      return Error{op.function + ": " + value.error()};
    converted.push_back(*value);
  }
  const std::string add = isFloat ? "arith.addf" : "arith.addi";
  const std::string mul = isFloat ? "arith.mulf" : "arith.muli";
  auto emit = [&](const std::string &operation, const std::string &a,
                  const std::string &b) {
    const std::string name = "%v" + std::to_string(counter++);
    region << "    " << name << " = " << operation << " " << a << ", " << b
           << " : " << outType << "\n";
    return name;
  };
  std::string result;
  if (body == ProbeBody::MultiplyAdd || body == ProbeBody::ScaledMultiplyAdd) {
    if (converted.size() != 2)
      return Error{op.function + ": a multiply-add probe needs two inputs"};
    result = emit(add, "%out", emit(mul, converted[0], converted[1]));
  } else {
    result = converted[0];
    for (size_t i = 1; i < inputs; ++i)
      result = emit(add, result, converted[i]);
    // An elementwise op of one input must still compute something, or IREE
    // folds it away as a copy.
    result = hasReduction || inputs == 1 ? emit(add, "%out", result) : result;
  }
  return ProbeRegion{region.str(), result};
}

// The generic's indexing_maps and iterator_types.
std::pair<std::string, std::string>
mapsAndIterators(const config::IterationSpace &space) {
  const size_t rank = space.rank();
  std::string maps, iterators;
  for (size_t i = 0; i < space.operands.size(); ++i) {
    std::string results;
    for (size_t d = 0; d < space.operands[i].dims.size(); ++d) {
      const int loop = space.operands[i].dims[d];
      results += std::string(d ? ", " : "") +
                 (loop < 0 ? std::string("0") : "d" + std::to_string(loop));
    }
    maps += std::string(i ? ", " : "") + "affine_map<(" + dimList(rank) +
            ") -> (" + results + ")>";
  }
  for (size_t d = 0; d < rank; ++d)
    iterators += std::string(d ? ", " : "") +
                 (space.isReduction(d) ? "\"reduction\"" : "\"parallel\"");
  return {maps, iterators};
}

} // namespace

Result<std::string> probeFunctionText(const ProbeOp &op) {
  const config::IterationSpace &space = op.space;
  auto checkedShapes = probeShapes(op);
  if (!checkedShapes)
    return Error{checkedShapes.error()};
  const std::vector<std::vector<int64_t>> &shapes = *checkedShapes;

  const size_t inputs = space.operands.size() - 1;
  const std::string &outType = space.operands.back().elementType;
  const bool hasReduction = std::any_of(
      space.kinds.begin(), space.kinds.end(),
      [](config::LoopKind k) { return k == config::LoopKind::Reduction; });
  ProbeBody body = op.body;
  if (body == ProbeBody::Automatic) {
    const auto contraction = config::inferContraction(space);
    body = inputs == 2 && contraction ? ProbeBody::MultiplyAdd
           : inputs == 4 && contraction && !contraction->kB.empty()
               ? ProbeBody::ScaledMultiplyAdd
               : ProbeBody::Sum;
  }
  auto region = probeRegion(op, body, inputs, hasReduction);
  if (!region)
    return Error{region.error()};
  const std::string zero = scalarType(outType)->isFloat
                               ? "0.000000e+00 : " + outType
                               : "0 : " + outType;

  std::ostringstream text;
  std::string bindings;
  for (size_t i = 0; i < space.operands.size(); ++i)
    bindings += std::string(i ? ", " : "") +
                "#hal.pipeline.binding<storage_buffer" +
                (i + 1 < space.operands.size() ? ", ReadOnly" : "") + ">";
  const std::string layout =
      "#hal.pipeline.layout<bindings = [" + bindings + "]>";
  const bool executable = usesExecutableForm(op);
  writeOpening(text, op, layout, executable);
  text << "  %c0 = arith.constant 0 : index\n";
  text << "  %zero = arith.constant " << zero << "\n";
  std::string ins, insTypes;
  for (size_t i = 0; i < space.operands.size(); ++i) {
    const bool isInput = i < inputs;
    const std::string tensor =
        tensorType(shapes[i], space.operands[i].elementType);
    const std::string dispatch =
        std::string("!iree_tensor_ext.dispatch.tensor<") +
        (isInput ? "readonly:" : "writeonly:") + tensor + ">";
    text << "  %b" << i << " = hal.interface.binding.subspan layout(" << layout
         << ") binding(" << i << ") alignment(64) offset(%c0)"
         << (isInput ? " flags(ReadOnly)" : "") << " : " << dispatch << "\n";
    if (!isInput)
      continue;
    const FullSlice slice = fullSlice(shapes[i]);
    text << "  %t" << i << " = iree_tensor_ext.dispatch.tensor.load %b" << i
         << ", offsets = [" << slice.offsets << "], sizes = [" << slice.sizes
         << "], strides = [" << slice.strides << "] : " << dispatch << " -> "
         << tensor << "\n";
    ins += (i ? ", %t" : "%t") + std::to_string(i);
    insTypes += (i ? ", " : "") + tensor;
  }
  const std::string outTensor = tensorType(shapes.back(), outType);
  text << "  %empty = tensor.empty() : " << outTensor << "\n";
  std::string init = "%empty";
  if (hasReduction) {
    text << "  %init = linalg.fill ins(%zero : " << outType
         << ") outs(%empty : " << outTensor << ") -> " << outTensor << "\n";
    init = "%init";
  }
  const auto [maps, iterators] = mapsAndIterators(space);
  text << "  %result = linalg.generic {indexing_maps = [" << maps
       << "], iterator_types = [" << iterators << "]} ins(" << ins << " : "
       << insTypes << ") outs(" << init << " : " << outTensor
       << ") attrs = {lowering_config = " << op.loweringConfig << "} {\n";
  text << "  ^bb0(";
  for (size_t i = 0; i < inputs; ++i)
    text << "%in" << i << ": " << space.operands[i].elementType << ", ";
  text << "%out: " << outType << "):\n"
       << region->statements << "    linalg.yield " << region->result << " : "
       << outType << "\n  } -> " << outTensor << "\n";
  const FullSlice slice = fullSlice(shapes.back());
  text << "  iree_tensor_ext.dispatch.tensor.store %result, %b"
       << space.operands.size() - 1 << ", offsets = [" << slice.offsets
       << "], sizes = [" << slice.sizes << "], strides = [" << slice.strides
       << "] : " << outTensor
       << " -> !iree_tensor_ext.dispatch.tensor<writeonly:" << outTensor
       << ">\n";
  text << "  return\n}\n";
  if (executable)
    text << "}\n}\n}\n";
  return text.str();
}

Result<std::string> probeModuleText(const std::vector<ProbeOp> &ops) {
  std::string text;
  for (size_t i = 0; i < ops.size(); ++i) {
    auto function = probeFunctionText(ops[i]);
    if (!function)
      return function;
    if (i)
      text += "\n// -----\n\n";
    text += *function;
  }
  return text;
}

} // namespace tilescope::devices
