#include "widgets/ConfigEditor.h"

#include "core/config/Attribute.h"
#include "core/config/TargetAttribute.h"
#include "core/config/TranslationInfo.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/FieldEdit.h"
#include "core/layout/TileMeaning.h"
#include "widgets/BasisEditor.h"
#include "widgets/TileEditor.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <variant>

namespace tilescope::widgets {
namespace {

enum Column { kField, kValue, kOriginal, kColumns };

constexpr int kFieldNameRole = Qt::UserRole;

constexpr const char *kTileKeys[] = {
    "workgroup", "reduction", "partial_reduction", "thread",
    "subgroup",  "padding",   "padding_conv"};

// Fields a GPU lowering config or translation_info may hold, offered by the
// "add" row.
constexpr const char *kKnownFields[] = {
    "workgroup",
    "reduction",
    "partial_reduction",
    "thread",
    "subgroup",
    "lane_basis",
    "subgroup_basis",
    "mma_kind",
    "promote_operands",
    "padding",
    "expand_dims",
    "translation_info.workgroup_size",
    "translation_info.subgroup_size",
    "prefetch_num_stages",
    "no_reduce_shared_memory_bank_conflicts"};

QString qs(const std::string &text) { return QString::fromStdString(text); }

// "d0 1024 · d1 1024 · d2 1024 red.": which loop each entry of a tile list
// runs over.
QString loopsOf(const config::IterationSpace &space) {
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

bool isTileField(const QString &field) {
  return std::any_of(std::begin(kTileKeys), std::end(kTileKeys),
                     [&field](const char *key) { return field == key; });
}

// The boxes have no frame of their own (they sit in table cells): the one
// with the keyboard gets a ring, in a blue that reads on light and dark
// palettes alike, and the others keep its width transparent so text does
// not move. `colours`: a problem's background and text, or none.
// A style sheet takes the palette it is applied under: ConfigEditor
// applies it again when the theme changes (restyle()).
QString boxStyle(const QString &colours = {}) {
  return "QLineEdit { border: 2px solid transparent; " + colours +
         " } QLineEdit:focus { border-color: #3d8ee6; }";
}

void restyle(QLineEdit *box) {
  box->setStyleSheet(boxStyle(box->property("problemColours").toString()));
}

// A box's own tooltip (its loops, the intrinsics) shows again when a
// problem's message is cleared.
void setMessage(QLineEdit *box, const QString &message, bool error) {
  box->setProperty("problemColours",
                   message.isEmpty() ? ""
                   : error           ? "background: #fbe3e4; color: #8a1f11;"
                                     : "background: #fff6d5; color: #1a1a1a;");
  restyle(box);
  box->setToolTip(message.isEmpty() ? box->property("baseToolTip").toString()
                                    : message);
}

} // namespace

ConfigEditor::ConfigEditor(QWidget *parent) : QWidget(parent) {
  heading = new QLabel;
  heading->setObjectName("configEditorHeading");
  heading->setWordWrap(true);
  heading->setTextFormat(Qt::PlainText);

  table = new QTableWidget(0, kColumns);
  table->setObjectName("configTable");
  table->setHorizontalHeaderLabels({"Field", "Value", "Original"});
  table->verticalHeader()->hide();
  table->setSelectionMode(QAbstractItemView::NoSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->horizontalHeader()->setSectionResizeMode(kField,
                                                  QHeaderView::Interactive);
  table->horizontalHeader()->setSectionResizeMode(kValue, QHeaderView::Stretch);
  table->horizontalHeader()->setSectionResizeMode(kOriginal,
                                                  QHeaderView::Interactive);
  table->horizontalHeader()->resizeSection(kOriginal, 130);
  table->setTextElideMode(Qt::ElideMiddle);
  table->setWordWrap(false);
  // The keyboard walks the Value boxes, never a read-only cell: Tab and
  // Shift+Tab go box to box (the table itself takes no focus), Up and Down
  // go row to row, and a click or arrow on a row's other cells puts the
  // cursor in its box.
  table->setTabKeyNavigation(false);
  table->setFocusPolicy(Qt::NoFocus);
  connect(table, &QTableWidget::currentCellChanged, this, [this](int row) {
    if (QLineEdit *box = boxOf(row); box && !box->hasFocus())
      box->setFocus(Qt::OtherFocusReason);
  });
  // Wide enough that a value is read, not two characters of it.
  setMinimumWidth(380);

  newField = new QComboBox;
  newField->setObjectName("newFieldBox");
  newField->setEditable(true);
  newField->setMinimumContentsLength(18);
  newField->setToolTip("A field to add: a lowering-config key or a "
                       "translation_info field");
  newValue = new QLineEdit;
  newValue->setObjectName("newFieldValue");
  newValue->setPlaceholderText("value, e.g. [64, 64, 0]");
  newValue->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  addButton = new QPushButton("Add");
  QPushButton *add = addButton;
  add->setObjectName("addFieldButton");
  auto addField = [this] {
    const QString field = newField->currentText().trimmed();
    if (!field.isEmpty() && !newValue->text().trimmed().isEmpty())
      emit commit(field, newValue->text().trimmed());
  };
  connect(add, &QPushButton::clicked, this, addField);
  connect(newValue, &QLineEdit::returnPressed, this, addField);

  auto *addRow = new QHBoxLayout;
  addRow->addWidget(new QLabel("Add"));
  addRow->addWidget(newField);
  addRow->addWidget(newValue, 1);
  addRow->addWidget(add);

  auto *column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  column->addWidget(heading);
  column->addWidget(table, 1);
  column->addLayout(addRow);
  clear("Select a root op to edit its configuration.");
}

void ConfigEditor::clear(const QString &why) {
  table->setRowCount(0);
  heading->setText(why);
  newField->clear();
  setEnabled(false);
}

void ConfigEditor::showOp(const document::Dispatch &dispatch,
                          const document::RootOp &op,
                          const document::Dispatch &originalDispatch,
                          const document::RootOp &originalOp) {
  setEnabled(true);
  intrinsics.clear();
  space = op.space;
  loweringConfig.reset();
  // The configs as the document read them, once per edit.
  if (const auto lowering = document::loweringReadingOf(op); lowering->model())
    loweringConfig = *lowering->model();
  pipeline.clear();
  subgroupSize.reset();
  subgroups.reset();
  const auto translation = document::translationReadingOf(dispatch);
  const Result<config::TranslationInfo> &info = translation->model();
  if (info)
    pipeline = qs(info->pipelineName());
  if (info && info->subgroupSize && *info->subgroupSize > 0) {
    subgroupSize = info->subgroupSize;
    if (info->workgroupSize) {
      int64_t threads = 1;
      for (int64_t size : *info->workgroupSize)
        threads *= std::max<int64_t>(size, 1);
      subgroups = threads / *subgroupSize;
    }
  }
  QString targetNote;
  if (auto target = config::gpuTargetFromText(dispatch.target)) {
    intrinsics = target->mmaIntrinsics;
    targetNote = " on " + qs(target->arch);
  }
  // A convolution IREE builds as an implicit GEMM: its lists index the
  // IGEMM loops, K made of the filter window and input channels.
  QString igemm;
  if (op.implicitGemm && op.onImplicitGemm)
    for (size_t g = 0; g < op.implicitGemm->gemm.rank(); ++g)
      if (op.implicitGemm->convolutionLoopsOf(static_cast<int>(g)).size() > 1)
        igemm +=
            QString(" (IREE's implicit GEMM: d%1 = %2)")
                .arg(g)
                .arg(qs(op.implicitGemm->describeLoop(static_cast<int>(g))));
  heading->setText(qs(op.name) + " (line " + QString::number(op.line) + ")" +
                   targetNote +
                   (op.space ? "\nloops: " + loopsOf(*op.space) + igemm : "") +
                   "\nEnter applies a value, Ctrl+Z undoes it, an empty "
                   "value removes the field.");

  const auto now = edit::opFields(dispatch, op);
  const auto before = edit::opFields(originalDispatch, originalOp);
  std::map<std::string, std::string> originalValue;
  for (const edit::FieldValue &f : before)
    originalValue[f.field] = f.value;
  // Rows keep their boxes (and what is typed in them) when the model did
  // not change that field.
  std::map<QString, QString> typing;
  for (int row = 0; row < table->rowCount(); ++row)
    if (QLineEdit *box = boxOf(row)) {
      if (box->isModified() && box->text() != box->property("modelValue"))
        typing[table->item(row, kField)->data(kFieldNameRole).toString()] =
            box->text();
      // A box losing focus as it goes must not commit, nor be found by
      // name until Qt deletes it.
      box->disconnect(this);
      box->setObjectName({});
    }
  table->setRowCount(0);

  std::vector<edit::FieldValue> rows = now;
  // A config Tilescope cannot read field by field (a CPU config, another
  // dialect's) is edited whole, as text.
  const bool byField =
      std::any_of(now.begin(), now.end(), [](const edit::FieldValue &f) {
        return f.field.rfind("translation_info.", 0) != 0;
      });
  auto wholeOf = [](const document::RootOp &of) {
    return of.compilationInfo.empty() ? of.loweringConfig : of.compilationInfo;
  };
  if (!byField && !wholeOf(op).empty()) {
    rows.insert(rows.begin(), {"lowering_config", wholeOf(op)});
    originalValue["lowering_config"] = wholeOf(originalOp);
  }
  for (const edit::FieldValue &f : before) {
    bool present = false;
    for (const edit::FieldValue &g : now)
      present = present || g.field == f.field;
    if (!present)
      rows.push_back({f.field, ""}); // removed: re-added by typing a value
  }
  bool translationHeader = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    const edit::FieldValue &f = rows[i];
    const QString field = qs(f.field);
    if (i == 0 ||
        (!translationHeader && field.startsWith("translation_info."))) {
      translationHeader = field.startsWith("translation_info.");
      addSection(translationHeader ? "translation_info" : "lowering_config");
    }
    auto it = originalValue.find(f.field);
    const QString original =
        it == originalValue.end() ? QString("(absent)") : qs(it->second);
    QString loops;
    if (isTileField(field) && op.space)
      loops = loopsOf(*op.space);
    addRow(field, qs(f.value), original, loops);
    if (auto typed = typing.find(field); typed != typing.end()) {
      boxOf(table->rowCount() - 1)->setText(typed->second);
      boxOf(table->rowCount() - 1)->setModified(true);
    }
  }

  chainFocus();
  fitColumns();

  const QString kept = newField->currentText();
  newField->clear();
  // A #iree_gpu.derived_thread_config has no fields of its own (IREE derives
  // its tiles): only translation_info's, or the whole attribute, can be added.
  const bool derived =
      op.loweringConfig.rfind("#iree_gpu.derived_thread_config", 0) == 0;
  for (const char *field : kKnownFields)
    if (rowOf(field) < 0 && rowOf(QString("translation_info.") + field) < 0 &&
        (!derived || edit::parseField(field).value().part ==
                         edit::ConfigPart::TranslationInfo))
      newField->addItem(field);
  newField->addItem("lowering_config");
  newField->addItem("translation_info");
  if (!kept.isEmpty())
    newField->setCurrentText(kept);
}

namespace {

// What a row shows of a value: an intrinsic or a pipeline by its name,
// which the config editor's column has room for; the edit layer spells a
// bare name back (edit::spelledValue).
QString shownValue(const QString &field, const QString &value) {
  auto parsed = edit::parseField(field.toStdString());
  return parsed ? QString::fromStdString(
                      edit::bareName(*parsed, value.toStdString()))
                : value;
}

} // namespace

void ConfigEditor::addRow(const QString &field, const QString &fullValue,
                          const QString &fullOriginal, const QString &loops) {
  const QString value = shownValue(field, fullValue);
  const QString original = shownValue(field, fullOriginal);
  const int row = table->rowCount();
  table->insertRow(row);
  QString shown = field;
  shown.remove("translation_info.");
  auto *name = new QTableWidgetItem(shown);
  name->setData(kFieldNameRole, field);
  table->setItem(row, kField, name);
  auto *box = new QLineEdit(value);
  box->setObjectName("field:" + field);
  box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  box->setFrame(false);
  restyle(box);
  box->setProperty("modelValue", value);
  box->setCursorPosition(0); // a long attribute shows its start
  // Fields with a known set of values offer them as one types.
  QStringList choices;
  QString choiceTip;
  if (field == "mma_kind" && !intrinsics.empty()) {
    for (const std::string &intrinsic : intrinsics)
      choices << qs(intrinsic);
    choiceTip = "The target's intrinsics: type part of a name (the name "
                "stands for #iree_gpu.mma_layout<NAME>)";
  } else if (field == "translation_info.pipeline" &&
             fullValue.startsWith("#iree_gpu.pipeline<")) {
    for (const std::string &pipeline : config::gpuPipelineNames())
      choices << qs(pipeline);
    choiceTip = "IREE's GPU pipelines: type part of a name (the name stands "
                "for #iree_gpu.pipeline<NAME>)";
  }
  if (!choices.isEmpty()) {
    auto *completer = new QCompleter(choices, box);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    box->setCompleter(completer);
    box->setToolTip(choiceTip);
  }
  const bool basis = field == "lane_basis" || field == "subgroup_basis";
  if (basis || (isTileField(field) && space && field != "padding" &&
                field != "padding_conv")) {
    // A basis and a tile list have editors of their own: counts and the
    // digit each loop takes; a box per loop with what its number means.
    auto *edit = new QToolButton;
    edit->setObjectName((basis ? "basisButton:" : "tileButton:") + field);
    edit->setText("…");
    edit->setToolTip(basis ? "Edit the counts and the loop each digit walks"
                           : "Edit loop by loop, with what each number "
                             "means under the pipeline");
    connect(edit, &QToolButton::clicked, this, [this, field, basis] {
      if (basis)
        editBasis(field);
      else
        editTiles(field);
    });
    auto *cell = new QWidget;
    auto *line = new QHBoxLayout(cell);
    line->setContentsMargins(0, 0, 0, 0);
    line->setSpacing(0);
    line->addWidget(box, 1);
    line->addWidget(edit);
    table->setCellWidget(row, kValue, cell);
  } else {
    table->setCellWidget(row, kValue, box);
  }
  auto *before = new QTableWidgetItem(original);
  before->setToolTip(fullOriginal);
  table->setItem(row, kOriginal, before);
  if (!loops.isEmpty())
    box->setToolTip(tileTip(field, value, loops));
  else if (!value.isEmpty()) // the whole value, which the column may cut
    box->setToolTip(fullValue +
                    (choiceTip.isEmpty() ? "" : "\n\n" + choiceTip));
  box->setProperty("baseToolTip", box->toolTip());
  if (original != value && !(original == "(absent)" && value.isEmpty())) {
    QFont bold = name->font();
    bold.setBold(true);
    name->setFont(bold);
    name->setToolTip(field + ": changed from " + original);
  } else {
    name->setToolTip(field);
  }
  box->installEventFilter(this); // Up and Down; its row scrolled into view
  connect(box, &QLineEdit::textEdited, this,
          [this, field](const QString &t) { emit drafting(field, t); });
  connect(box, &QLineEdit::returnPressed, this,
          [this, field] { commitRow(rowOf(field)); });
  connect(box, &QLineEdit::editingFinished, this,
          [this, field] { commitRow(rowOf(field)); });
}

// A row naming the attribute the rows below it belong to.
void ConfigEditor::addSection(const QString &title) {
  const int row = table->rowCount();
  table->insertRow(row);
  auto *item = new QTableWidgetItem(title);
  QFont bold = item->font();
  bold.setBold(true);
  item->setFont(bold);
  item->setBackground(palette().alternateBase());
  table->setItem(row, kField, item);
  table->setSpan(row, 0, 1, kColumns);
}

void ConfigEditor::resizeEvent(QResizeEvent *event) {
  QWidget::resizeEvent(event);
  fitColumns();
}

void ConfigEditor::fitColumns() {
  const int width = table->viewport()->width();
  if (width <= 0)
    return;
  // Section rows span the table: measure the field rows' names only.
  int names = table->fontMetrics().horizontalAdvance("Field") + 16;
  int originals = 60;
  for (int row = 0; row < table->rowCount(); ++row) {
    if (table->columnSpan(row, kField) != 1)
      continue;
    if (const QTableWidgetItem *name = table->item(row, kField))
      names = std::max(
          names, table->fontMetrics().horizontalAdvance(name->text()) + 16);
    if (const QTableWidgetItem *original = table->item(row, kOriginal))
      originals = std::max(
          originals,
          table->fontMetrics().horizontalAdvance(original->text()) + 12);
  }
  // The field names whole, then the values: the originals give way (down
  // to what keeps them readable) until the longest value is whole.
  int values = 0;
  for (int row = 0; row < table->rowCount(); ++row)
    if (const QLineEdit *box = boxOf(row)) {
      const bool button = table->cellWidget(row, kValue) != box;
      values =
          std::max(values, box->fontMetrics().horizontalAdvance(box->text()) +
                               16 + (button ? 26 : 0));
    }
  int field = std::min(names, std::max(90, width * 35 / 100));
  int original = std::min(originals, std::max(60, width * 22 / 100));
  if (field + original + values > width)
    original = std::max(60, width - field - values);
  table->horizontalHeader()->resizeSection(kField, field);
  table->horizontalHeader()->resizeSection(kOriginal, original);
}

void ConfigEditor::changeEvent(QEvent *event) {
  QWidget::changeEvent(event);
  if (event->type() != QEvent::PaletteChange)
    return;
  for (int row = 0; row < table->rowCount(); ++row) {
    if (QTableWidgetItem *item = table->item(row, kField);
        item && table->columnSpan(row, kField) == kColumns)
      item->setBackground(palette().alternateBase());
    if (QLineEdit *box = boxOf(row))
      restyle(box);
  }
}

void ConfigEditor::chainFocus() {
  // Rows are rebuilt after the Add row was made: without this, Tab would
  // visit the Add row before the first field.
  QWidget *previous = nullptr;
  auto chain = [&previous](QWidget *next) {
    if (previous)
      setTabOrder(previous, next);
    previous = next;
  };
  for (int row = 0; row < table->rowCount(); ++row)
    if (QLineEdit *box = boxOf(row)) {
      chain(box);
      if (auto *button =
              table->cellWidget(row, kValue)->findChild<QToolButton *>())
        chain(button);
    }
  chain(newField);
  chain(newValue);
  chain(addButton);
}

bool ConfigEditor::eventFilter(QObject *watched, QEvent *event) {
  auto *box = qobject_cast<QLineEdit *>(watched);
  if (!box)
    return QWidget::eventFilter(watched, event);
  auto rowOfBox = [&] {
    for (int r = 0; r < table->rowCount(); ++r)
      if (boxOf(r) == box)
        return r;
    return -1;
  };
  // However the keyboard got here (Tab, Up, Down), its row is in view.
  if (event->type() == QEvent::FocusIn) {
    if (const int row = rowOfBox(); row >= 0)
      table->scrollToItem(table->item(row, kField));
    return QWidget::eventFilter(watched, event);
  }
  if (event->type() != QEvent::KeyPress)
    return QWidget::eventFilter(watched, event);
  // Only Up and Down are ours; every typed key passes straight on.
  const int key = static_cast<QKeyEvent *>(event)->key();
  if ((key != Qt::Key_Up && key != Qt::Key_Down) ||
      (box->completer() && box->completer()->popup()->isVisible()))
    return QWidget::eventFilter(watched, event);
  const int row = rowOfBox();
  const int step = key == Qt::Key_Up ? -1 : 1;
  for (int r = row + step; row >= 0 && r >= 0 && r < table->rowCount();
       r += step)
    if (QLineEdit *next = boxOf(r)) {
      next->setFocus(Qt::TabFocusReason);
      next->selectAll();
      return true;
    }
  return true; // the first or last row: stay
}

void ConfigEditor::commitRow(int row) {
  QLineEdit *box = boxOf(row);
  // Enter is followed by editingFinished: one commit per typed value.
  if (!box || box->text() == box->property("modelValue").toString() ||
      box->text() == box->property("submitted").toString())
    return;
  box->setProperty("submitted", box->text());
  const QString field =
      table->item(row, kField)->data(kFieldNameRole).toString();
  if (box->text().trimmed().isEmpty())
    emit removeField(field);
  else
    emit commit(field, box->text().trimmed());
}

int ConfigEditor::rowOf(const QString &field) const {
  for (int row = 0; row < table->rowCount(); ++row)
    if (table->item(row, kField)->data(kFieldNameRole).toString() == field)
      return row;
  return -1;
}

QLineEdit *ConfigEditor::boxOf(int row) const {
  if (row < 0)
    return nullptr;
  QWidget *cell = table->cellWidget(row, kValue);
  if (auto *box = qobject_cast<QLineEdit *>(cell))
    return box;
  return cell ? cell->findChild<QLineEdit *>() : nullptr;
}

void ConfigEditor::typeFromDialog(FieldDialog *dialog, const QString &field,
                                  const QString &before) {
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &FieldDialog::valueChanged, this,
          [this, field](const QString &text) { typeInto(field, text); });
  connect(dialog, &QDialog::accepted, this,
          [this, field] { commitRow(rowOf(field)); });
  connect(dialog, &QDialog::rejected, this, [this, field, before] {
    if (QLineEdit *target = boxOf(rowOf(field))) {
      target->setText(before);
      target->setModified(false);
    }
    emit drafting(field, before);
  });
  dialog->open();
}

void ConfigEditor::typeInto(const QString &field, const QString &text) {
  // Each change is typed into the row's box: the views follow.
  if (QLineEdit *target = boxOf(rowOf(field))) {
    target->setText(text);
    target->setCursorPosition(0);
    target->setModified(true);
  }
  emit drafting(field, text);
}

BasisEditor *ConfigEditor::editBasis(const QString &field) {
  QLineEdit *box = boxOf(rowOf(field));
  if (!box)
    return nullptr;
  auto *editor =
      new BasisEditor(field, box->text(), space,
                      field == "lane_basis" ? subgroupSize : subgroups, this);
  typeFromDialog(editor, field, box->text());
  return editor;
}

TileEditor *ConfigEditor::editTiles(const QString &field) {
  QLineEdit *box = boxOf(rowOf(field));
  if (!box || !space || !loweringConfig)
    return nullptr;
  auto *editor = new TileEditor(field, box->text(), *space, *loweringConfig,
                                pipeline, this);
  typeFromDialog(editor, field, box->text());
  return editor;
}

// A tile list's tooltip: what each entry means under the pipeline, or the
// loops when that cannot be read.
QString ConfigEditor::tileTip(const QString &field, const QString &value,
                              const QString &loops) const {
  auto parsed = config::parseAttribute(value.toStdString());
  const auto *attribute = std::get_if<config::Attribute>(&parsed);
  const auto values = attribute ? attribute->asInt64Array() : std::nullopt;
  if (loweringConfig && space && values)
    if (auto meaning = layout::describeTileLevel(field.toStdString(), *values,
                                                 *loweringConfig, *space,
                                                 pipeline.toStdString())) {
      QStringList lines;
      for (const layout::TileEntryMeaning &entry : meaning->entries)
        lines << qs(entry.text);
      return lines.join("\n");
    }
  return "One entry per loop: " + loops;
}

void ConfigEditor::setFieldMessage(const QString &field, const QString &message,
                                   bool error) {
  if (QLineEdit *box = boxOf(rowOfProblem(field)))
    setMessage(box, message, error);
}

void ConfigEditor::clearFieldMessages() {
  for (int row = 0; row < table->rowCount(); ++row)
    if (QLineEdit *box = boxOf(row))
      setMessage(box, {}, false);
}

// "workgroup[1]" is a problem of the workgroup row; a rule's
// "translation_info.workgroup_size" or a bare "workgroup_size" of the
// translation_info row.
int ConfigEditor::rowOfProblem(const QString &field) const {
  const QString key = field.section('[', 0, 0);
  const int row = rowOf(key);
  return row >= 0 ? row : rowOf("translation_info." + key.section('.', -1));
}

bool ConfigEditor::focusField(const QString &field) {
  const int row = rowOfProblem(field);
  QLineEdit *box = boxOf(row);
  if (!box)
    return false;
  table->scrollToItem(table->item(row, kField));
  box->setFocus(Qt::OtherFocusReason);
  box->selectAll();
  return true;
}

QString ConfigEditor::typedValue(const QString &field) const {
  QLineEdit *box = boxOf(rowOf(field));
  return box ? box->text() : QString();
}

void ConfigEditor::typeValue(const QString &field, const QString &text) {
  QLineEdit *box = boxOf(rowOf(field));
  if (!box)
    return;
  box->setText(text);
  box->setModified(true);
  emit drafting(field, text);
}

QStringList ConfigEditor::fields() const {
  QStringList names;
  for (int row = 0; row < table->rowCount(); ++row)
    if (boxOf(row))
      names << table->item(row, kField)->data(kFieldNameRole).toString();
  return names;
}

} // namespace tilescope::widgets
