// tilescope._tilescope: the core library for Python scripts. The package's
// __init__.py re-exports it; docs/python.md says what is there.
#include "python/src/Bindings.h"

namespace py = pybind11;
using namespace tilescope::python;

PYBIND11_MODULE(_tilescope, m) {
  m.doc() = "Tilescope's core: IREE documents, edits, the rules' verdict, "
            "layouts and pictures.";
  // An argument pybind11 could not convert where the code converts it
  // itself (an op given as a list, a callback's answer): a TypeError, as
  // for an argument of the wrong type in the signature, not a RuntimeError.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown)
        std::rethrow_exception(thrown);
    } catch (const py::cast_error &failure) {
      PyErr_SetString(
          PyExc_TypeError,
          (std::string("an argument of the wrong type: ") + failure.what())
              .c_str());
    }
  });
  // Translators run newest first: EditError's, then ParseError's, then
  // Error's (which would take its kinds too).
  static py::exception<Failure> error =
      py::register_exception<Failure>(m, "Error");
  py::register_exception<ParseFailure>(m, "ParseError", error.ptr());
  static py::exception<EditFailure> editError(m, "EditError", error.ptr());
  // EditError carries the field it names (.field), as a problem does.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown)
        std::rethrow_exception(thrown);
    } catch (const EditFailure &failure) {
      py::object value = py::handle(editError.ptr())(failure.what());
      value.attr("field") = failure.field;
      PyErr_SetObject(editError.ptr(), value.ptr());
    }
  });
  makeWorkbench();
  bindConfigs(m);
  bindDocuments(m);
  bindLayouts(m);
  bindPictures(m);
  bindJobs(m);
  bindSweeps(m);
  bindTunes(m);
  bindExports(m);
  bindBanks(m);
}
