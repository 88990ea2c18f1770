# Warnings, sanitizers and compiler caching shared by every target.

find_program(VOXL_CCACHE ccache)
if(VOXL_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${VOXL_CCACHE}")
endif()

# mold links the large sanitized test programs in a fraction of the time
# GNU ld takes (gcc 12.1 and later pass it on with -fuse-ld=mold). Linux
# builds only: mold makes ELF, not the PE files of the windows-cross
# preset. VOXL_LINKER=bfd (or gold) keeps the other.
find_program(VOXL_MOLD mold)
set(voxl_default_linker "")
if(VOXL_MOLD AND NOT CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_NAME STREQUAL "Linux"
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(voxl_default_linker mold)
endif()
set(VOXL_LINKER "${voxl_default_linker}" CACHE STRING "The linker (-fuse-ld=): mold, gold, bfd, or empty for the compiler's own")
if(VOXL_LINKER)
  add_link_options(-fuse-ld=${VOXL_LINKER})
endif()

add_library(voxl_warnings INTERFACE)
target_compile_options(voxl_warnings INTERFACE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                               -Wold-style-cast -Wpedantic)
# For the targets whose implementation structs hold anonymous-namespace
# types: in a unity build (the presets' default) their .cpp is included into
# another, and gcc then warns as if those types came from a header.
add_library(voxl_unity_warnings INTERFACE)
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(voxl_unity_warnings INTERFACE -Wno-subobject-linkage)
endif()

set(voxl_test_code_options "")
# VOXL_SANITIZE picks the sanitizers: "address" (AddressSanitizer and
# UndefinedBehaviorSanitizer, the dev preset), "thread" (ThreadSanitizer, the
# tsan preset) or empty for none. ON is taken as "address", as it was when
# this was a boolean, so older build trees keep their meaning.
set(VOXL_SANITIZE "" CACHE STRING "Sanitizers to build with: address (ASan + UBSan), thread (TSan) or empty")
set_property(CACHE VOXL_SANITIZE PROPERTY STRINGS "" address thread)
string(TOLOWER "${VOXL_SANITIZE}" voxl_sanitize)
set(voxl_sanitize_address address on true yes 1)
set(voxl_sanitize_none off false no 0 none)
if(voxl_sanitize IN_LIST voxl_sanitize_address)
  set(voxl_sanitize address)
elseif(voxl_sanitize STREQUAL "thread")
elseif(voxl_sanitize STREQUAL "" OR voxl_sanitize IN_LIST voxl_sanitize_none)
  set(voxl_sanitize "")
else()
  message(FATAL_ERROR "VOXL_SANITIZE is \"${VOXL_SANITIZE}\": use address, thread or leave it empty")
endif()
if(voxl_sanitize STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # voxl_test_code_options: the test programs' and benchmarks' own code
  # (tests/, bench/, the fuzz replay program) is built with ASan alone.
  # UBSan stays on every library of voxl they link, which is what it is
  # for; on the tests' own template-heavy code (GoogleTest, fixtures) it
  # added about 60 % to the compile time and checked only the tests.
  set(voxl_test_code_options -fno-sanitize=undefined)
  # Test builds only: a position-dependent executable has no relative
  # relocations for the loader to apply. The sanitized test programs are
  # large and start once per test, and relocating them was half of each
  # start (about 0.9 s of 1.8). Release builds stay PIE (ASLR).
  add_link_options(-no-pie)
elseif(voxl_sanitize STREQUAL "thread")
  # ThreadSanitizer alone: it cannot be combined with ASan, and UBSan is
  # the dev preset's. Every library of ours is instrumented; the system
  # libraries (x264, libpulse, libav, OpenSSL) are not, so TSan sees their
  # locks (it intercepts pthreads) but not their memory accesses.
  # -Wno-tsan: gcc warns at every Boost.Asio handler that TSan does not
  # model atomic_thread_fence (Asio's std_fenced_block). Asio hands each
  # handler over under its scheduler's mutex, which TSan does see.
  add_compile_options(-fsanitize=thread -Wno-tsan)
  add_link_options(-fsanitize=thread)
endif()

# The fuzz preset: libFuzzer's coverage hooks, ASan and UBSan on every
# library; the fuzz targets themselves add libFuzzer's main (fuzz/).
option(VOXL_BUILD_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
if(VOXL_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "VOXL_BUILD_FUZZ needs clang (libFuzzer): use the fuzz preset")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
