// Tilescope's main window: the dispatches of an IREE file, its MLIR text and
// the configs IREE attached. Parsing happens in core (through a loader the app
// hands in), off the GUI thread; this class never calls IREE itself.
#pragma once

#include "core/iree/Document.h"

#include <QFutureWatcher>
#include <QMainWindow>

#include <filesystem>
#include <functional>

class QComboBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTabWidget;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace tilescope::widgets {

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  using DocumentLoader =
      std::function<Result<iree::Document>(const std::filesystem::path &path)>;

  explicit MainWindow(DocumentLoader loader, QWidget *parent = nullptr);
  ~MainWindow() override;

  // Starts loading `path` in the background; documentLoaded or loadFailed
  // follows.
  void openFile(const QString &path);
  const iree::Document *document() const;
  bool isLoading() const;

signals:
  void documentLoaded();
  void loadFailed(const QString &message);

private:
  void buildMenus();
  void chooseFile();
  void onLoadFinished();
  void showDocument(iree::Document document);
  void showError(const QString &message);
  void onDispatchSelected(QTreeWidgetItem *item);
  void goToLine(int line);
  void showLayout();

  DocumentLoader loader;
  QString loadingPath;
  QFutureWatcher<Result<iree::Document>> *watcher;
  std::unique_ptr<iree::Document> current;

  QTreeWidget *dispatchTree;
  QPlainTextEdit *sourceView;
  QPlainTextEdit *configView;
  QListWidget *problemList;
  class SceneView *sceneView;
  QTabWidget *detailTabs;
  QComboBox *colorByBox;
  QSpinBox *stepBox;
  QLabel *layoutNote;
  int selectedDispatch = -1;
  int selectedRootOp = -1;
  QLabel *statusLabel;
};

} // namespace tilescope::widgets
