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
endif()
