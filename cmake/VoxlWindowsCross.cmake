# Dependencies of the windows-cross build. Debian has no Windows builds of
# x264, Opus, libyuv, OpenSSL, libpng, libarchive or libsodium: scripts/windows-deps cross-builds
# them from Debian's source packages into a folder that VOXL_WINDOWS_DEPS
# names (-DVOXL_WINDOWS_DEPS=...). With it, voxl.exe is linked statically;
# without it, everything is compiled against the host's headers of those
# libraries and archived, and the daemon is not linked.
# Header-only libraries (Boost.Asio/Beast, nlohmann-json, CLI11, spdlog and
# fmt in header-only mode) always come from the host, put in a folder of
# their own so that nothing else of /usr/include (glibc) leaks in.

set(VOXL_WINDOWS_DEPS "$ENV{VOXL_WINDOWS_DEPS}" CACHE PATH
    "Windows builds of x264, Opus, libyuv, OpenSSL, libpng, libarchive and libsodium (the folder scripts/windows-deps prints)")
set(voxl_deps_libraries x264 opus yuv ssl crypto png16 archive sodium)
if(VOXL_WINDOWS_DEPS)
  foreach(lib IN LISTS voxl_deps_libraries)
    if(NOT EXISTS "${VOXL_WINDOWS_DEPS}/lib/lib${lib}.a")
      message(FATAL_ERROR "VOXL_WINDOWS_DEPS (${VOXL_WINDOWS_DEPS}) has no lib/lib${lib}.a: run scripts/windows-deps")
    endif()
  endforeach()
  set(VOXL_WINDOWS_ZLIB "${CMAKE_FIND_ROOT_PATH}/lib/libz.a")
  if(NOT EXISTS "${VOXL_WINDOWS_ZLIB}")
    message(FATAL_ERROR "${VOXL_WINDOWS_ZLIB} is missing (libz-mingw-w64-dev): run scripts/setup")
  endif()
endif()

# A fresh folder each configure: switching VOXL_WINDOWS_DEPS on or off must
# not leave the host's copies of the compiled libraries' headers behind.
set(VOXL_HOST_HEADERS "${CMAKE_BINARY_DIR}/host-headers")
file(REMOVE_RECURSE "${VOXL_HOST_HEADERS}")
file(MAKE_DIRECTORY "${VOXL_HOST_HEADERS}")
set(voxl_host_entries boost nlohmann spdlog fmt CLI)
if(NOT VOXL_WINDOWS_DEPS)
  list(APPEND voxl_host_entries opus libyuv libyuv.h x264.h x264_config.h png.h pngconf.h pnglibconf.h
       zlib.h zconf.h openssl archive.h archive_entry.h sodium.h sodium)
endif()
foreach(entry IN LISTS voxl_host_entries)
  if(NOT EXISTS "/usr/include/${entry}")
    message(FATAL_ERROR "windows-cross needs the host's /usr/include/${entry}: run scripts/setup")
  endif()
  file(CREATE_LINK "/usr/include/${entry}" "${VOXL_HOST_HEADERS}/${entry}" SYMBOLIC)
endforeach()
if(NOT VOXL_WINDOWS_DEPS)
  # OpenSSL's per-architecture configuration lives apart on Debian.
  file(MAKE_DIRECTORY "${VOXL_HOST_HEADERS}/openssl-arch/openssl")
  foreach(h IN ITEMS configuration.h opensslconf.h)
    file(CREATE_LINK "/usr/include/x86_64-linux-gnu/openssl/${h}"
         "${VOXL_HOST_HEADERS}/openssl-arch/openssl/${h}" SYMBOLIC)
  endforeach()
endif()

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
if(VOXL_WINDOWS_DEPS)
  # One static library each, from the folder scripts/windows-deps made.
  function(voxl_windows_library name file)
    add_library(${name} STATIC IMPORTED GLOBAL)
    set_target_properties(${name} PROPERTIES IMPORTED_LOCATION "${VOXL_WINDOWS_DEPS}/lib/${file}")
    target_include_directories(${name} SYSTEM INTERFACE "${VOXL_WINDOWS_DEPS}/include" ${ARGN})
  endfunction()
  voxl_windows_library(PkgConfig::X264 libx264.a)
  voxl_windows_library(PkgConfig::OPUS libopus.a "${VOXL_WINDOWS_DEPS}/include/opus")
  voxl_windows_library(voxl_windows_crypto libcrypto.a)
  target_link_libraries(voxl_windows_crypto INTERFACE ws2_32 crypt32 advapi32 user32 bcrypt)
  voxl_windows_library(OpenSSL::SSL libssl.a)
  target_link_libraries(OpenSSL::SSL INTERFACE voxl_windows_crypto)
  add_library(voxl_windows_zlib STATIC IMPORTED GLOBAL)
  set_target_properties(voxl_windows_zlib PROPERTIES IMPORTED_LOCATION "${VOXL_WINDOWS_ZLIB}")
  voxl_windows_library(PNG::PNG libpng16.a)
  target_link_libraries(PNG::PNG INTERFACE voxl_windows_zlib)
  # A static libarchive: its header must not ask for __declspec(dllimport).
  voxl_windows_library(PkgConfig::LIBARCHIVE libarchive.a)
  target_compile_definitions(PkgConfig::LIBARCHIVE INTERFACE LIBARCHIVE_STATIC)
  target_link_libraries(PkgConfig::LIBARCHIVE INTERFACE voxl_windows_zlib)
  # A static libsodium: its header must not ask for __declspec(dllimport).
  voxl_windows_library(PkgConfig::SODIUM libsodium.a)
  target_compile_definitions(PkgConfig::SODIUM INTERFACE SODIUM_STATIC)
  set(LIBYUV_INCLUDE_DIR "${VOXL_WINDOWS_DEPS}/include")
  set(LIBYUV_LIBRARY "${VOXL_WINDOWS_DEPS}/lib/libyuv.a")
  # _FORTIFY_SOURCE's checked copies (__memcpy_chk and the like) live in
  # libssp on mingw-w64; at the end of every link line, after the libraries
  # that call them.
  string(APPEND CMAKE_CXX_STANDARD_LIBRARIES " -lssp")
  set(VOXL_LINK_DAEMON ON)
else()
  voxl_header_target(PkgConfig::X264)
  voxl_header_target(PkgConfig::OPUS)
  voxl_header_target(PNG::PNG)
  voxl_header_target(PkgConfig::LIBARCHIVE)
  target_compile_definitions(PkgConfig::LIBARCHIVE INTERFACE LIBARCHIVE_STATIC)
  voxl_header_target(OpenSSL::SSL "${VOXL_HOST_HEADERS}/openssl-arch")
  voxl_header_target(PkgConfig::SODIUM)
  target_compile_definitions(PkgConfig::SODIUM INTERFACE SODIUM_STATIC)
  set(LIBYUV_INCLUDE_DIR "${VOXL_HOST_HEADERS}")
  set(LIBYUV_LIBRARY "")
  set(VOXL_LINK_DAEMON OFF)
  message(STATUS "VOXL_WINDOWS_DEPS is not set: voxl.exe is compiled, not linked (scripts/windows-deps builds what it needs)")
endif()
find_package(Threads REQUIRED)
