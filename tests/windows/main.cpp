// The Windows platform tests' entry point. Run with --wait-for-kill, the
// program only waits to be ended: the --exec tests start it as a child.
#include <gtest/gtest.h>
#include <windows.h>

#include <cstring>

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--wait-for-kill") == 0) {
    Sleep(INFINITE);
    return 0;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
