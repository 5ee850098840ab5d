// What the main window asks of the app: how a file is read into a
// document, and the IREE services its views and panels use (each unset
// where the app has none: the view says so). The app (app/gui) builds them
// from its workbench (servicesOf); tests build them over the pinned IREE
// in process.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/service/ReleaseOffer.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"
#include "core/workbench/Workbench.h"
#include "widgets/views/SplitKView.h"

#include <QString>

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace tilescope::widgets {

// Reads a file into a document off the GUI thread; `cancel` set means
// the person gave up waiting: stop (an Error) as soon as possible.
using WindowLoader = std::function<Result<document::Document>(
    const std::filesystem::path &path, const std::atomic<bool> *cancel)>;
// What the window asks of the app beyond loading files.
struct WindowServices {
  // IREE's reading of edited text (its verdict on an edit); unset: edits
  // are checked by Tilescope's rules only.
  std::function<Result<document::Document>(const std::string &text,
                                           const std::string &bufferName)>
      parseText;
  // Where tries and their history live.
  std::filesystem::path workspace;
  // The app's workbench: the IREE, the parse worker and the jobs the
  // panels start (a try, a checked run, a sweep, a tune), the spec's body
  // printer and a bundle's runtime tools; unset: a panel says there is no
  // IREE.
  std::shared_ptr<const workbench::Workbench> bench;
  // IREE's own configs for a document (its configs stripped and chosen
  // again); unset: the window cannot show IREE's default.
  std::function<Result<service::DefaultConfigs>(const document::Document &)>
      ireeDefaults;
  // IREE's own layouts for a dispatch of a document as it stands, beside
  // Tilescope's (core/service/IreeLayouts); unset: the IREE layouts tab says
  // there is no IREE to ask.
  std::function<Result<service::IreeLayoutAnswer>(
      const document::Document &, size_t dispatch,
      const std::atomic<bool> *cancel)>
      ireeLayouts;
  // IREE's split-reduction heuristic on a program and the dispatches a
  // person's splits form (core/service/SplitK); unset: the Split-k tab says
  // there is no IREE to ask.
  SplitKView::Analyzer splitK;
  SplitKView::Applier applySplitK;
  // IREE's pipeline constraints for a root op of a document as it stands,
  // checked by IREE (core/service/IreeConstraints); unset: the Problems panel
  // shows the rules' problems and IREE's reading of the text only.
  std::function<Result<service::ConstraintVerdict>(
      const document::Document &, edit::OpRef, const std::atomic<bool> *)>
      ireeConstraints;
  // Keep each edit on disk until it is saved, and offer what a crash left
  // (off for a scripted screenshot, whose edits came from its command
  // line).
  bool keepEditsForRecovery = true;
  // A file IREE refused, converted for the release in use when the
  // config model's conversions make it one IREE reads; unset or none:
  // nothing is offered.
  std::function<std::optional<service::ReleaseOffer>(
      const std::filesystem::path &)>
      releaseOffer;
  // The IREE in use, in its own words (Help > About); unset: unknown.
  std::function<std::string()> ireeVersion;
  // Edit > Settings: what the IREE at a path (empty: found the usual
  // way) is, or why it is none; and the QSettings key the app reads that
  // path from. Unset: the dialog has no IREE row.
  std::function<Result<std::string>(const QString &path)> checkIree;
  QString ireePathSetting;
};

// The window's loader and services as the app gives them: every one asks
// `bench` (its IREE, parse worker and workspace). ireePathSetting and
// keepEditsForRecovery are the app's to set.
WindowLoader loaderOf(const workbench::Workbench &bench);
WindowServices servicesOf(const workbench::Workbench &bench);

} // namespace tilescope::widgets
