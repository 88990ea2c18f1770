# Warnings, sanitizers and compiler caching shared by every target.

find_program(VOXL_CCACHE ccache)
if(VOXL_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${VOXL_CCACHE}")
endif()

add_library(voxl_warnings INTERFACE)
target_compile_options(voxl_warnings INTERFACE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                               -Wold-style-cast -Wpedantic)

option(VOXL_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(VOXL_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # Test builds only: a position-dependent executable has no relative
  # relocations for the loader to apply. The sanitized test programs are
  # large and start once per test, and relocating them was half of each
  # start (about 0.9 s of 1.8). Release builds stay PIE (ASLR).
  add_link_options(-no-pie)
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
