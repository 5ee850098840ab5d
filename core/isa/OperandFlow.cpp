#include "core/isa/OperandFlow.h"

#include "core/isa/Accumulators.h"
#include "core/util/Numbers.h"

#include <cctype>
#include <map>
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

CellLink linkOperandCells(const KernelOperands &kernel,
                          const config::IterationSpace &space,
                          std::string *why) {
  CellLink link;
  std::vector<const config::OperandAccess *> inputs;
  for (const config::OperandAccess &operand : space.operands)
    if (!operand.isOutput)
      inputs.push_back(&operand);
  // The inputs laid out as their loops: binding i -> input i.
  std::map<int, std::pair<const config::OperandAccess *, int64_t>> placed;
  std::string left;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const config::OperandAccess &input = *inputs[i];
    const int64_t bytes = elementBytesOf(input.elementType);
    bool laidOut = bytes > 0 && !input.shape.empty() &&
                   input.shape.size() == input.dims.size();
    for (size_t d = 0; laidOut && d < input.dims.size(); ++d)
      laidOut =
          input.dims[d] >= 0 &&
          static_cast<size_t>(input.dims[d]) < space.rank() &&
          space.bounds[static_cast<size_t>(input.dims[d])] == input.shape[d];
    if (laidOut)
      placed[static_cast<int>(i)] = {&input, bytes};
    else
      left += (left.empty() ? "input " : ", ") + std::to_string(i);
  }
  if (why)
    *why = left.empty() ? "" : left + " not laid out as its loops";
  for (const OperandMove &move : kernel.moves)
    for (const MovedBytes &m : move.moved) {
      auto input = placed.find(m.binding);
      if (input == placed.end())
        continue;
      const auto &[access, bytes] = input->second;
      std::vector<int64_t> shape;
      for (int d : access->dims)
        shape.push_back(space.bounds[static_cast<size_t>(d)]);
      for (int64_t at = m.offset + (bytes - m.offset % bytes) % bytes;
           at < m.offset + m.bytes; at += bytes) {
        const std::vector<int64_t> coordinates =
            coordinatesOf(at, bytes, shape);
        if (coordinates.empty())
          continue;
        std::vector<int64_t> cell(space.rank(), -1);
        for (size_t d = 0; d < coordinates.size(); ++d)
          cell[static_cast<size_t>(access->dims[d])] = coordinates[d];
        link.add(cell, move.line);
      }
    }
  link.finish();
  return link;
}

} // namespace tilescope::isa
