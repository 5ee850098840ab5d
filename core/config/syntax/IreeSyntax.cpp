#include "core/config/syntax/IreeSyntax.h"

#include "core/config/syntax/MmaIntrinsicTable.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>

namespace tilescope::config {
namespace {

// #iree_gpu.pipeline_options fields, in declaration order.
constexpr std::array<const char *, 4> kPipelineOptionFields = {
    "prefetch_num_stages", "no_reduce_shared_memory_bank_conflicts",
    "use_igemm_convolution", "reorder_workgroups_strategy"};

// translation_info's named fields, in the only order IREE's parser takes.
constexpr std::array<const char *, 4> kTranslationFields = {
    "pipeline", "codegen_spec", "workgroup_size", "subgroup_size"};

// The attribute mnemonics of IREE's codegen dialects (the .td definitions
// of 3.13; tests/property/property_attributes.cpp checks each against the
// pinned IREE), and every dialect an iree-opt of 3.13 registers.
const std::map<std::string, std::set<std::string>> &knownMnemonics() {
  static const std::map<std::string, std::set<std::string>> known = {
      {"iree_gpu",
       {"conditional_transpose",
        "data_tiled_mma_layout",
        "data_tiled_scaled_mma_layout",
        "derived_thread_config",
        "gpu_encoding_resolver",
        "gpu_padding_resolver",
        "lane_constant",
        "lane_id",
        "lane_increment",
        "lane_scope",
        "lowering_config",
        "mma_layout",
        "mma_semantics",
        "pipeline",
        "pipeline_options",
        "promote_with_cache_swizzle",
        "scaled_mma_layout",
        "spirv_pipeline",
        "subgroup_scope",
        "swizzle_operand",
        "target",
        "target_chip",
        "target_wgp",
        "use_global_load_dma",
        "virtual_mma_layout",
        "compute_bitwidths",
        "dotproduct_ops",
        "mma_intrinsic",
        "reorder_workgroups_strategy",
        "storage_bitwidths",
        "subgroup_ops",
        "virtual_mma_intrinsic",
        "scaled_mma_intrinsic"}},
      {"iree_codegen",
       {"compilation_info",
        "export_config",
        "local_mapping",
        "lowering_config",
        "lowering_config_level",
        "null_pointer",
        "pass_pipeline",
        "root_op",
        "rotate_rows",
        "simple_target",
        "symbolic_ukernel_provider",
        "translation_info",
        "ukernel_descriptor",
        "workgroup_local",
        "workgroup_mapping",
        "workgroup_scope",
        "xor_shuffle",
        "denormal_fp_math",
        "vmvx_pipeline",
        "transform_dialect_codegen",
        "no_pipeline"}},
      {"iree_vector_ext", {"nested_layout"}},
      {"iree_cpu",
       {"cpu_encoding_resolver", "data_tiled_mma_layout",
        "inner_tile_alignments", "lowering_config", "mma_semantics", "pipeline",
        "ukernel_provider", "vmvx_encoding_resolver", "mma_intrinsic"}}};
  return known;
}

const std::set<std::string> &registeredDialects() {
  static const std::set<std::string> dialects = {"affine",
                                                 "amdgpu",
                                                 "arith",
                                                 "arm_neon",
                                                 "arm_sme",
                                                 "arm_sve",
                                                 "bufferization",
                                                 "builtin",
                                                 "cf",
                                                 "check",
                                                 "chlo",
                                                 "complex",
                                                 "emitc",
                                                 "flow",
                                                 "func",
                                                 "gpu",
                                                 "hal",
                                                 "hal_inline",
                                                 "hal_loader",
                                                 "io_parameters",
                                                 "iree_codegen",
                                                 "iree_cpu",
                                                 "iree_encoding",
                                                 "iree_gpu",
                                                 "iree_linalg_ext",
                                                 "iree_map",
                                                 "iree_tensor_ext",
                                                 "iree_vector_ext",
                                                 "linalg",
                                                 "llvm",
                                                 "math",
                                                 "memref",
                                                 "ml_program",
                                                 "nvgpu",
                                                 "nvvm",
                                                 "pcf",
                                                 "pdl",
                                                 "pdl_interp",
                                                 "quant",
                                                 "rocdl",
                                                 "rocm",
                                                 "scf",
                                                 "shape",
                                                 "smt",
                                                 "spirv",
                                                 "stablehlo",
                                                 "stream",
                                                 "tensor",
                                                 "tm_tensor",
                                                 "torch",
                                                 "torch_c",
                                                 "tosa",
                                                 "transform",
                                                 "ub",
                                                 "util",
                                                 "vector",
                                                 "vhlo",
                                                 "vm",
                                                 "vmvx"};
  return dialects;
}

constexpr std::array<const char *, 7> kNestedLayoutFields = {
    "subgroup_tile", "batch_tile",       "outer_tile",    "thread_tile",
    "element_tile",  "subgroup_strides", "thread_strides"};

class Checker {
public:
  explicit Checker(std::string_view release) : release(release) {}

  void visit(const Attribute &a) {
    using Kind = Attribute::Kind;
    switch (a.kind) {
    case Kind::Array:
      for (const Attribute &element : a.elements)
        visit(element);
      return;
    case Kind::Dictionary: {
      std::set<std::string> seen;
      for (const Parameter &p : a.parameters) {
        Enter enter(*this, p.name);
        if (!seen.insert(p.name).second)
          add("duplicate key '" + p.name + "' in dictionary attribute");
        visit(p.get());
      }
      return;
    }
    case Kind::Dialect:
      visitDialect(a);
      return;
    case Kind::Elided:
      for (const Parameter &p : a.parameters)
        visit(p.get());
      return;
    case Kind::AliasReference:
      // Callers resolve the aliases a text defines first; one left over is
      // undefined.
      add("undefined symbol alias id '" + a.text + "'");
      return;
    default:
      return;
    }
  }

  std::vector<SyntaxProblem> problems;

private:
  std::string release;
  std::vector<std::string> path; // the field being read

  void add(std::string message) {
    std::string field;
    for (const std::string &part : path)
      field += (field.empty() ? "" : ".") + part;
    problems.push_back({std::move(field), std::move(message)});
  }
  struct Enter {
    Checker &checker;
    Enter(Checker &c, std::string part) : checker(c) {
      checker.path.push_back(std::move(part));
    }
    ~Enter() { checker.path.pop_back(); }
  };

  // A parameter IREE reads as a C++ integer or integer list takes plain
  // integers: `4 : index` there is "expected ']'".
  bool plainIntegers(const Attribute &value) {
    if (value.is(Attribute::Kind::Integer))
      return value.typeSuffix.empty();
    if (!value.is(Attribute::Kind::Array))
      return false;
    for (const Attribute &element : value.elements)
      if (!element.is(Attribute::Kind::Integer) || !element.typeSuffix.empty())
        return false;
    return true;
  }

  void visitDialect(const Attribute &a) {
    if (!registeredDialects().count(a.dialect))
      return add("dialect '" + a.dialect + "' is not one IREE registers (" +
                 (a.dialect.empty() ? std::string("empty name") : a.dialect) +
                 ")");
    if (auto known = knownMnemonics().find(a.dialect);
        known != knownMnemonics().end() && !a.bracketForm &&
        !known->second.count(a.mnemonic) &&
        !(a.mnemonic == "expand_dims" && a.dialect == "iree_gpu"))
      return add("unknown attribute `" + a.mnemonic + "` in dialect `" +
                 a.dialect + "`");
    const std::string name = a.qualifiedName();
    // Only translation_info separates its fields by spaces; every other
    // parameter list of these dialects wants commas.
    if (name != "iree_codegen.translation_info" &&
        knownMnemonics().count(a.dialect))
      for (size_t i = 1; i < a.parameters.size(); ++i)
        if (a.parameters[i].separatorBefore == ' ')
          return add("expected ',' between " + name + " parameters");
    if (name == "iree_gpu.lowering_config")
      return loweringConfig(a);
    if (name == "iree_codegen.translation_info")
      return translationInfo(a);
    if (name == "iree_codegen.compilation_info")
      return compilationInfo(a);
    if (name == "iree_gpu.pipeline_options")
      return pipelineOptions(a);
    if (name == "iree_vector_ext.nested_layout")
      return nestedLayout(a);
    if (name == "iree_gpu.mma_layout" || name == "iree_gpu.virtual_mma_layout")
      return mmaLayout(a, name == "iree_gpu.virtual_mma_layout");
    if (name == "iree_gpu.scaled_mma_layout")
      return scaledMmaLayout(a);
    if (name == "iree_gpu.pipeline")
      return pipeline(a);
    if (name == "iree_codegen.xor_shuffle")
      return positionalIntegers(a, 2, 4);
    if (name == "iree_codegen.rotate_rows")
      return positionalIntegers(a, 2, 2);
    if (name == "iree_gpu.expand_dims" && compareRelease(release, "3.12") >= 0)
      return add("unknown attribute 'expand_dims' in dialect 'iree_gpu'");
    for (const Parameter &p : a.parameters)
      visit(p.get());
  }

  void loweringConfig(const Attribute &a) {
    const auto positional = a.positional();
    if (a.parameters.size() != 1 || positional.size() != 1 ||
        !positional.front()->is(Attribute::Kind::Dictionary))
      return add("invalid kind of attribute specified");
    const Attribute &dictionary = *positional.front();
    visit(dictionary);
    const Attribute *operands = dictionary.find("promote_operands");
    const Attribute *types = dictionary.find("promotion_types");
    if (operands && types && operands->is(Attribute::Kind::Array) &&
        types->is(Attribute::Kind::Array) &&
        operands->elements.size() != types->elements.size()) {
      Enter enter(*this, "promotion_types");
      add("promote_operands and promotion_types must have the same length");
    }
  }

  // pipeline = P [codegen_spec = @s] [workgroup_size = [..]]
  // [subgroup_size = N] [, {configuration}], named fields separated by
  // spaces (the form is the same type-elided inside compilation_info).
  void translationInfo(const Attribute &a) {
    Enter enter(*this, "translation_info");
    size_t next = 0; // index into kTranslationFields
    bool sawConfiguration = false;
    for (size_t i = 0; i < a.parameters.size(); ++i) {
      const Parameter &p = a.parameters[i];
      if (sawConfiguration)
        return add("expected '>' after translation_info's configuration");
      if (p.name.empty()) {
        if (!p.get().is(Attribute::Kind::Dictionary) || i == 0)
          return add("expected 'pipeline'");
        if (p.separatorBefore != ',')
          return add("expected '>'");
        sawConfiguration = true;
        visit(p.get());
        continue;
      }
      if (i == 0 && p.name != "pipeline")
        return add("expected 'pipeline'");
      if (i > 0 && p.separatorBefore == ',')
        return add("expected attribute value");
      Enter field(*this, p.name);
      const auto at =
          std::find(kTranslationFields.begin() + static_cast<long>(next),
                    kTranslationFields.end(), p.name);
      if (at == kTranslationFields.end())
        return add(std::find(kTranslationFields.begin(),
                             kTranslationFields.end(),
                             p.name) != kTranslationFields.end()
                       ? "translation_info's fields must come in the order "
                         "pipeline, codegen_spec, workgroup_size, subgroup_size"
                       : "unknown translation_info field '" + p.name + "'");
      next = static_cast<size_t>(at - kTranslationFields.begin()) + 1;
      const Attribute &value = p.get();
      if (p.name == "pipeline") {
        if (value.is(Attribute::Kind::Keyword))
          return add("failed to parse IREECodegen_TranslationInfoAttr "
                     "parameter 'passPipeline': the bare pipeline name " +
                     value.text + " is IREE <= 3.11 syntax");
        visit(value);
      } else if (p.name == "workgroup_size") {
        auto sizes = value.asInt64Array();
        if (!value.is(Attribute::Kind::Array) || value.elements.empty() ||
            !sizes)
          return add("expected integer value");
        if (!plainIntegers(value))
          return add("expected ']'");
        if (sizes->size() > 3)
          return add("workgroup size cannot have more than 3 entries");
        for (int64_t size : *sizes)
          if (size <= 0)
            return add("workgroup size value has to be greater than zero");
      } else if (p.name == "subgroup_size") {
        auto size = value.asInt64();
        if (!size)
          return add("expected integer value");
        if (*size < 0)
          return add("subgroup size value cannot be negative");
      }
    }
    if (a.parameters.empty())
      add("expected 'pipeline'");
  }

  void compilationInfo(const Attribute &a) {
    if (a.parameters.size() < 1 || a.parameters[0].name != "lowering_config")
      return add("expected 'lowering_config'");
    if (a.parameters.size() < 2 || a.parameters[1].name != "translation_info")
      return add("expected 'translation_info'");
    if (a.parameters.size() > 2)
      return add("expected '>' after compilation_info's translation_info");
    visit(a.parameters[0].get());
    const Attribute &translation = a.parameters[1].get();
    if (translation.is(Attribute::Kind::Elided))
      translationInfo(translation);
    else
      visit(translation);
  }

  void pipelineOptions(const Attribute &a) {
    std::set<std::string> seen;
    for (const Parameter &p : a.parameters) {
      const bool known =
          std::find(kPipelineOptionFields.begin(), kPipelineOptionFields.end(),
                    p.name) != kPipelineOptionFields.end();
      if (!known || !seen.insert(p.name).second)
        return add("duplicate or unknown struct parameter name: " + p.name);
    }
  }

  void nestedLayout(const Attribute &a) {
    Enter enter(*this, "nested_layout");
    size_t rank = 0;
    for (size_t i = 0; i < kNestedLayoutFields.size(); ++i) {
      if (i >= a.parameters.size() ||
          a.parameters[i].name != kNestedLayoutFields[i])
        return add(std::string("expected '") + kNestedLayoutFields[i] + "'");
      auto values = a.parameters[i].get().asInt64Array();
      if (!values || !plainIntegers(a.parameters[i].get()))
        return add(std::string("expected ']' in ") + kNestedLayoutFields[i] +
                   " (plain integers)");
      if (i == 0)
        rank = values->size();
      else if (values->size() != rank)
        return add("all fields must have the same rank as the layout");
    }
    if (a.parameters.size() > kNestedLayoutFields.size())
      add("expected '>'");
  }

  void mmaLayout(const Attribute &a, bool isVirtual) {
    const auto positional = a.positional();
    if (positional.empty() || !positional.front()->is(Attribute::Kind::Keyword))
      return add("expected an MMA intrinsic name");
    if (!isKnownIntrinsic(positional.front()->text, isVirtual))
      add("expected ::mlir::iree_compiler::IREE::GPU::" +
          std::string(isVirtual ? "VirtualMMAIntrinsic" : "MMAIntrinsic") +
          " to be one of the intrinsics IREE knows; '" +
          positional.front()->text + "' is not one");
  }

  // #iree_gpu.scaled_mma_layout<intrinsic = X, lhs_elem_type = ..., ...>:
  // X must be a ScaledMMAIntrinsic (IREE's parser says so with the list).
  void scaledMmaLayout(const Attribute &a) {
    const Attribute *intrinsic = a.find("intrinsic");
    if (!intrinsic || !intrinsic->is(Attribute::Kind::Keyword))
      return add("expected 'intrinsic'");
    std::string known;
    for (const ScaledMmaTableEntry &entry : scaledMmaIntrinsicTable()) {
      if (intrinsic->text == entry.name)
        return;
      known += (known.empty() ? "" : ", ") + std::string(entry.name);
    }
    add("expected one of [" + known +
        "] for Descriptor for different scaled MMA intrinsics, got: " +
        intrinsic->text);
  }

  void pipeline(const Attribute &a) {
    const auto positional = a.positional();
    if (positional.size() != 1 ||
        std::find(gpuPipelineNames().begin(), gpuPipelineNames().end(),
                  positional.front()->text) == gpuPipelineNames().end())
      add("expected ::mlir::iree_compiler::IREE::GPU::LoweringPipeline to be "
          "one of: Default, BaseLowering, Distribute, Vectorize, "
          "VectorDistribute, WinogradVectorize, TileAndFuse");
  }

  void positionalIntegers(const Attribute &a, size_t minimum, size_t maximum) {
    const auto positional = a.positional();
    if (positional.size() < minimum)
      return add("expected ','");
    if (positional.size() > maximum)
      return add("expected '>'");
    for (const Attribute *value : positional)
      if (!value->asInt64() || !plainIntegers(*value))
        return add("expected integer value");
    std::vector<int64_t> v;
    for (const Attribute *value : positional)
      v.push_back(*value->asInt64());
    // Where IREE's verifier would divide by zero, it crashes instead of
    // answering: refused here first.
    if (auto crash = swizzleCrashesIree(a.mnemonic, v))
      return add(*crash);
    if (v[0] % v[1] != 0)
      return add("expected access width to divide row width");
    if (a.mnemonic == "xor_shuffle") {
      // IREE stores an omitted optional parameter as 0 (the docs' "default
      // to 1" is for the swizzle's use, not the verifier's).
      const int64_t rowStride = v.size() > 2 ? v[2] : 0;
      const int64_t perPhase = v.size() > 3 ? v[3] : 0;
      if (perPhase > v[0] / v[1])
        return add("per_phase must be smaller than max_phase");
      if (rowStride % v[0] != 0)
        return add("expected row width to divide row stride");
    }
  }
};

// IREE's printed form of one attribute (recursively).
Attribute canonical(const Attribute &a, bool insideCompilationInfo = false) {
  using Kind = Attribute::Kind;
  Attribute out = a;
  for (Attribute &element : out.elements)
    element = canonical(element);
  for (Parameter &p : out.parameters)
    p.get() = canonical(p.get());
  if (!out.is(Kind::Dialect) && !out.is(Kind::Elided))
    return out;
  const std::string name = out.qualifiedName();
  if (name == "iree_vector_ext.nested_layout" && out.parameters.size() == 7) {
    // NestedLayoutAttr::get: a stride whose tile is 1 becomes 0.
    for (auto [tileIndex, strideIndex] : {std::pair{0, 5}, std::pair{3, 6}}) {
      auto tiles =
          out.parameters[static_cast<size_t>(tileIndex)].get().asInt64Array();
      auto strides =
          out.parameters[static_cast<size_t>(strideIndex)].get().asInt64Array();
      if (!tiles || !strides || tiles->size() != strides->size())
        continue;
      for (size_t i = 0; i < tiles->size(); ++i)
        if ((*tiles)[i] == 1)
          (*strides)[i] = 0;
      out.parameters[static_cast<size_t>(strideIndex)].get() =
          Attribute::integerArray(*strides);
    }
  } else if (name == "iree_gpu.mma_layout" ||
             name == "iree_gpu.virtual_mma_layout") {
    out.parameters.erase(
        std::remove_if(out.parameters.begin(), out.parameters.end(),
                       [](const Parameter &p) {
                         return p.name == "col_major" &&
                                p.get().is(Attribute::Kind::Bool) &&
                                p.get().text == "false";
                       }),
        out.parameters.end());
  } else if (name == "iree_gpu.pipeline_options") {
    std::stable_sort(out.parameters.begin(), out.parameters.end(),
                     [](const Parameter &x, const Parameter &y) {
                       auto rank = [](const std::string &field) {
                         return std::find(kPipelineOptionFields.begin(),
                                          kPipelineOptionFields.end(), field) -
                                kPipelineOptionFields.begin();
                       };
                       return rank(x.name) < rank(y.name);
                     });
    for (size_t i = 0; i < out.parameters.size(); ++i)
      out.parameters[i].separatorBefore = ',';
  } else if (name == "iree_codegen.compilation_info") {
    for (Parameter &p : out.parameters) {
      if (p.name != "translation_info")
        continue;
      Attribute translation = p.get();
      if (translation.is(Kind::Elided)) {
        translation.kind = Kind::Dialect;
        translation.dialect = "iree_codegen";
        translation.mnemonic = "translation_info";
        translation.hasBody = true;
      }
      p.get() = canonical(translation, /*insideCompilationInfo=*/true);
    }
  } else if (name == "iree_codegen.translation_info") {
    // Named fields separated by spaces, the configuration after a comma.
    for (size_t i = 1; i < out.parameters.size(); ++i)
      out.parameters[i].separatorBefore =
          out.parameters[i].name.empty() ? ',' : ' ';
    // subgroup_size = 0 is "unset" and not printed.
    out.parameters.erase(std::remove_if(out.parameters.begin(),
                                        out.parameters.end(),
                                        [](const Parameter &p) {
                                          return p.name == "subgroup_size" &&
                                                 p.get().asInt64() == 0;
                                        }),
                         out.parameters.end());
    if (insideCompilationInfo) {
      out.kind = Kind::Elided;
      out.dialect.clear();
      out.mnemonic = "translation_info";
    }
  }
  return out;
}

} // namespace

std::optional<std::string>
swizzleCrashesIree(std::string_view mnemonic,
                   const std::vector<int64_t> &values) {
  if (values.size() < 2)
    return std::nullopt;
  const int64_t rowWidth = values[0], accessWidth = values[1];
  if (accessWidth == 0)
    return "an access width of 0: IREE 3.13's verifier divides the row width "
           "by it and crashes (SIGFPE)";
  if (mnemonic != "xor_shuffle" || rowWidth % accessWidth != 0)
    return std::nullopt;
  const int64_t perPhase = values.size() > 3 ? values[3] : 0;
  if (rowWidth == 0 && perPhase <= 0)
    return "a row width of 0: IREE 3.13's verifier divides the row stride by "
           "it and crashes (SIGFPE)";
  return std::nullopt;
}

bool isKnownIntrinsic(std::string_view name, bool isVirtual) {
  for (const MmaTableEntry &entry : mmaIntrinsicTable())
    if (entry.isVirtual == isVirtual && name == entry.name)
      return true;
  return false;
}

std::vector<SyntaxProblem> ireeParserProblems(const Attribute &attribute,
                                              std::string_view release) {
  Checker checker(release);
  checker.visit(attribute);
  return std::move(checker.problems);
}

std::string printLikeIree(const Attribute &attribute) {
  return printAttribute(canonical(attribute));
}

Attribute likeIree(const Attribute &attribute) { return canonical(attribute); }

const std::vector<std::string> &gpuPipelineNames() {
  // IREEGPU_LoweringPipeline, in enum order.
  static const std::vector<std::string> names = {
      "Default",          "BaseLowering",      "Distribute", "Vectorize",
      "VectorDistribute", "WinogradVectorize", "TileAndFuse"};
  return names;
}

int compareRelease(std::string_view a, std::string_view b) {
  auto parts = [](std::string_view text) {
    std::pair<int, int> version{0, 0};
    std::string s(text);
    std::sscanf(s.c_str(), "%d.%d", &version.first, &version.second);
    return version;
  };
  const auto x = parts(a), y = parts(b);
  if (x == y)
    return 0;
  return x < y ? -1 : 1;
}

} // namespace tilescope::config
