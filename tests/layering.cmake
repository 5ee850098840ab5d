# The layering ARCHITECTURE.md draws, checked on the sources on every ctest run
# (cmake -P tests/layering.cmake, with SOURCE_DIR set):
#   - core/ includes no Qt header;
#   - only core/iree/ includes core/iree/detail/CApi.h or names an IREE / MLIR C API
#     function (ireeCompiler..., ireeGPU..., ireeCodegen..., mlir...);
#   - widgets/ and app/ never call IREE: no CompilerLibrary, no DocumentParser
#     construction outside the core services they are given.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<project> -P layering.cmake")
endif()

set(violations "")
file(GLOB_RECURSE core_files "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/core/*.inc")
foreach(file IN LISTS core_files)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*<Q")
  if(lines)
    list(APPEND violations "${file}: includes Qt (core/ has no Qt)")
  endif()
endforeach()

file(GLOB_RECURSE all_files
  "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp"
  "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp"
  "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
  "${SOURCE_DIR}/bench/*.cpp")
foreach(file IN LISTS all_files)
  string(FIND "${file}" "${SOURCE_DIR}/core/iree/" inside_iree)
  if(inside_iree EQUAL 0)
    continue()
  endif()
  file(STRINGS "${file}" lines REGEX "core/iree/detail/|[^A-Za-z_](ireeCompiler|ireeGPU|ireeCodegen|ireeAttributeIsA|mlir[A-Z][A-Za-z]*)[ \t]*\\(")
  if(lines)
    list(APPEND violations "${file}: uses IREE's C API outside core/iree/")
  endif()
endforeach()

file(GLOB_RECURSE front_files "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp")
foreach(file IN LISTS front_files)
  file(STRINGS "${file}" lines REGEX "CompilerLibrary|DocumentParser|core/iree/CApi")
  if(lines)
    list(APPEND violations "${file}: widgets/ calls IREE (go through a core service)")
  endif()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "layering violations:\n  ${text}")
endif()
message(STATUS "layering: core/ has no Qt; IREE's C API stays in core/iree/; widgets/ never calls IREE")
