#include "widgets/MainWindow.h"

#include "core/config/LoweringConfig.h"
#include "core/config/TranslationInfo.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/OpLayouts.h"
#include "widgets/SceneView.h"
#include "widgets/render/OpScenes.h"
#include "widgets/render/Scenes.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBlock>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::widgets {
namespace {

constexpr int kLineRole = Qt::UserRole;
constexpr int kDispatchIndexRole = Qt::UserRole + 1;
constexpr int kRootOpIndexRole = Qt::UserRole + 2;

QString qs(const std::string &text) { return QString::fromStdString(text); }

// The short name of a dispatch's target: "rocm gfx942", "cuda sm_90", ...
QString targetSummary(const iree::Dispatch &dispatch) {
  const QString target = qs(dispatch.target);
  QString backend;
  if (target.startsWith("#hal.executable.target<\"")) {
    const int begin = target.indexOf('"') + 1;
    backend = target.mid(begin, target.indexOf('"', begin) - begin);
  }
  const int arch = target.indexOf("arch = \"");
  if (arch >= 0) {
    const int begin = arch + 8;
    backend += " " + target.mid(begin, target.indexOf('"', begin) - begin);
  }
  return backend.trimmed();
}

QString pipelineSummary(const iree::Dispatch &dispatch) {
  const QString info = qs(dispatch.translationInfo);
  const int pipeline = info.indexOf("pipeline = ");
  if (pipeline < 0)
    return {};
  const int begin = pipeline + 11;
  int end = begin;
  int depth = 0;
  while (end < info.size()) {
    const QChar c = info[end];
    if (c == '<')
      ++depth;
    else if (c == '>') {
      if (depth == 0)
        break;
      --depth;
    } else if ((c == ' ' || c == ',') && depth == 0)
      break;
    ++end;
  }
  const QString name = info.mid(begin, end - begin);
  // "#iree_gpu.pipeline<VectorDistribute>" -> "VectorDistribute"
  if (name.startsWith("#iree_gpu.pipeline<") && name.endsWith('>'))
    return name.mid(19, name.size() - 20);
  return name;
}

// The picture for a root op: its config applied to its iteration space (or
// its MMA intrinsic's fragments), and a note saying what was drawn or why
// nothing could be.
std::pair<render::GridScene, QString>
rootOpScene(const iree::Dispatch &dispatch, const iree::RootOp &op,
            render::ColorBy colorBy, int64_t step) {
  render::GridScene empty;
  if (op.loweringConfig.rfind("#iree_gpu.lowering_config", 0) != 0)
    return {empty, op.loweringConfig.empty()
                       ? QString("This op carries no lowering_config.")
                       : QString("No GPU layout: %1")
                             .arg(qs(op.loweringConfig.substr(
                                 0, op.loweringConfig.find('<'))))};
  auto config = config::LoweringConfig::parse(op.loweringConfig);
  if (!config)
    return {empty, qs(config.error())};
  // The loops IREE's IR gives (named ops included); the printed maps only
  // for a document read without them.
  auto spaceOf = [](const iree::RootOp &of) -> Result<config::IterationSpace> {
    if (of.space)
      return *of.space;
    return config::IterationSpace::fromLinalgOp(
        of.indexingMaps, of.iteratorTypes, of.operandTypes, of.name);
  };
  auto space = spaceOf(op);
  if (!space)
    return {empty, "No iteration space: " + qs(space.error())};
  layout::DeriveOptions options;
  // Ops fused into the root op run on the root's workgroup tile.
  for (const iree::RootOp &other : dispatch.rootOps) {
    if (!other.rootOpSet || &other == &op)
      continue;
    auto rootConfig = config::LoweringConfig::parse(other.loweringConfig);
    auto rootSpace = spaceOf(other);
    if (rootConfig && rootSpace)
      options.fusedWorkgroupTile = layout::inheritedWorkgroupTile(
          *config, *space, *rootConfig, *rootSpace);
  }
  auto info = config::TranslationInfo::parse(dispatch.translationInfo);
  if (info && info->subgroupSize)
    options.subgroupSize = *info->subgroupSize;
  layout::OpLayoutRequest request{&*config, &*space, info ? &*info : nullptr,
                                  options};
  auto layouts = layout::opLayouts(request);
  if (!layouts) {
    // Nothing to lay out over the op (say an mma_kind without a
    // subgroup_basis under VectorDistribute): the intrinsic's fragments.
    if (auto mma = config->mmaKind()) {
      if (const layout::MmaIntrinsic *intrinsic =
              layout::findMmaIntrinsic(mma->intrinsic))
        return {
            render::mmaScene(mma->colMajor ? intrinsic->colMajor() : *intrinsic,
                             colorBy == render::ColorBy::Register
                                 ? render::ColorBy::Register
                                 : render::ColorBy::Lane),
            "mma_kind " + qs(mma->intrinsic) +
                ": the fragment each lane holds (" + qs(layouts.error()) + ")"};
    }
    return {empty, qs(layouts.error())};
  }
  render::OpSceneOptions sceneOptions;
  sceneOptions.colorBy = colorBy;
  sceneOptions.step = step;
  sceneOptions.subtitle = qs(config->print());
  auto scene = render::opScene(*layouts, sceneOptions);
  if (!scene)
    return {empty, qs(scene.error())};
  QString note;
  switch (layouts->view) {
  case layout::OpView::ContractionLayout:
    note = "mma_kind " + qs(layouts->intrinsic) +
           ": each operand's layout on one workgroup tile";
    break;
  case layout::OpView::ThreadTiles:
    note = QString("%1 on %2 (TileAndFuse): which thread runs each tile")
               .arg(op.name.c_str(), qs(space->toString()));
    break;
  case layout::OpView::SubgroupTiles:
    note = QString("%1 on %2 (TileAndFuse, %3): which subgroup runs each "
                   "intrinsic tile")
               .arg(op.name.c_str(), qs(space->toString()),
                    qs(layouts->intrinsic));
    break;
  case layout::OpView::VectorLayout:
    note = QString("%1 on %2: one workgroup tile, reduction step %3")
               .arg(op.name.c_str(), qs(space->toString()))
               .arg(step);
    break;
  }
  for (const std::string &extra : layouts->notes)
    note += "; " + qs(extra);
  return {*scene, note};
}

} // namespace

MainWindow::MainWindow(DocumentLoader documentLoader, QWidget *parent)
    : QMainWindow(parent), loader(std::move(documentLoader)),
      watcher(new QFutureWatcher<Result<iree::Document>>(this)) {
  setWindowTitle("Tilescope");
  resize(1280, 800);

  dispatchTree = new QTreeWidget;
  dispatchTree->setObjectName("dispatchTree");
  dispatchTree->setHeaderLabels({"Dispatch / root op", "Pipeline / kind, loops", "Target"});
  dispatchTree->setUniformRowHeights(true);
  dispatchTree->setAlternatingRowColors(true);
  dispatchTree->setTextElideMode(Qt::ElideMiddle);
  dispatchTree->header()->setStretchLastSection(false);
  dispatchTree->header()->setSectionResizeMode(0, QHeaderView::Stretch);

  const QFont monospace = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  sourceView = new QPlainTextEdit;
  sourceView->setObjectName("sourceView");
  sourceView->setReadOnly(true);
  sourceView->setLineWrapMode(QPlainTextEdit::NoWrap);
  sourceView->setFont(monospace);

  configView = new QPlainTextEdit;
  configView->setObjectName("configView");
  configView->setReadOnly(true);
  configView->setFont(monospace);
  configView->setPlaceholderText(
      "Select a dispatch or root op to see its configuration.");

  problemList = new QListWidget;
  problemList->setObjectName("problemList");
  // A diagnostic names file, line, column and why: show it whole.
  problemList->setWordWrap(true);
  problemList->setResizeMode(QListView::Adjust);
  problemList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  problemList->hide();

  // The layout picture of the selected root op, with its controls.
  sceneView = new SceneView;
  colorByBox = new QComboBox;
  colorByBox->setObjectName("colorByBox");
  colorByBox->addItem("lane", static_cast<int>(render::ColorBy::Lane));
  colorByBox->addItem("subgroup", static_cast<int>(render::ColorBy::Subgroup));
  colorByBox->addItem("register", static_cast<int>(render::ColorBy::Register));
  stepBox = new QSpinBox;
  stepBox->setObjectName("stepBox");
  stepBox->setRange(0, 1 << 30);
  stepBox->setToolTip("Partial-reduction iteration to draw");
  layoutNote = new QLabel;
  layoutNote->setObjectName("layoutNote");
  layoutNote->setWordWrap(true);
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel("Colour by"));
  controls->addWidget(colorByBox);
  controls->addWidget(new QLabel("Reduction step"));
  controls->addWidget(stepBox);
  controls->addWidget(layoutNote, 1);
  auto *layoutPage = new QWidget;
  auto *layoutColumn = new QVBoxLayout(layoutPage);
  layoutColumn->setContentsMargins(4, 4, 4, 4);
  layoutColumn->addLayout(controls);
  layoutColumn->addWidget(sceneView, 1);

  detailTabs = new QTabWidget;
  detailTabs->setObjectName("detailTabs");
  detailTabs->addTab(layoutPage, "Layout");
  detailTabs->addTab(configView, "Configuration");

  auto *right = new QSplitter(Qt::Vertical);
  right->addWidget(sourceView);
  right->addWidget(detailTabs);
  right->setStretchFactor(0, 2);
  right->setStretchFactor(1, 3);

  auto *left = new QWidget;
  auto *leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(dispatchTree, 1);
  leftLayout->addWidget(problemList);

  auto *splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({460, 820});
  setCentralWidget(splitter);

  statusLabel = new QLabel("No file open");
  statusBar()->addWidget(statusLabel, 1);

  buildMenus();

  connect(watcher, &QFutureWatcher<Result<iree::Document>>::finished, this,
          &MainWindow::onLoadFinished);
  connect(dispatchTree, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem *item) { onDispatchSelected(item); });
  connect(colorByBox, &QComboBox::currentIndexChanged, this,
          [this] { showLayout(); });
  connect(stepBox, &QSpinBox::valueChanged, this, [this] { showLayout(); });
  connect(problemList, &QListWidget::itemActivated, this,
          [this](QListWidgetItem *item) {
            goToLine(item->data(kLineRole).toInt());
          });
}

MainWindow::~MainWindow() { watcher->waitForFinished(); }

void MainWindow::buildMenus() {
  QMenu *file = menuBar()->addMenu("&File");
  QAction *open = file->addAction("&Open…", this, &MainWindow::chooseFile);
  open->setShortcut(QKeySequence::Open);
  file->addSeparator();
  QAction *quit = file->addAction("&Quit", qApp, &QApplication::quit);
  quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, "Open an IREE MLIR file", QFileInfo(loadingPath).absolutePath(),
      "MLIR files (*.mlir);;All files (*)");
  if (!path.isEmpty())
    openFile(path);
}

void MainWindow::openFile(const QString &path) {
  if (watcher->isRunning()) {
    statusLabel->setText("Still loading " + loadingPath + "…");
    return;
  }
  loadingPath = path;
  statusLabel->setText("Loading " + path + "…");
  const std::filesystem::path file = path.toStdString();
  watcher->setFuture(
      QtConcurrent::run([loader = loader, file]() { return loader(file); }));
}

bool MainWindow::isLoading() const { return watcher->isRunning(); }

const iree::Document *MainWindow::document() const { return current.get(); }

void MainWindow::onLoadFinished() {
  Result<iree::Document> result = watcher->result();
  if (!result) {
    // The previous document (if any) stays on screen: nothing is lost.
    showError(qs(result.error()));
    emit loadFailed(qs(result.error()));
    return;
  }
  showDocument(std::move(*result));
  emit documentLoaded();
}

void MainWindow::showDocument(iree::Document document) {
  current = std::make_unique<iree::Document>(std::move(document));
  problemList->clear();
  problemList->hide();
  sourceView->setPlainText(qs(current->text));
  configView->clear();
  dispatchTree->clear();

  for (size_t d = 0; d < current->dispatches.size(); ++d) {
    const iree::Dispatch &dispatch = current->dispatches[d];
    auto *item = new QTreeWidgetItem(dispatchTree, {qs(dispatch.name),
                                                    pipelineSummary(dispatch),
                                                    targetSummary(dispatch)});
    item->setData(0, kLineRole, dispatch.line);
    item->setData(0, kDispatchIndexRole, static_cast<int>(d));
    item->setData(0, kRootOpIndexRole, -1);
    item->setToolTip(0, qs(dispatch.name + "\n" + dispatch.executable +
                           " :: " + dispatch.variant));
    for (size_t r = 0; r < dispatch.rootOps.size(); ++r) {
      const iree::RootOp &op = dispatch.rootOps[r];
      QString label = qs(op.name);
      if (op.rootOpSet)
        label += QString("  (root op, set %1)").arg(*op.rootOpSet);
      // What it computes and over which loops, as IREE's IR says.
      QString shape = config::toString(op.kind);
      if (op.space)
        shape += " " + qs(op.space->toString());
      auto *child = new QTreeWidgetItem(item, {label, shape});
      child->setData(0, kLineRole, op.line);
      child->setData(0, kDispatchIndexRole, static_cast<int>(d));
      child->setData(0, kRootOpIndexRole, static_cast<int>(r));
    }
    item->setExpanded(true);
  }
  dispatchTree->resizeColumnToContents(1);
  dispatchTree->resizeColumnToContents(2);

  const QString name = QFileInfo(qs(current->path.string())).fileName();
  setWindowTitle(name + " — Tilescope");
  statusLabel->setText(QString("%1: %2 dispatch%3, %4 part%5")
                           .arg(qs(current->path.string()))
                           .arg(current->dispatches.size())
                           .arg(current->dispatches.size() == 1 ? "" : "es")
                           .arg(current->partCount)
                           .arg(current->partCount == 1 ? "" : "s"));
  if (QTreeWidgetItem *first = dispatchTree->topLevelItem(0))
    dispatchTree->setCurrentItem(first->childCount() ? first->child(0) : first);
}

void MainWindow::showError(const QString &message) {
  problemList->clear();
  for (const QString &line : message.split('\n', Qt::SkipEmptyParts)) {
    auto *item = new QListWidgetItem(line, problemList);
    // "file:line:column: error: ..." → jump target when it is this file.
    const QStringList fields = line.split(':');
    if (fields.size() > 2)
      item->setData(kLineRole, fields[1].toInt());
  }
  problemList->show();
  statusLabel->setText("Could not open " + loadingPath);
}

void MainWindow::onDispatchSelected(QTreeWidgetItem *item) {
  if (!item || !current)
    return;
  const int d = item->data(0, kDispatchIndexRole).toInt();
  const int r = item->data(0, kRootOpIndexRole).toInt();
  if (d < 0 || d >= static_cast<int>(current->dispatches.size()))
    return;
  const iree::Dispatch &dispatch = current->dispatches[d];
  // What a person tunes comes first: the root op's config, then the
  // dispatch's translation_info; the (long) target description last.
  QString details;
  if (r >= 0 && r < static_cast<int>(dispatch.rootOps.size())) {
    const iree::RootOp &op = dispatch.rootOps[r];
    details += qs(op.name);
    if (op.rootOpSet)
      details += QString("  (root op, set %1)").arg(*op.rootOpSet);
    details += "\n";
    if (!op.loweringConfig.empty())
      details += "lowering_config: " + qs(op.loweringConfig) + "\n";
    if (!op.compilationInfo.empty())
      details += "compilation_info: " + qs(op.compilationInfo) + "\n";
    if (!op.decompositionConfig.empty())
      details += "decomposition_config: " + qs(op.decompositionConfig) + "\n";
    QStringList operands;
    for (const std::string &type : op.operandTypes)
      operands << qs(type);
    QStringList results;
    for (const std::string &type : op.resultTypes)
      results << qs(type);
    details += "operands: " + operands.join(", ") + "\n";
    details += "results: " + results.join(", ") + "\n\n";
  }
  details += "dispatch: " + qs(dispatch.name) + "\n";
  if (!dispatch.translationInfo.empty())
    details += "translation_info: " + qs(dispatch.translationInfo) + "\n";
  if (!dispatch.target.empty())
    details += "target: " + qs(dispatch.target) + "\n";
  configView->setPlainText(details);
  selectedDispatch = d;
  selectedRootOp = r;
  showLayout();
  goToLine(item->data(0, kLineRole).toInt());
}

void MainWindow::showLayout() {
  if (!current || selectedDispatch < 0 ||
      selectedDispatch >= static_cast<int>(current->dispatches.size()))
    return;
  const iree::Dispatch &dispatch =
      current->dispatches[static_cast<size_t>(selectedDispatch)];
  // A dispatch row shows its first configured op.
  int r = selectedRootOp;
  if (r < 0)
    for (size_t i = 0; i < dispatch.rootOps.size() && r < 0; ++i)
      if (!dispatch.rootOps[i].loweringConfig.empty())
        r = static_cast<int>(i);
  if (r < 0 || r >= static_cast<int>(dispatch.rootOps.size())) {
    sceneView->setScene({});
    layoutNote->setText("No configured op in this dispatch.");
    return;
  }
  auto [scene, note] = rootOpScene(
      dispatch, dispatch.rootOps[static_cast<size_t>(r)],
      static_cast<render::ColorBy>(colorByBox->currentData().toInt()),
      stepBox->value());
  sceneView->setScene(std::move(scene));
  layoutNote->setText(note);
}

void MainWindow::goToLine(int line) {
  if (line <= 0)
    return;
  QTextBlock block = sourceView->document()->findBlockByNumber(line - 1);
  if (!block.isValid())
    return;
  QTextCursor cursor(block);
  sourceView->setTextCursor(cursor);
  sourceView->centerCursor();
  QTextEdit::ExtraSelection highlight;
  highlight.format.setBackground(palette().highlight().color().lighter(160));
  highlight.format.setProperty(QTextFormat::FullWidthSelection, true);
  highlight.cursor = cursor;
  sourceView->setExtraSelections({highlight});
}

} // namespace tilescope::widgets
