// Defaults that differ by platform, for the flags' table: where voxl listens,
// which sound it takes and how large a resized desktop is when no flag says. On a Mac or Windows voxl
// streams the user's own screen with no login, so it stays on loopback; on
// Linux it usually serves a virtual desktop and listens everywhere.
//
// Threads: any; constants only.
#pragma once

namespace voxl::platform {

#ifdef _WIN32
inline constexpr const char* kDefaultListenAddress = "127.0.0.1";
// Empty: the default render device's loopback.
inline constexpr const char* kDefaultAudioDevice = "";
// The microphone goes to an output device (--microphone-device).
inline constexpr bool kMicrophoneIsFifo = false;
// --resize-scale left out: the display's scaling (DesktopResizer::display_scale).
inline constexpr const char* kDefaultResizeScaleText = "display scaling";
#else
inline constexpr const char* kDefaultListenAddress = "0.0.0.0";
// The default sink's monitor (voxl's and selkies' spelling).
inline constexpr const char* kDefaultAudioDevice = "output.monitor";
// The microphone goes to PulseAudio's pipe source (--microphone-fifo).
inline constexpr bool kMicrophoneIsFifo = true;
inline constexpr const char* kDefaultResizeScaleText = "1.5";
#endif

}  // namespace voxl::platform
