// Who holds what: nested layouts with their owners as NumPy arrays, MMA
// intrinsics' fragments, and a root op's layouts under its pipeline (the
// ones `tilescope-cli explain` prints and the window draws).
#include "python/src/Bindings.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/export/LayoutJson.h"
#include "core/layout/Basis.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/OpLayouts.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace tilescope::python {
namespace {

layout::NestedLayout nestedLayout(const std::string &text, int64_t subgroups,
                                  int64_t subgroupSize) {
  auto attribute = config::NestedLayoutAttr::parse(text);
  if (!attribute)
    throw Failure("not a nested layout: " + attribute.error());
  return valueOr(
      layout::NestedLayout::create(*attribute, subgroups, subgroupSize));
}

// Each element's subgroup, lane and register as arrays of the layout's
// shape (the first owner where elements are replicated).
py::dict owners(const layout::NestedLayout &nested) {
  std::vector<py::ssize_t> shape(nested.shape().begin(), nested.shape().end());
  py::array_t<int64_t> subgroup(shape), lane(shape), reg(shape);
  int64_t *s = subgroup.mutable_data(), *l = lane.mutable_data(),
          *r = reg.mutable_data();
  {
    py::gil_scoped_release release;
    for (int64_t i = 0; i < nested.elementCount(); ++i) {
      layout::Owner owner;
      const bool held = nested.primaryOwner(i, owner);
      s[i] = held ? owner.subgroup : -1;
      l[i] = held ? owner.lane : -1;
      r[i] = held ? owner.registerIndex : -1;
    }
  }
  py::dict out;
  out["subgroup"] = subgroup;
  out["lane"] = lane;
  out["register"] = reg;
  return out;
}

py::dict fragment(const layout::MmaIntrinsic &intrinsic,
                  layout::MmaOperand operand) {
  const layout::FragmentLayout f = intrinsic.fragment(operand);
  const std::vector<int64_t> sizes = f.shape();
  std::vector<py::ssize_t> shape(sizes.begin(), sizes.end());
  py::array_t<int64_t> lane(shape), reg(shape);
  int64_t *l = lane.mutable_data(), *r = reg.mutable_data();
  int64_t count = 1;
  for (int64_t v : sizes)
    count *= v;
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i;
    for (size_t d = sizes.size(); d-- > 0;) {
      index[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    const layout::MmaIntrinsic::Owner owner = intrinsic.ownerOf(operand, index);
    l[i] = owner.lane;
    r[i] = owner.reg;
  }
  py::dict out;
  out["lane"] = lane;
  out["register"] = reg;
  return out;
}

py::dict opLayouts(const document::Document &document, const py::object &op) {
  const edit::OpRef ref = opRefOf(document, op);
  const document::Dispatch &dispatch = document.dispatches[ref.dispatch];
  auto inputs = edit::opLayoutInputs(dispatch, dispatch.rootOps[ref.op]);
  if (!inputs)
    throw Failure(inputs.error());
  const layout::OpLayouts layouts = valueOr(edit::opLayoutsOf(*inputs));
  py::dict out;
  out["pipeline"] = layouts.pipeline;
  out["pipeline_inferred"] = layouts.pipelineInferred;
  out["intrinsic"] = layouts.intrinsic;
  out["notes"] = layouts.notes;
  out["iteration_space"] = inputs->space.toString();
  py::list operands;
  for (const std::string &text :
       edit::operandLayoutTexts(layouts, inputs->space))
    operands.append(text.empty() ? py::object(py::none())
                                 : py::cast(nestedLayout(text, 0, 0)));
  out["operands"] = operands;
  if (layouts.attention)
    out["attention"] = toPython(exporting::toJson(*layouts.attention));
  for (const auto &[name, distribution] :
       {std::pair{"threads", &layouts.threads},
        std::pair{"subgroups", &layouts.subgroups}}) {
    if (!*distribution)
      continue;
    const layout::ForallDistribution &d = **distribution;
    py::dict forall;
    forall["bounds"] = d.bounds;
    forall["tiles"] = d.tiles;
    forall["trip_counts"] = d.tripCounts;
    forall["workers"] = d.workers;
    forall["rounds"] = d.rounds();
    forall["idle_workers"] = d.idleWorkers();
    out[name] = forall;
  }
  return out;
}

layout::BasisMap basisMap(const std::string &text) {
  auto attribute = config::parseResolvedAttribute(text);
  if (!attribute)
    throw Failure("not a basis: " + attribute.error());
  return valueOr(layout::BasisMap::create(
      valueOr(config::basisFromAttribute(*attribute, "basis"))));
}

} // namespace

void bindLayouts(py::module_ &m) {
  py::class_<layout::BasisMap>(
      m, "Basis",
      "A lane_basis or subgroup_basis [[counts], [mapping]]: where each "
      "thread (or subgroup) id lands in the iteration space, as IREE "
      "delinearizes it.")
      .def(py::init(&basisMap), py::arg("text"))
      .def_property_readonly(
          "counts", [](const layout::BasisMap &b) { return b.basis().counts; })
      .def_property_readonly(
          "mapping",
          [](const layout::BasisMap &b) { return b.basis().mapping; })
      .def_property_readonly("ids", &layout::BasisMap::idCount,
                             "How many ids the basis names (the product of "
                             "its counts).")
      .def("digits", &layout::BasisMap::digits, py::arg("id"),
           "The id delinearized over the counts (last fastest).")
      .def("coordinates", &layout::BasisMap::coordinates, py::arg("id"),
           "Where the id lands: coordinate mapping[j] is digit j.")
      .def("ids_at", &layout::BasisMap::idsAt, py::arg("coordinates"),
           "Every id landing at the iteration coordinates.")
      .def("__repr__", [](const layout::BasisMap &b) {
        return "<Basis " + config::printAttribute(b.basis().toAttribute()) +
               ">";
      });

  py::class_<layout::NestedLayout>(
      m, "NestedLayout",
      "An #iree_vector_ext.nested_layout: which subgroup, lane and register "
      "hold each element of the vector it lays out.")
      .def(py::init(&nestedLayout), py::arg("text"), py::arg("subgroups") = 0,
           py::arg("subgroup_size") = 0,
           "From the attribute's text; subgroups and subgroup_size are the "
           "workgroup's (0: as many as the layout names).")
      .def_property_readonly("shape", &layout::NestedLayout::shape)
      .def_property_readonly("subgroup_count",
                             &layout::NestedLayout::subgroupCount)
      .def_property_readonly("subgroup_size",
                             &layout::NestedLayout::subgroupSize)
      .def_property_readonly("registers_per_thread",
                             &layout::NestedLayout::registersPerThread)
      .def("owners", &owners,
           "A dict of int64 arrays of the layout's shape: each element's "
           "subgroup, lane and register (-1 where no one holds it).")
      .def(
          "owners_of",
          [](const layout::NestedLayout &nested,
             const std::vector<int64_t> &index) {
            py::list out;
            for (const layout::Owner &o : nested.ownersOf(index))
              out.append(py::make_tuple(o.subgroup, o.lane, o.registerIndex));
            return out;
          },
          py::arg("index"),
          "Every (subgroup, lane, register) holding the element at INDEX.")
      .def("elements_of", &layout::NestedLayout::elementsOf,
           py::arg("subgroup"), py::arg("lane"),
           "The element indices one thread holds, in register order.")
      .def("__str__",
           [](const layout::NestedLayout &n) { return n.attribute().print(); })
      .def("__repr__", [](const layout::NestedLayout &n) {
        return "<NestedLayout " + n.attribute().print() + ">";
      });

  m.def(
      "mma_fragments",
      [](const std::string &name, bool colMajor) {
        const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(name);
        if (!found)
          throw Failure("unknown MMA intrinsic '" + name + "'");
        const layout::MmaIntrinsic intrinsic =
            colMajor ? found->colMajor() : *found;
        py::dict out;
        out["lhs"] = fragment(intrinsic, layout::MmaOperand::Lhs);
        out["rhs"] = fragment(intrinsic, layout::MmaOperand::Rhs);
        out["acc"] = fragment(intrinsic, layout::MmaOperand::Acc);
        return out;
      },
      py::arg("intrinsic"), py::arg("col_major") = false,
      "An MMA intrinsic's LHS, RHS and ACC fragments: for each, int64 "
      "arrays of each element's lane and register.");

  m.def("op_layouts", &opLayouts, py::arg("document"), py::arg("op") = "0",
        "A root op's layouts under its pipeline: pipeline, intrinsic, notes, "
        "each operand's NestedLayout (VectorDistribute; None elsewhere; "
        "attention: Q, K, S of Q.K^T then P, V, O of P.V, with 'attention' "
        "as `explain --json` states it) and TileAndFuse's thread and "
        "subgroup foralls.");
}

} // namespace tilescope::python
