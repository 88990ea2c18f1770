// Desktop sound on Windows: WASAPI loopback of a render endpoint (what the
// speakers play), converted to interleaved 16-bit stereo at
// audio::kSampleRate (pcm_converter.h: linear resampling, front two
// channels). `device_name` empty or "default" is the default output
// device; otherwise the first active output device whose friendly name
// contains it.
//
// The stream is shared-mode and event-driven where the system allows
// loopback with an event (Windows 10 1703 and later), else read() sleeps
// one device period between looks. Loopback delivers nothing while nothing
// plays: when no packet comes for as long as the rest of the frame lasts
// (plus a margin), read() completes the frame with silence, so the stream
// keeps its pace like a PulseAudio monitor does.
//
// Threads: the opener, read() and the destructor run on one thread (the
// audio thread), which the source enters into COM's multithreaded
// apartment for its lifetime. Blocking: read() waits for one frame.
#pragma once

#include <string>

#include "audio/audio_source.h"
#include "base/logging.h"

namespace voxl::platform::windows {

// Opens the loopback stream of `device_name` when called; nullptr and the
// reason when there is no such device or WASAPI refuses. A device that
// goes away makes read() return kLost ("the output device went away").
audio::SourceOpener wasapi_loopback_opener(std::string device_name, Logger log);
// How the log names it: "the default output device (WASAPI loopback)" or
// "output device \"<name>\" (WASAPI loopback)".
std::string wasapi_loopback_label(const std::string& device_name);

}  // namespace voxl::platform::windows
