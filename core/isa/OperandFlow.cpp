#include "core/isa/OperandFlow.h"

#include "core/isa/Accumulators.h"
#include "core/util/Numbers.h"

#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tilescope::isa {

std::string nameOf(OperandMoveKind kind) {
  switch (kind) {
  case OperandMoveKind::GlobalLoad:
    return "global load";
  case OperandMoveKind::SharedStore:
    return "shared store";
  case OperandMoveKind::SharedLoad:
    return "shared load";
  case OperandMoveKind::MmaA:
    return "MMA A";
  case OperandMoveKind::MmaB:
    return "MMA B";
  }
  return "";
}

int64_t OperandMove::followed() const {
  int64_t total = 0;
  for (const MovedBytes &m : moved)
    total += m.bytes;
  return total;
}

std::string describe(const KernelOperands &kernel) {
  int64_t bytes = 0, followed = 0;
  std::set<int> bindings;
  std::map<OperandMoveKind, size_t> counts;
  for (const OperandMove &move : kernel.moves) {
    ++counts[move.kind];
    if (move.kind != OperandMoveKind::MmaA &&
        move.kind != OperandMoveKind::MmaB)
      continue;
    bytes += move.bytes;
    followed += move.followed();
    for (const MovedBytes &m : move.moved)
      bindings.insert(m.binding);
  }
  if (counts[OperandMoveKind::MmaA] == 0)
    return "";
  std::string which;
  for (int b : bindings)
    which += (which.empty() ? "" : ", ") + std::to_string(b);
  auto count = [&](OperandMoveKind kind, const std::string &what) {
    const size_t n = counts[kind];
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string text = std::to_string(followed) + " of " + std::to_string(bytes) +
                     " bytes of the MMAs' A and B followed";
  if (!bindings.empty())
    text += std::string(" to binding") + (bindings.size() == 1 ? " " : "s ") +
            which;
  return text + " through " +
         count(OperandMoveKind::GlobalLoad, "global load") + ", " +
         count(OperandMoveKind::SharedStore, "shared store") + " and " +
         count(OperandMoveKind::SharedLoad, "shared load");
}

int64_t elementBytesOf(const std::string &type) {
  if (type.size() < 2)
    return 0;
  if (type == "index")
    return 8;
  size_t digits = 0;
  while (digits < type.size() &&
         !std::isdigit(static_cast<unsigned char>(type[digits])))
    ++digits;
  if (digits == type.size())
    return 0;
  size_t end = digits;
  while (end < type.size() &&
         std::isdigit(static_cast<unsigned char>(type[end])))
    ++end;
  auto bits = parseInt64(type.substr(digits, end - digits));
  return bits && *bits >= 8 && *bits % 8 == 0 ? *bits / 8 : 0;
}

namespace {

// How the cells of one binding's elements are found: its element size and
// shape (row-major), and the cells one element is.
struct PlacedInput {
  int64_t bytes = 0;
  std::vector<int64_t> shape;
  std::function<std::vector<std::vector<int64_t>>(const std::vector<int64_t> &)>
      cellsOf;
};

// An input laid out as its loops: an element is the one cell of its loops'
// coordinates.
std::optional<PlacedInput> laidOutInput(const config::OperandAccess &input,
                                        const config::IterationSpace &space) {
  const int64_t bytes = elementBytesOf(input.elementType);
  bool laidOut = bytes > 0 && !input.shape.empty() &&
                 input.shape.size() == input.dims.size();
  for (size_t d = 0; laidOut && d < input.dims.size(); ++d)
    laidOut =
        input.dims[d] >= 0 &&
        static_cast<size_t>(input.dims[d]) < space.rank() &&
        space.bounds[static_cast<size_t>(input.dims[d])] == input.shape[d];
  if (!laidOut)
    return std::nullopt;
  PlacedInput placed{bytes, input.shape, {}};
  placed.cellsOf = [dims = input.dims, rank = space.rank()](
                       const std::vector<int64_t> &coordinates) {
    std::vector<int64_t> cell(rank, -1);
    for (size_t d = 0; d < coordinates.size(); ++d)
      cell[static_cast<size_t>(dims[d])] = coordinates[d];
    return std::vector<std::vector<int64_t>>{cell};
  };
  return placed;
}

// A convolution's input or filter under its IGEMM: an element is a cell at
// every IGEMM point that reads it.
std::optional<PlacedInput> igemmInput(const config::ImplicitGemm &igemm,
                                      size_t operand,
                                      const config::IterationSpace &space) {
  if (operand >= igemm.convolution.operands.size() ||
      igemm.gemm.rank() != space.rank())
    return std::nullopt;
  const config::OperandAccess &input = igemm.convolution.operands[operand];
  const int64_t bytes = elementBytesOf(input.elementType);
  if (bytes <= 0 || input.shape.empty() ||
      input.shape.size() != input.dims.size())
    return std::nullopt;
  PlacedInput placed{bytes, input.shape, {}};
  placed.cellsOf = [&igemm, operand](const std::vector<int64_t> &element) {
    return igemm.gemmPointsOf(operand, element);
  };
  return placed;
}

} // namespace

CellLink linkOperandCells(const KernelOperands &kernel,
                          const config::IterationSpace &space, std::string *why,
                          const config::ImplicitGemm *igemm) {
  CellLink link;
  std::vector<const config::OperandAccess *> inputs;
  for (const config::OperandAccess &operand : space.operands)
    if (!operand.isOutput)
      inputs.push_back(&operand);
  // Binding i -> input i, where it is placed.
  std::map<int, PlacedInput> placed;
  std::string left;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::optional<PlacedInput> input = igemm && i < 2
                                           ? igemmInput(*igemm, i, space)
                                           : laidOutInput(*inputs[i], space);
    if (input)
      placed[static_cast<int>(i)] = std::move(*input);
    else
      left += (left.empty() ? "input " : ", ") + std::to_string(i);
  }
  if (why)
    *why = left.empty() ? ""
           : igemm      ? left + " not read as the convolution's operand"
                        : left + " not laid out as its loops";
  for (const OperandMove &move : kernel.moves)
    for (const MovedBytes &m : move.moved) {
      auto input = placed.find(m.binding);
      if (input == placed.end())
        continue;
      const PlacedInput &in = input->second;
      for (int64_t at = m.offset + (in.bytes - m.offset % in.bytes) % in.bytes;
           at < m.offset + m.bytes; at += in.bytes) {
        const std::vector<int64_t> coordinates =
            coordinatesOf(at, in.bytes, in.shape);
        if (coordinates.empty())
          continue;
        for (const std::vector<int64_t> &cell : in.cellsOf(coordinates))
          link.add(cell, move.line);
      }
    }
  link.finish();
  return link;
}

} // namespace tilescope::isa
