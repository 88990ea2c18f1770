// What the desktop portal answers, read from its a{sv} dictionaries: the
// session's handle (CreateSession) and what Start granted (the devices, the
// screen cast's streams, a restore token). The portal is another process:
// every value is checked for its type, unknown keys and values of another
// type are skipped, and at most kMaxStreams streams are kept.
//
// Threads: any. Ownership: reads the caller's message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemd/sd-bus.h>

#include "base/geometry.h"

namespace voxl::platform::portal {

inline constexpr size_t kMaxStreams = 16;
// A restore token longer than this is not kept.
inline constexpr size_t kMaxTokenBytes = 1024;

// RemoteDesktop's device types (AvailableDeviceTypes, `devices`).
inline constexpr uint32_t kDeviceKeyboard = 1;
inline constexpr uint32_t kDevicePointer = 2;

struct PortalStream {
  uint32_t node = 0;  // the PipeWire node
  std::optional<Size> size;
  std::optional<Point> position;
  uint32_t source_type = 0;  // 1 a monitor, 2 a window, 4 virtual
};

struct StartResults {
  uint32_t devices = 0;  // kDevice* granted
  std::vector<PortalStream> streams;
  std::string restore_token;
};

// From `m` positioned at an a{sv} of a Start response. Throws
// std::runtime_error when the message is not an a{sv}.
StartResults read_start_results(sd_bus_message* m);
// The `session_handle` of a CreateSession response; empty when missing.
std::string read_session_handle(sd_bus_message* m);

}  // namespace voxl::platform::portal
