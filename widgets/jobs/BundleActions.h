// Run bundles from the window: File > Export run bundle writes the tries a
// person picked (in the run panel's history, the sweep's compiled
// candidates, or the latest try of the file) as a folder to time on a
// machine with the GPU; File > Import run results brings what its run.sh
// measured back into the history. Both are core/tries/BundleTries, as the
// command line's bundle and import-results.
#pragma once

#include "core/tools/IreeInstallation.h"
#include "core/tries/BundleTries.h"
#include "core/util/Result.h"
#include "core/workbench/Workbench.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

class QWidget;

namespace tilescope::widgets {

class EditSession;
class RunPanel;
class SweepPanel;

class BundleActions : public QObject {
  Q_OBJECT

public:
  struct Context {
    const EditSession *edits = nullptr;
    RunPanel *runPanel = nullptr; // the history, its picked tries
    SweepPanel *sweepPanel = nullptr;
    QWidget *dialogParent = nullptr;
    // The window's workbench, whose IREE's runtime tools a bundle carries;
    // unset: none given.
    std::shared_ptr<const workbench::Workbench> bench;
  };
  explicit BundleActions(Context context, QObject *parent = nullptr);

  // Without their dialogs: the tries (history ids) as a bundle in
  // `folder`, and a bundle's results into the history (the run panel's
  // history shows them).
  Result<std::filesystem::path>
  exportRunBundleTo(const std::vector<long long> &ids,
                    const std::filesystem::path &folder);
  Result<tries::ImportReport>
  importRunResultsFrom(const std::filesystem::path &folder);

  // The menu's actions: which tries, where; the outcome said.
  void exportRunBundle();
  void importRunResults();

signals:
  void said(const QString &message);

private:
  Context context;
};

} // namespace tilescope::widgets
