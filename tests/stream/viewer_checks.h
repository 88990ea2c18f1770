// Checks the hardening, churn and stall tests share: is voxl still alive
// and serving, and does a viewer get frames at a healthy rate while the
// screen animates.
//
// Threads: the test's thread.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "stream_client.h"
#include "voxl_process.h"

namespace voxl::testing {

// Reads `client` for `window` and returns how many video frames arrived.
size_t frames_within(StreamClient& client, std::chrono::milliseconds window);

// Success when voxl runs, has logged no crash or sanitizer report and
// answers GET /screenshot (with `authorization` when not empty) with 200.
::testing::AssertionResult still_serving(const VoxlProcess& voxl, const std::string& authorization = {});

// Success when `client` (already showing a picture) receives at least
// `at_least` frames within `window` while something animates the screen;
// prints the count as "<label>: N frames in S s".
::testing::AssertionResult receives_frames(StreamClient& client, size_t at_least, std::chrono::milliseconds window,
                                           const std::string& label);

}  // namespace voxl::testing
