#include "widgets/editor/ConfigFieldModel.h"

#include "core/config/configs/FieldText.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/FieldEdit.h"
#include "core/layout/TileMeaning.h"
#include "widgets/editor/EditSession.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <map>

namespace tilescope::widgets {
namespace {

constexpr const char *kTileKeys[] = {
    "workgroup", "reduction", "partial_reduction", "thread",
    "subgroup",  "padding",   "padding_conv"};

QString qs(const std::string &text) { return QString::fromStdString(text); }

// "d0 1024 · d1 1024 · d2 1024 red.": which loop each entry of a tile list
// runs over.
QString loopsText(const config::IterationSpace &space) {
  QStringList loops;
  for (size_t d = 0; d < space.rank(); ++d) {
    const int64_t bound = space.bounds[d];
    loops << QString("d%1 %2%3")
                 .arg(d)
                 .arg(bound < 0 ? QString("?") : QString::number(bound))
                 .arg(space.isReduction(d) ? " red." : "");
  }
  return loops.join(" · ");
}

// What a row shows of a value: an intrinsic or a pipeline by its name,
// which the editor's column has room for; the edit layer spells a bare
// name back (edit::spelledValue).
QString shownValue(const QString &field, const QString &value) {
  auto parsed = edit::parseField(field.toStdString());
  return parsed ? qs(edit::bareName(*parsed, value.toStdString())) : value;
}

bool changedFrom(const QString &value, const QString &original) {
  return original != value && !(original == "(absent)" && value.isEmpty());
}

} // namespace

bool isTileField(const QString &field) {
  return std::any_of(std::begin(kTileKeys), std::end(kTileKeys),
                     [&field](const char *key) { return field == key; });
}

ConfigFieldModel::ConfigFieldModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void ConfigFieldModel::show(const EditSession *session,
                            std::optional<edit::OpRef> shown) {
  if (session != edits) {
    if (edits)
      disconnect(edits, nullptr, this, nullptr);
    edits = session;
    // Any field of the op's dispatch (its translation_info) may change
    // what a row shows: the rows are read again, cheaply, and compared.
    if (edits)
      connect(edits, &EditSession::fieldChanged, this,
              [this](edit::OpRef changed) {
                if (op && changed.dispatch == op->dispatch)
                  refresh();
              });
  }
  op = shown;
  refresh(true);
}

void ConfigFieldModel::refresh(bool anew) {
  // The op must still be in the document (a new file may have fewer).
  const bool valid =
      edits && op && edits->hasDocument() &&
      op->dispatch < edits->document().dispatches.size() &&
      op->op < edits->document().dispatches[op->dispatch].rootOps.size() &&
      op->dispatch < edits->original().dispatches.size() &&
      op->op < edits->original().dispatches[op->dispatch].rootOps.size();
  OpContext context = valid ? contextOf() : OpContext{};
  std::vector<Row> fresh = valid ? rowsOf(context) : std::vector<Row>{};
  const bool sameRows =
      fresh.size() == rows.size() &&
      std::equal(fresh.begin(), fresh.end(), rows.begin(),
                 [](const Row &a, const Row &b) {
                   return a.section == b.section && a.field == b.field;
                 });
  // The heading names the loops; the config's text what its tiles mean.
  const bool contextMoved = context.heading != about.heading ||
                            context.pipeline != about.pipeline ||
                            context.subgroupSize != about.subgroupSize ||
                            context.subgroups != about.subgroups ||
                            context.intrinsics != about.intrinsics ||
                            context.derived != about.derived ||
                            context.configText != about.configText;
  if (anew || !sameRows) {
    beginResetModel();
    rows = std::move(fresh);
    about = std::move(context);
    endResetModel();
    emit contextChanged();
    return;
  }
  about = std::move(context);
  for (size_t r = 0; r < rows.size(); ++r)
    // A tile list's tooltip says what its entries mean under the config
    // and pipeline: it may change with them.
    if (!(rows[r] == fresh[r]) || (contextMoved && !rows[r].loops.isEmpty())) {
      rows[r] = std::move(fresh[r]);
      emit dataChanged(index(static_cast<int>(r), 0),
                       index(static_cast<int>(r), kColumns - 1));
    }
  if (contextMoved)
    emit contextChanged();
}

ConfigFieldModel::OpContext ConfigFieldModel::contextOf() const {
  OpContext context;
  const document::Dispatch &dispatch =
      edits->document().dispatches[op->dispatch];
  const document::RootOp &root = dispatch.rootOps[op->op];
  context.space = root.space;
  context.configText = qs(root.loweringConfig);
  context.derived =
      root.loweringConfig.rfind("#iree_gpu.derived_thread_config", 0) == 0;
  // The configs as the document read them, once per edit.
  if (const auto lowering = document::loweringReadingOf(root);
      lowering->model())
    context.loweringConfig = *lowering->model();
  const auto translation = document::translationReadingOf(dispatch);
  const Result<config::TranslationInfo> &info = translation->model();
  if (info)
    context.pipeline = qs(info->pipelineName());
  if (info && info->subgroupSize && *info->subgroupSize > 0) {
    context.subgroupSize = info->subgroupSize;
    if (info->workgroupSize) {
      int64_t threads = 1;
      for (int64_t size : *info->workgroupSize)
        threads *= std::max<int64_t>(size, 1);
      context.subgroups = threads / *info->subgroupSize;
    }
  }
  QString targetNote;
  if (auto target = config::gpuTargetFromText(dispatch.target)) {
    for (const std::string &intrinsic : target->mmaIntrinsics)
      context.intrinsics << qs(intrinsic);
    targetNote = " on " + qs(target->arch);
  }
  // A convolution IREE builds as an implicit GEMM: its lists index the
  // IGEMM loops, K made of the filter window and input channels.
  QString igemm;
  if (root.implicitGemm && root.onImplicitGemm)
    for (size_t g = 0; g < root.implicitGemm->gemm.rank(); ++g)
      if (root.implicitGemm->convolutionLoopsOf(static_cast<int>(g)).size() > 1)
        igemm +=
            QString(" (IREE's implicit GEMM: d%1 = %2)")
                .arg(g)
                .arg(qs(root.implicitGemm->describeLoop(static_cast<int>(g))));
  context.heading =
      qs(root.name) + " (line " + QString::number(root.line) + ")" +
      targetNote +
      (root.space ? "\nloops: " + loopsText(*root.space) + igemm : "") +
      "\nEnter applies a value, Ctrl+Z undoes it, an empty value removes "
      "the field.";
  return context;
}

std::vector<ConfigFieldModel::Row>
ConfigFieldModel::rowsOf(const OpContext &context) const {
  const document::Dispatch &dispatch =
      edits->document().dispatches[op->dispatch];
  const document::RootOp &root = dispatch.rootOps[op->op];
  const document::Dispatch &originalDispatch =
      edits->original().dispatches[op->dispatch];
  const document::RootOp &originalRoot = originalDispatch.rootOps[op->op];

  const auto now = edit::opFields(dispatch, root);
  const auto before = edit::opFields(originalDispatch, originalRoot);
  std::map<std::string, std::string> originalValue;
  for (const edit::FieldValue &f : before)
    originalValue[f.field] = f.value;
  std::vector<edit::FieldValue> fields = now;
  // A config Tilescope cannot read field by field (a CPU config, another
  // dialect's) is edited whole, as text.
  const bool byField =
      std::any_of(now.begin(), now.end(), [](const edit::FieldValue &f) {
        return f.field.rfind("translation_info.", 0) != 0;
      });
  auto wholeOf = [](const document::RootOp &of) {
    return of.compilationInfo.empty() ? of.loweringConfig : of.compilationInfo;
  };
  if (!byField && !wholeOf(root).empty()) {
    fields.insert(fields.begin(), {"lowering_config", wholeOf(root)});
    originalValue["lowering_config"] = wholeOf(originalRoot);
  }
  for (const edit::FieldValue &f : before) {
    bool present = false;
    for (const edit::FieldValue &g : now)
      present = present || g.field == f.field;
    if (!present)
      fields.push_back({f.field, ""}); // removed: re-added by typing a value
  }
  std::vector<Row> made;
  bool translationHeader = false;
  for (size_t i = 0; i < fields.size(); ++i) {
    const QString field = qs(fields[i].field);
    if (i == 0 ||
        (!translationHeader && field.startsWith("translation_info."))) {
      translationHeader = field.startsWith("translation_info.");
      made.push_back(
          {true,
           translationHeader ? "translation_info" : "lowering_config",
           {},
           {},
           {}});
    }
    auto it = originalValue.find(fields[i].field);
    Row row;
    row.field = field;
    row.value = qs(fields[i].value);
    row.original =
        it == originalValue.end() ? QString("(absent)") : qs(it->second);
    if (isTileField(field) && context.space)
      row.loops = loopsText(*context.space);
    made.push_back(std::move(row));
  }
  return made;
}

QStringList ConfigFieldModel::fields() const {
  QStringList names;
  for (const Row &row : rows)
    if (!row.section)
      names << row.field;
  return names;
}

int ConfigFieldModel::rowOf(const QString &field) const {
  for (size_t r = 0; r < rows.size(); ++r)
    if (!rows[r].section && rows[r].field == field)
      return static_cast<int>(r);
  return -1;
}

bool ConfigFieldModel::isSection(int row) const {
  return row >= 0 && static_cast<size_t>(row) < rows.size() &&
         rows[static_cast<size_t>(row)].section;
}

QString ConfigFieldModel::loopsOf(int row) const {
  return row >= 0 && static_cast<size_t>(row) < rows.size()
             ? rows[static_cast<size_t>(row)].loops
             : QString();
}

int ConfigFieldModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows.size());
}

int ConfigFieldModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : kColumns;
}

// A tile list's tooltip: what each entry means under the pipeline, or the
// loops when that cannot be read; another field's: its value whole, which
// the column may cut.
QString ConfigFieldModel::valueTip(const Row &row) const {
  if (row.loops.isEmpty())
    return row.value;
  const auto values = config::integerListOf(row.value.toStdString());
  if (about.loweringConfig && about.space && values)
    if (auto meaning = layout::describeTileLevel(
            row.field.toStdString(), *values, *about.loweringConfig,
            *about.space, about.pipeline.toStdString())) {
      QStringList lines;
      for (const layout::TileEntryMeaning &entry : meaning->entries)
        lines << qs(entry.text);
      return lines.join("\n");
    }
  return "One entry per loop: " + row.loops;
}

QVariant ConfigFieldModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || static_cast<size_t>(index.row()) >= rows.size())
    return {};
  const Row &row = rows[static_cast<size_t>(index.row())];
  if (row.section) {
    if (index.column() != kField)
      return {};
    switch (role) {
    case Qt::DisplayRole:
      return row.field;
    case Qt::FontRole: {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    case Qt::BackgroundRole: // the palette at paint time: themes follow
      return QGuiApplication::palette().alternateBase();
    case kSectionRole:
      return true;
    default:
      return {};
    }
  }
  const bool changed = changedFrom(row.value, row.original);
  switch (role) {
  case kFieldNameRole:
    return row.field;
  case kSectionRole:
    return false;
  case kFullValueRole:
    return index.column() == kOriginal ? row.original : row.value;
  case Qt::DisplayRole:
  case Qt::EditRole:
    if (index.column() == kField)
      return QString(row.field).remove("translation_info.");
    return shownValue(row.field,
                      index.column() == kValue ? row.value : row.original);
  case Qt::ToolTipRole:
    if (index.column() == kField)
      return changed ? row.field + ": changed from " +
                           shownValue(row.field, row.original)
                     : row.field;
    return index.column() == kValue ? valueTip(row) : row.original;
  case Qt::FontRole:
    if (index.column() == kField && changed) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    return {};
  default:
    return {};
  }
}

QVariant ConfigFieldModel::headerData(int section, Qt::Orientation orientation,
                                      int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return {};
  switch (section) {
  case kField:
    return QString("Field");
  case kValue:
    return QString("Value");
  case kOriginal:
    return QString("Original");
  default:
    return {};
  }
}

} // namespace tilescope::widgets
