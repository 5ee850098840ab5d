#include "core/config/IterationSpace.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <charconv>
#include <regex>

namespace tilescope::config {
namespace {

// "tensor<1024x1024xf16>" -> shape and element type.
struct ShapedType {
  std::vector<int64_t> shape;
  std::string elementType;
};

std::optional<ShapedType> parseShapedType(const std::string &type) {
  const size_t open = type.find('<');
  const size_t close = type.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return ShapedType{{}, type}; // a scalar
  std::string body = type.substr(open + 1, close - open - 1);
  // Drop an encoding or layout after a comma.
  if (const size_t comma = body.find(','); comma != std::string::npos)
    body = body.substr(0, comma);
  ShapedType result;
  size_t start = 0;
  while (true) {
    const size_t x = body.find('x', start);
    const std::string piece = body.substr(
        start, x == std::string::npos ? std::string::npos : x - start);
    const auto size = parseInt64(piece);
    if (x == std::string::npos || !(piece == "?" || (size && *size >= 0))) {
      result.elementType = body.substr(start);
      return result;
    }
    result.shape.push_back(piece == "?" ? kDynamicSize : *size);
    start = x + 1;
  }
}

} // namespace

int64_t elementBytes(std::string_view type) {
  if (type == "f64" || type == "i64")
    return 8;
  if (type == "f32" || type == "i32" || type == "tf32")
    return 4;
  if (type == "f16" || type == "bf16" || type == "i16")
    return 2;
  if (type == "i8" || type.rfind("f8", 0) == 0)
    return 1;
  return 0;
}

Result<IterationSpace> IterationSpace::parse(std::string_view text) {
  IterationSpace space;
  std::string_view shape = text;
  std::string_view kinds;
  if (const size_t colon = text.find(':'); colon != std::string_view::npos) {
    shape = text.substr(0, colon);
    kinds = text.substr(colon + 1);
  }
  size_t start = 0;
  while (start <= shape.size()) {
    size_t x = shape.find('x', start);
    if (x == std::string_view::npos)
      x = shape.size();
    std::string_view piece = shape.substr(start, x - start);
    if (piece == "?") {
      space.bounds.push_back(kDynamicSize);
    } else {
      int64_t value = 0;
      auto [end, ec] =
          std::from_chars(piece.data(), piece.data() + piece.size(), value);
      if (piece.empty() || ec != std::errc() ||
          end != piece.data() + piece.size() || value <= 0)
        return Error{
            "iteration space '" + std::string(text) + "': dimension " +
            std::to_string(space.bounds.size()) + " is '" + std::string(piece) +
            "'; expected a positive size or ? (e.g. 4x6656x16384:ppr)"};
      space.bounds.push_back(value);
    }
    start = x + 1;
  }
  if (kinds.empty()) {
    space.kinds.assign(space.bounds.size(), LoopKind::Parallel);
  } else {
    if (kinds.size() != space.bounds.size())
      return Error{"iteration space '" + std::string(text) + "' has " +
                   std::to_string(space.bounds.size()) + " dimensions but " +
                   std::to_string(kinds.size()) +
                   " kinds; write one p (parallel) or r (reduction) each"};
    for (char c : kinds) {
      if (c == 'p')
        space.kinds.push_back(LoopKind::Parallel);
      else if (c == 'r')
        space.kinds.push_back(LoopKind::Reduction);
      else
        return Error{std::string("iteration space kind '") + c +
                     "' is neither p (parallel) nor r (reduction)"};
    }
  }
  return space;
}

Result<IterationSpace> IterationSpace::fromLinalgOp(
    const std::string &givenMaps, const std::string &givenIterators,
    const std::vector<std::string> &operandTypes, const std::string &opName) {
  std::string indexingMaps = givenMaps;
  std::string iteratorTypes = givenIterators;
  if (indexingMaps.empty() && opName == "linalg.matmul") {
    indexingMaps = "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, "
                   "d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]";
    iteratorTypes = "[parallel, parallel, reduction]";
  } else if (indexingMaps.empty() && opName == "linalg.batch_matmul") {
    indexingMaps = "[affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
                   "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, "
                   "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]";
    iteratorTypes = "[parallel, parallel, parallel, reduction]";
  }
  IterationSpace space;
  static const std::regex kind(R"re("?(parallel|reduction)"?)re");
  for (auto it = std::sregex_iterator(iteratorTypes.begin(),
                                      iteratorTypes.end(), kind);
       it != std::sregex_iterator(); ++it)
    space.kinds.push_back((*it)[1] == "parallel" ? LoopKind::Parallel
                                                 : LoopKind::Reduction);
  if (space.kinds.empty())
    return Error{"no iterator_types on this op (a named op? Tilescope reads "
                 "linalg ops with explicit indexing_maps and iterator_types)"};
  static const std::regex map(
      R"re(affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>)re");
  std::vector<std::vector<int>> maps;
  for (auto it =
           std::sregex_iterator(indexingMaps.begin(), indexingMaps.end(), map);
       it != std::sregex_iterator(); ++it) {
    std::vector<std::string> inputs;
    std::string list = (*it)[1];
    std::regex name(R"re(\s*([A-Za-z_][A-Za-z0-9_]*)\s*)re");
    for (auto n = std::sregex_iterator(list.begin(), list.end(), name);
         n != std::sregex_iterator(); ++n)
      inputs.push_back((*n)[1]);
    std::vector<int> dims;
    std::string results = (*it)[2];
    size_t start = 0;
    while (start < results.size()) {
      size_t comma = results.find(',', start);
      if (comma == std::string::npos)
        comma = results.size();
      std::string expr = results.substr(start, comma - start);
      expr.erase(std::remove(expr.begin(), expr.end(), ' '), expr.end());
      auto found = std::find(inputs.begin(), inputs.end(), expr);
      dims.push_back(found == inputs.end()
                         ? -1
                         : static_cast<int>(found - inputs.begin()));
      start = comma + 1;
    }
    maps.push_back(std::move(dims));
  }
  if (maps.size() != operandTypes.size())
    return Error{std::to_string(maps.size()) + " indexing maps for " +
                 std::to_string(operandTypes.size()) + " operands"};
  space.bounds.assign(space.kinds.size(), kDynamicSize);
  for (size_t i = 0; i < maps.size(); ++i) {
    auto shaped = parseShapedType(operandTypes[i]);
    OperandAccess access;
    access.dims = maps[i];
    access.isOutput = i + 1 == maps.size();
    if (shaped) {
      access.elementType = shaped->elementType;
      for (size_t d = 0; d < maps[i].size() && d < shaped->shape.size(); ++d) {
        const int loop = maps[i][d];
        if (loop >= 0 && static_cast<size_t>(loop) < space.bounds.size() &&
            space.bounds[static_cast<size_t>(loop)] == kDynamicSize)
          space.bounds[static_cast<size_t>(loop)] = shaped->shape[d];
      }
    }
    space.operands.push_back(std::move(access));
  }
  return space;
}

std::string IterationSpace::toString() const {
  std::string out;
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (i)
      out += 'x';
    out += bounds[i] == kDynamicSize ? "?" : std::to_string(bounds[i]);
  }
  out += ':';
  for (LoopKind k : kinds)
    out += k == LoopKind::Parallel ? 'p' : 'r';
  return out;
}

std::optional<ContractionDims> inferContraction(const IterationSpace &space) {
  if (space.operands.size() != 3)
    return std::nullopt;
  auto uses = [](const OperandAccess &operand, int dim) {
    return std::find(operand.dims.begin(), operand.dims.end(), dim) !=
           operand.dims.end();
  };
  const OperandAccess &lhs = space.operands[0];
  const OperandAccess &rhs = space.operands[1];
  const OperandAccess &out = space.operands[2];
  ContractionDims dims;
  for (int d = 0; d < static_cast<int>(space.rank()); ++d) {
    const bool l = uses(lhs, d), r = uses(rhs, d), o = uses(out, d);
    if (space.isReduction(static_cast<size_t>(d))) {
      if (l && r && !o)
        dims.k.push_back(d);
    } else if (l && r && o) {
      dims.batch.push_back(d);
    } else if (l && o) {
      dims.m.push_back(d);
    } else if (r && o) {
      dims.n.push_back(d);
    }
  }
  if (dims.m.empty() || dims.n.empty() || dims.k.empty())
    return std::nullopt;
  return dims;
}

} // namespace tilescope::config
