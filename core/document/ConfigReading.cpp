#include "core/document/ConfigReading.h"
#include "core/document/Document.h"

#include <atomic>

namespace tilescope::document {
namespace {

std::atomic<size_t> reads{0};

// The reading of `text` in `slot`, made again where the text changed.
template <class Model>
void keep(std::shared_ptr<const ConfigReading<Model>> &slot,
          const std::string &text) {
  if (!slot || slot->text() != text)
    slot = std::make_shared<const ConfigReading<Model>>(text);
}

template <class Model>
std::shared_ptr<const ConfigReading<Model>>
readingOf(const std::shared_ptr<const ConfigReading<Model>> &slot,
          const std::string &text) {
  if (slot && slot->text() == text)
    return slot;
  return std::make_shared<const ConfigReading<Model>>(text);
}

// Whether the translation_info in force for `op` (its compilation_info's,
// else the dispatch's) asks for IREE's IGEMM path.
bool asksImplicitGemm(const Dispatch &dispatch, const RootOp &op) {
  if (!op.compilationInfo.empty()) {
    const auto reading = compilationReadingOf(op);
    if (const auto &info = reading->model())
      return config::usesImplicitGemm(info->translationInfo);
  }
  const auto reading = translationReadingOf(dispatch);
  if (const auto &info = reading->model())
    return config::usesImplicitGemm(*info);
  return false;
}

} // namespace

void chooseConfigLoops(const Dispatch &dispatch, RootOp &op) {
  if (!op.implicitGemm)
    return;
  op.onImplicitGemm = asksImplicitGemm(dispatch, op);
  if (op.onImplicitGemm) {
    op.space = op.implicitGemm->gemm;
    op.contraction = op.implicitGemm->contraction;
  } else {
    op.space = op.implicitGemm->convolution;
    op.contraction.reset();
  }
}

void detail::countRead() { ++reads; }

size_t configReadCount() { return reads; }

void readConfigs(Dispatch &dispatch) {
  keep(dispatch.translationReading, dispatch.translationInfo);
  for (RootOp &op : dispatch.rootOps) {
    keep(op.loweringReading, op.loweringConfig);
    keep(op.compilationReading, op.compilationInfo);
    keep(op.decompositionReading, op.decompositionConfig);
  }
  for (RootOp &op : dispatch.rootOps)
    chooseConfigLoops(dispatch, op);
}

void readConfigs(Document &document) {
  for (Dispatch &dispatch : document.dispatches)
    readConfigs(dispatch);
}

std::shared_ptr<const LoweringReading> loweringReadingOf(const RootOp &op) {
  return readingOf(op.loweringReading, op.loweringConfig);
}
std::shared_ptr<const CompilationReading>
compilationReadingOf(const RootOp &op) {
  return readingOf(op.compilationReading, op.compilationInfo);
}
std::shared_ptr<const DecompositionReading>
decompositionReadingOf(const RootOp &op) {
  return readingOf(op.decompositionReading, op.decompositionConfig);
}
std::shared_ptr<const TranslationReading>
translationReadingOf(const Dispatch &dispatch) {
  return readingOf(dispatch.translationReading, dispatch.translationInfo);
}

DispatchSymbol symbolOf(const Dispatch &dispatch) {
  return {dispatch.executable, dispatch.name};
}

std::map<DispatchSymbol, const Dispatch *>
dispatchesBySymbol(const Document &document) {
  std::map<DispatchSymbol, const Dispatch *> found;
  for (const Dispatch &dispatch : document.dispatches)
    found.emplace(symbolOf(dispatch), &dispatch);
  return found;
}

} // namespace tilescope::document
