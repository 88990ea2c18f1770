// The entry points of a fuzz target, for its two builds: with libFuzzer
// (the fuzz preset) they are libFuzzer's LLVMFuzzerTestOneInput and
// LLVMFuzzerInitialize, one target a program; in the test builds every
// target is in one replay program (replay_main.cpp), so each entry is named
// for its target and found through the table CMake writes
// (replay_targets.h).
//
//   VOXL_FUZZ_TARGET(query) { ... data, size ... return 0; }
//   VOXL_FUZZ_INITIALIZE(audio_header) { ... return 0; }  // optional, once
//
// A target's own helpers go in `namespace VOXL_TEST_FILE {` (as the test
// files' do): the replay program is a unity build, and CMake names that
// namespace uniquely for each file of a batch (in the fuzz preset, where
// each program has one file, it is voxl_fuzz_target). The bodies below
// are that namespace's functions, so they see its helpers; the entries
// libFuzzer or the replay table call only forward to them.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef VOXL_FUZZ_REPLAY
#define VOXL_FUZZ_ENTRY(name) int voxl_fuzz_##name(const uint8_t* data, size_t size)
#define VOXL_FUZZ_INITIALIZE_ENTRY(name) int voxl_fuzz_init_##name(int* argc, char*** argv)
#else
#define VOXL_FUZZ_ENTRY(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#define VOXL_FUZZ_INITIALIZE_ENTRY(name) extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
#endif

#define VOXL_FUZZ_TARGET(name)                                                              \
  namespace VOXL_TEST_FILE {                                                                \
  static int fuzz_one_input(const uint8_t* data, size_t size);                                   \
  }                                                                                         \
  VOXL_FUZZ_ENTRY(name) { return VOXL_TEST_FILE::fuzz_one_input(data, size); }              \
  int VOXL_TEST_FILE::fuzz_one_input(const uint8_t* data, size_t size)

#define VOXL_FUZZ_INITIALIZE(name)                                                          \
  namespace VOXL_TEST_FILE {                                                                \
  static int fuzz_initialize();                                                                 \
  }                                                                                         \
  VOXL_FUZZ_INITIALIZE_ENTRY(name) {                                                        \
    (void)argc;                                                                             \
    (void)argv;                                                                             \
    return VOXL_TEST_FILE::fuzz_initialize();                                               \
  }                                                                                         \
  int VOXL_TEST_FILE::fuzz_initialize()
