# cmake --install: the binary, its man page (made from --help by help2man),
# the systemd units (system and user) and the settings file the system unit
# reads; and CPack's .deb of the same, whose dependencies are Debian's
# runtime packages as dpkg-shlibdeps finds them, plus Xvfb for the private
# display.
include(GNUInstallDirs)

install(TARGETS voxl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

find_program(VOXL_HELP2MAN help2man)
if(VOXL_HELP2MAN)
  set(voxl_man ${PROJECT_BINARY_DIR}/voxl.1)
  # ASan in the dev preset would print a leak report after --help on some
  # systems; the man page wants --help's text only.
  add_custom_command(
    OUTPUT ${voxl_man}
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            ${VOXL_HELP2MAN} --no-info --section=1 --name=low-latency\ desktop\ streaming\ to\ the\ browser
            --output=${voxl_man} $<TARGET_FILE:voxl>
    DEPENDS voxl
    COMMENT "Writing the man page from voxl --help"
    VERBATIM)
  # Installed compressed, as Debian's policy asks (-n: no name or time
  # inside, so the same page gives the same bytes).
  add_custom_command(
    OUTPUT ${voxl_man}.gz
    COMMAND gzip -9 -n -f -k ${voxl_man}
    DEPENDS ${voxl_man}
    VERBATIM)
  add_custom_target(voxl-man ALL DEPENDS ${voxl_man}.gz)
  install(FILES ${voxl_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page (scripts/setup installs it)")
endif()

# The units and the settings file: their paths depend on the prefix of the
# install itself, so they are written when it runs.
install(CODE "set(VOXL_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")\nset(VOXL_BINARY_DIR \"${PROJECT_BINARY_DIR}\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/VoxlInstallUnits.cmake)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME voxl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "low-latency desktop streaming to the browser")
set(CPACK_PACKAGE_DESCRIPTION
    "voxl streams an X11 desktop (or a private virtual display it starts) to a browser tab over a WebSocket, \
H.264 decoded by WebCodecs, with input, clipboard, audio, files, and endpoints for agents.")
set(CPACK_PACKAGE_CONTACT "voxl maintainers <maintainers@voxl.invalid>")
# Install with DESTDIR and the real prefix, so the units name /usr/bin/voxl
# and the settings file lands in /etc: the package preset configures with
# CMAKE_INSTALL_PREFIX=/usr, which CPack then installs under.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_SET_DESTDIR ON)
set(CPACK_STRIP_FILES ON)
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(STATUS "cpack would install under ${CMAKE_INSTALL_PREFIX}: build the .deb with the package preset")
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The private display is Debian's Xvfb, started by voxl.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "xvfb")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pulseaudio")
# --wayland starts Debian's sway headless, as an unprivileged user (setpriv,
# util-linux: essential).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "sway")
# The settings file is the admin's once installed: kept across upgrades.
file(WRITE ${PROJECT_BINARY_DIR}/debian/conffiles "/etc/voxl/voxl.env\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/conffiles)
include(CPack)
