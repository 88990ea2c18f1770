# Runs at install time (install(SCRIPT)), so the paths in the systemd units
# are those of this install's prefix, whatever the build was configured
# with: cmake --install --prefix /usr, or CPack's /usr. Under /usr the
# settings file goes to /etc (the FHS), elsewhere to <prefix>/etc. Needs
# VOXL_SOURCE_DIR and VOXL_BINARY_DIR, set by the install(CODE) before it.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(etc /etc)
else()
  set(etc ${CMAKE_INSTALL_PREFIX}/etc)
endif()
set(VOXL_BIN ${CMAKE_INSTALL_PREFIX}/bin/voxl)
set(VOXL_ENV_FILE ${etc}/voxl/voxl.env)
set(units ${VOXL_BINARY_DIR}/systemd-units)
configure_file(${VOXL_SOURCE_DIR}/deploy/systemd/voxl.service.in ${units}/system/voxl.service @ONLY)
configure_file(${VOXL_SOURCE_DIR}/deploy/systemd/voxl-user.service.in ${units}/user/voxl.service @ONLY)
# systemd reads lib/systemd/{system,user} under /usr and /usr/local alike.
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE
     FILES ${units}/system/voxl.service)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/user" TYPE FILE
     FILES ${units}/user/voxl.service)
# It may hold secrets: its owner (root) only.
file(INSTALL DESTINATION "${etc}/voxl" TYPE FILE PERMISSIONS OWNER_READ OWNER_WRITE
     FILES ${VOXL_SOURCE_DIR}/deploy/voxl.env)
