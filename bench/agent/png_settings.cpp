// voxl-png-bench: the PNG encoder's speed and size at several settings, on a
// picture given as a binary PPM (P6), e.g. `convert shot.png ppm:-`.
//
//   voxl-png-bench FILE.ppm [rounds]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints/png_encoder.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: voxl-png-bench FILE.ppm [rounds]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 15;
  std::ifstream in(argv[1], std::ios::binary);
  std::string magic;
  int w = 0, h = 0, maxval = 0;
  in >> magic >> w >> h >> maxval;
  in.get();
  if (magic != "P6" || w <= 0 || h <= 0 || maxval != 255) {
    std::fprintf(stderr, "not an 8-bit binary PPM\n");
    return 2;
  }
  std::vector<uint8_t> rgb(size_t(w) * size_t(h) * 3);
  in.read(reinterpret_cast<char*>(rgb.data()), std::streamsize(rgb.size()));
  std::vector<uint8_t> bgrx(size_t(w) * size_t(h) * 4);
  for (size_t i = 0; i < size_t(w) * size_t(h); ++i) {
    bgrx[i * 4] = rgb[i * 3 + 2];
    bgrx[i * 4 + 1] = rgb[i * 3 + 1];
    bgrx[i * 4 + 2] = rgb[i * 3];
  }
  struct Setting {
    const char* name;
    voxl::endpoints::PngOptions o;
  };
  const Setting settings[] = {{"level 1, Sub, RLE (voxl's)", {1, true, true}},
                              {"level 1, None, RLE", {1, false, true}},
                              {"level 1, Sub, default", {1, true, false}},
                              {"level 1, None, default", {1, false, false}},
                              {"level 6, Sub, default", {6, true, false}}};
  for (const auto& s : settings) {
    std::vector<double> ms;
    size_t bytes = 0;
    for (int r = 0; r < rounds; ++r) {
      std::string error;
      const auto t0 = std::chrono::steady_clock::now();
      const std::string png = voxl::endpoints::encode_png(bgrx.data(), w * 4, {w, h}, error, s.o);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      bytes = png.size();
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-28s median %7.1f ms  min %7.1f ms  %7zu KiB\n", s.name, ms[ms.size() / 2], ms.front(),
                bytes / 1024);
  }
  return 0;
}
