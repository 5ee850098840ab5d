#include "core/config/configs/IterationSpace.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <charconv>
#include <regex>
#include <utility>

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

int64_t elementBits(std::string_view type) {
  if (type.rfind("f4E", 0) == 0)
    return 4;
  if (type.rfind("f6E", 0) == 0)
    return 6;
  return elementBytes(type) * 8;
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

std::vector<IndexingMap> parseIndexingMaps(const std::string &text) {
  // "affine_map<(d0, d1) -> (d1, 0)>" or the bare "(d0, d1) -> (d1, 0)".
  static const std::regex map(
      R"re((?:affine_map<)?\(([^)]*)\)\s*->\s*\(([^)]*)\)>?)re");
  static const std::regex name(R"re(\s*([A-Za-z_][A-Za-z0-9_]*)\s*)re");
  std::vector<IndexingMap> maps;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), map);
       it != std::sregex_iterator(); ++it) {
    IndexingMap parsed;
    parsed.text = (*it)[0];
    std::vector<std::string> inputs;
    const std::string list = (*it)[1];
    for (auto n = std::sregex_iterator(list.begin(), list.end(), name);
         n != std::sregex_iterator(); ++n)
      inputs.push_back((*n)[1]);
    parsed.inputs = static_cast<int>(inputs.size());
    const std::string results = (*it)[2];
    for (size_t start = 0; start < results.size();) {
      size_t comma = results.find(',', start);
      if (comma == std::string::npos)
        comma = results.size();
      std::string expr = results.substr(start, comma - start);
      expr.erase(std::remove(expr.begin(), expr.end(), ' '), expr.end());
      const auto found = std::find(inputs.begin(), inputs.end(), expr);
      if (found != inputs.end())
        parsed.dims.push_back(static_cast<int>(found - inputs.begin()));
      else if (expr == "0")
        parsed.dims.push_back(-1);
      else {
        parsed.dims.push_back(-1);
        parsed.unsupported.push_back(expr);
      }
      start = comma + 1;
    }
    maps.push_back(std::move(parsed));
  }
  return maps;
}

Result<std::vector<OperandAccess>>
operandsFromMaps(const std::string &text, const std::vector<std::string> &types,
                 size_t rank) {
  const std::vector<IndexingMap> maps = parseIndexingMaps(text);
  if (maps.empty())
    return Error{"no indexing map in '" + text +
                 "'; give them as affine_map<(d0, d1, d2) -> (d0, d2)>, ... "
                 "(or without affine_map<>), one per operand, output last"};
  if (maps.size() != types.size())
    return Error{std::to_string(maps.size()) + " indexing maps for " +
                 std::to_string(types.size()) +
                 " operand types: give one type per map"};
  std::vector<OperandAccess> operands;
  for (size_t i = 0; i < maps.size(); ++i) {
    const IndexingMap &map = maps[i];
    if (static_cast<size_t>(map.inputs) != rank)
      return Error{"map " + std::to_string(i + 1) + " (" + map.text + ") has " +
                   std::to_string(map.inputs) +
                   " dimensions; the iteration space has " +
                   std::to_string(rank)};
    if (!map.unsupported.empty())
      return Error{"map " + std::to_string(i + 1) + " (" + map.text +
                   ") has the result '" + map.unsupported.front() +
                   "': Tilescope draws projected permutations (each result "
                   "a loop dimension or 0), as IREE's GPU layouts need"};
    std::vector<int> seen;
    for (int d : map.dims)
      if (d >= 0 && std::find(seen.begin(), seen.end(), d) != seen.end())
        return Error{"map " + std::to_string(i + 1) + " (" + map.text +
                     ") uses d" + std::to_string(d) +
                     " twice: not a projected permutation"};
      else if (d >= 0)
        seen.push_back(d);
    operands.push_back(OperandAccess{types[i], map.dims, i + 1 == maps.size()});
  }
  return operands;
}

Result<std::vector<OperandAccess>>
operandsFromPattern(const IterationSpace &space,
                    const std::vector<std::string> &types) {
  std::vector<int> reductions, parallels, all;
  for (size_t d = 0; d < space.rank(); ++d) {
    (space.isReduction(d) ? reductions : parallels)
        .push_back(static_cast<int>(d));
    all.push_back(static_cast<int>(d));
  }
  if (types.size() == 3 && reductions.size() == 1 && parallels.size() >= 2) {
    // A (batch) matmul: LHS (B..., M, K), RHS (B..., N, K), ACC (B..., M, N)
    // with M and N the last two parallel dimensions.
    const int m = parallels[parallels.size() - 2], n = parallels.back(),
              k = reductions.front();
    std::vector<int> batch(parallels.begin(), parallels.end() - 2);
    auto dims = [&](std::initializer_list<int> tail) {
      std::vector<int> out = batch;
      out.insert(out.end(), tail);
      return out;
    };
    return std::vector<OperandAccess>{{types[0], dims({m, k}), false},
                                      {types[1], dims({n, k}), false},
                                      {types[2], dims({m, n}), true}};
  }
  if (types.size() == 2 && !reductions.empty())
    // A reduction: the input over every dimension, the output over the
    // parallel ones.
    return std::vector<OperandAccess>{{types[0], all, false},
                                      {types[1], parallels, true}};
  return Error{
      "--types states two patterns only: 3 types (LHS, RHS, ACC) for a "
      "matmul with one reduction dimension and M, N the last two parallel "
      "ones, or 2 (input, output) for a reduction; this iteration space (" +
      space.toString() + ") with " + std::to_string(types.size()) +
      " types is neither: give --maps with one indexing map per operand"};
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
  std::vector<std::vector<int>> maps;
  for (const IndexingMap &parsed : parseIndexingMaps(indexingMaps))
    maps.push_back(parsed.dims);
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
      access.shape = shaped->shape;
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
  const size_t count = space.operands.size();
  if (count != 3 && count != 5)
    return std::nullopt;
  auto uses = [](const OperandAccess &operand, int dim) {
    return std::find(operand.dims.begin(), operand.dims.end(), dim) !=
           operand.dims.end();
  };
  const OperandAccess &lhs = space.operands[0];
  const OperandAccess &rhs = space.operands[1];
  const OperandAccess &out = space.operands[count - 1];
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
  if (count == 5) {
    // The reduction dims the LHS scales do not index are inside a block.
    std::vector<int> k;
    for (int d : dims.k)
      (uses(space.operands[2], d) ? k : dims.kB).push_back(d);
    dims.k = std::move(k);
    if (dims.k.empty() || dims.kB.empty())
      return std::nullopt;
  }
  return dims;
}

namespace {
constexpr std::pair<OpKind, const char *> kOpKindNames[] = {
    {OpKind::Contraction, "contraction"},
    {OpKind::ScaledContraction, "scaled_contraction"},
    {OpKind::Convolution, "convolution"},
    {OpKind::Pooling, "pooling"},
    {OpKind::Attention, "attention"},
    {OpKind::Reduction, "reduction"},
    {OpKind::Elementwise, "elementwise"},
    {OpKind::ArgCompare, "arg_compare"},
    {OpKind::Scan, "scan"},
    {OpKind::Pack, "pack"},
    {OpKind::Unpack, "unpack"},
    {OpKind::Other, "other"},
};
} // namespace

const char *toString(OpKind kind) {
  for (const auto &[k, name] : kOpKindNames)
    if (k == kind)
      return name;
  return "other";
}

std::optional<OpKind> opKindFromString(std::string_view text) {
  for (const auto &[k, name] : kOpKindNames)
    if (text == name)
      return k;
  return std::nullopt;
}

OpKind opKindFromNameAndLoops(std::string_view opName,
                              const IterationSpace *space) {
  auto endsWith = [&](std::string_view suffix) {
    return opName.size() >= suffix.size() &&
           opName.substr(opName.size() - suffix.size()) == suffix;
  };
  if (endsWith(".arg_compare"))
    return OpKind::ArgCompare;
  if (endsWith(".scan"))
    return OpKind::Scan;
  if (endsWith(".unpack"))
    return OpKind::Unpack;
  if (endsWith(".pack"))
    return OpKind::Pack;
  if (endsWith(".attention") || endsWith(".online_attention"))
    return OpKind::Attention;
  if (!space || space->rank() == 0)
    return OpKind::Other;
  for (size_t d = 0; d < space->rank(); ++d)
    if (space->isReduction(d))
      return OpKind::Reduction;
  return OpKind::Elementwise;
}

} // namespace tilescope::config
