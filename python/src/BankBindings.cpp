// Swizzles and banks, and what tile lists mean: where each shared-memory
// access lands and which banks collide (Swizzle, bank_reads: the numbers
// the window's bank view and `explain --swizzle` show), and each tiling
// level loop by loop as the op's pipeline reads it (tile_meanings: `explain
// FILE --op --tiles`).
#include "python/src/Bindings.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/edit/RootOpContext.h"
#include "core/export/LayoutJson.h"
#include "core/layout/PromotedBanks.h"
#include "core/layout/Swizzle.h"

#include <pybind11/stl.h>

#include <tuple>

namespace tilescope::python {
namespace {

// The op's layout inputs (config, loops, translation_info).
edit::OpLayoutInputs inputsOf(const document::Document &document,
                              edit::OpRef ref) {
  const document::Dispatch &dispatch = document.dispatches[ref.dispatch];
  return valueOr(edit::opLayoutInputs(dispatch, dispatch.rootOps[ref.op]));
}

py::dict tileMeanings(const document::Document &document,
                      const py::object &op) {
  const edit::OpLayoutInputs inputs = inputsOf(document, opRefOf(document, op));
  const std::string pipeline =
      inputs.info ? inputs.info->pipelineName() : std::string();
  return toPython(
      exporting::tileMeaningsJson(inputs.config, inputs.space, pipeline));
}

py::dict bankReads(const document::Document &document, const py::object &op) {
  const edit::OpRef ref = opRefOf(document, op);
  const edit::OpLayoutInputs inputs = inputsOf(document, ref);
  auto layouts = edit::opLayoutsOf(inputs);
  const edit::RootOpContext context = edit::contextOf(document, ref);
  auto reads = layout::promotedOperandReads(
      inputs.config, inputs.space, layouts ? layouts->pipeline : std::string{},
      inputs.info ? &*inputs.info : nullptr,
      context.target ? &*context.target : nullptr);
  return toPython(exporting::toJson(valueOr(reads)));
}

py::dict banks(const layout::Swizzle &swizzle,
               const std::vector<std::tuple<int64_t, int64_t, int64_t>> &reads,
               int64_t elementBytes, const std::string &arch) {
  // An element wider than a shared-memory row's bank words (64 B here)
  // is no element a swizzle places; past it the bank walk never ends.
  if (elementBytes <= 0 || elementBytes > 64)
    throw Failure("element_bytes must be 1 to 64");
  std::vector<layout::LaneAccess> accesses;
  for (const auto &[lane, row, column] : reads) {
    if (row < 0 || column < 0 || column >= swizzle.rowWidth())
      throw Failure("access of lane " + std::to_string(lane) + " at row " +
                    std::to_string(row) + ", column " + std::to_string(column) +
                    " is outside rows of " +
                    std::to_string(swizzle.rowWidth()) + " elements");
    accesses.push_back({lane, row, column});
  }
  const layout::BankModel model = layout::BankModel::forArch(arch);
  return toPython(exporting::toJson(
      swizzle, layout::compareBanks(swizzle, accesses, elementBytes, model),
      true));
}

} // namespace

void bindBanks(py::module_ &m) {
  py::class_<layout::Swizzle>(
      m, "Swizzle",
      "A shared-memory swizzle, #iree_codegen.xor_shuffle<...> or "
      "#iree_codegen.rotate_rows<...>, as IREE applies it.")
      .def(py::init([](const std::string &text) {
             return valueOr(layout::Swizzle::parse(text));
           }),
           py::arg("text"))
      .def_property_readonly("row_width", &layout::Swizzle::rowWidth)
      .def_property_readonly("access_width", &layout::Swizzle::accessWidth)
      .def_property_readonly("row_stride", &layout::Swizzle::rowStride)
      .def("physical_column", &layout::Swizzle::physicalColumn, py::arg("row"),
           py::arg("column"),
           "Where access column `column` of row `row` lands (in accesses).")
      .def("logical_column", &layout::Swizzle::logicalColumn, py::arg("row"),
           py::arg("physical"), "The inverse of physical_column.")
      .def("physical_offset", &layout::Swizzle::physicalOffset, py::arg("row"),
           py::arg("element"),
           "Where element `element` of row `row` lands, as an element offset "
           "from the tile's start.")
      .def("banks", &banks, py::arg("accesses"), py::arg("element_bytes") = 2,
           py::arg("arch") = "gfx942",
           "The banks `accesses` (lane, row, element column) land in, each "
           "reading access_width elements of element_bytes, with the rows "
           "packed and unswizzled (\"before\") and through this swizzle "
           "(\"after\"), on `arch`'s shared memory: as `tilescope-cli explain "
           "--swizzle --json` reports them.")
      .def("__repr__", &layout::Swizzle::describe);
  m.def("bank_reads", &bankReads, py::arg("document"), py::arg("op") = "0",
        "Where the MMA reads of the op's promoted LHS and RHS land in shared "
        "memory: each operand's rows (through its swizzle, or padded as IREE "
        "pads them), one subgroup's fragment reads and their banks before "
        "and after; the numbers of the window's bank view.");
  m.def("tile_meanings", &tileMeanings, py::arg("document"),
        py::arg("op") = "0",
        "Each tile list of the op's config loop by loop as its pipeline "
        "reads it (the unit, the elements, what it divides, the pieces): "
        "`tilescope-cli explain FILE --op D:O --tiles --json`.");
}

} // namespace tilescope::python
