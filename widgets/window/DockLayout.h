// The main window's docks: the panels each holds (addWindowDocks), and
// where they go on a first start and on View > Reset layout
// (arrangeWindowDocks): the dispatches over the MLIR text on the left, the
// config editor over the problems on the right, the run, sweep and tune panels
// tabbed below; sized for 1440x900, grown with a larger window and shared out
// on a smaller one (1280x800), where the config editor gets its rows first.
#pragma once

class QMainWindow;

namespace tilescope::widgets {

class ConfigEditor;
class DispatchBrowser;
class MlirView;
class ProblemList;
class RunPanel;
class SweepPanel;
class TunePanel;
struct WindowServices;

struct WindowPanels {
  DispatchBrowser *browser = nullptr;
  MlirView *source = nullptr;
  ConfigEditor *editor = nullptr;
  ProblemList *problems = nullptr;
  RunPanel *run = nullptr;
  SweepPanel *sweep = nullptr;
  // A whole program tuned (a program of its own, not the open file).
  TunePanel *tune = nullptr;
};

// Each panel made (the jobs' panels with the services they run through)
// and docked in `window`, not yet arranged.
WindowPanels addWindowDocks(QMainWindow &window,
                            const WindowServices &services);

// `across`: the width to arrange for (the window's, or the one it is about
// to be shown at).
void arrangeWindowDocks(QMainWindow &window, int across);

} // namespace tilescope::widgets
