#include "app/cli/LayoutInputs.h"

#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/config/configs/FieldText.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/service/IreeTargets.h"
#include "core/util/Numbers.h"

#include <iostream>

namespace tilescope::cli {
namespace {

Result<std::vector<int64_t>> integers(const QString &text, QChar separator,
                                      const char *what) {
  std::vector<int64_t> values;
  for (const QString &part : text.split(separator)) {
    auto value = parseInt64(part.trimmed().toStdString());
    if (!value)
      return Error{std::string(what) + " '" + text.toStdString() + "': '" +
                   part.toStdString() + "' is not an integer"};
    values.push_back(*value);
  }
  return values;
}

Result<int64_t> integer(const QString &text, const char *what) {
  auto value = parseInt64(text.trimmed().toStdString());
  if (!value)
    return Error{std::string(what) + " '" + text.toStdString() +
                 "' is not an integer"};
  return *value;
}

} // namespace

Result<std::vector<config::OperandAccess>>
operandsFor(const config::IterationSpace &space, const std::string &typesText,
            const std::string &mapsText) {
  std::vector<std::string> types;
  for (const QString &type :
       QString::fromStdString(typesText).split(',', Qt::SkipEmptyParts))
    types.push_back(type.trimmed().toStdString());
  if (!mapsText.empty()) {
    if (types.empty())
      return Error{"--maps needs --types, one element type per map"};
    return config::operandsFromMaps(mapsText, types, space.rank());
  }
  if (types.empty())
    return std::vector<config::OperandAccess>{};
  return config::operandsFromPattern(space, types);
}

int fail(const std::string &what, const std::string &message) {
  std::cerr << "tilescope-cli: " << what << ": " << message << "\n";
  return kExitFailure;
}

void LayoutOptions::addTo(QCommandLineParser &parser) const {
  parser.addOptions(
      {basis,        layout,  mma,       colMajor,        operand,
       config,       swizzle, element,   thread,          subgroup,
       lane,         shape,   subgroups, subgroupSize,    iterationSpace,
       types,        maps,    target,    release,         access,
       elementBytes, lanes,   step,      translationInfo, kOpOption,
       kIreeOption});
  parser.addPositionalArgument(
      "[FILE]", "An IREE file: draw the config of its root op --op on the "
                "op's own loops, types, target and translation_info.");
}

Result<LayoutInputs>
LayoutOptions::read(const QCommandLineParser &parser) const {
  return read(parser, true);
}

Result<LayoutInputs>
LayoutOptions::marks(const QCommandLineParser &parser) const {
  return read(parser, false);
}

// Which picture: FILE (its op's config) or exactly one of --basis,
// --layout, --mma, --config, --swizzle.
std::optional<Error> LayoutOptions::readKind(const QCommandLineParser &parser,
                                             LayoutInputs &in) const {
  int kinds = 0;
  for (const auto &[option, kind] :
       {std::pair{&basis, LayoutInputs::Kind::Basis},
        std::pair{&layout, LayoutInputs::Kind::Layout},
        std::pair{&mma, LayoutInputs::Kind::Mma},
        std::pair{&config, LayoutInputs::Kind::Config},
        std::pair{&swizzle, LayoutInputs::Kind::Swizzle}}) {
    if (!parser.isSet(*option))
      continue;
    ++kinds;
    in.kind = kind;
    (kind == LayoutInputs::Kind::Mma ? in.mma : in.text) =
        parser.value(*option).toStdString();
  }
  const QStringList files = parser.positionalArguments();
  if (files.size() > 1)
    return Error{"expected at most one FILE"};
  if (files.size() == 1 && kinds != 0)
    return Error{"give FILE --op DISPATCH:OP or one of --basis, --layout, "
                 "--mma, --config, --swizzle, not both"};
  if (files.size() == 1)
    in.kind = LayoutInputs::Kind::Config;
  else if (kinds != 1)
    return Error{
        "give exactly one of --basis, --layout, --mma, --config, --swizzle "
        "(or FILE --op DISPATCH:OP)"};
  return std::nullopt;
}

// The operand, ids, counts, element, shape and step, each checked.
std::optional<Error>
LayoutOptions::readNumbers(const QCommandLineParser &parser,
                           LayoutInputs &in) const {
  in.colMajor = parser.isSet(colMajor);
  if (parser.isSet(operand)) {
    const std::string name = parser.value(operand).toLower().toStdString();
    in.operand = layout::mmaOperandNamed(name);
    if (!in.operand)
      return Error{"--operand must be lhs, rhs, acc, lhs_scale or rhs_scale, "
                   "not '" +
                   name + "'"};
  }
  auto readInteger = [&](const QCommandLineOption &option, const char *what,
                         std::optional<int64_t> &out) -> std::optional<Error> {
    if (!parser.isSet(option))
      return std::nullopt;
    auto value = integer(parser.value(option), what);
    if (!value)
      return Error{value.error()};
    out = *value;
    return std::nullopt;
  };
  std::optional<int64_t> count, size, bytes, laneCount, stepValue;
  for (auto error : {readInteger(thread, "--thread", in.thread),
                     readInteger(subgroup, "--subgroup", in.subgroup),
                     readInteger(lane, "--lane", in.lane),
                     readInteger(subgroups, "--subgroups", count),
                     readInteger(subgroupSize, "--subgroup-size", size),
                     readInteger(elementBytes, "--element-bytes", bytes),
                     readInteger(lanes, "--lanes", laneCount),
                     readInteger(step, "--step", stepValue)})
    if (error)
      return *error;
  in.subgroups = count.value_or(0);
  in.subgroupSize = size.value_or(0);
  in.elementBytes = bytes.value_or(2);
  in.lanes = laneCount.value_or(64);
  in.step = stepValue.value_or(0);
  if (in.elementBytes <= 0 || in.lanes <= 0 || in.lanes > 4096 ||
      in.subgroups < 0 || in.subgroupSize < 0 || in.subgroups > 65536 ||
      in.subgroupSize > 4096)
    return Error{
        "--element-bytes, --lanes, --subgroups and --subgroup-size must be "
        "positive and reasonable (lanes <= 4096, subgroups <= 65536)"};
  for (const auto &[value, name] :
       {std::pair{in.thread, "--thread"}, std::pair{in.subgroup, "--subgroup"},
        std::pair{in.lane, "--lane"},
        std::pair{std::optional<int64_t>(in.step), "--step"}})
    if (value && *value < 0)
      return Error{std::string(name) + " " + std::to_string(*value) +
                   ": ids and steps count from 0"};
  if (parser.isSet(element)) {
    auto index = integers(parser.value(element), ',', "--element");
    if (!index)
      return Error{index.error()};
    in.element = *index;
  }
  if (parser.isSet(shape)) {
    auto sizes = integers(parser.value(shape), 'x', "--shape");
    if (!sizes)
      return Error{sizes.error()};
    in.shape = *sizes;
  }
  return std::nullopt;
}

// The op's texts: from the options, else (with FILE) from its root op.
std::optional<Error> LayoutOptions::readTexts(const QCommandLineParser &parser,
                                              LayoutInputs &in,
                                              bool readFile) const {
  const QStringList files = parser.positionalArguments();
  in.iterationSpaceText = parser.value(iterationSpace).toStdString();
  in.typesText = parser.value(types).toStdString();
  in.mapsText = parser.value(maps).toStdString();
  in.targetText = parser.value(target).toStdString();
  in.translationText = parser.value(translationInfo).toStdString();
  if (files.size() == 1 && readFile) {
    // The root op's own texts; options given beside FILE still override.
    int code = kExitOk;
    auto op = rootOpTexts(files.front().toStdString(), opSpecOf(parser),
                          workbenchOf(parser), code);
    if (!op)
      return Error{op.error()};
    in.text = op->config;
    auto orDefault = [&](const QCommandLineOption &option, std::string &value,
                         const std::string &fromFile) {
      if (!parser.isSet(option))
        value = fromFile;
    };
    orDefault(iterationSpace, in.iterationSpaceText, op->iterationSpace);
    orDefault(types, in.typesText, op->types);
    orDefault(maps, in.mapsText, op->maps);
    orDefault(target, in.targetText, op->target);
    orDefault(translationInfo, in.translationText, op->translationInfo);
    if (!parser.isSet(iterationSpace)) {
      in.fusedWorkgroupTile = op->fusedWorkgroupTile;
      in.implicitGemm = op->implicitGemm;
      in.attention = op->attention;
    }
  }
  if (!in.targetText.empty()) {
    // A name is asked of the IREE in use (its target table grows with each
    // release); the built-in table answers when there is none.
    auto installation = workbenchOf(parser).iree();
    auto resolved = service::resolveTarget(
        installation ? &*installation : nullptr, in.targetText);
    if (!resolved)
      return Error{"--target: " + resolved.error()};
    in.resolvedTarget = std::move(resolved->target);
    in.targetNote = std::move(resolved->note);
  }
  in.ireeRelease = parser.value(release).toStdString();
  in.accessPattern = parser.value(access).toStdString();
  if (in.accessPattern != "column" && in.accessPattern != "row" &&
      in.accessPattern.rfind("mma:", 0) != 0)
    return Error{"--access must be column, row or mma:INTRINSIC:OPERAND (e.g. "
                 "mma:MFMA_F32_16x16x16_F16:lhs)"};
  if (in.accessPattern.rfind("mma:", 0) == 0) {
    const QStringList parts =
        QString::fromStdString(in.accessPattern).split(':');
    const layout::MmaIntrinsic *intrinsic =
        parts.size() == 3 ? layout::findMmaIntrinsic(parts[1].toStdString())
                          : nullptr;
    const QString operandName =
        parts.size() == 3 ? parts[2].toLower() : QString();
    if (!intrinsic ||
        !(operandName == "lhs" || operandName == "rhs" || operandName == "acc"))
      return Error{
          "--access " + in.accessPattern +
          ": expected mma:INTRINSIC:lhs|rhs|acc with a known intrinsic"};
  }
  return std::nullopt;
}

Result<LayoutInputs> LayoutOptions::read(const QCommandLineParser &parser,
                                         bool readFile) const {
  LayoutInputs in;
  for (auto part : {&LayoutOptions::readKind, &LayoutOptions::readNumbers})
    if (auto error = (this->*part)(parser, in))
      return *error;
  if (auto error = readTexts(parser, in, readFile))
    return *error;
  return in;
}

Result<config::Basis> LayoutInputs::basis() const {
  return config::basisOf(text, "--basis");
}

Result<layout::NestedLayout> LayoutInputs::nestedLayout() const {
  auto attr = config::NestedLayoutAttr::parse(text);
  if (!attr)
    return Error{attr.error()};
  auto created = layout::NestedLayout::create(*attr, subgroups, subgroupSize);
  if (!created)
    return created;
  if (shape && *shape != created->shape()) {
    std::string products, given;
    for (int64_t v : created->shape())
      products += (products.empty() ? "" : "x") + std::to_string(v);
    for (int64_t v : *shape)
      given += (given.empty() ? "" : "x") + std::to_string(v);
    return Error{"the layout's tiles multiply to " + products +
                 "; --shape says " + given};
  }
  if (element) {
    if (element->size() != created->rank())
      return Error{"--element has " + std::to_string(element->size()) +
                   " indices; the layout has rank " +
                   std::to_string(created->rank())};
    for (size_t i = 0; i < element->size(); ++i)
      if ((*element)[i] < 0 || (*element)[i] >= created->shape()[i])
        return Error{"--element index " + std::to_string((*element)[i]) +
                     " is outside dimension " + std::to_string(i) + " (size " +
                     std::to_string(created->shape()[i]) + ")"};
  }
  return created;
}

Result<config::LoweringConfig> LayoutInputs::loweringConfig() const {
  return config::LoweringConfig::parse(text);
}

Result<std::optional<config::TranslationInfo>>
LayoutInputs::translationInfo() const {
  if (translationText.empty())
    return std::optional<config::TranslationInfo>();
  auto parsed = config::TranslationInfo::parse(translationText);
  if (!parsed)
    return Error{parsed.error()};
  return std::optional<config::TranslationInfo>(std::move(*parsed));
}

Result<config::IterationSpace> LayoutInputs::iterationSpace() const {
  if (iterationSpaceText.empty())
    return Error{"needs --iteration-space, e.g. 4x6656x16384:ppr"};
  auto space = config::IterationSpace::parse(iterationSpaceText);
  if (!space)
    return space;
  auto operands = operandsFor(*space, typesText, mapsText);
  if (!operands)
    return Error{operands.error()};
  space->operands = std::move(*operands);
  return space;
}

std::optional<config::GpuTarget> LayoutInputs::target() const {
  return resolvedTarget;
}

Result<layout::Swizzle> LayoutInputs::swizzle() const {
  return layout::Swizzle::parse(text);
}

std::vector<layout::LaneAccess>
LayoutInputs::accesses(const layout::Swizzle &swizzle) const {
  if (accessPattern.rfind("mma:", 0) == 0) {
    const QStringList parts = QString::fromStdString(accessPattern).split(':');
    const layout::MmaIntrinsic *intrinsic =
        layout::findMmaIntrinsic(parts[1].toStdString());
    const QString name = parts[2].toLower();
    const layout::MmaOperand operand = name == "lhs" ? layout::MmaOperand::Lhs
                                       : name == "rhs"
                                           ? layout::MmaOperand::Rhs
                                           : layout::MmaOperand::Acc;
    return layout::fragmentAccesses(intrinsic->fragment(operand),
                                    intrinsic->subgroupSize);
  }
  if (accessPattern == "row")
    return layout::rowMajorAccesses(lanes, swizzle.rowWidth(),
                                    swizzle.accessWidth());
  return layout::columnMajorAccesses(lanes, lanes, swizzle.accessWidth());
}

layout::BankModel LayoutInputs::bankModel() const {
  if (auto resolved = target())
    return layout::BankModel::forTarget(*resolved);
  return layout::BankModel::forArch("gfx942");
}

} // namespace tilescope::cli
