// Desktop sound from PulseAudio (or PipeWire's PulseAudio server): a record
// stream of 48 kHz stereo s16le with fragments of one Opus frame, through
// the asynchronous API on a mainloop that read() runs on the calling thread.
// A monitor delivers sound in pieces far smaller than a frame; they are
// collected without waking anyone else, and read() returns once a whole
// frame is there.
//
// Threads: the audio thread only (no thread of its own). Blocking: read()
// waits for one frame.
#pragma once

#include <memory>
#include <string>

#include "audio/audio_source.h"

namespace voxl::platform::pulse {

// "output.monitor" (voxl's and selkies' default) is the default sink's
// monitor; any other name is a PulseAudio source name.
std::string pulse_device_name(const std::string& configured);

// Connects to the server of the environment (PULSE_SERVER, or
// $XDG_RUNTIME_DIR/pulse/native); nullptr and `error` when it cannot.
std::unique_ptr<audio::AudioSource> open_pulse_source(const std::string& device, std::string& error);

}  // namespace voxl::platform::pulse
