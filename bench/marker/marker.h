// The frame marker every benchmark workload draws into its content: a block
// of black and white cells in the top-left corner of the screen that encodes
// a frame counter, and the log that maps each counter to the wall-clock time
// it was drawn. A client that reads the counter back out of a decoded
// picture knows when that picture's content was drawn, whatever the
// streamer's own timestamps say.
//
// Layout: 16 columns x 2 rows of square cells (16 px by default, a whole
// H.264 macroblock each, so lossy coding blurs their edges but not their
// middles). Cell i (row-major) holds bit i of a 32-bit word: the counter's
// low 24 bits, then a CRC-8 of those three bytes. A reader averages the
// middle of every cell, rejects cells that are neither clearly dark nor
// clearly light, and rejects words whose CRC does not match, so a picture
// caught half-updated or smeared by the encoder reads as "no marker", never
// as a wrong counter.
//
// Pure logic; any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace voxl::bench {

inline constexpr int kMarkerColumns = 16;
inline constexpr int kMarkerRows = 2;
inline constexpr int kMarkerBits = kMarkerColumns * kMarkerRows;
inline constexpr uint32_t kMarkerCounterMask = 0xffffff;
inline constexpr int kDefaultMarkerCell = 16;

struct MarkerCell {
  int x, y, size;
  bool light;
};

uint8_t marker_crc8(uint32_t counter);
// The 32-bit word drawn for `counter` (only its low 24 bits are kept).
uint32_t marker_word(uint32_t counter);
// The cells to draw for `counter`, with `cell` pixels a side, at (0, 0).
std::vector<MarkerCell> marker_cells(uint32_t counter, int cell = kDefaultMarkerCell);
inline int marker_width(int cell = kDefaultMarkerCell) { return cell * kMarkerColumns; }
inline int marker_height(int cell = kDefaultMarkerCell) { return cell * kMarkerRows; }

// Reads a counter back. `luma(x, y)` returns the brightness 0-255 at a
// pixel of the picture, which must be at least marker_width x marker_height.
std::optional<uint32_t> read_marker(const std::function<int(int x, int y)>& luma,
                                    int cell = kDefaultMarkerCell);

// The draw log: one line "counter realtime_us" per drawn frame, appended by
// the workload and read by the client after its run.
struct DrawLog {
  // counter -> draw time in µs since the epoch (CLOCK_REALTIME); the first
  // time a counter was drawn wins.
  std::vector<std::pair<uint32_t, int64_t>> entries;
  std::optional<int64_t> draw_time(uint32_t counter) const;
};
// Reads a log file; entries are kept sorted by counter. Bad lines are skipped.
DrawLog read_draw_log(const std::string& path);

int64_t realtime_us();

}  // namespace voxl::bench
