# Dependencies of the windows-cross build. Debian has no Windows builds of
# x264, Opus, libyuv, OpenSSL, libpng, spdlog or Boost, but their headers
# are portable: the cross build compiles against the host's copies, put in a
# folder of their own so that nothing else of /usr/include (glibc) leaks in.
# Header-only libraries (Boost.Asio/Beast, nlohmann-json, CLI11, spdlog and
# fmt in header-only mode) link too; targets needing the others are compiled
# and archived but not linked (see docs/windows.md).

set(VOXL_HOST_HEADERS "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${VOXL_HOST_HEADERS}")
foreach(entry IN ITEMS boost nlohmann spdlog fmt CLI opus libyuv libyuv.h x264.h x264_config.h
                       png.h pngconf.h pnglibconf.h zlib.h zconf.h openssl)
  if(NOT EXISTS "/usr/include/${entry}")
    message(FATAL_ERROR "windows-cross needs the host's /usr/include/${entry}: run scripts/setup")
  endif()
  file(CREATE_LINK "/usr/include/${entry}" "${VOXL_HOST_HEADERS}/${entry}" SYMBOLIC)
endforeach()
# OpenSSL's per-architecture configuration lives apart on Debian.
file(MAKE_DIRECTORY "${VOXL_HOST_HEADERS}/openssl-arch/openssl")
foreach(h IN ITEMS configuration.h opensslconf.h)
  file(CREATE_LINK "/usr/include/x86_64-linux-gnu/openssl/${h}" "${VOXL_HOST_HEADERS}/openssl-arch/openssl/${h}"
       SYMBOLIC)
endforeach()

function(voxl_header_target name)
  add_library(${name} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${name} SYSTEM INTERFACE "${VOXL_HOST_HEADERS}" ${ARGN})
endfunction()

voxl_header_target(voxl_host_headers)
voxl_header_target(spdlog::spdlog)
target_compile_definitions(spdlog::spdlog INTERFACE SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
voxl_header_target(CLI11::CLI11)
voxl_header_target(Boost::headers)
# Winsock for Asio; Windows 10 APIs.
target_compile_definitions(Boost::headers INTERFACE _WIN32_WINNT=0x0A00 WIN32_LEAN_AND_MEAN NOMINMAX)
target_link_libraries(Boost::headers INTERFACE ws2_32 mswsock)
voxl_header_target(nlohmann_json::nlohmann_json)
voxl_header_target(PkgConfig::X264)
voxl_header_target(PkgConfig::OPUS)
voxl_header_target(PNG::PNG)
voxl_header_target(OpenSSL::SSL "${VOXL_HOST_HEADERS}/openssl-arch")
set(LIBYUV_INCLUDE_DIR "${VOXL_HOST_HEADERS}")
set(LIBYUV_LIBRARY "")
find_package(Threads REQUIRED)
