#include "core/config/configs/LoweringConfig.h"
#include "core/config/syntax/IreeSyntax.h"

#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

std::string describe(const Attribute &a) { return printAttribute(a); }

std::optional<std::vector<int64_t>> int64ArrayAt(const Attribute &dictionary,
                                                 std::string_view key) {
  const Attribute *value = dictionary.find(key);
  if (!value)
    return std::nullopt;
  return value->asInt64Array();
}

std::optional<Basis> basisAt(const Attribute &dictionary,
                             std::string_view key) {
  const Attribute *value = dictionary.find(key);
  if (!value)
    return std::nullopt;
  auto basis = basisFromAttribute(*value, std::string(key));
  if (!basis)
    return std::nullopt;
  return *basis;
}

} // namespace

const char *keyOf(TilingLevel level) {
  switch (level) {
  case TilingLevel::Workgroup:
    return "workgroup";
  case TilingLevel::Reduction:
    return "reduction";
  case TilingLevel::PartialReduction:
    return "partial_reduction";
  case TilingLevel::Serial:
    return "serial";
  case TilingLevel::Thread:
    return "thread";
  case TilingLevel::Subgroup:
    return "subgroup";
  case TilingLevel::Lane:
    return "lane";
  }
  return "";
}

int64_t Basis::product() const { return saturatingProduct(counts); }

Attribute Basis::toAttribute() const {
  return Attribute::array(
      {Attribute::integerArray(counts), Attribute::integerArray(mapping)});
}

Attribute ExpandDims::toAttribute() const {
  std::vector<Attribute> groups;
  for (const auto &group : reassociation)
    groups.push_back(Attribute::integerArray(group));
  std::vector<Attribute> shape;
  for (const auto &size : outputShape) {
    if (size) {
      shape.push_back(Attribute::integer(*size));
    } else {
      Attribute dynamic;
      dynamic.kind = Kind::Dynamic;
      shape.push_back(dynamic);
    }
  }
  return Attribute::dialectAttribute(
      "iree_gpu", "expand_dims",
      {Attribute::parameter("", Attribute::array(std::move(groups))),
       Attribute::parameter("output_shape",
                            Attribute::array(std::move(shape)))});
}

const std::vector<LoweringConfigKey> &loweringConfigKeys() {
  static const std::vector<LoweringConfigKey> keys = {
      {"workgroup", "", "", "tile sizes per workgroup (elements)"},
      {"reduction", "", "",
       "reduction loop tile sizes (elements; TileAndFuse with mma_kind: "
       "intrinsic tiles)"},
      {"partial_reduction", "", "",
       "per-iteration chunk of a reduction dimension (VectorDistribute)"},
      {"serial", "", "", "serial loop tile sizes"},
      {"thread", "", "", "tile sizes per thread (elements each thread holds)"},
      {"subgroup", "", "",
       "tile sizes per subgroup (TileAndFuse with mma_kind: intrinsic tiles)"},
      {"lane", "", "", "tile sizes per lane"},
      {"lane_basis", "3.7", "",
       "[[counts], [mapping]]: lanes of a subgroup over the iteration space"},
      {"thread_basis", "", "3.7", "old name of lane_basis"},
      {"subgroup_basis", "", "",
       "[[counts], [mapping]]: subgroups of a workgroup over the iteration "
       "space"},
      {"mma_kind", "", "", "the MMA intrinsic: #iree_gpu.mma_layout<...>"},
      {"promote_operands", "", "",
       "operand indices staged through shared memory"},
      {"promotion_types", "", "",
       "how each promoted operand is copied (same length as "
       "promote_operands)"},
      {"padding", "", "", "pad operands to multiples of these sizes"},
      {"padding_conv", "", "", "pad convolution dimensions to these sizes"},
      {"workgroup_reordering_strategy", "", "",
       "how workgroup ids are remapped, e.g. "
       "#iree_gpu.conditional_transpose<8, 38>"},
      {"lowering_strategy", "", "", "a transform named sequence to lower with"},
      {"convert_acc_gemm", "", "",
       "unit: rewrite an accumulating GEMM into GEMM + add"},
      {"expand_dims", "3.11", "3.12",
       "#iree_gpu.expand_dims<...>: split reduction dimensions"},
      {"subgroup_m_count", "", "3.8",
       "old VectorDistribute subgroup count along M (now subgroup_basis)"},
      {"subgroup_n_count", "", "3.8",
       "old VectorDistribute subgroup count along N (now subgroup_basis)"},
  };
  return keys;
}

Result<Basis> basisFromAttribute(const Attribute &attribute,
                                 const std::string &key) {
  if (!attribute.is(Kind::Array) || attribute.elements.size() != 2)
    return Error{key + " must be [[counts...], [mapping...]], not " +
                 describe(attribute)};
  auto counts = attribute.elements[0].asInt64Array();
  auto mapping = attribute.elements[1].asInt64Array();
  if (!counts)
    return Error{key + " counts must be an array of integers, not " +
                 describe(attribute.elements[0])};
  if (!mapping)
    return Error{key + " mapping must be an array of integers, not " +
                 describe(attribute.elements[1])};
  return Basis{*counts, *mapping};
}

Result<MmaKind> mmaKindFromAttribute(const Attribute &attribute) {
  if (!attribute.is(Kind::Dialect) || attribute.dialect != "iree_gpu")
    return Error{"mma_kind must be an #iree_gpu MMA attribute such as "
                 "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, not " +
                 describe(attribute)};
  MmaKind kind;
  kind.attributeName = attribute.mnemonic;
  auto positional = attribute.positional();
  if (!positional.empty() && positional.front()->is(Kind::Keyword))
    kind.intrinsic = positional.front()->text;
  else if (const Attribute *intrinsic = attribute.find("intrinsic"))
    kind.intrinsic = intrinsic->text;
  if (const Attribute *colMajor = attribute.find("col_major"))
    kind.colMajor = colMajor->text == "true";
  for (auto [key, out] : {std::pair{"lhs_elem_type", &kind.lhsElementType},
                          std::pair{"rhs_elem_type", &kind.rhsElementType},
                          std::pair{"acc_elem_type", &kind.accElementType}})
    if (const Attribute *type = attribute.find(key))
      *out = type->text;
  if (kind.intrinsic.empty())
    return Error{"mma_kind names no intrinsic: " + describe(attribute)};
  return kind;
}

Attribute mmaKindToAttribute(const MmaKind &kind) {
  // #iree_gpu.scaled_mma_layout<intrinsic = X, lhs_elem_type = T, ...>
  // names every parameter; the others take the intrinsic bare.
  std::vector<Parameter> parameters = {Attribute::parameter(
      kind.isScaled() ? "intrinsic" : "", Attribute::keyword(kind.intrinsic))};
  if (kind.isScaled()) {
    for (auto [key, value] :
         {std::pair{"lhs_elem_type", &kind.lhsElementType},
          std::pair{"rhs_elem_type", &kind.rhsElementType},
          std::pair{"acc_elem_type", &kind.accElementType}}) {
      Attribute type;
      type.kind = Kind::Type;
      type.text = *value;
      parameters.push_back(Attribute::parameter(key, std::move(type)));
    }
  }
  // IREE omits col_major when it is false.
  if (kind.colMajor)
    parameters.push_back(
        Attribute::parameter("col_major", Attribute::boolean(true)));
  return Attribute::dialectAttribute(
      "iree_gpu",
      kind.attributeName.empty() ? "mma_layout" : kind.attributeName,
      std::move(parameters));
}

Result<ExpandDims> expandDimsFromAttribute(const Attribute &attribute) {
  if (!attribute.isDialect("iree_gpu", "expand_dims"))
    return Error{"expand_dims must be #iree_gpu.expand_dims<...>, not " +
                 describe(attribute)};
  ExpandDims result;
  auto positional = attribute.positional();
  if (positional.empty() || !positional.front()->is(Kind::Array))
    return Error{"expand_dims needs a reassociation list such as "
                 "[[0], [1], [2, 3]]"};
  for (const Attribute &group : positional.front()->elements) {
    auto indices = group.asInt64Array();
    if (!indices)
      return Error{"expand_dims reassociation groups must be arrays of "
                   "integers, not " +
                   describe(group)};
    result.reassociation.push_back(*indices);
  }
  const Attribute *shape = attribute.find("output_shape");
  if (!shape || !shape->is(Kind::Array))
    return Error{"expand_dims needs output_shape = [...]"};
  for (const Attribute &size : shape->elements) {
    if (size.is(Kind::Dynamic))
      result.outputShape.push_back(std::nullopt);
    else if (auto value = size.asInt64())
      result.outputShape.push_back(*value);
    else
      return Error{"expand_dims output_shape entries must be integers or ?, "
                   "not " +
                   describe(size)};
  }
  return result;
}

Result<LoweringConfig>
LoweringConfig::fromAttribute(const Attribute &attribute) {
  LoweringConfig config;
  if (attribute.is(Kind::Dictionary)) {
    config.entries = attribute;
    return config;
  }
  if (attribute.isDialect("iree_gpu", "derived_thread_config")) {
    if (!attribute.parameters.empty())
      return Error{"#iree_gpu.derived_thread_config takes no parameters"};
    config.derivedThreadConfig = true;
    return config;
  }
  if (!attribute.isDialect("iree_gpu", "lowering_config"))
    return Error{"expected #iree_gpu.lowering_config<{...}>, found " +
                 (attribute.is(Kind::Dialect) ? "#" + attribute.qualifiedName()
                                              : describe(attribute))};
  auto positional = attribute.positional();
  if (positional.size() != 1 || !positional.front()->is(Kind::Dictionary) ||
      positional.size() != attribute.parameters.size())
    return Error{"#iree_gpu.lowering_config takes one dictionary: "
                 "#iree_gpu.lowering_config<{workgroup = [...], ...}>"};
  config.entries = *positional.front();
  return config;
}

bool isGpuLoweringConfigText(std::string_view text) {
  return text.rfind("#iree_gpu.lowering_config", 0) == 0 ||
         text == "#iree_gpu.derived_thread_config";
}

bool isCpuLoweringConfigText(std::string_view text) {
  return text.rfind("#iree_cpu.lowering_config", 0) == 0;
}

bool distributesWorkgroups(const Attribute &loweringConfig) {
  // A key named among the attribute's parameters or in its one dictionary.
  auto holds = [&](std::string_view key) {
    if (loweringConfig.is(Kind::Dictionary))
      return loweringConfig.find(key) != nullptr;
    if (loweringConfig.find(key))
      return true;
    for (const Attribute *p : loweringConfig.positional())
      if (p->is(Kind::Dictionary) && p->find(key))
        return true;
    return false;
  };
  if (loweringConfig.isDialect("iree_cpu", "lowering_config"))
    return holds("distribution");
  if (loweringConfig.isDialect("iree_gpu", "lowering_config") ||
      loweringConfig.is(Kind::Dictionary))
    return holds("workgroup");
  return false;
}

Result<LoweringConfig> LoweringConfig::parse(std::string_view text) {
  auto document = parseAttributeDocument(text);
  if (auto *error = std::get_if<ParseError>(&document))
    return Error{error->toString()};
  auto &parsed = std::get<AttributeDocument>(document);
  if (parsed.attributes.size() != 1)
    return Error{"expected one lowering_config, found " +
                 std::to_string(parsed.attributes.size()) + " attributes"};
  auto resolved = resolveAliases(parsed.attributes.front(), parsed.aliases);
  if (!resolved)
    return Error{resolved.error()};
  return fromAttribute(*resolved);
}

std::optional<std::vector<int64_t>>
LoweringConfig::tileSizes(TilingLevel level) const {
  return int64ArrayAt(entries, keyOf(level));
}

std::optional<Basis> LoweringConfig::laneBasis() const {
  if (auto basis = basisAt(entries, "lane_basis"))
    return basis;
  return basisAt(entries, "thread_basis");
}

std::optional<Basis> LoweringConfig::subgroupBasis() const {
  return basisAt(entries, "subgroup_basis");
}

std::optional<MmaKind> LoweringConfig::mmaKind() const {
  const Attribute *value = entries.find("mma_kind");
  if (!value)
    return std::nullopt;
  auto kind = mmaKindFromAttribute(*value);
  if (!kind)
    return std::nullopt;
  return *kind;
}

std::optional<std::vector<int64_t>> LoweringConfig::promoteOperands() const {
  return int64ArrayAt(entries, "promote_operands");
}

const Attribute *LoweringConfig::promotionTypes() const {
  return entries.find("promotion_types");
}

std::optional<std::vector<int64_t>> LoweringConfig::padding() const {
  return int64ArrayAt(entries, "padding");
}

std::optional<std::vector<int64_t>> LoweringConfig::paddingConv() const {
  return int64ArrayAt(entries, "padding_conv");
}

const Attribute *LoweringConfig::workgroupReorderingStrategy() const {
  return entries.find("workgroup_reordering_strategy");
}

std::optional<std::string> LoweringConfig::loweringStrategy() const {
  const Attribute *value = entries.find("lowering_strategy");
  if (!value || !value->is(Kind::String))
    return std::nullopt;
  return value->text;
}

bool LoweringConfig::convertAccGemm() const {
  return entries.find("convert_acc_gemm") != nullptr;
}

std::optional<ExpandDims> LoweringConfig::expandDims() const {
  const Attribute *value = entries.find("expand_dims");
  if (!value)
    return std::nullopt;
  auto result = expandDimsFromAttribute(*value);
  if (!result)
    return std::nullopt;
  return *result;
}

std::optional<int64_t> LoweringConfig::subgroupMCount() const {
  const Attribute *value = entries.find("subgroup_m_count");
  return value ? value->asInt64() : std::nullopt;
}

std::optional<int64_t> LoweringConfig::subgroupNCount() const {
  const Attribute *value = entries.find("subgroup_n_count");
  return value ? value->asInt64() : std::nullopt;
}

std::vector<std::string> LoweringConfig::keys() const {
  std::vector<std::string> result;
  for (const Parameter &p : entries.parameters)
    result.push_back(p.name);
  return result;
}

std::vector<ReadNote> LoweringConfig::notes() const {
  std::vector<ReadNote> notes;
  for (const Parameter &entry : entries.parameters) {
    const std::string &key = entry.name;
    const Attribute &value = entry.get();
    const auto &known = loweringConfigKeys();
    auto it =
        std::find_if(known.begin(), known.end(),
                     [&](const LoweringConfigKey &k) { return key == k.name; });
    if (it == known.end()) {
      notes.push_back({ReadNote::Kind::UnknownKey, key,
                       key + " is not a key IREE's GPU lowering config reads; "
                             "IREE ignores it silently (kept as written)"});
      continue;
    }
    if (*it->removed)
      notes.push_back(
          {ReadNote::Kind::LegacyKey, key,
           key + " is read only by IREE releases before " + it->removed});
    const bool isTileLevel =
        std::any_of(std::begin(kAllTilingLevels), std::end(kAllTilingLevels),
                    [&](TilingLevel level) { return key == keyOf(level); });
    auto bad = [&](const std::string &what) {
      notes.push_back({ReadNote::Kind::BadValue, key,
                       key + " must be " + what + ", not " + describe(value)});
    };
    if ((isTileLevel || key == "promote_operands" || key == "padding" ||
         key == "padding_conv") &&
        !value.asInt64Array()) {
      bool tooLarge =
          value.is(Kind::Array) &&
          std::all_of(value.elements.begin(), value.elements.end(),
                      [](const Attribute &e) { return e.is(Kind::Integer); });
      bad(tooLarge ? "an array of integers that fit in 64 bits"
                   : "an array of integers");
    } else if (key == "lane_basis" || key == "thread_basis" ||
               key == "subgroup_basis") {
      if (auto basis = basisFromAttribute(value, key); !basis)
        notes.push_back({ReadNote::Kind::BadValue, key, basis.error()});
    } else if (key == "mma_kind") {
      if (auto kind = mmaKindFromAttribute(value); !kind)
        notes.push_back({ReadNote::Kind::BadValue, key, kind.error()});
    } else if (key == "expand_dims") {
      if (auto dims = expandDimsFromAttribute(value); !dims)
        notes.push_back({ReadNote::Kind::BadValue, key, dims.error()});
    } else if (key == "convert_acc_gemm" && !value.is(Kind::Unit)) {
      bad("a unit flag (the key alone)");
    } else if (key == "lowering_strategy" && !value.is(Kind::String)) {
      bad("a string naming a transform sequence");
    } else if ((key == "subgroup_m_count" || key == "subgroup_n_count") &&
               !value.asInt64()) {
      bad("an integer");
    } else if (key == "promotion_types" && !value.is(Kind::Array)) {
      bad("an array of promotion attributes");
    }
  }
  return notes;
}

void LoweringConfig::set(const std::string &key, Attribute value) {
  if (Attribute *existing = entries.find(key)) {
    *existing = std::move(value);
    return;
  }
  entries.parameters.push_back(Attribute::parameter(key, std::move(value)));
}

void LoweringConfig::erase(const std::string &key) {
  std::erase_if(entries.parameters,
                [&](const Parameter &p) { return p.name == key; });
}

bool LoweringConfig::has(const std::string &key) const {
  return entries.find(key) != nullptr;
}

const Attribute *LoweringConfig::get(const std::string &key) const {
  return entries.find(key);
}

void LoweringConfig::setTileSizes(TilingLevel level,
                                  const std::vector<int64_t> &sizes) {
  set(keyOf(level), Attribute::integerArray(sizes));
}

void LoweringConfig::setLaneBasis(const Basis &basis) {
  // Write the name the file already uses, lane_basis otherwise.
  set(has("thread_basis") ? "thread_basis" : "lane_basis", basis.toAttribute());
}

void LoweringConfig::setSubgroupBasis(const Basis &basis) {
  set("subgroup_basis", basis.toAttribute());
}

void LoweringConfig::setMmaKind(const MmaKind &kind) {
  set("mma_kind", mmaKindToAttribute(kind));
}

void LoweringConfig::setPromoteOperands(const std::vector<int64_t> &operands) {
  // promotion_types, where the config has them, name one type per promoted
  // operand (IREE refuses lists of two lengths): an operand kept keeps its
  // type, a new one gets IREE's default, derived_thread_config.
  if (const Attribute *types = promotionTypes();
      types && types->is(Attribute::Kind::Array)) {
    const auto before = promoteOperands().value_or(std::vector<int64_t>{});
    std::vector<Attribute> aligned;
    for (int64_t operand : operands) {
      const auto at = std::find(before.begin(), before.end(), operand);
      const auto index = static_cast<size_t>(at - before.begin());
      if (at != before.end() && index < types->elements.size()) {
        aligned.push_back(types->elements[index]);
      } else {
        Attribute derived = Attribute::dialectAttribute(
            "iree_gpu", "derived_thread_config", {});
        derived.hasBody = false;
        aligned.push_back(std::move(derived));
      }
    }
    set("promotion_types", Attribute::array(std::move(aligned)));
  }
  set("promote_operands", Attribute::integerArray(operands));
}

void LoweringConfig::setExpandDims(const ExpandDims &expandDims) {
  set("expand_dims", expandDims.toAttribute());
}

Attribute LoweringConfig::toAttribute() const {
  if (derivedThreadConfig) {
    Attribute derived =
        Attribute::dialectAttribute("iree_gpu", "derived_thread_config", {});
    derived.hasBody = false;
    return derived;
  }
  return Attribute::dialectAttribute("iree_gpu", "lowering_config",
                                     {Attribute::parameter("", entries)});
}

std::string LoweringConfig::print() const {
  return printLikeIree(toAttribute());
}

} // namespace tilescope::config
