// The window's Help menu: how to use it in a page, About (Tilescope's, Qt's
// and the IREE in use, in its own words) and About Qt.
#pragma once

#include <functional>
#include <string>

class QMainWindow;

namespace tilescope::widgets {

// `ireeVersion` unset: About says the IREE is not located.
void addHelpMenu(QMainWindow *window, std::function<std::string()> ireeVersion);

} // namespace tilescope::widgets
