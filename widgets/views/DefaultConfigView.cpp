#include "widgets/views/DefaultConfigView.h"

#include "widgets/views/SceneView.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString shown(const std::string &value) {
  return value.empty() ? "(unset)" : qs(value);
}

} // namespace

DefaultConfigView::DefaultConfigView(QWidget *parent) : QWidget(parent) {
  setObjectName("defaultConfigView");
  summary = new QLabel;
  summary->setObjectName("defaultSummary");
  summary->setWordWrap(true);
  askButton = new QPushButton("Ask IREE");
  askButton->setObjectName("askDefaultButton");
  askButton->setToolTip("Strip the file's configs and let IREE choose again "
                        "(iree-opt in a child process); the edit is kept");
  connect(askButton, &QPushButton::clicked, this,
          &DefaultConfigView::askRequested);
  useButton = new QPushButton("Use IREE's config");
  useButton->setObjectName("useDefaultButton");
  useButton->setToolTip("Put IREE's choice on this op (one undoable step)");
  useButton->setEnabled(false);
  connect(useButton, &QPushButton::clicked, this,
          &DefaultConfigView::useRequested);
  auto *top = new QHBoxLayout;
  top->addWidget(summary, 1);
  top->addWidget(askButton);
  top->addWidget(useButton);

  fields = new QTreeWidget;
  fields->setObjectName("defaultFields");
  fields->setColumnCount(3);
  fields->setHeaderLabels({"Field", "This op now", "IREE's default"});
  fields->setRootIsDecorated(false);
  fields->header()->setSectionResizeMode(QHeaderView::Interactive);
  view = new SceneView;
  view->setObjectName("defaultScene");
  caption = new QLabel;
  caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto *picture = new QWidget;
  auto *pictureColumn = new QVBoxLayout(picture);
  pictureColumn->setContentsMargins(0, 0, 0, 0);
  pictureColumn->addWidget(caption);
  pictureColumn->addWidget(view, 1);
  auto *split = new QSplitter(Qt::Vertical);
  split->addWidget(fields);
  split->addWidget(picture);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 4);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  showMessage("What would IREE choose for this op? Ask IREE: its strategy "
              "selection runs on the file with its configs stripped.");
}

void DefaultConfigView::showMessage(const QString &text) {
  summary->setText(text);
  caption->clear();
  fields->clear();
  view->setScene({});
  useButton->setEnabled(false);
}

void DefaultConfigView::showDefault(const document::Dispatch &dispatch,
                                    const document::RootOp &op,
                                    const document::Dispatch &chosen,
                                    const document::RootOp &chosenOp,
                                    render::GridScene scene,
                                    const QString &note) {
  fields->clear();
  std::vector<edit::FieldDifference> differences =
      edit::loweringConfigDifferences(op, chosenOp);
  if (op.compilationInfo.empty())
    for (edit::FieldDifference &d :
         edit::translationInfoDifferences(dispatch, chosen))
      differences.push_back(std::move(d));
  QFont bold = fields->font();
  bold.setBold(true);
  for (const edit::FieldDifference &d : differences) {
    auto *item = new QTreeWidgetItem(
        fields, {qs(d.field), shown(d.before), shown(d.after)});
    for (int c = 0; c < 3; ++c) {
      item->setToolTip(c, item->text(c));
      item->setFont(c, bold);
    }
  }
  fields->resizeColumnToContents(0);
  fields->setColumnWidth(1, 300);
  summary->setText(differences.empty()
                       ? "IREE chooses what this op has now."
                       : QString("IREE would choose differently in %1 field%2.")
                             .arg(differences.size())
                             .arg(differences.size() == 1 ? "" : "s"));
  caption->setText("Under IREE's choice: " + note.section(':', 0, 0).left(120));
  caption->setToolTip(note);
  useButton->setEnabled(!differences.empty());
  view->setScene(std::move(scene));
}

QStringList DefaultConfigView::differingFields() const {
  QStringList names;
  for (int i = 0; i < fields->topLevelItemCount(); ++i)
    names << fields->topLevelItem(i)->text(0);
  return names;
}

} // namespace tilescope::widgets
