#include "widgets/editor/ConfigEditor.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/edit/FieldEdit.h"
#include "widgets/editor/BasisEditor.h"
#include "widgets/editor/ConfigFieldModel.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/TileEditor.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

constexpr int kField = ConfigFieldModel::kField;
constexpr int kValue = ConfigFieldModel::kValue;
constexpr int kOriginal = ConfigFieldModel::kOriginal;

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

// Whether `box` holds its value as applied, or as it was last committed
// (Enter is followed by editingFinished: one commit per typed value). No
// value committed yet is not an empty one: emptying a box removes its field.
bool alreadySent(const QLineEdit *box) {
  const QVariant submitted = box->property("submitted");
  return box->text() == box->property("modelValue").toString() ||
         (submitted.isValid() && box->text() == submitted.toString());
}

// Typed, and neither applied nor committed yet: kept across a redraw.
bool typedNotSent(const QLineEdit *box) {
  return box->isModified() && !alreadySent(box);
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

  model = new ConfigFieldModel(this);
  table = new QTableView;
  table->setObjectName("configTable");
  table->setModel(model);
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
  connect(table->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) {
            if (QLineEdit *box = boxOf(current.row()); box && !box->hasFocus())
              box->setFocus(Qt::OtherFocusReason);
          });
  // The view follows the model: a reset rebuilds the boxes, a changed row
  // updates its own.
  connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
    for (int row = 0; row < model->rowCount(); ++row)
      if (QLineEdit *box = boxOf(row)) {
        if (!showingAnother && typedNotSent(box))
          typing[box->property("field").toString()] = box->text();
        // A box losing focus as it goes must not commit, nor be found by
        // name until Qt deletes it.
        box->disconnect(this);
        box->setObjectName({});
      }
  });
  connect(model, &QAbstractItemModel::modelReset, this,
          &ConfigEditor::rebuildBoxes);
  connect(model, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex &top, const QModelIndex &bottom) {
            for (int row = top.row(); row <= bottom.row(); ++row)
              updateBox(row);
            fitColumns();
          });
  connect(model, &ConfigFieldModel::contextChanged, this,
          &ConfigEditor::showContext);
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
  showingAnother = true;
  model->show(nullptr, std::nullopt);
  showingAnother = false;
  heading->setText(why);
  newField->clear();
  setEnabled(false);
}

void ConfigEditor::show(const EditSession *session, edit::OpRef op) {
  setEnabled(true);
  // What was typed belonged to the op shown before: not kept.
  showingAnother = true;
  model->show(session, op);
  showingAnother = false;
}

void ConfigEditor::showContext() {
  const ConfigFieldModel::OpContext &context = model->context();
  if (!model->shownOp())
    return; // clear() says why
  heading->setText(context.heading);
  const QString kept = newField->currentText();
  newField->clear();
  // A #iree_gpu.derived_thread_config has no fields of its own (IREE derives
  // its tiles): only translation_info's, or the whole attribute, can be added.
  for (const char *field : kKnownFields)
    if (rowOf(field) < 0 && rowOf(QString("translation_info.") + field) < 0 &&
        (!context.derived || edit::parseField(field).value().part ==
                                 edit::ConfigPart::TranslationInfo))
      newField->addItem(field);
  newField->addItem("lowering_config");
  newField->addItem("translation_info");
  if (!kept.isEmpty())
    newField->setCurrentText(kept);
}

void ConfigEditor::rebuildBoxes() {
  table->clearSpans();
  for (int row = 0; row < model->rowCount(); ++row) {
    if (model->isSection(row)) {
      table->setSpan(row, 0, 1, ConfigFieldModel::kColumns);
      continue;
    }
    addBox(row);
    const QString field = boxOf(row)->property("field").toString();
    if (auto typed = typing.find(field); typed != typing.end()) {
      boxOf(row)->setText(typed->second);
      boxOf(row)->setModified(true);
    }
  }
  typing.clear();
  chainFocus();
  fitColumns();
  showContext();
}

void ConfigEditor::addBox(int row) {
  const QModelIndex at = model->index(row, kValue);
  const QString field =
      model->data(at, ConfigFieldModel::kFieldNameRole).toString();
  const QString value = model->data(at, Qt::DisplayRole).toString();
  const QString fullValue =
      model->data(at, ConfigFieldModel::kFullValueRole).toString();
  const ConfigFieldModel::OpContext &context = model->context();
  auto *box = new QLineEdit(value);
  box->setObjectName("field:" + field);
  box->setProperty("field", field);
  box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  box->setFrame(false);
  restyle(box);
  box->setProperty("modelValue", value);
  box->setCursorPosition(0); // a long attribute shows its start
  // Fields with a known set of values offer them as one types.
  QStringList choices;
  QString choiceTip;
  if (field == "mma_kind" && !context.intrinsics.isEmpty()) {
    choices = context.intrinsics;
    choiceTip = "The target's intrinsics: type part of a name (the name "
                "stands for #iree_gpu.mma_layout<NAME>)";
  } else if (field == "translation_info.pipeline" &&
             fullValue.startsWith("#iree_gpu.pipeline<")) {
    for (const std::string &pipeline : config::gpuPipelineNames())
      choices << QString::fromStdString(pipeline);
    choiceTip = "IREE's GPU pipelines: type part of a name (the name stands "
                "for #iree_gpu.pipeline<NAME>)";
  }
  if (!choices.isEmpty()) {
    auto *completer = new QCompleter(choices, box);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    box->setCompleter(completer);
  }
  box->setProperty("choiceTip", choiceTip);
  const bool basis = field == "lane_basis" || field == "subgroup_basis";
  if (basis || (isTileField(field) && context.space && field != "padding" &&
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
    table->setIndexWidget(at, cell);
  } else {
    table->setIndexWidget(at, box);
  }
  updateBox(row);
  box->installEventFilter(this); // Up and Down; its row scrolled into view
  connect(box, &QLineEdit::textEdited, this,
          [this, field](const QString &t) { emit drafting(field, t); });
  connect(box, &QLineEdit::returnPressed, this,
          [this, field] { commitRow(rowOf(field)); });
  connect(box, &QLineEdit::editingFinished, this,
          [this, field] { commitRow(rowOf(field)); });
}

void ConfigEditor::updateBox(int row) {
  QLineEdit *box = boxOf(row);
  if (!box)
    return;
  const QModelIndex at = model->index(row, kValue);
  const QString value = model->data(at, Qt::DisplayRole).toString();
  const bool typingHere = typedNotSent(box);
  if (value != box->property("modelValue").toString()) {
    box->setProperty("modelValue", value);
    box->setProperty("submitted",
                     QVariant()); // the same text may be typed again
    if (!typingHere) {
      box->setText(value);
      box->setCursorPosition(0);
      box->setModified(false);
    }
  }
  const QString tip = model->data(at, Qt::ToolTipRole).toString();
  const QString choiceTip = box->property("choiceTip").toString();
  // A tile list's says what each entry means; another's is its value whole,
  // with the choices it offers.
  QString base = tip;
  if (model->loopsOf(row).isEmpty() && !choiceTip.isEmpty())
    base = value.isEmpty() ? choiceTip : tip + "\n\n" + choiceTip;
  box->setProperty("baseToolTip", base);
  // A problem's message stays until it is cleared (setMessage).
  if (box->property("problemColours").toString().isEmpty())
    box->setToolTip(base);
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
  const QFontMetrics metrics = table->fontMetrics();
  int names = metrics.horizontalAdvance("Field") + 16;
  int originals = 60;
  for (int row = 0; row < model->rowCount(); ++row) {
    if (model->isSection(row))
      continue;
    names = std::max(names, metrics.horizontalAdvance(
                                model->index(row, kField).data().toString()) +
                                16);
    originals = std::max(originals,
                         metrics.horizontalAdvance(
                             model->index(row, kOriginal).data().toString()) +
                             12);
  }
  // The field names whole, then the values: the originals give way (down
  // to what keeps them readable) until the longest value is whole.
  int values = 0;
  for (int row = 0; row < model->rowCount(); ++row)
    if (const QLineEdit *box = boxOf(row)) {
      const bool button = table->indexWidget(model->index(row, kValue)) != box;
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
  // Section rows take the palette as they paint; the boxes' style sheets
  // are applied again under the new one.
  for (int row = 0; row < model->rowCount(); ++row)
    if (QLineEdit *box = boxOf(row))
      restyle(box);
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
  for (int row = 0; row < model->rowCount(); ++row)
    if (QLineEdit *box = boxOf(row)) {
      chain(box);
      if (auto *button = table->indexWidget(model->index(row, kValue))
                             ->findChild<QToolButton *>())
        chain(button);
    }
  chain(newField);
  chain(newValue);
  chain(addButton);
}

int ConfigEditor::rowOfBox(const QLineEdit *box) const {
  for (int row = 0; row < model->rowCount(); ++row)
    if (boxOf(row) == box)
      return row;
  return -1;
}

bool ConfigEditor::eventFilter(QObject *watched, QEvent *event) {
  auto *box = qobject_cast<QLineEdit *>(watched);
  if (!box)
    return QWidget::eventFilter(watched, event);
  // However the keyboard got here (Tab, Up, Down), its row is in view.
  if (event->type() == QEvent::FocusIn) {
    if (const int row = rowOfBox(box); row >= 0)
      table->scrollTo(model->index(row, kField));
    return QWidget::eventFilter(watched, event);
  }
  if (event->type() != QEvent::KeyPress)
    return QWidget::eventFilter(watched, event);
  // Only Up and Down are ours; every typed key passes straight on.
  const int key = static_cast<QKeyEvent *>(event)->key();
  if ((key != Qt::Key_Up && key != Qt::Key_Down) ||
      (box->completer() && box->completer()->popup()->isVisible()))
    return QWidget::eventFilter(watched, event);
  const int row = rowOfBox(box);
  const int step = key == Qt::Key_Up ? -1 : 1;
  for (int r = row + step; row >= 0 && r >= 0 && r < model->rowCount();
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
  if (!box || alreadySent(box))
    return;
  box->setProperty("submitted", box->text());
  const QString field = box->property("field").toString();
  if (box->text().trimmed().isEmpty())
    emit removeField(field);
  else
    emit commit(field, box->text().trimmed());
}

int ConfigEditor::rowOf(const QString &field) const {
  return model->rowOf(field);
}

QLineEdit *ConfigEditor::boxOf(int row) const {
  if (row < 0 || row >= model->rowCount())
    return nullptr;
  QWidget *cell = table->indexWidget(model->index(row, kValue));
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
  const ConfigFieldModel::OpContext &context = model->context();
  auto *editor = new BasisEditor(
      field, box->text(), context.space,
      field == "lane_basis" ? context.subgroupSize : context.subgroups, this);
  typeFromDialog(editor, field, box->text());
  return editor;
}

TileEditor *ConfigEditor::editTiles(const QString &field) {
  QLineEdit *box = boxOf(rowOf(field));
  const ConfigFieldModel::OpContext &context = model->context();
  if (!box || !context.space || !context.loweringConfig)
    return nullptr;
  auto *editor =
      new TileEditor(field, box->text(), *context.space,
                     *context.loweringConfig, context.pipeline, this);
  typeFromDialog(editor, field, box->text());
  return editor;
}

void ConfigEditor::setFieldMessage(const QString &field, const QString &message,
                                   bool error) {
  if (QLineEdit *box = boxOf(rowOfProblem(field)))
    setMessage(box, message, error);
}

void ConfigEditor::clearFieldMessages() {
  for (int row = 0; row < model->rowCount(); ++row)
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
  table->scrollTo(model->index(row, kField));
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

QStringList ConfigEditor::fields() const { return model->fields(); }

} // namespace tilescope::widgets
