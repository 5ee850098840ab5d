// The runtime directory a QGuiApplication asks for.
#pragma once

#include <QTemporaryDir>

#include <memory>

namespace tilescope::app {

// Qt warns on every start of a GUI application where XDG_RUNTIME_DIR is not
// set (root in a container, CI, Xvfb). When it is unset, this points it at a
// private directory (mode 0700, as Qt requires) that lives as long as the
// returned object; when it is set, it returns null and changes nothing.
// Call it before constructing the application.
std::unique_ptr<QTemporaryDir> provideRuntimeDirectory();

} // namespace tilescope::app
