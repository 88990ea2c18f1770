#include "marker.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace voxl::bench {

uint8_t marker_crc8(uint32_t counter) {
  // CRC-8, polynomial 0x07, over the counter's three bytes, low byte first.
  uint8_t crc = 0;
  for (int i = 0; i < 3; ++i) {
    crc ^= uint8_t(counter >> (8 * i));
    for (int b = 0; b < 8; ++b) crc = uint8_t(crc & 0x80 ? (crc << 1) ^ 0x07 : crc << 1);
  }
  return crc;
}

uint32_t marker_word(uint32_t counter) {
  counter &= kMarkerCounterMask;
  return counter | uint32_t(marker_crc8(counter)) << 24;
}

std::vector<MarkerCell> marker_cells(uint32_t counter, int cell) {
  const uint32_t word = marker_word(counter);
  std::vector<MarkerCell> cells;
  cells.reserve(kMarkerBits);
  for (int i = 0; i < kMarkerBits; ++i)
    cells.push_back({(i % kMarkerColumns) * cell, (i / kMarkerColumns) * cell, cell, ((word >> i) & 1) != 0});
  return cells;
}

std::optional<uint32_t> read_marker(const std::function<int(int x, int y)>& luma, int cell) {
  // The middle half of each cell, sampled on a small grid.
  const int inset = cell / 4;
  const int span = std::max(1, cell / 2);
  const int step = std::max(1, span / 4);
  uint32_t word = 0;
  for (int i = 0; i < kMarkerBits; ++i) {
    const int x0 = (i % kMarkerColumns) * cell + inset;
    const int y0 = (i / kMarkerColumns) * cell + inset;
    int sum = 0, n = 0;
    for (int y = y0; y < y0 + span; y += step)
      for (int x = x0; x < x0 + span; x += step) {
        sum += luma(x, y);
        ++n;
      }
    const int mean = sum / n;
    if (mean > 80 && mean < 176) return std::nullopt;  // neither dark nor light
    if (mean >= 176) word |= 1u << i;
  }
  const uint32_t counter = word & kMarkerCounterMask;
  if (marker_crc8(counter) != uint8_t(word >> 24)) return std::nullopt;
  return counter;
}

std::optional<int64_t> DrawLog::draw_time(uint32_t counter) const {
  const auto it = std::lower_bound(entries.begin(), entries.end(), counter,
                                   [](const auto& e, uint32_t c) { return e.first < c; });
  if (it == entries.end() || it->first != counter) return std::nullopt;
  return it->second;
}

DrawLog read_draw_log(const std::string& path) {
  DrawLog log;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    unsigned long counter = 0;
    long long us = 0;
    if (std::sscanf(line.c_str(), "%lu %lld", &counter, &us) == 2)
      log.entries.emplace_back(uint32_t(counter & kMarkerCounterMask), int64_t(us));
  }
  std::stable_sort(log.entries.begin(), log.entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  log.entries.erase(std::unique(log.entries.begin(), log.entries.end(),
                                [](const auto& a, const auto& b) { return a.first == b.first; }),
                    log.entries.end());
  return log;
}

int64_t realtime_us() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return int64_t(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

}  // namespace voxl::bench
