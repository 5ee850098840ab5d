#include "core/iree/MmaQuery.h"

#include "core/iree/CompilerLibrary.h"
#include "core/iree/detail/CApi.h"

namespace tilescope::iree {

using namespace capi;

namespace {

void appendToString(MlirStringRef chunk, void *userData) {
  static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
}

// Enum value ranges IREE uses (0xABCD: A vendor 1 AMD / 2 NVIDIA, B arch,
// C type, D index; virtual intrinsics count from 0).
constexpr uint32_t kFirstIntrinsic = 0x1000;
constexpr uint32_t kLastIntrinsic = 0x2FFF;
constexpr uint32_t kLastVirtualIntrinsic = 0x3F;

} // namespace

struct MmaQuery::Session {
  const FunctionTable &api;
  iree_compiler_session_t *session = nullptr;
  MlirContext context{nullptr};
  ~Session() {
    if (session)
      api.ireeCompilerSessionDestroy(session);
  }
};

MmaQuery::MmaQuery(std::shared_ptr<CompilerLibrary> lib)
    : library(std::move(lib)) {}
MmaQuery::~MmaQuery() = default;
MmaQuery::MmaQuery(MmaQuery &&) noexcept = default;

Result<MmaQuery> MmaQuery::create(std::shared_ptr<CompilerLibrary> library) {
  const FunctionTable &api = library->functions();
  for (const auto &[name, present] :
       {std::pair{"ireeCompilerSessionBorrowContext",
                  api.ireeCompilerSessionBorrowContext != nullptr},
        std::pair{"mlirAttributeParseGet",
                  api.mlirAttributeParseGet != nullptr},
        std::pair{"ireeGPUMMAIntrinsicAttrGet",
                  api.ireeGPUMMAIntrinsicAttrGet != nullptr},
        std::pair{"ireeGPUGetSingleSubgroupLayout",
                  api.ireeGPUGetSingleSubgroupLayout != nullptr}})
    if (!present)
      return Error{std::string("this IREE does not export ") + name +
                   "; MMA layouts cannot be queried from it"};
  MmaQuery query(library);
  query.session = std::make_unique<Session>(Session{api});
  query.session->session = api.ireeCompilerSessionCreate();
  query.session->context =
      api.ireeCompilerSessionBorrowContext(query.session->session);
  if (!query.session->context.ptr)
    return Error{"the IREE session has no MLIR context"};
  // Attributes of a dialect exist only once the dialect is loaded: parsing
  // one loads iree_gpu.
  const std::string probe = "#iree_gpu<mma_intrinsic MFMA_F32_16x16x16_F16>";
  if (!api.mlirAttributeParseGet(query.session->context,
                                 toStringRef(probe.data(), probe.size()))
           .ptr)
    return Error{"this IREE cannot parse " + probe};
  return query;
}

std::vector<QueriedIntrinsic> MmaQuery::intrinsics() const {
  const FunctionTable &api = library->functions();
  std::vector<QueriedIntrinsic> found;
  auto collect = [&](MlirAttribute attribute, uint32_t value, bool isVirtual) {
    std::string text;
    api.mlirAttributePrint(attribute, appendToString, &text);
    // "#iree_gpu<mma_intrinsic NAME>"; unknown values print no name.
    const size_t space = text.find(' ');
    const size_t close = text.rfind('>');
    if (space == std::string::npos || close == std::string::npos ||
        close <= space + 1)
      return;
    found.push_back(
        {text.substr(space + 1, close - space - 1), value, isVirtual});
  };
  for (uint32_t value = kFirstIntrinsic; value <= kLastIntrinsic; ++value)
    collect(api.ireeGPUMMAIntrinsicAttrGet(session->context, value), value,
            false);
  if (api.ireeGPUVirtualMMAIntrinsicAttrGet)
    for (uint32_t value = 0; value <= kLastVirtualIntrinsic; ++value)
      collect(api.ireeGPUVirtualMMAIntrinsicAttrGet(session->context, value),
              value, true);
  return found;
}

Result<std::array<QueriedFragment, 3>>
MmaQuery::fragments(const QueriedIntrinsic &intrinsic) const {
  const FunctionTable &api = library->functions();
  // Only an MMAIntrinsicAttr / VirtualMMAIntrinsicAttr is accepted here (an
  // MMAAttr would give empty arrays).
  MlirAttribute attribute =
      intrinsic.isVirtual ? api.ireeGPUVirtualMMAIntrinsicAttrGet(
                                session->context, intrinsic.enumValue)
                          : api.ireeGPUMMAIntrinsicAttrGet(session->context,
                                                           intrinsic.enumValue);
  auto toVector = [&](MlirAttribute array) {
    std::vector<int64_t> values;
    if (!array.ptr)
      return values;
    for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(array); i < e; ++i)
      values.push_back(api.mlirIntegerAttrGetValueInt(
          api.mlirArrayAttrGetElement(array, i)));
    return values;
  };
  std::array<QueriedFragment, 3> result;
  for (uint32_t operand = 0; operand < 3; ++operand) {
    const ireeGPUMMASingleSubgroupLayout layout =
        api.ireeGPUGetSingleSubgroupLayout(attribute, operand);
    result[operand] = {toVector(layout.outer), toVector(layout.thread),
                       toVector(layout.tstrides), toVector(layout.element)};
  }
  return result;
}

Result<std::optional<std::pair<int64_t, int64_t>>>
MmaQuery::xorShuffleBounds(const QueriedIntrinsic &intrinsic,
                           int32_t operand) const {
  const FunctionTable &api = library->functions();
  if (!api.ireeGPUGetXorShuffleBounds)
    return Error{"this IREE does not export ireeGPUGetXorShuffleBounds"};
  const std::string text =
      std::string("#iree_gpu.") +
      (intrinsic.isVirtual ? "virtual_mma_layout<" : "mma_layout<") +
      intrinsic.name + ">";
  MlirAttribute attribute = api.mlirAttributeParseGet(
      session->context, toStringRef(text.data(), text.size()));
  if (!attribute.ptr)
    return Error{"this IREE cannot parse " + text};
  int64_t minimum = 0, total = 0;
  if (!api.ireeGPUGetXorShuffleBounds(attribute, operand, &minimum, &total))
    return std::optional<std::pair<int64_t, int64_t>>();
  return std::optional<std::pair<int64_t, int64_t>>(std::pair{minimum, total});
}

Result<bool> MmaQuery::isXorShuffleValid(int64_t rowElements,
                                         int64_t accessElements,
                                         int64_t totalTileElements) const {
  const FunctionTable &api = library->functions();
  if (!api.ireeGPUIsXORShuffleValid)
    return Error{"this IREE does not export ireeGPUIsXORShuffleValid"};
  return api.ireeGPUIsXORShuffleValid(rowElements, accessElements,
                                      totalTileElements);
}

} // namespace tilescope::iree
