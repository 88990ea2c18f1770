// Desktop sound from PulseAudio (or PipeWire's PulseAudio server) through
// the blocking pa_simple API: a record stream of 48 kHz stereo s16le with
// fragments of one Opus frame, so a read returns as soon as a frame exists.
//
// Threads: the audio thread only. Blocking: read() waits for one frame.
#pragma once

#include <memory>
#include <string>

#include "audio/audio_source.h"

namespace voxl::audio {

// "output.monitor" (voxl's and selkies' default) is the default sink's
// monitor; any other name is a PulseAudio source name.
std::string pulse_device_name(const std::string& configured);

// Connects to the server of the environment (PULSE_SERVER, or
// $XDG_RUNTIME_DIR/pulse/native); nullptr and `error` when it cannot.
std::unique_ptr<AudioSource> open_pulse_source(const std::string& device, std::string& error);

}  // namespace voxl::audio
