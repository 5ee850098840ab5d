#!/bin/sh
# Doxygen's input filter for Tilescope's headers: they are commented with
# plain `//` lines above each declaration (and `// ...` after a member),
# which Doxygen does not read as documentation; this shows them to it as
# `///` and `///<` without touching the sources; the comment a header opens
# with describes the file (@file). An attribute's name
# (#iree_gpu.lowering_config) is escaped so Doxygen prints it, not a link.
exec sed -e '1s|^//\([^/]\)|/// @file\n///\1|' \
         -e 's|^\([[:space:]]*\)//\([^/]\)|\1///\2|' \
         -e 's|^\([[:space:]]*\)//$|\1///|' \
         -e 's|\([;,]\)[[:space:]]*//\([^/]\)|\1 ///<\2|' \
         -e 's|#\([a-z_]*\.\)|\\#\1|g' "$1"
