// Where the main window's docks go on a first start and on View > Reset
// layout: the dispatches over the MLIR text on the left, the config editor
// over the problems on the right, the run, sweep and tune panels tabbed
// below; sized for 1440x900, grown with a larger window and shared out on a
// smaller one (1280x800), where the config editor gets its rows first.
#pragma once

class QMainWindow;

namespace tilescope::widgets {

// `across`: the width to arrange for (the window's, or the one it is about
// to be shown at).
void arrangeWindowDocks(QMainWindow &window, int across);

} // namespace tilescope::widgets
