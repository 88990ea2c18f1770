# Bundles the TypeScript client with esbuild, gzips it and embeds it into
# voxl_web_assets. The tools come from web/node_modules (scripts/setup).

set(VOXL_WEB_DIR "${PROJECT_SOURCE_DIR}/web")
set(VOXL_ESBUILD "${VOXL_WEB_DIR}/node_modules/.bin/esbuild")
if(NOT EXISTS "${VOXL_ESBUILD}")
  message(FATAL_ERROR "esbuild is missing from web/node_modules: run scripts/setup (it runs npm ci in web/)")
endif()
find_program(VOXL_GZIP gzip REQUIRED)

file(GLOB_RECURSE VOXL_WEB_SOURCES CONFIGURE_DEPENDS "${VOXL_WEB_DIR}/src/*.ts")
set(out "${CMAKE_BINARY_DIR}/web")
set(bundle "${out}/app.js")
# The audio worklet and the render worker run in their own global scopes:
# a bundle of their own each.
set(worklet "${out}/audio-worklet.js")
set(render_worker "${out}/render-worker.js")
# The recorded sessions page (sessions.html) has a bundle of its own.
set(sessions_bundle "${out}/sessions.js")

add_custom_command(
  OUTPUT "${bundle}"
  COMMAND "${VOXL_ESBUILD}" "${VOXL_WEB_DIR}/src/main.ts" --bundle --minify --format=esm
          --target=chrome100,firefox130,safari17 --log-level=warning "--outfile=${bundle}"
  DEPENDS ${VOXL_WEB_SOURCES} "${VOXL_WEB_DIR}/package-lock.json"
  COMMENT "Bundling the web client"
  VERBATIM)

add_custom_command(
  OUTPUT "${worklet}"
  COMMAND "${VOXL_ESBUILD}" "${VOXL_WEB_DIR}/src/audio/jitter_worklet.ts" --bundle --minify --format=esm
          --target=chrome100,firefox130,safari17 --log-level=warning "--outfile=${worklet}"
  DEPENDS ${VOXL_WEB_SOURCES} "${VOXL_WEB_DIR}/package-lock.json"
  COMMENT "Bundling the audio worklet"
  VERBATIM)

add_custom_command(
  OUTPUT "${render_worker}"
  COMMAND "${VOXL_ESBUILD}" "${VOXL_WEB_DIR}/src/video/render_worker.ts" --bundle --minify --format=esm
          --target=chrome100,firefox130,safari17 --log-level=warning "--outfile=${render_worker}"
  DEPENDS ${VOXL_WEB_SOURCES} "${VOXL_WEB_DIR}/package-lock.json"
  COMMENT "Bundling the render worker"
  VERBATIM)

add_custom_command(
  OUTPUT "${sessions_bundle}"
  COMMAND "${VOXL_ESBUILD}" "${VOXL_WEB_DIR}/src/sessions/main.ts" --bundle --minify --format=esm
          --target=chrome100,firefox130,safari17 --log-level=warning "--outfile=${sessions_bundle}"
  DEPENDS ${VOXL_WEB_SOURCES} "${VOXL_WEB_DIR}/package-lock.json"
  COMMENT "Bundling the sessions page"
  VERBATIM)

set(assets "")
set(gz_outputs "")
foreach(item IN ITEMS "/|html|${VOXL_WEB_DIR}/index.html" "/app.js|js|${bundle}"
                     "/audio-worklet.js|js|${worklet}" "/render-worker.js|js|${render_worker}"
                     "/sessions.html|html|${VOXL_WEB_DIR}/sessions.html" "/sessions.js|js|${sessions_bundle}")
  string(REPLACE "|" ";" parts "${item}")
  list(GET parts 0 url)
  list(GET parts 2 file)
  get_filename_component(name "${file}" NAME)
  set(gz "${out}/${name}.gz")
  add_custom_command(
    OUTPUT "${gz}"
    COMMAND "${VOXL_GZIP}" -9 -n -c "${file}" > "${gz}"
    DEPENDS "${file}"
    VERBATIM)
  list(APPEND gz_outputs "${gz}")
  if(assets)
    string(APPEND assets "^")
  endif()
  string(APPEND assets "${item}|${gz}")
endforeach()

set(generated "${out}/embedded_assets_data.cpp")
add_custom_command(
  OUTPUT "${generated}"
  COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${generated}" "-DASSETS=${assets}"
          -P "${PROJECT_SOURCE_DIR}/cmake/EmbedAssets.cmake"
  DEPENDS ${gz_outputs} "${bundle}" "${worklet}" "${render_worker}" "${sessions_bundle}" "${VOXL_WEB_DIR}/index.html"
          "${VOXL_WEB_DIR}/sessions.html" "${PROJECT_SOURCE_DIR}/cmake/EmbedAssets.cmake"
  COMMENT "Embedding the web client"
  VERBATIM)

add_library(voxl_web_assets STATIC "${generated}")
target_include_directories(voxl_web_assets PUBLIC "${PROJECT_SOURCE_DIR}/src")
