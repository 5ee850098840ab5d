// tilescope-cli explain FILE --op D:O on an attention op: its Q.K^T and P.V
// contractions as IREE's VectorDistribute pipeline decomposes and lays them
// out, loop roles, tiles, the operands' layouts and the online softmax.
#include "app/cli/ExplainAttention.h"

#include "core/export/JsonText.h"
#include "core/export/LayoutJson.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/Roofline.h"
#include "core/util/Numbers.h"

#include <iostream>
#include <sstream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

std::string loops(const std::vector<int> &dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? "," : "") + std::string("d") + std::to_string(dims[i]);
  return out.empty() ? "-" : out;
}

// "each thread holds vector<1x2x16>" of a layout, or why it does not read.
std::string perThread(const config::NestedLayoutAttr &attr) {
  auto layout = layout::NestedLayout::create(attr);
  if (!layout)
    return layout.error();
  return "each thread holds vector<" + join(layout->simtShape(), "x") + ">";
}

} // namespace

int explainAttention(const LayoutInputs &in, bool asJson) {
  const layout::AttentionLayouts &a = *in.attention;
  auto space = in.iterationSpace();
  std::ostringstream text;
  text << "attention over "
       << (space ? space->toString() : std::string("(loops unread)"))
       << ": batch " << loops(a.dims.batch) << ", M " << loops(a.dims.m)
       << ", K1 " << loops(a.dims.k1) << ", K2 " << loops(a.dims.k2) << ", N "
       << loops(a.dims.n) << "\n"
       << "one workgroup, one step of K2: tile " << bracketedList(a.tile)
       << " (" << a.k2Steps << " steps of K2)\n"
       << "IREE decomposes it into two contractions, each laid out from its "
          "own decomposition_config lowering config:\n";
  for (const layout::AttentionContraction *part : {&a.qk, &a.pv}) {
    const layout::ContractionLayouts &l = part->layouts;
    text << part->name << " over " << part->space.toString()
         << " (attention loops " << loops(part->loops) << "), "
         << layout::layoutSource(*part) << "\n"
         << "  config: " << part->config.print() << "\n";
    const struct {
      const std::string &name;
      const char *role;
      const config::NestedLayoutAttr &layout;
    } operands[] = {{part->lhs, "LHS", l.lhs},
                    {part->rhs, "RHS", l.rhs},
                    {part->acc, "ACC", l.acc}};
    for (const auto &operand : operands)
      text << "  " << operand.name << " (" << operand.role
           << "): " << operand.layout.print() << "\n"
           << "      " << perThread(operand.layout) << "\n";
    for (const std::string &note : l.notes)
      text << "  note: " << note << "\n";
  }
  for (const std::string &note : a.notes)
    text << "note: " << note << "\n";
  json out = exporting::toJson(a);
  out["kind"] = "attention";
  if (space)
    out["iteration_space"] = space->toString();
  if (auto target = in.target(); target && space) {
    if (auto floor =
            layout::rooflineFloor(*space, *target, config::OpKind::Attention)) {
      text << "roofline floor on " << target->arch << ": "
           << floor->floorSeconds * 1e6 << " us (" << floor->boundBy
           << "-bound)\n";
      out["roofline"] = {{"floor_seconds", floor->floorSeconds},
                         {"bound_by", floor->boundBy}};
    }
  }
  std::cout << (asJson ? exporting::jsonText(out, 2) + "\n" : text.str());
  return kExitOk;
}

} // namespace tilescope::cli
