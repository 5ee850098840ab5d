#include "core/iree/detail/LaneSliceReader.h"

#include <limits>
#include <optional>
#include <utility>

namespace tilescope::iree::detail {
namespace {

constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();

// An index value of the forall's body as a function of the lane id.
class LaneEvaluator {
public:
  LaneEvaluator(const Ir &ir, MlirOperation forall)
      : ir(ir), api(ir.api), forall(forall) {}

  // The value for `lane`; nullopt with `error` set where it cannot be told.
  std::optional<int64_t> evaluate(MlirValue value, int64_t lane) {
    if (api.mlirValueIsABlockArgument(value)) {
      MlirOperation owner =
          api.mlirBlockGetParentOperation(api.mlirBlockArgumentGetOwner(value));
      if (owner.ptr == forall.ptr &&
          api.mlirBlockArgumentGetArgNumber(value) == 0)
        return lane;
      return fail("a block argument other than the lane id");
    }
    auto op = ir.definingOp(value);
    if (!op)
      return fail("a value with no defining op");
    const std::string name = ir.name(*op);
    const intptr_t result = api.mlirOpResultGetResultNumber(value);
    if (name == "arith.constant") {
      MlirAttribute constant = ir.attribute(*op, "value");
      if (constant.ptr && api.mlirAttributeIsAInteger(constant))
        return api.mlirIntegerAttrGetValueInt(constant);
      return fail("a constant that is not an integer");
    }
    if (name == "iree_codegen.index_hint" || name == "arith.index_cast" ||
        name == "arith.index_castui")
      return operand(*op, 0, lane);
    if (name == "affine.delinearize_index")
      return delinearize(*op, result, lane);
    if (name == "affine.linearize_index")
      return linearize(*op, lane);
    if (auto binary = arithmetic(name, *op, lane))
      return binary;
    if (!error.empty())
      return std::nullopt;
    return fail("'" + name + "'");
  }

  std::string error;

private:
  std::optional<int64_t> fail(const std::string &what) {
    if (error.empty())
      error = "cannot evaluate " + what + " for a lane";
    return std::nullopt;
  }

  std::optional<int64_t> operand(MlirOperation op, intptr_t index,
                                 int64_t lane) {
    if (index >= api.mlirOperationGetNumOperands(op))
      return fail("an op with too few operands");
    return evaluate(api.mlirOperationGetOperand(op, index), lane);
  }

  std::optional<std::vector<int64_t>> staticBasis(MlirOperation op) {
    auto basis = ir.integers(ir.attribute(op, "static_basis"));
    if (!basis)
      return fail("an index op with no static basis"), std::nullopt;
    for (int64_t size : *basis)
      if (size == kDynamic || size <= 0)
        return fail("an index op with a dynamic basis"), std::nullopt;
    return basis;
  }

  // A basis over `count` indices: the outer bound may be left out of it
  // (0 stands for it, unbounded).
  std::optional<std::vector<int64_t>>
  withOuterBound(std::vector<int64_t> sizes, intptr_t count, const char *op) {
    if (count == static_cast<intptr_t>(sizes.size()) + 1)
      sizes.insert(sizes.begin(), 0);
    if (count != static_cast<intptr_t>(sizes.size()))
      return fail(std::string("a ") + op + " of unexpected arity"),
             std::nullopt;
    return sizes;
  }

  // affine.delinearize_index %x into (b...): with one result more than the
  // basis, the first is the unbounded quotient.
  std::optional<int64_t> delinearize(MlirOperation op, intptr_t result,
                                     int64_t lane) {
    auto x = operand(op, 0, lane);
    auto basis = staticBasis(op);
    if (!x || !basis)
      return std::nullopt;
    const intptr_t count = api.mlirOperationGetNumResults(op);
    auto sizes = withOuterBound(*basis, count, "delinearize_index");
    if (!sizes)
      return std::nullopt;
    int64_t rest = *x;
    for (intptr_t i = count - 1; i > 0; --i) {
      if (i == result)
        return rest % (*sizes)[static_cast<size_t>(i)];
      rest /= (*sizes)[static_cast<size_t>(i)];
    }
    return rest;
  }

  // affine.linearize_index [%x...] by (b...): the outer bound may be left
  // out of the basis.
  std::optional<int64_t> linearize(MlirOperation op, int64_t lane) {
    auto basis = staticBasis(op);
    if (!basis)
      return std::nullopt;
    const intptr_t indices = api.mlirOperationGetNumOperands(op);
    auto sizes = withOuterBound(*basis, indices, "linearize_index");
    if (!sizes)
      return std::nullopt;
    int64_t value = 0;
    for (intptr_t i = 0; i < indices; ++i) {
      auto x = operand(op, i, lane);
      if (!x)
        return std::nullopt;
      value = (i == 0 ? 0 : value * (*sizes)[static_cast<size_t>(i)]) + *x;
    }
    return value;
  }

  std::optional<int64_t> arithmetic(const std::string &name, MlirOperation op,
                                    int64_t lane) {
    static const char *const kinds[] = {
        "arith.addi",  "arith.subi",  "arith.muli", "arith.divui",
        "arith.divsi", "arith.remui", "arith.remsi"};
    bool known = false;
    for (const char *kind : kinds)
      known = known || name == kind;
    if (!known)
      return std::nullopt;
    auto a = operand(op, 0, lane), b = operand(op, 1, lane);
    if (!a || !b)
      return std::nullopt;
    if (name == "arith.addi")
      return *a + *b;
    if (name == "arith.subi")
      return *a - *b;
    if (name == "arith.muli")
      return *a * *b;
    if (*b == 0)
      return fail("a division by zero");
    if (name == "arith.divui" || name == "arith.divsi")
      return *a / *b;
    return *a % *b;
  }

  const Ir &ir;
  const FunctionTable &api;
  MlirOperation forall;
};

// A tensor.expand_shape between a slice and its argument: which expanded
// dims each source dim became, and the expanded sizes.
struct Expansion {
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> expandedShape;
  std::vector<int64_t> collapse(const std::vector<int64_t> &expanded) const {
    std::vector<int64_t> source;
    for (const auto &group : groups) {
      int64_t index = 0;
      for (int64_t dim : group)
        index = index * expandedShape[static_cast<size_t>(dim)] +
                expanded[static_cast<size_t>(dim)];
      source.push_back(index);
    }
    return source;
  }
};

// Follows a slice's source back to a function argument: through the
// forall's shared outputs and expand_shapes (innermost first).
struct Origin {
  int argument = -1;
  std::vector<int64_t> argumentShape;
  std::vector<Expansion> expansions;
  std::string error;
};

Origin originOf(const Ir &ir, MlirOperation forall, MlirValue value) {
  const FunctionTable &api = ir.api;
  Origin origin;
  for (int depth = 0; depth < 16; ++depth) {
    if (api.mlirValueIsABlockArgument(value)) {
      MlirOperation owner =
          api.mlirBlockGetParentOperation(api.mlirBlockArgumentGetOwner(value));
      const intptr_t number = api.mlirBlockArgumentGetArgNumber(value);
      if (owner.ptr == forall.ptr) {
        // Block arguments: the lane id, then one per shared output, tied to
        // the forall's last operands.
        const intptr_t outputs = api.mlirOperationGetNumResults(forall);
        const intptr_t tied =
            api.mlirOperationGetNumOperands(forall) - outputs + (number - 1);
        if (number < 1 || tied < 0 ||
            tied >= api.mlirOperationGetNumOperands(forall)) {
          origin.error = "a slice of a forall argument with no tied output";
          return origin;
        }
        value = api.mlirOperationGetOperand(forall, tied);
        continue;
      }
      if (ir.name(owner) == "func.func") {
        origin.argument = static_cast<int>(number);
        if (auto shaped = ir.shaped(api.mlirValueGetType(value)))
          origin.argumentShape = shaped->shape;
        return origin;
      }
      origin.error = "a slice of a block argument of " + ir.name(owner);
      return origin;
    }
    auto op = ir.definingOp(value);
    if (op && ir.name(*op) == "tensor.expand_shape") {
      Expansion expansion;
      MlirAttribute groups = ir.attribute(*op, "reassociation");
      if (groups.ptr && api.mlirAttributeIsAArray(groups))
        for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(groups); i < e;
             ++i)
          expansion.groups.push_back(
              ir.integers(api.mlirArrayAttrGetElement(groups, i))
                  .value_or(std::vector<int64_t>{}));
      if (auto shaped = ir.shaped(
              api.mlirValueGetType(api.mlirOperationGetResult(*op, 0))))
        expansion.expandedShape = shaped->shape;
      origin.expansions.push_back(std::move(expansion));
      value = api.mlirOperationGetOperand(*op, 0);
      continue;
    }
    origin.error = "a slice of " +
                   (op ? ir.name(*op) : std::string("a value")) +
                   ", not of a function argument";
    return origin;
  }
  origin.error = "a slice source nested too deep";
  return origin;
}

} // namespace

document::LaneDistribution readLaneDistribution(const Ir &ir, MlirOperation forall) {
  const FunctionTable &api = ir.api;
  document::LaneDistribution distribution;
  const auto upper = ir.integers(ir.attribute(forall, "staticUpperBound"));
  if (!upper || upper->size() != 1 || (*upper)[0] <= 0 ||
      (*upper)[0] == kDynamic) {
    distribution.error = "a lane forall without one static lane count";
    return distribution;
  }
  distribution.lanes = (*upper)[0];
  if (!api.mlirBlockArgumentGetOwner || !api.mlirBlockArgumentGetArgNumber ||
      !api.mlirBlockGetParentOperation) {
    distribution.error = "this IREE library lacks the MLIR C API's block "
                         "argument functions";
    return distribution;
  }

  LaneEvaluator evaluator(ir, forall);
  ir.walk(forall, [&](MlirOperation op) {
    if (!distribution.error.empty() || ir.name(op) != "tensor.extract_slice")
      return true;
    Origin origin = originOf(ir, forall, api.mlirOperationGetOperand(op, 0));
    if (!origin.error.empty()) {
      distribution.error = origin.error;
      return false;
    }
    auto offsets = ir.integers(ir.attribute(op, "static_offsets"));
    auto sizes = ir.integers(ir.attribute(op, "static_sizes"));
    auto strides = ir.integers(ir.attribute(op, "static_strides"));
    if (!offsets || !sizes || !strides) {
      distribution.error = "an extract_slice without static offsets or sizes";
      return false;
    }
    for (size_t i = 0; i < sizes->size(); ++i)
      if ((*sizes)[i] <= 0 || (*strides)[i] != 1) {
        distribution.error = "an extract_slice with dynamic sizes or strides";
        return false;
      }
    document::LaneSlice slice;
    slice.argument = origin.argument;
    slice.argumentShape = origin.argumentShape;
    for (int64_t lane = 0; lane < distribution.lanes; ++lane) {
      std::vector<int64_t> start = *offsets;
      intptr_t dynamicOperand = 1;
      for (int64_t &offset : start) {
        if (offset != kDynamic)
          continue;
        auto value = evaluator.evaluate(
            api.mlirOperationGetOperand(op, dynamicOperand++), lane);
        if (!value) {
          distribution.error = evaluator.error;
          return false;
        }
        offset = *value;
      }
      // Every coordinate of the slice, row-major, stated in the argument.
      std::vector<std::vector<int64_t>> elements;
      std::vector<int64_t> index(sizes->size(), 0);
      while (true) {
        std::vector<int64_t> coordinate(start.size());
        for (size_t d = 0; d < start.size(); ++d)
          coordinate[d] = start[d] + index[d];
        for (const Expansion &expansion : origin.expansions)
          coordinate = expansion.collapse(coordinate);
        elements.push_back(std::move(coordinate));
        size_t d = index.size();
        while (d > 0 && ++index[d - 1] == (*sizes)[d - 1])
          index[--d] = 0;
        if (d == 0)
          break;
      }
      slice.elementsByLane.push_back(std::move(elements));
    }
    distribution.slices.push_back(std::move(slice));
    return true;
  });
  return distribution;
}

} // namespace tilescope::iree::detail
