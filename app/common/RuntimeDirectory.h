// The runtime directory a QGuiApplication asks for.
#pragma once

namespace tilescope::app {

// Qt warns on every start of a GUI application where XDG_RUNTIME_DIR is not
// set (root in a container, CI, Xvfb). When it is unset, this points it at
// a per-user directory under the temporary directory (created mode 0700 and
// owned by the user, as Qt requires; kept, so an early exit leaves nothing
// new behind). When it is set, or that directory cannot be had, it changes
// nothing. Call it before constructing the application.
void provideRuntimeDirectory();

} // namespace tilescope::app
