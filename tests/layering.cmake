# The layering core/CMakeLists.txt's table states (one library per area, each
# linking only what it may use), checked on the sources on every ctest run
# (cmake -P tests/layering.cmake, with SOURCE_DIR set):
#   - core/ includes no Qt header;
#   - only core/iree/ includes core/iree/detail/CApi.h or names an IREE / MLIR C API
#     function (ireeCompiler..., ireeGPU..., ireeCodegen..., mlir...);
#   - widgets/ and app/ never call IREE: no CompilerLibrary, no DocumentParser
#     construction outside the core services they are given; python/ includes
#     nothing of core/iree/ (it parses through the worker);
#   - widgets/ takes the document model from core/document/ and includes
#     nothing of core/iree/; the window's process (app/gui/) includes nothing
#     of core/iree/ either: it never loads IREE's library (the parse worker
#     does);
#   - widgets/ is in rooms (render, views, editor, jobs, window), each
#     including only itself and the rooms below it;
#   - core/config/ is in rooms (syntax < configs < rules, smt), each
#     including only the rooms it may use;
#   - each area of core/ includes only the areas its library links, directly
#     or through another: the link graph core/CMakeLists.txt writes at
#     configure time (LINKS_FILE), so the table is the build's own (the link
#     alone would let a header-only include through);
#   - each area's code is in its own namespace: a file under core/<area>/
#     opens only tilescope::<area> (tilescope::exporting for core/export,
#     whose name is a keyword; plain tilescope for core/util).
cmake_minimum_required(VERSION 3.25) # IN_LIST
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<project> -DLINKS_FILE=<build>/layering-links.cmake -P layering.cmake")
endif()

set(violations "")
# A violation, "FILE: WHY", for each file of the list `files` names that
# holds a line matching `regex`.
function(forbid files regex why)
  foreach(file IN LISTS ${files})
    file(STRINGS "${file}" lines REGEX "${regex}")
    if(lines)
      list(APPEND violations "${file}: ${why}")
    endif()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE core_files "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/core/*.inc")
forbid(core_files "^[ \t]*#[ \t]*include[ \t]*<Q" "includes Qt (core/ has no Qt)")

file(GLOB_RECURSE all_files
  "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp"
  "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp"
  "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
  "${SOURCE_DIR}/python/*.h" "${SOURCE_DIR}/python/*.cpp"
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
forbid(front_files "CompilerLibrary|DocumentParser|core/iree/CApi"
       "widgets/ calls IREE (go through a core service)")
# The Python package is a client like the window: IREE through core services.
file(GLOB_RECURSE python_files "${SOURCE_DIR}/python/*.h" "${SOURCE_DIR}/python/*.cpp")
forbid(python_files "CompilerLibrary|DocumentParser|core/iree/"
       "python/ reaches IREE or core/iree/ (go through a core service)")
# The window's process never loads IREE's library: IREE reads and writes in
# the parse worker (tilescope-iree-worker).
file(GLOB_RECURSE gui_files "${SOURCE_DIR}/app/gui/*.h" "${SOURCE_DIR}/app/gui/*.cpp")
forbid(gui_files "CompilerLibrary|DocumentParser|core/iree/"
       "app/gui/ reaches IREE or core/iree/ (the window's process never loads IREE; use the parse worker)")

foreach(file IN LISTS front_files)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/iree/")
  foreach(line IN LISTS lines)
    list(APPEND violations "${file}: widgets/ includes core/iree/ (${line}); the document model is core/document/, IREE's whereabouts core/tools/")
  endforeach()
endforeach()

# A folder split into rooms: every file of `folder` (relative to the
# project) is in one of the rooms named by the variables
# <prefix>_<room> (each the rooms it may include, itself among them), and
# includes of "<folder>/<room>/" name only those.
function(check_rooms folder prefix)
  file(GLOB_RECURSE files "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp"
       "${SOURCE_DIR}/${folder}/*.inc")
  foreach(file IN LISTS files)
    string(REGEX REPLACE "^${SOURCE_DIR}/${folder}/([a-z]+)/.*$" "\\1" room "${file}")
    if(NOT DEFINED ${prefix}_${room})
      list(APPEND violations "${file}: ${folder}/ holds files only in its rooms")
      continue()
    endif()
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"${folder}/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[^\"]*\"${folder}/([a-z]+)/.*$" "\\1" used "${line}")
      if(NOT used IN_LIST ${prefix}_${room})
        list(APPEND violations "${file}: ${folder}/${room}/ includes a room it may not use (${line})")
      endif()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

# The window's rooms (widgets/CMakeLists.txt), each linking only the rooms
# below it: render < views < editor < jobs < window.
set(widgets_may_use_render render)
set(widgets_may_use_views render views)
set(widgets_may_use_editor render views editor)
set(widgets_may_use_jobs render views editor jobs)
set(widgets_may_use_window render views editor jobs window)
check_rooms(widgets widgets_may_use)

# core/config's rooms (core/CMakeLists.txt): syntax < configs < rules, smt.
set(config_may_use_syntax syntax)
set(config_may_use_configs syntax configs)
set(config_may_use_rules syntax configs rules)
set(config_may_use_smt syntax configs smt)
check_rooms(core/config config_may_use)

# What each area of core/ may include: itself and what its library links,
# directly or through another, as core/CMakeLists.txt wrote the link graph
# at configure time (LINKS_FILE).
if(NOT LINKS_FILE OR NOT EXISTS "${LINKS_FILE}")
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<project> -DLINKS_FILE=<build>/layering-links.cmake -P layering.cmake")
endif()
include("${LINKS_FILE}")
foreach(file IN LISTS core_files)
  string(REGEX REPLACE "^${SOURCE_DIR}/core/([a-z]+)/.*$" "\\1" area "${file}")
  if(NOT DEFINED may_include_${area})
    list(APPEND violations "${file}: core/${area}/ is an area the layering table does not name")
    continue()
  endif()
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/[a-z]+/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[^\"]*\"core/([a-z]+)/.*$" "\\1" used "${line}")
    if(NOT used IN_LIST may_include_${area})
      list(APPEND violations "${file}: core/${area}/ includes core/${used}/ (${line})")
    endif()
  endforeach()
endforeach()

# The namespace follows the library: code under core/<area>/ opens only
# tilescope::<area> (and namespaces inside it).
foreach(file IN LISTS core_files)
  string(REGEX REPLACE "^${SOURCE_DIR}/core/([a-z]+)/.*$" "\\1" area "${file}")
  if(area STREQUAL "export")
    set(area "exporting")
  endif()
  file(STRINGS "${file}" lines REGEX "^namespace tilescope::[a-z_]+")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^namespace tilescope::([a-z_]+).*$" "\\1" opened "${line}")
    if(NOT opened STREQUAL area)
      list(APPEND violations "${file}: core/${area}/ opens namespace tilescope::${opened} (its namespace is tilescope::${area})")
    endif()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "layering violations:\n  ${text}")
endif()
message(STATUS "layering: core/ has no Qt; IREE's C API stays in core/iree/; widgets/ and the window's process never call IREE; each widgets room and core/config room includes only the rooms below it; each core area includes only what it links and opens only its own namespace; widgets/ takes the document model from core/document/")
