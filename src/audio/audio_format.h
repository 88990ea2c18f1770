// What voxl's audio is made of, on both paths: 48 kHz 16-bit PCM in Opus
// packets. Desktop sound is stereo; the microphone is mono (one voice, half
// the bytes in the FIFO). Pure data; any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace voxl::audio {

inline constexpr int kSampleRate = 48000;
inline constexpr int kDesktopChannels = 2;
inline constexpr int kMicrophoneChannels = 1;
// 10 ms frames: the shortest Opus frame that still codes music well, and
// half the buffering of 20 ms.
inline constexpr std::chrono::milliseconds kFrameDuration{10};
inline constexpr int kFrameSamples = kSampleRate / 100;  // per channel

// One encoded desktop-audio packet, shared read-only by every viewer.
struct AudioPacket {
  std::vector<uint8_t> data;     // one Opus packet
  uint32_t sequence = 0;         // counts packets from 1 since voxl started
  uint64_t capture_wall_us = 0;  // CLOCK_REALTIME at the packet's first sample
};

using AudioPacketPtr = std::shared_ptr<const AudioPacket>;

}  // namespace voxl::audio
