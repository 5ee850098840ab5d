// Configs as typed objects: a root op's #iree_gpu.lowering_config and a
// dispatch's #iree_codegen.translation_info read by Tilescope's model (the
// one `check`, the editor and the layouts use), printed back exactly as
// IREE prints them.
#include "python/src/Bindings.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/export/ConfigJson.h"

#include <pybind11/stl.h>

namespace tilescope::python {
namespace {

std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
basisOf(const std::optional<config::Basis> &basis) {
  if (!basis)
    return std::nullopt;
  return std::pair{basis->counts, basis->mapping};
}

config::TilingLevel levelOf(const std::string &name) {
  for (config::TilingLevel level : config::kAllTilingLevels)
    if (name == config::keyOf(level))
      return level;
  throw Failure("\"" + name +
                "\" is not a tiling level (workgroup, reduction, "
                "partial_reduction, serial, thread, subgroup, lane)");
}

} // namespace

void bindConfigs(py::module_ &m) {
  py::class_<config::LoweringConfig>(
      m, "LoweringConfig",
      "An #iree_gpu.lowering_config (or derived_thread_config) as "
      "Tilescope's model reads it; str() and repr() print it as IREE does.")
      .def(py::init([](const std::string &text) {
             return valueOr<ParseFailure>(config::LoweringConfig::parse(text));
           }),
           py::arg("text"))
      .def(
          "tile_sizes",
          [](const config::LoweringConfig &c, const std::string &level) {
            return c.tileSizes(levelOf(level));
          },
          py::arg("level"), "A tiling level's sizes; None where unset.")
      .def_property_readonly("keys", &config::LoweringConfig::keys)
      .def_property_readonly("mma_kind",
                             [](const config::LoweringConfig &c) {
                               auto mma = c.mmaKind();
                               return mma ? std::optional(mma->intrinsic)
                                          : std::nullopt;
                             })
      .def_property_readonly(
          "lane_basis",
          [](const config::LoweringConfig &c) {
            return basisOf(c.laneBasis());
          },
          "(counts, mapping), or None.")
      .def_property_readonly(
          "subgroup_basis",
          [](const config::LoweringConfig &c) {
            return basisOf(c.subgroupBasis());
          },
          "(counts, mapping), or None.")
      .def_property_readonly("promote_operands",
                             &config::LoweringConfig::promoteOperands)
      .def(
          "to_dict",
          [](const config::LoweringConfig &c) {
            return toPython(exporting::toJson(c));
          },
          "Its fields as `tilescope-cli check --json` reports them.")
      .def("__str__", &config::LoweringConfig::print)
      .def("__repr__", &config::LoweringConfig::print);

  py::class_<config::TranslationInfo>(
      m, "TranslationInfo",
      "An #iree_codegen.translation_info; str() and repr() print it as "
      "IREE does.")
      .def(py::init([](const std::string &text) {
             return valueOr<ParseFailure>(config::TranslationInfo::parse(text));
           }),
           py::arg("text"))
      .def_property_readonly("pipeline", &config::TranslationInfo::pipelineName)
      .def_readonly("workgroup_size", &config::TranslationInfo::workgroupSize)
      .def_readonly("subgroup_size", &config::TranslationInfo::subgroupSize)
      .def(
          "to_dict",
          [](const config::TranslationInfo &t) {
            return toPython(exporting::toJson(t));
          },
          "Its fields as `tilescope-cli check --json` reports them.")
      .def("__str__", &config::TranslationInfo::print)
      .def("__repr__", &config::TranslationInfo::print);
}

} // namespace tilescope::python
